/* gst-vmi: unit tests of the vmisink/vmisrc wire protocol core
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmi-protocol.h"

static VmiMsg
make_frame (guint n_mems)
{
  VmiMsg m = {.type = VMI_MSG_FRAME };
  guint i;

  m.u.frame.seq = 0x0102030405060708ull;
  m.u.frame.pts = 1000;
  m.u.frame.dts = VMI_PROTO_NONE;
  m.u.frame.duration = 16666667;
  m.u.frame.abs_pts = 123456789;
  m.u.frame.offset = 7;
  m.u.frame.offset_end = 8;
  m.u.frame.flags = 0x40;
  m.u.frame.n_mems = n_mems;
  m.u.frame.n_planes = 2;
  m.u.frame.plane_offset[0] = 0;
  m.u.frame.plane_offset[1] = 4096;
  m.u.frame.plane_stride[0] = 5120;
  m.u.frame.plane_stride[1] = 2560;
  for (i = 0; i < n_mems; i++) {
    m.u.frame.mems[i].id = 100 + i;
    m.u.frame.mems[i].offset = 64 * i;
    m.u.frame.mems[i].size = 5184000 + i;
  }
  return m;
}

GST_START_TEST (test_roundtrip_all_types)
{
  guint8 buf[VMI_PROTO_MAX_MSG];
  VmiMsg in, out;
  const char *why = NULL;
  gsize len;

  in = (VmiMsg) {.type = VMI_MSG_HELLO };
  in.u.hello.version = VMI_PROTO_VERSION;
  in.u.hello.pid = 4242;
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len, 24);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_int (out.type, VMI_MSG_HELLO);
  fail_unless_equals_int (out.u.hello.pid, 4242);

  in = (VmiMsg) {.type = VMI_MSG_CAPS };
  in.u.caps.str = "video/x-raw, format=(string)UYVP, width=(int)1920";
  in.u.caps.len = strlen (in.u.caps.str);
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len % 8, 0);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_string (out.u.caps.str, in.u.caps.str);
  fail_unless_equals_int (out.u.caps.len, in.u.caps.len);

  in = (VmiMsg) {.type = VMI_MSG_MEMORY };
  in.u.memory.id = 9;
  in.u.memory.size = 6291456;
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len, 32);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_uint64 (out.u.memory.id, 9);
  fail_unless_equals_uint64 (out.u.memory.size, 6291456);

  in = (VmiMsg) {.type = VMI_MSG_FORGET };
  in.u.forget.id = 77;
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_uint64 (out.u.forget.id, 77);

  in = (VmiMsg) {.type = VMI_MSG_RELEASE };
  in.u.release.seq = G_MAXUINT64 - 1;
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len, 24);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_uint64 (out.u.release.seq, G_MAXUINT64 - 1);

  in = (VmiMsg) {.type = VMI_MSG_EOS };
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len, 16);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless_equals_int (out.type, VMI_MSG_EOS);

  in = make_frame (3);
  len = vmi_msg_pack (&in, buf, sizeof (buf));
  fail_unless_equals_int (len, 16 + 120 + 3 * 24);
  fail_unless (vmi_msg_parse (buf, len, &out, &why), "%s", why);
  fail_unless (memcmp (&in.u.frame, &out.u.frame, sizeof (VmiFrameInfo)) == 0);
}

GST_END_TEST;

GST_START_TEST (test_pack_rejects_invalid)
{
  guint8 buf[VMI_PROTO_MAX_MSG];
  VmiMsg m = make_frame (0);

  fail_unless_equals_int (vmi_msg_pack (&m, buf, sizeof (buf)), 0);
  m = make_frame (VMI_PROTO_MAX_MEMS);
  m.u.frame.n_mems = VMI_PROTO_MAX_MEMS + 1;
  fail_unless_equals_int (vmi_msg_pack (&m, buf, sizeof (buf)), 0);
  m = make_frame (1);
  m.u.frame.n_planes = VMI_PROTO_MAX_PLANES + 1;
  fail_unless_equals_int (vmi_msg_pack (&m, buf, sizeof (buf)), 0);
  m = make_frame (1);
  fail_unless_equals_int (vmi_msg_pack (&m, buf, 100), 0);
  m = (VmiMsg) {.type = VMI_MSG_CAPS };
  m.u.caps.str = "abc";
  m.u.caps.len = 5;             /* lies about its length */
  fail_unless_equals_int (vmi_msg_pack (&m, buf, sizeof (buf)), 0);
  m = (VmiMsg) {.type = 99 };
  fail_unless_equals_int (vmi_msg_pack (&m, buf, sizeof (buf)), 0);
}

GST_END_TEST;

static void
expect_parse_fail (const guint8 * buf, gsize len, const char *expected)
{
  VmiMsg out;
  const char *why = NULL;

  fail_if (vmi_msg_parse (buf, len, &out, &why));
  fail_unless (why != NULL);
  fail_unless (strstr (why, expected) != NULL, "'%s' does not mention '%s'",
      why, expected);
}

GST_START_TEST (test_parse_rejects_malformed)
{
  guint8 buf[VMI_PROTO_MAX_MSG], bad[VMI_PROTO_MAX_MSG];
  VmiMsg m = make_frame (2);
  gsize len = vmi_msg_pack (&m, buf, sizeof (buf));
  guint32 u32;
  guint16 u16;
  gsize i;

  /* every truncation of a valid message is refused */
  for (i = 0; i < len; i++) {
    VmiMsg out;
    fail_if (vmi_msg_parse (buf, i, &out, NULL), "accepted %" G_GSIZE_FORMAT
        " of %" G_GSIZE_FORMAT " bytes", i, len);
  }
  expect_parse_fail (buf, 3, "shorter than its header");

  memcpy (bad, buf, len);
  bad[0] ^= 0xff;
  expect_parse_fail (bad, len, "magic");

  memcpy (bad, buf, len);
  u16 = 2;
  memcpy (bad + 6, &u16, 2);
  expect_parse_fail (bad, len, "version");

  memcpy (bad, buf, len);
  u16 = 42;
  memcpy (bad + 4, &u16, 2);
  expect_parse_fail (bad, len, "unknown message type");

  /* header length differing from what arrived */
  memcpy (bad, buf, len);
  bad[len] = 0;
  expect_parse_fail (bad, len + 1, "header length");

  /* n_mems says 3 but only 2 refs are in the message */
  memcpy (bad, buf, len);
  u32 = 3;
  memcpy (bad + 16 + 60, &u32, 4);
  expect_parse_fail (bad, len, "does not match its memory count");

  /* n_mems = huge: must not be trusted for a length computation */
  memcpy (bad, buf, len);
  u32 = G_MAXUINT32;
  memcpy (bad + 16 + 60, &u32, 4);
  expect_parse_fail (bad, len, "memory count out of range");

  memcpy (bad, buf, len);
  u32 = 0;
  memcpy (bad + 16 + 60, &u32, 4);
  expect_parse_fail (bad, len, "memory count out of range");

  memcpy (bad, buf, len);
  u32 = 5;
  memcpy (bad + 16 + 64, &u32, 4);
  expect_parse_fail (bad, len, "plane count");

  /* a CAPS string with a NUL inside / without its terminator */
  m = (VmiMsg) {.type = VMI_MSG_CAPS };
  m.u.caps.str = "video/x-raw";
  m.u.caps.len = strlen (m.u.caps.str);
  len = vmi_msg_pack (&m, buf, sizeof (buf));
  memcpy (bad, buf, len);
  bad[16 + 8 + 3] = 0;
  expect_parse_fail (bad, len, "not terminated");
  memcpy (bad, buf, len);
  bad[16 + 8 + 11] = 'x';
  expect_parse_fail (bad, len, "not terminated");
  memcpy (bad, buf, len);
  u32 = 1000;
  memcpy (bad + 16, &u32, 4);
  expect_parse_fail (bad, len, "bad CAPS length");

  /* MEMORY with id 0 */
  m = (VmiMsg) {.type = VMI_MSG_MEMORY };
  m.u.memory.id = 0;
  m.u.memory.size = 10;
  len = vmi_msg_pack (&m, buf, sizeof (buf));
  expect_parse_fail (buf, len, "id or size 0");
}

GST_END_TEST;

GST_START_TEST (test_range_ok)
{
  fail_unless (vmi_range_ok (0, 100, 100));
  fail_unless (vmi_range_ok (100, 0, 100));
  fail_unless (vmi_range_ok (40, 60, 100));
  fail_if (vmi_range_ok (40, 61, 100));
  fail_if (vmi_range_ok (101, 0, 100));
  /* would wrap around in a naive offset + size <= limit */
  fail_if (vmi_range_ok (16, G_MAXUINT64 - 8, 100));
  fail_if (vmi_range_ok (G_MAXUINT64, 2, 100));
}

GST_END_TEST;

static int
sealed_memfd (gsize size, unsigned int seals)
{
  int fd = memfd_create ("vmi-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);

  fail_unless (fd >= 0);
  fail_unless (ftruncate (fd, size) == 0);
  if (seals)
    fail_unless (fcntl (fd, F_ADD_SEALS, seals) == 0);
  return fd;
}

GST_START_TEST (test_check_memfd)
{
  const char *why = NULL;
  int good = sealed_memfd (8192, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  int unsealed = sealed_memfd (8192, 0);
  int p[2];
  char path[] = "/tmp/vmi-test-XXXXXX";
  int tmp = mkstemp (path);

  fail_unless (vmi_check_memfd (good, 8192, &why), "%s", why);
  fail_if (vmi_check_memfd (good, 8191, &why));
  fail_unless (strstr (why, "size") != NULL);
  fail_if (vmi_check_memfd (good, 16384, &why));

  fail_if (vmi_check_memfd (unsealed, 8192, &why));
  fail_unless (strstr (why, "shrinking") != NULL, "%s", why);

  fail_unless (pipe (p) == 0);
  fail_if (vmi_check_memfd (p[0], 0, &why));
  fail_unless (strstr (why, "regular") != NULL, "%s", why);

  /* a regular file on disk is not a memfd; unless its filesystem supports
   * seals it is refused (and then for the missing seals) */
  fail_unless (tmp >= 0);
  unlink (path);
  fail_unless (ftruncate (tmp, 8192) == 0);
  fail_if (vmi_check_memfd (tmp, 8192, &why));

  close (good);
  close (unsealed);
  close (p[0]);
  close (p[1]);
  close (tmp);
}

GST_END_TEST;

/* sendmsg with @n fds attached, bypassing vmi_socket_send (one fd at most) */
static gssize
send_with_fds (int sock, const guint8 * buf, gsize len, const int *fds,
    guint n)
{
  struct msghdr mh = { 0, };
  struct iovec iov = { (void *) buf, len };
  union
  {
    struct cmsghdr align;
    char c[CMSG_SPACE (4 * sizeof (int))];
  } cbuf;
  struct cmsghdr *c;

  g_assert (n >= 1 && n <= 4);
  memset (&cbuf, 0, sizeof (cbuf));
  mh.msg_iov = len ? &iov : NULL;
  mh.msg_iovlen = len ? 1 : 0;
  mh.msg_control = cbuf.c;
  mh.msg_controllen = CMSG_SPACE (n * sizeof (int));
  c = CMSG_FIRSTHDR (&mh);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (n * sizeof (int));
  memcpy (CMSG_DATA (c), fds, n * sizeof (int));
  return sendmsg (sock, &mh, 0);
}

static guint
count_open_fds (void)
{
  GDir *d = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  fail_unless (d != NULL);
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

GST_START_TEST (test_fd_passing)
{
  int sv[2], fd = -1, memfd, extra;
  guint8 buf[VMI_PROTO_MAX_MSG];
  VmiMsg m = {.type = VMI_MSG_MEMORY }, out;
  const char *why = NULL;
  gsize len;
  gssize r;
  struct stat a, b;

  fail_unless (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
  memfd = sealed_memfd (4096, F_SEAL_SHRINK);
  m.u.memory.id = 1;
  m.u.memory.size = 4096;
  len = vmi_msg_pack (&m, buf, sizeof (buf));
  fail_unless_equals_int (vmi_socket_send (sv[0], buf, len, memfd, TRUE), len);

  memset (buf, 0, sizeof (buf));
  r = vmi_socket_recv (sv[1], buf, sizeof (buf), &fd, TRUE);
  fail_unless_equals_int (r, len);
  fail_unless (fd >= 0);
  fail_unless (vmi_msg_parse (buf, r, &out, &why), "%s", why);
  fail_unless (vmi_check_memfd (fd, out.u.memory.size, &why), "%s", why);
  /* the very same file */
  fail_unless (fstat (fd, &a) == 0 && fstat (memfd, &b) == 0);
  fail_unless (a.st_ino == b.st_ino && a.st_dev == b.st_dev);
  fail_unless (fcntl (fd, F_GETFD) & FD_CLOEXEC);
  close (fd);

  /* nothing pending */
  fail_unless_equals_int (vmi_socket_recv (sv[1], buf, sizeof (buf), &fd,
          TRUE), -EAGAIN);

  /* a message too big for the receive buffer is refused, not cut */
  fail_unless_equals_int (vmi_socket_send (sv[0], buf, 200, -1, TRUE), 200);
  fail_unless_equals_int (vmi_socket_recv (sv[1], buf, 100, &fd, TRUE),
      -EBADMSG);

  /* two fds in one message: refused, both closed on our side */
  {
    int fds[2];

    extra = sealed_memfd (4096, F_SEAL_SHRINK);
    fds[0] = memfd;
    fds[1] = extra;
    fail_unless (send_with_fds (sv[0], buf, len, fds, 2) == (gssize) len);
    fail_unless_equals_int (vmi_socket_recv (sv[1], buf, sizeof (buf), &fd,
            TRUE), -EBADMSG);
    fail_unless_equals_int (fd, -1);
    close (extra);
  }

  /* an empty message carrying an fd reads as a hang-up, and the fd it
   * carried is closed, not leaked (a consumer could repeat it forever) */
  {
    guint before = count_open_fds ();

    fail_unless (send_with_fds (sv[0], buf, 0, &memfd, 1) == 0);
    fail_unless_equals_int (vmi_socket_recv (sv[1], buf, sizeof (buf), &fd,
            TRUE), 0);
    fail_unless_equals_int (fd, -1);
    fail_unless_equals_int (count_open_fds (), before);
  }

  /* peer gone */
  close (sv[0]);
  fail_unless_equals_int (vmi_socket_recv (sv[1], buf, sizeof (buf), &fd,
          TRUE), 0);
  close (sv[1]);
  close (memfd);
}

GST_END_TEST;

GST_START_TEST (test_listen_connect)
{
  gchar *dir = g_dir_make_tmp ("vmi-proto-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "sock", NULL);
  gchar *file = g_build_filename (dir, "file", NULL);
  struct stat st;
  int l, c;

  l = vmi_socket_listen (path, 0600);
  fail_unless (l >= 0, "%s", g_strerror (-l));
  fail_unless (stat (path, &st) == 0);
  fail_unless (S_ISSOCK (st.st_mode));
  fail_unless_equals_int (st.st_mode & 0777, 0600);
  c = vmi_socket_connect (path);
  fail_unless (c >= 0);
  close (c);
  /* a live producer's socket is not taken over */
  fail_unless_equals_int (vmi_socket_listen (path, 0600), -EADDRINUSE);
  close (l);

  /* a stale socket is replaced, with the requested mode */
  l = vmi_socket_listen (path, 0660);
  fail_unless (l >= 0);
  fail_unless (stat (path, &st) == 0);
  fail_unless_equals_int (st.st_mode & 0777, 0660);
  close (l);
  unlink (path);

  /* never clobber a non-socket file */
  fail_unless (g_file_set_contents (file, "keep", -1, NULL));
  fail_unless_equals_int (vmi_socket_listen (file, 0600), -EEXIST);
  fail_unless (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  unlink (file);

  fail_unless (vmi_socket_connect (path) < 0);
  fail_unless_equals_int (vmi_socket_listen ("", 0600), -ENAMETOOLONG);

  g_rmdir (dir);
  g_free (path);
  g_free (file);
  g_free (dir);
}

GST_END_TEST;

static Suite *
vmi_protocol_suite (void)
{
  Suite *s = suite_create ("vmi-protocol");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_roundtrip_all_types);
  tcase_add_test (tc, test_pack_rejects_invalid);
  tcase_add_test (tc, test_parse_rejects_malformed);
  tcase_add_test (tc, test_range_ok);
  tcase_add_test (tc, test_check_memfd);
  tcase_add_test (tc, test_fd_passing);
  tcase_add_test (tc, test_listen_connect);
  return s;
}

GST_CHECK_MAIN (vmi_protocol);
