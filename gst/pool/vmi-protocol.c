/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define FRAME_FIXED   120
#define MEMREF_SIZE   24
#define ROUND_UP_8(n) (((n) + 7) & ~(gsize) 7)

/* byte-wise accessors: message buffers have no alignment guarantee */
#define PUT(p, v) G_STMT_START { memcpy ((p), &(v), sizeof (v)); (p) += sizeof (v); } G_STMT_END
#define GET(p, v) G_STMT_START { memcpy (&(v), (p), sizeof (v)); (p) += sizeof (v); } G_STMT_END

static gsize
body_size (const VmiMsg * msg)
{
  switch (msg->type) {
    case VMI_MSG_HELLO:
      return 8;
    case VMI_MSG_CAPS:
      return 8 + ROUND_UP_8 (msg->u.caps.len + 1);
    case VMI_MSG_MEMORY:
      return 16;
    case VMI_MSG_FORGET:
    case VMI_MSG_RELEASE:
      return 8;
    case VMI_MSG_FRAME:
      return FRAME_FIXED + MEMREF_SIZE * (gsize) msg->u.frame.n_mems;
    case VMI_MSG_EOS:
      return 0;
  }
  return 0;
}

/**
 * vmi_msg_pack:
 * Serialises @msg into @buf. Returns the message length, 0 when @msg is
 * invalid or does not fit.
 */
gsize
vmi_msg_pack (const VmiMsg * msg, guint8 * buf, gsize bufsize)
{
  guint32 magic = VMI_PROTO_MAGIC, length, reserved = 0;
  guint16 type = msg->type, version = VMI_PROTO_VERSION;
  guint8 *p = buf;
  guint i;

  if (msg->type < VMI_MSG_HELLO || msg->type > VMI_MSG_RELEASE)
    return 0;
  if (msg->type == VMI_MSG_CAPS && (msg->u.caps.str == NULL ||
          msg->u.caps.len > VMI_PROTO_MAX_CAPS ||
          strlen (msg->u.caps.str) != msg->u.caps.len))
    return 0;
  if (msg->type == VMI_MSG_FRAME && (msg->u.frame.n_mems == 0 ||
          msg->u.frame.n_mems > VMI_PROTO_MAX_MEMS ||
          msg->u.frame.n_planes > VMI_PROTO_MAX_PLANES))
    return 0;

  length = VMI_PROTO_HEADER_SIZE + body_size (msg);
  if (length > bufsize || length > VMI_PROTO_MAX_MSG)
    return 0;

  PUT (p, magic);
  PUT (p, type);
  PUT (p, version);
  PUT (p, length);
  PUT (p, reserved);

  switch (msg->type) {
    case VMI_MSG_HELLO:
      PUT (p, msg->u.hello.version);
      PUT (p, msg->u.hello.pid);
      break;
    case VMI_MSG_CAPS:{
      guint32 len = msg->u.caps.len;
      PUT (p, len);
      PUT (p, reserved);
      memset (p, 0, ROUND_UP_8 (len + 1));
      memcpy (p, msg->u.caps.str, len);
      p += ROUND_UP_8 (len + 1);
      break;
    }
    case VMI_MSG_MEMORY:
      PUT (p, msg->u.memory.id);
      PUT (p, msg->u.memory.size);
      break;
    case VMI_MSG_FORGET:
      PUT (p, msg->u.forget.id);
      break;
    case VMI_MSG_RELEASE:
      PUT (p, msg->u.release.seq);
      break;
    case VMI_MSG_FRAME:{
      const VmiFrameInfo *f = &msg->u.frame;
      guint32 r = 0;
      PUT (p, f->seq);
      PUT (p, f->pts);
      PUT (p, f->dts);
      PUT (p, f->duration);
      PUT (p, f->abs_pts);
      PUT (p, f->offset);
      PUT (p, f->offset_end);
      PUT (p, f->flags);
      PUT (p, f->n_mems);
      PUT (p, f->n_planes);
      PUT (p, r);
      for (i = 0; i < VMI_PROTO_MAX_PLANES; i++)
        PUT (p, f->plane_offset[i]);
      for (i = 0; i < VMI_PROTO_MAX_PLANES; i++)
        PUT (p, f->plane_stride[i]);
      for (i = 0; i < f->n_mems; i++) {
        PUT (p, f->mems[i].id);
        PUT (p, f->mems[i].offset);
        PUT (p, f->mems[i].size);
      }
      break;
    }
    case VMI_MSG_EOS:
      break;
  }
  g_assert ((gsize) (p - buf) == length);
  return length;
}

#define FAIL(reason) G_STMT_START { if (why) *why = (reason); return FALSE; } G_STMT_END

/**
 * vmi_msg_parse:
 * Checks and decodes one received message: magic, version, a known type,
 * the header length equal to the received length, and the exact body size
 * for the type (including the frame's memory count and the caps string's
 * termination). On failure returns FALSE and points @why at a reason.
 */
gboolean
vmi_msg_parse (const guint8 * buf, gsize len, VmiMsg * msg, const char **why)
{
  guint32 magic, length, reserved;
  guint16 type, version;
  const guint8 *p = buf;
  gsize body;
  guint i;

  if (len < VMI_PROTO_HEADER_SIZE)
    FAIL ("message shorter than its header");
  GET (p, magic);
  GET (p, type);
  GET (p, version);
  GET (p, length);
  GET (p, reserved);
  if (magic != VMI_PROTO_MAGIC)
    FAIL ("bad magic");
  if (version != VMI_PROTO_VERSION)
    FAIL ("unsupported protocol version");
  if (length != len)
    FAIL ("header length does not match the received length");
  if (type < VMI_MSG_HELLO || type > VMI_MSG_RELEASE)
    FAIL ("unknown message type");

  memset (msg, 0, sizeof (*msg));
  msg->type = type;
  body = len - VMI_PROTO_HEADER_SIZE;

  switch (msg->type) {
    case VMI_MSG_HELLO:
      if (body != 8)
        FAIL ("bad HELLO length");
      GET (p, msg->u.hello.version);
      GET (p, msg->u.hello.pid);
      break;
    case VMI_MSG_CAPS:{
      guint32 slen;
      if (body < 16)
        FAIL ("bad CAPS length");
      GET (p, slen);
      GET (p, reserved);
      if (slen > VMI_PROTO_MAX_CAPS || body != 8 + ROUND_UP_8 (slen + 1))
        FAIL ("bad CAPS length");
      if (p[slen] != '\0' || memchr (p, '\0', slen) != NULL)
        FAIL ("CAPS string not terminated where announced");
      msg->u.caps.len = slen;
      msg->u.caps.str = (const char *) p;
      break;
    }
    case VMI_MSG_MEMORY:
      if (body != 16)
        FAIL ("bad MEMORY length");
      GET (p, msg->u.memory.id);
      GET (p, msg->u.memory.size);
      if (msg->u.memory.id == 0 || msg->u.memory.size == 0)
        FAIL ("MEMORY with id or size 0");
      break;
    case VMI_MSG_FORGET:
      if (body != 8)
        FAIL ("bad FORGET length");
      GET (p, msg->u.forget.id);
      break;
    case VMI_MSG_RELEASE:
      if (body != 8)
        FAIL ("bad RELEASE length");
      GET (p, msg->u.release.seq);
      break;
    case VMI_MSG_EOS:
      if (body != 0)
        FAIL ("bad EOS length");
      break;
    case VMI_MSG_FRAME:{
      VmiFrameInfo *f = &msg->u.frame;
      if (body < FRAME_FIXED)
        FAIL ("FRAME shorter than its fixed part");
      GET (p, f->seq);
      GET (p, f->pts);
      GET (p, f->dts);
      GET (p, f->duration);
      GET (p, f->abs_pts);
      GET (p, f->offset);
      GET (p, f->offset_end);
      GET (p, f->flags);
      GET (p, f->n_mems);
      GET (p, f->n_planes);
      GET (p, f->reserved);
      if (f->n_mems == 0 || f->n_mems > VMI_PROTO_MAX_MEMS)
        FAIL ("FRAME memory count out of range");
      if (f->n_planes > VMI_PROTO_MAX_PLANES)
        FAIL ("FRAME plane count out of range");
      if (body != FRAME_FIXED + MEMREF_SIZE * (gsize) f->n_mems)
        FAIL ("FRAME length does not match its memory count");
      for (i = 0; i < VMI_PROTO_MAX_PLANES; i++)
        GET (p, f->plane_offset[i]);
      for (i = 0; i < VMI_PROTO_MAX_PLANES; i++)
        GET (p, f->plane_stride[i]);
      for (i = 0; i < f->n_mems; i++) {
        GET (p, f->mems[i].id);
        GET (p, f->mems[i].offset);
        GET (p, f->mems[i].size);
        if (f->mems[i].size == 0)
          FAIL ("FRAME memory of size 0");
      }
      break;
    }
  }
  return TRUE;
}

/**
 * vmi_range_ok:
 * Whether [@offset, @offset + @size) lies inside [0, @limit), without
 * overflowing on hostile values.
 */
gboolean
vmi_range_ok (guint64 offset, guint64 size, guint64 limit)
{
  return offset <= limit && size <= limit - offset;
}

/**
 * vmi_check_memfd:
 * Accepts an fd received from a producer only if it is a regular file
 * (memfd/tmpfs; not a socket, pipe or device) of exactly @claimed_size bytes
 * that is sealed against shrinking: an unsealed file could be truncated
 * under our mapping and turn every read into SIGBUS.
 */
gboolean
vmi_check_memfd (int fd, guint64 claimed_size, const char **why)
{
  struct stat st;
  int seals;

  if (fstat (fd, &st) < 0)
    FAIL ("fstat failed on the received fd");
  if (!S_ISREG (st.st_mode))
    FAIL ("received fd is not a regular (memfd) file");
  if (st.st_size < 0 || (guint64) st.st_size != claimed_size)
    FAIL ("received fd's size differs from the announced size");
  seals = fcntl (fd, F_GET_SEALS);
  if (seals < 0)
    FAIL ("received fd is not a sealable memfd");
  if (!(seals & F_SEAL_SHRINK))
    FAIL ("received memfd is not sealed against shrinking");
  return TRUE;
}

static int
fill_addr (struct sockaddr_un *addr, const char *path)
{
  memset (addr, 0, sizeof (*addr));
  addr->sun_family = AF_UNIX;
  if (path == NULL || path[0] == '\0' || strlen (path) >= sizeof (addr->sun_path))
    return -ENAMETOOLONG;
  strcpy (addr->sun_path, path);
  return 0;
}

/**
 * vmi_socket_listen:
 * Creates a SEQPACKET listening socket at @path with file mode @mode,
 * replacing a stale socket file left by a dead producer, but never another
 * kind of file (-EEXIST) nor a socket a live producer listens on
 * (-EADDRINUSE). Returns the fd or -errno.
 */
int
vmi_socket_listen (const char *path, mode_t mode)
{
  struct sockaddr_un addr;
  struct stat st;
  int fd, err;

  if ((err = fill_addr (&addr, path)) < 0)
    return err;
  if (lstat (path, &st) == 0) {
    if (!S_ISSOCK (st.st_mode))
      return -EEXIST;
    /* a socket someone still listens on belongs to a running producer */
    fd = vmi_socket_connect (path);
    if (fd >= 0) {
      close (fd);
      return -EADDRINUSE;
    }
    unlink (path);
  }

  fd = socket (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return -errno;
  /* bind under a restrictive umask so the file never exists wider open */
  {
    mode_t old = umask (0177);
    err = bind (fd, (struct sockaddr *) &addr, sizeof (addr));
    umask (old);
  }
  if (err < 0 || chmod (path, mode) < 0 || listen (fd, 8) < 0) {
    err = -errno;
    close (fd);
    return err;
  }
  return fd;
}

/**
 * vmi_socket_connect:
 * Connects to a producer at @path. Returns the fd or -errno.
 */
int
vmi_socket_connect (const char *path)
{
  struct sockaddr_un addr;
  int fd, err;

  if ((err = fill_addr (&addr, path)) < 0)
    return err;
  fd = socket (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -errno;
  if (connect (fd, (struct sockaddr *) &addr, sizeof (addr)) < 0) {
    err = -errno;
    close (fd);
    return err;
  }
  return fd;
}

/**
 * vmi_socket_send:
 * Sends one message, with @fd attached (SCM_RIGHTS) when @fd >= 0.
 * Returns the length sent or -errno (-EAGAIN when @nonblocking and the
 * peer's queue is full).
 */
gssize
vmi_socket_send (int sock, const guint8 * buf, gsize len, int fd,
    gboolean nonblocking)
{
  struct iovec iov = { (void *) buf, len };
  struct msghdr mh = { 0, };
  union
  {
    struct cmsghdr align;
    char buf[CMSG_SPACE (sizeof (int))];
  } cbuf;
  gssize r;

  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  if (fd >= 0) {
    struct cmsghdr *c;
    memset (&cbuf, 0, sizeof (cbuf));
    mh.msg_control = cbuf.buf;
    mh.msg_controllen = sizeof (cbuf.buf);
    c = CMSG_FIRSTHDR (&mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN (sizeof (int));
    memcpy (CMSG_DATA (c), &fd, sizeof (int));
  }
  do {
    r = sendmsg (sock, &mh, MSG_NOSIGNAL | (nonblocking ? MSG_DONTWAIT : 0));
  } while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : r;
}

/**
 * vmi_socket_recv:
 * Receives one message into @buf. At most one fd is accepted: it lands in
 * *@fd (else -1). A truncated message, truncated control data or more than
 * one fd gives -EBADMSG with every received fd closed. 0 means the peer
 * closed (or sent an empty message, which is as good as a hang-up: any fd
 * on it is closed); -EAGAIN that nothing is pending (@nonblocking).
 */
gssize
vmi_socket_recv (int sock, guint8 * buf, gsize bufsize, int *fd,
    gboolean nonblocking)
{
  struct iovec iov = { buf, bufsize };
  struct msghdr mh = { 0, };
  union
  {
    struct cmsghdr align;
    char buf[CMSG_SPACE (sizeof (int) * 4)];
  } cbuf;
  struct cmsghdr *c;
  gboolean bad = FALSE;
  int got = -1;
  gssize r;

  *fd = -1;
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  mh.msg_control = cbuf.buf;
  mh.msg_controllen = sizeof (cbuf.buf);
  do {
    r = recvmsg (sock, &mh, MSG_CMSG_CLOEXEC | (nonblocking ? MSG_DONTWAIT :
            0));
  } while (r < 0 && errno == EINTR);
  if (r < 0)
    return -errno;

  for (c = CMSG_FIRSTHDR (&mh); c != NULL; c = CMSG_NXTHDR (&mh, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      gsize n = (c->cmsg_len - CMSG_LEN (0)) / sizeof (int);
      gsize i;
      for (i = 0; i < n; i++) {
        int f;
        memcpy (&f, CMSG_DATA (c) + i * sizeof (int), sizeof (int));
        if (got < 0 && !bad)
          got = f;
        else {
          close (f);
          bad = TRUE;
        }
      }
    }
  }
  /* a zero-length message reads as end of stream: a descriptor riding on
   * it would otherwise be leaked by a caller that only sees "closed" */
  if (bad || r == 0 || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
    if (got >= 0)
      close (got);
    return r == 0 && !bad ? 0 : -EBADMSG;
  }
  *fd = got;
  return r;
}
