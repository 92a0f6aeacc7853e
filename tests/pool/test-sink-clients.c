/* gst-vmi: unit tests of vmisink's consumer bookkeeping
 * (gst/pool/vmi-sink-clients.c), without sockets or GStreamer: frames are
 * counted tokens, fds are pipe ends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "vmi-sink-clients.h"
#include "vmi-protocol.h"

/* a frame: how often its reference was dropped */
typedef struct
{
  guint unrefs;
} Frame;

static void
frame_unref (gpointer f)
{
  ((Frame *) f)->unrefs++;
}

static gboolean
fd_is_open (int fd)
{
  return fcntl (fd, F_GETFD) != -1 || errno != EBADF;
}

/* the read end of a fresh pipe (the write end is closed) */
static int
some_fd (void)
{
  int p[2];

  fail_unless (pipe (p) == 0);
  close (p[1]);
  return p[0];
}

static gsize
pack (VmiMsg * m, guint8 * buf)
{
  gsize len = vmi_msg_pack (m, buf, VMI_PROTO_MAX_MSG);

  fail_unless (len > 0);
  return len;
}

GST_START_TEST (test_hold_release)
{
  VmiSinkClients cl;
  VmiSinkClient *a, *b;
  Frame f[3] = { {0} };
  int fa = some_fd (), fb = some_fd ();

  vmi_sink_clients_init (&cl, frame_unref);
  a = vmi_sink_clients_add (&cl, fa, 4);
  b = vmi_sink_clients_add (&cl, fb, 4);
  fail_unless_equals_int (a->id, 1);
  fail_unless_equals_int (b->id, 2);
  fail_unless_equals_int (vmi_sink_clients_count (&cl), 2);

  /* frame 0 to both (one reference each), frames 1 and 2 to a */
  vmi_sink_client_hold (a, 10, 1000, &f[0]);
  vmi_sink_client_hold (b, 10, 1000, &f[0]);
  vmi_sink_client_hold (a, 11, 2000, &f[1]);
  vmi_sink_client_hold (a, 12, 3000, &f[2]);
  fail_unless_equals_int (a->n_held, 3);

  fail_unless (vmi_sink_clients_release (&cl, a, 10));
  fail_unless_equals_int (f[0].unrefs, 1);
  /* a second release of the same frame, or of one never sent */
  fail_if (vmi_sink_clients_release (&cl, a, 10));
  fail_if (vmi_sink_clients_release (&cl, a, 99));
  fail_unless_equals_int (f[0].unrefs, 1);
  fail_unless (vmi_sink_clients_release (&cl, b, 10));
  fail_unless_equals_int (f[0].unrefs, 2);
  /* out of order */
  fail_unless (vmi_sink_clients_release (&cl, a, 12));
  fail_unless (vmi_sink_clients_release (&cl, a, 11));
  fail_unless_equals_int (f[1].unrefs, 1);
  fail_unless_equals_int (f[2].unrefs, 1);
  fail_unless_equals_int (a->n_held, 0);

  vmi_sink_clients_clear (&cl);
  fail_unless_equals_int (vmi_sink_clients_count (&cl), 0);
  fail_if (fd_is_open (fa));
  fail_if (fd_is_open (fb));
}

GST_END_TEST;

/* a client that goes (hangs up, times out, misbehaves) gives back every
 * frame it held, once, and its fd */
GST_START_TEST (test_remove_gives_back)
{
  VmiSinkClients cl;
  VmiSinkClient *a, *b;
  Frame f[3] = { {0} };
  int fa = some_fd (), fb = some_fd ();
  guint i;

  vmi_sink_clients_init (&cl, frame_unref);
  a = vmi_sink_clients_add (&cl, fa, 4);
  b = vmi_sink_clients_add (&cl, fb, 4);
  for (i = 0; i < 3; i++)
    vmi_sink_client_hold (a, i, 0, &f[i]);
  vmi_sink_client_hold (b, 0, 0, &f[0]);
  vmi_sink_clients_remove (&cl, a);
  for (i = 0; i < 3; i++)
    fail_unless_equals_int (f[i].unrefs, 1);
  fail_if (fd_is_open (fa));
  fail_unless (fd_is_open (fb));
  fail_unless_equals_int (vmi_sink_clients_count (&cl), 1);
  fail_unless (cl.clients->data == b);
  /* ids are not reused */
  fail_unless_equals_int (vmi_sink_clients_add (&cl, some_fd (), 4)->id, 3);
  vmi_sink_clients_clear (&cl);
  fail_unless_equals_int (f[0].unrefs, 2);
}

GST_END_TEST;

/* max-outstanding raised while running: the held array grows */
GST_START_TEST (test_hold_grows)
{
  VmiSinkClients cl;
  VmiSinkClient *a;
  Frame f = { 0 };
  guint i;

  vmi_sink_clients_init (&cl, frame_unref);
  a = vmi_sink_clients_add (&cl, some_fd (), 2);
  for (i = 0; i < 20; i++)
    vmi_sink_client_hold (a, i, i, &f);
  fail_unless_equals_int (a->n_held, 20);
  for (i = 0; i < 20; i++)
    fail_unless (vmi_sink_clients_release (&cl, a, 19 - i));
  fail_unless_equals_int (f.unrefs, 20);
  vmi_sink_clients_clear (&cl);
}

GST_END_TEST;

GST_START_TEST (test_oldest_and_expired)
{
  VmiSinkClients cl;
  VmiSinkClient *a, *b;
  Frame f = { 0 };

  vmi_sink_clients_init (&cl, frame_unref);
  fail_unless_equals_int64 (vmi_sink_clients_oldest_hold (&cl), G_MAXINT64);
  a = vmi_sink_clients_add (&cl, some_fd (), 4);
  b = vmi_sink_clients_add (&cl, some_fd (), 4);
  fail_unless_equals_int64 (vmi_sink_clients_oldest_hold (&cl), G_MAXINT64);
  vmi_sink_client_hold (a, 1, 5000, &f);
  vmi_sink_client_hold (b, 1, 3000, &f);
  vmi_sink_client_hold (b, 2, 7000, &f);
  fail_unless_equals_int64 (vmi_sink_clients_oldest_hold (&cl), 3000);
  /* held exactly the timeout: not yet expired; one µs more: expired */
  fail_if (vmi_sink_client_expired (b, 4000, 1000));
  fail_unless (vmi_sink_client_expired (b, 4001, 1000));
  fail_if (vmi_sink_client_expired (a, 4001, 1000));
  fail_unless (vmi_sink_clients_release (&cl, b, 1));
  fail_unless_equals_int64 (vmi_sink_clients_oldest_hold (&cl), 5000);
  fail_if (vmi_sink_client_expired (b, 4001, 1000));
  vmi_sink_clients_clear (&cl);
  fail_unless_equals_int (f.unrefs, 3);
}

GST_END_TEST;

GST_START_TEST (test_memories)
{
  VmiSinkClients cl;
  VmiSinkClient *a;

  vmi_sink_clients_init (&cl, frame_unref);
  a = vmi_sink_clients_add (&cl, some_fd (), 4);
  fail_if (vmi_sink_client_has_memory (a, 7));
  vmi_sink_client_add_memory (a, 7);
  vmi_sink_client_add_memory (a, G_MAXUINT64);
  fail_unless (vmi_sink_client_has_memory (a, 7));
  fail_unless (vmi_sink_client_has_memory (a, G_MAXUINT64));
  fail_unless (vmi_sink_client_forget_memory (a, 7));
  fail_if (vmi_sink_client_forget_memory (a, 7));
  fail_if (vmi_sink_client_has_memory (a, 7));
  vmi_sink_clients_clear (&cl);
}

GST_END_TEST;

/* what a consumer may send: RELEASE of a frame it holds, nothing else */
GST_START_TEST (test_messages)
{
  VmiSinkClients cl;
  VmiSinkClient *a;
  Frame f[2] = { {0} };
  guint8 buf[VMI_PROTO_MAX_MSG];
  VmiMsg rel = {.type = VMI_MSG_RELEASE }, hello = {.type = VMI_MSG_HELLO };
  const char *reason = NULL;
  gsize len;
  int passed = some_fd ();

  vmi_sink_clients_init (&cl, frame_unref);
  a = vmi_sink_clients_add (&cl, some_fd (), 4);
  vmi_sink_client_hold (a, 41, 0, &f[0]);
  vmi_sink_client_hold (a, 42, 0, &f[1]);

  rel.u.release.seq = 42;
  len = pack (&rel, buf);
  fail_unless_equals_int (vmi_sink_clients_handle_message (&cl, a, buf, len,
          -1, &reason), VMI_SINK_CLIENT_KEEP);
  fail_unless_equals_int (f[1].unrefs, 1);
  fail_unless_equals_uint64 (cl.releases, 1);

  /* the same again: it no longer holds it */
  fail_unless_equals_int (vmi_sink_clients_handle_message (&cl, a, buf, len,
          -1, &reason), VMI_SINK_CLIENT_HOSTILE);
  fail_unless_equals_string (reason, "consumer released a frame it does "
      "not hold");

  hello.u.hello.version = VMI_PROTO_VERSION;
  len = pack (&hello, buf);
  fail_unless_equals_int (vmi_sink_clients_handle_message (&cl, a, buf, len,
          -1, &reason), VMI_SINK_CLIENT_HOSTILE);
  fail_unless_equals_string (reason, "consumer sent a message other than "
      "RELEASE");

  /* truncated */
  rel.u.release.seq = 41;
  len = pack (&rel, buf);
  reason = NULL;
  fail_unless_equals_int (vmi_sink_clients_handle_message (&cl, a, buf,
          len - 1, -1, &reason), VMI_SINK_CLIENT_HOSTILE);
  fail_unless (reason != NULL && reason[0] != '\0');

  /* a valid RELEASE with a file descriptor: refused, the fd closed */
  fail_unless_equals_int (vmi_sink_clients_handle_message (&cl, a, buf, len,
          passed, &reason), VMI_SINK_CLIENT_HOSTILE);
  fail_unless_equals_string (reason, "consumer sent a file descriptor");
  fail_if (fd_is_open (passed));
  fail_unless_equals_int (f[0].unrefs, 0);
  fail_unless_equals_uint64 (cl.releases, 1);

  vmi_sink_clients_clear (&cl);
  fail_unless_equals_int (f[0].unrefs, 1);
}

GST_END_TEST;

static Suite *
sink_clients_suite (void)
{
  Suite *s = suite_create ("vmi-sink-clients");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hold_release);
  tcase_add_test (tc, test_remove_gives_back);
  tcase_add_test (tc, test_hold_grows);
  tcase_add_test (tc, test_oldest_and_expired);
  tcase_add_test (tc, test_memories);
  tcase_add_test (tc, test_messages);
  return s;
}

GST_CHECK_MAIN (sink_clients);
