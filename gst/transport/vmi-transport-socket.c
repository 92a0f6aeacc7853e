/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The `socket` transport: kernel UDP with sendmmsg()/recvmmsg() bursts,
 * IPv4 and IPv6, unicast and (source-specific) multicast; optionally
 * MSG_ZEROCOPY sends (config->zerocopy). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-transport.h"
#include "vmi-transport-private.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <netinet/udp.h>
#include <linux/errqueue.h>
#include <glib-unix.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

/* sendmmsg() vector size */
#define VMI_SOCKET_MAX_BURST 256
/* recvmmsg(): messages per call and room for each; with UDP GRO one
 * message holds up to 64 datagrams of one sender burst */
#define VMI_SOCKET_RX_MSGS 32
#define VMI_SOCKET_RX_SIZE 65536
/* Receive coalescing: once a receive has emptied the socket, the next one
 * first lets datagrams gather for up to this long (µs) — one wake-up per
 * millisecond instead of one per sender burst, which halved the receive
 * thread's CPU per frame on a loaded host (docs/benchmarks.md) — but never
 * for more than a quarter of the time the receive buffer lasts at the
 * measured arrival rate, so a small buffer does not overflow. */
#define VMI_SOCKET_RX_COALESCE_US 1000
/* the arrival rate is measured over windows of this many µs */
#define VMI_SOCKET_RX_RATE_WINDOW_US 20000

#ifndef UDP_GRO
#define UDP_GRO 104
#endif
/* UDP GSO: datagrams per super-datagram (kernel limits: 64 segments and
 * 64 KiB with the IP and UDP headers; 46 x 1400 B fits both) */
#define VMI_SOCKET_GSO_SEGS 46
#define VMI_SOCKET_MAX_IOV 8

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
/* MSG_ZEROCOPY: messages in flight (about five 1080-line frames of 46-datagram
 * GSO messages), messages per sendmmsg(), and the bytes a message may hold
 * outside its frames' memory (the datagram headers, a zero-padded tail),
 * copied into its ring entry because the kernel reads them after
 * sendmmsg() has returned */
#define VMI_SOCKET_ZC_RING 512
#define VMI_SOCKET_ZC_BURST 64
#define VMI_SOCKET_ZC_ARENA 4096
/* A zerocopy send pins every piece of its gather list as page fragments
 * of one skb, at most MAX_SKB_FRAGS of them (17 unless the kernel was
 * built with more): a message takes datagrams while their pieces' pages
 * fit (a 24-byte header and a 1376-byte payload: 2 or 3 fragments, so 6
 * to 8 datagrams). VMI_SOCKET_ZC_SEGS bounds the datagrams per message
 * as well; it is halved if the kernel answers EMSGSIZE all the same. */
#define VMI_SOCKET_ZC_FRAGS 17
#define VMI_SOCKET_ZC_SEGS 16
/* how long a full ring waits for completions before it fails */
#define VMI_SOCKET_ZC_STALL_MS 5000

typedef struct
{
  gboolean busy;                /* sent, completion not back yet */
  guint n_frags;                /* page fragments of the message so far */
  guint n_frames;
  VmiTxFrame *frames[2];        /* one reference each */
  guint8 arena[VMI_SOCKET_ZC_ARENA];
} VmiSocketZc;

typedef struct
{
  VmiTransport parent;

  int fd;
  int wake_fd;
  VmiTransportDirection direction;
  struct sockaddr_storage peer;
  socklen_t peer_len;
  gboolean joined;
  struct group_source_req join;  /* group_req is a prefix of it */
  gboolean join_ssm;
  gint buffer_size;
  gchar *warning;               /* advice for the user, or NULL */
  gboolean gso;                 /* UDP_SEGMENT accepted so far */
  /* MSG_ZEROCOPY: the kernel numbers a socket's zerocopy sends 0, 1, ...
   * and reports ranges of them done on the error queue; send i lives in
   * zc_ring[i % VMI_SOCKET_ZC_RING] until then */
  gboolean zc;
  guint32 zc_next;              /* id of the next send */
  guint32 zc_tail;              /* oldest id not yet done */
  /* datagrams per zerocopy GSO message at most (VMI_SOCKET_ZC_SEGS,
   * halved whenever the kernel says EMSGSIZE) */
  guint zc_segs;
  VmiSocketZc *zc_ring;
  guint64 zc_done, zc_copied;

  struct mmsghdr msgs[VMI_SOCKET_MAX_BURST];
  /* GSO sends: the iovecs of up to GSO_SEGS datagrams per message */
  struct iovec gso_iov[VMI_SOCKET_MAX_BURST][VMI_SOCKET_GSO_SEGS * 2];
  union
  {
    char buf[CMSG_SPACE (sizeof (guint16))];
    struct cmsghdr align;
  } gso_cmsg[VMI_SOCKET_MAX_BURST];

  /* receive side: messages of the last recvmmsg() not handed out yet */
  guint8 *rx_mem;
  struct mmsghdr rx_msgs[VMI_SOCKET_RX_MSGS];
  struct iovec rx_iov[VMI_SOCKET_RX_MSGS];
  struct sockaddr_storage rx_from[VMI_SOCKET_RX_MSGS];
  union
  {
    /* UDP_GRO segment size, SO_RXQ_OVFL drop count */
    char buf[CMSG_SPACE (sizeof (int)) + CMSG_SPACE (sizeof (guint32))];
    struct cmsghdr align;
  } rx_cmsg[VMI_SOCKET_RX_MSGS];
  /* datagrams the kernel dropped on a full receive queue (SO_RXQ_OVFL's
   * 32-bit count, extended) */
  guint32 rx_ovfl;
  guint64 rx_dropped;
  guint rx_count, rx_msg;       /* messages received, next one to hand out */
  gsize rx_off;                 /* offset of the next datagram in rx_msg */
  /* coalescing: the last receive emptied the socket; arrival rate */
  gboolean rx_drained;
  gint64 rx_rate_t0;
  guint64 rx_rate_bytes;
  guint64 rx_bytes_per_s;       /* last window's, 0: not known yet */
  /* how messages name this path's properties (VmiTransportConfig) */
  const gchar *prefix;
} VmiTransportSocket;

#define PREFIX(cfg) ((cfg)->prop_prefix ? (cfg)->prop_prefix : "")

static gboolean
resolve (const gchar * host, guint16 port, gboolean passive,
    struct sockaddr_storage *out, socklen_t * out_len, GError ** error)
{
  struct addrinfo hints = { 0 }, *res = NULL;
  gchar service[8];
  int rc;

  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  g_snprintf (service, sizeof (service), "%u", port);
  rc = getaddrinfo (host && *host ? host : NULL, service, &hints, &res);
  if (rc != 0 || res == NULL) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "cannot resolve '%s': %s", host ? host : "(null)", gai_strerror (rc));
    if (res)
      freeaddrinfo (res);
    return FALSE;
  }
  memcpy (out, res->ai_addr, res->ai_addrlen);
  *out_len = res->ai_addrlen;
  freeaddrinfo (res);
  return TRUE;
}

static gboolean
is_multicast (const struct sockaddr_storage *ss)
{
  if (ss->ss_family == AF_INET)
    return IN_MULTICAST (ntohl (((const struct sockaddr_in *) ss)->
            sin_addr.s_addr));
  if (ss->ss_family == AF_INET6)
    return IN6_IS_ADDR_MULTICAST (&((const struct sockaddr_in6 *) ss)->
        sin6_addr);
  return FALSE;
}

/* Asks for @size bytes; as root SO_*BUFFORCE ignores net.core.*mem_max, so
 * only unprivileged users see the cap (and the elements' warning). Returns
 * the size the kernel granted (it reports twice the usable size). */
static gint
set_buffer (int fd, gboolean rx, gint size)
{
  int got = 0;
  socklen_t len = sizeof (got);

  if (size > 0) {
    if (setsockopt (fd, SOL_SOCKET, rx ? SO_RCVBUFFORCE : SO_SNDBUFFORCE,
            &size, sizeof (size)) < 0)
      setsockopt (fd, SOL_SOCKET, rx ? SO_RCVBUF : SO_SNDBUF, &size,
          sizeof (size));
  }
  if (getsockopt (fd, SOL_SOCKET, rx ? SO_RCVBUF : SO_SNDBUF, &got, &len) < 0)
    return 0;
  return got / 2;
}

/* What to tell the user when the kernel granted less than asked (only
 * unprivileged users see it: see set_buffer). */
static gchar *
buffer_advice (gboolean rx, gint asked, gint granted)
{
  const gchar *knob = rx ? "net.core.rmem_max" : "net.core.wmem_max";

  if (asked <= 0 || granted >= asked)
    return NULL;
  return g_strdup_printf ("%s buffer capped at %d bytes (asked %d): %s; "
      "raise the limit with 'sysctl -w %s=%d' (as root)",
      rx ? "receive" : "send", granted, asked, rx ?
      "bursts larger than that are dropped by the kernel" :
      "sends block sooner and pacing gets burstier", knob, asked);
}

static void vmi_transport_socket_close (VmiTransport * t);

static VmiTransport *
vmi_transport_socket_open (const VmiTransportConfig * cfg, GError ** error)
{
  VmiTransportSocket *s;
  struct sockaddr_storage addr;
  socklen_t addr_len;
  guint ifindex = 0;
  int family, one = 1;

  if (cfg->multicast_iface && *cfg->multicast_iface) {
    ifindex = if_nametoindex (cfg->multicast_iface);
    if (ifindex == 0) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
          "no network interface named '%s': set %smulticast-iface to one "
          "that 'ip link' lists", cfg->multicast_iface, PREFIX (cfg));
      return NULL;
    }
  }

  if (!resolve (cfg->address, cfg->port,
          cfg->direction == VMI_TRANSPORT_DIR_RECEIVE, &addr, &addr_len,
          error))
    return NULL;
  family = addr.ss_family;

  s = g_new0 (VmiTransportSocket, 1);
  s->parent.klass = &vmi_transport_socket_class;
  s->direction = cfg->direction;
  s->prefix = PREFIX (cfg);
  s->wake_fd = -1;
  s->fd = socket (family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  if (s->fd < 0)
    goto socket_failed;

  if (cfg->direction == VMI_TRANSPORT_DIR_SEND) {
    /* one trip through the stack for many datagrams; tried on the first
     * send and dropped if the kernel or route refuses it */
    s->gso = TRUE;
    memcpy (&s->peer, &addr, addr_len);
    s->peer_len = addr_len;
    s->buffer_size = set_buffer (s->fd, FALSE, cfg->buffer_size);
    s->warning = buffer_advice (FALSE, cfg->buffer_size, s->buffer_size);
    if (cfg->zerocopy) {
      if (setsockopt (s->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof (one)) < 0)
        goto zerocopy_failed;
      s->zc = TRUE;
      s->zc_segs = VMI_SOCKET_ZC_SEGS;
      s->zc_ring = g_new0 (VmiSocketZc, VMI_SOCKET_ZC_RING);
    }
    if (cfg->bind_address && *cfg->bind_address) {
      struct sockaddr_storage local;
      socklen_t local_len;

      if (!resolve (cfg->bind_address, cfg->source_port, TRUE, &local,
              &local_len, error))
        goto error;
      if (bind (s->fd, (struct sockaddr *) &local, local_len) < 0)
        goto bind_local_failed;
    } else {
      /* the kernel's ephemeral source port, taken now rather than at the
       * first send, so that get_local_port() can tell it (NMOS IS-05
       * source_port), or the one asked for (a path opened again keeps
       * its port) when it is free; best effort: the first send binds
       * otherwise */
      struct sockaddr_storage any = { 0 };
      socklen_t any_len = family == AF_INET ? sizeof (struct sockaddr_in) :
          sizeof (struct sockaddr_in6);

      any.ss_family = family;
      if (family == AF_INET)
        ((struct sockaddr_in *) &any)->sin_port = g_htons (cfg->source_port);
      else
        ((struct sockaddr_in6 *) &any)->sin6_port = g_htons (cfg->source_port);
      if (bind (s->fd, (struct sockaddr *) &any, any_len) < 0
          && cfg->source_port != 0) {
        ((struct sockaddr_in *) &any)->sin_port = 0;
        ((struct sockaddr_in6 *) &any)->sin6_port = 0;
        (void) bind (s->fd, (struct sockaddr *) &any, any_len);
      }
    }
    if (is_multicast (&addr)) {
      int ttl = cfg->ttl_mc, loop = 1;
      if (family == AF_INET) {
        struct ip_mreqn mreq = { 0 };
        setsockopt (s->fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof (ttl));
        setsockopt (s->fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop,
            sizeof (loop));
        mreq.imr_ifindex = ifindex;
        if (ifindex && setsockopt (s->fd, IPPROTO_IP, IP_MULTICAST_IF, &mreq,
                sizeof (mreq)) < 0)
          goto mcast_if_failed;
      } else {
        setsockopt (s->fd, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl,
            sizeof (ttl));
        setsockopt (s->fd, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &loop,
            sizeof (loop));
        if (ifindex && setsockopt (s->fd, IPPROTO_IPV6, IPV6_MULTICAST_IF,
                &ifindex, sizeof (ifindex)) < 0)
          goto mcast_if_failed;
      }
    }
  } else {
    s->wake_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (s->wake_fd < 0)
      goto socket_failed;
    /* several receivers may share a group; a unicast port stays exclusive
     * so a second receiver fails loudly instead of getting nothing */
    if (is_multicast (&addr))
      setsockopt (s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
    s->buffer_size = set_buffer (s->fd, TRUE, cfg->buffer_size);
    s->warning = buffer_advice (TRUE, cfg->buffer_size, s->buffer_size);
    /* each message then says how many datagrams the full queue cost */
    setsockopt (s->fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof (one));
    /* Bound to the group address, the socket sees only that group even when
     * another group shares the port on this host. */
    if (bind (s->fd, (struct sockaddr *) &addr, addr_len) < 0)
      goto bind_failed;
    if (is_multicast (&addr)) {
      int level = family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;

      /* MCAST_JOIN_(SOURCE_)GROUP is the RFC 3678 form of
       * IP_ADD_(SOURCE_)MEMBERSHIP: same effect, but it takes the
       * interface by index and works for IPv4 and IPv6 alike. */
      s->join.gsr_interface = ifindex;
      memcpy (&s->join.gsr_group, &addr, addr_len);
      if (cfg->source_address && *cfg->source_address) {
        struct sockaddr_storage src;
        socklen_t src_len;
        if (!resolve (cfg->source_address, 0, FALSE, &src, &src_len, error))
          goto error;
        if (src.ss_family != family) {
          g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
              "source-address '%s' and address '%s' are not of the same IP "
              "family", cfg->source_address, cfg->address);
          goto error;
        }
        memcpy (&s->join.gsr_source, &src, src_len);
        s->join_ssm = TRUE;
        if (setsockopt (s->fd, level, MCAST_JOIN_SOURCE_GROUP, &s->join,
                sizeof (struct group_source_req)) < 0)
          goto join_failed;
      } else {
        if (setsockopt (s->fd, level, MCAST_JOIN_GROUP, &s->join,
                sizeof (struct group_req)) < 0)
          goto join_failed;
      }
      s->joined = TRUE;
    }
    if (g_unix_set_fd_nonblocking (s->fd, TRUE, NULL) == FALSE)
      goto socket_failed;
    /* UDP GRO: a burst of datagrams from one sender arrives as one message
     * (split again below), one trip through the stack instead of one per
     * datagram. Older kernels say no: then one datagram per message. */
    setsockopt (s->fd, SOL_UDP, UDP_GRO, &one, sizeof (one));
    s->rx_mem = g_malloc ((gsize) VMI_SOCKET_RX_MSGS * VMI_SOCKET_RX_SIZE);
  }
  return &s->parent;

  /* ERRORS */
socket_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot create UDP socket: %s", g_strerror (errno));
    goto error;
  }
mcast_if_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot send multicast on interface '%s' (%smulticast-iface): %s",
        cfg->multicast_iface, PREFIX (cfg), g_strerror (errno));
    goto error;
  }
bind_failed:
  {
    int e = errno;

    /* EADDRNOTAVAIL: the interface holding the address is not there yet */
    g_set_error (error, VMI_TRANSPORT_ERROR, e == EADDRNOTAVAIL ?
        VMI_TRANSPORT_ERROR_LINK : VMI_TRANSPORT_ERROR_OPEN,
        "cannot bind to %s port %u: %s%s%s%s", cfg->address, cfg->port,
        g_strerror (e), e == EADDRINUSE ? " (another receiver has it: set " :
        e == EADDRNOTAVAIL ? " (not an address of this host: set " : "",
        e == EADDRINUSE || e == EADDRNOTAVAIL ? PREFIX (cfg) : "",
        e == EADDRINUSE ? "port to a free one, or stop that receiver)" :
        e == EADDRNOTAVAIL ? "address to one of its addresses, a multicast "
        "group or 0.0.0.0)" : "");
    goto error;
  }
zerocopy_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_UNSUPPORTED,
        "MSG_ZEROCOPY is not available on this kernel (SO_ZEROCOPY: %s): "
        "it needs Linux 5.0 or later for UDP; set zerocopy=false",
        g_strerror (errno));
    goto error;
  }
bind_local_failed:
  {
    int e = errno;

    /* EADDRNOTAVAIL: the interface holding it is not there (yet) */
    g_set_error (error, VMI_TRANSPORT_ERROR, e == EADDRNOTAVAIL ?
        VMI_TRANSPORT_ERROR_LINK : VMI_TRANSPORT_ERROR_ADDRESS,
        "cannot send from %sbind-address %s: %s (it must be an address of "
        "this host)", PREFIX (cfg), cfg->bind_address, g_strerror (e));
    goto error;
  }
join_failed:
  {
    /* ENODEV: no route to the group, no interface up to join it on */
    g_set_error (error, VMI_TRANSPORT_ERROR, errno == ENODEV ?
        VMI_TRANSPORT_ERROR_LINK : VMI_TRANSPORT_ERROR_OPEN,
        "cannot join multicast group %s%s%s on interface '%s' "
        "(%smulticast-iface): %s", cfg->address, s->join_ssm ?
        " from source " : "", s->join_ssm ? cfg->source_address : "",
        cfg->multicast_iface ? cfg->multicast_iface : "(default)",
        PREFIX (cfg), g_strerror (errno));
    goto error;
  }
error:
  {
    vmi_transport_socket_close (&s->parent);
    return NULL;
  }
}

/* ---- MSG_ZEROCOPY ------------------------------------------------------ */

static guint32
zc_in_flight (VmiTransportSocket * s)
{
  return s->zc_next - s->zc_tail;
}

/* Send @id is done: its frames may be rewritten. */
static void
zc_complete (VmiTransportSocket * s, guint32 id)
{
  VmiSocketZc *e = &s->zc_ring[id % VMI_SOCKET_ZC_RING];
  guint i;

  if (!e->busy || (guint32) (id - s->zc_tail) >= zc_in_flight (s))
    return;
  e->busy = FALSE;
  for (i = 0; i < e->n_frames; i++)
    vmi_tx_frame_unref (e->frames[i]);
  e->n_frames = 0;
  s->zc_done++;
}

/* Reads every completion queued on the socket's error queue. */
static void
zc_drain (VmiTransportSocket * s)
{
  for (;;) {
    union
    {
      char buf[CMSG_SPACE (sizeof (struct sock_extended_err) +
              sizeof (struct sockaddr_in6))];
      struct cmsghdr align;
    } ctl;
    struct msghdr m = { 0 };
    struct cmsghdr *c;

    m.msg_control = ctl.buf;
    m.msg_controllen = sizeof (ctl.buf);
    if (recvmsg (s->fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
      break;
    for (c = CMSG_FIRSTHDR (&m); c; c = CMSG_NXTHDR (&m, c)) {
      struct sock_extended_err ee;
      guint32 id;

      if (!((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
              (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)))
        continue;
      memcpy (&ee, CMSG_DATA (c), sizeof (ee));
      if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY || ee.ee_errno != 0)
        continue;
      /* [ee_info, ee_data], inclusive, 32-bit wrapping */
      if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
        s->zc_copied += (guint32) (ee.ee_data - ee.ee_info) + 1;
      id = ee.ee_info;
      do
        zc_complete (s, id);
      while (id++ != ee.ee_data);
    }
  }
  while (zc_in_flight (s) > 0
      && !s->zc_ring[s->zc_tail % VMI_SOCKET_ZC_RING].busy)
    s->zc_tail++;
}

/* Waits up to @timeout_ms for completions and reads them. */
static void
zc_wait (VmiTransportSocket * s, int timeout_ms)
{
  struct pollfd pfd = { s->fd, 0, 0 };

  /* POLLERR is always reported: the error queue is not empty */
  if (poll (&pfd, 1, timeout_ms) > 0)
    zc_drain (s);
}

/* Room for @n more sends; FALSE when completions stopped coming back.
 * Completions already queued were read at the start of the burst: only a
 * full ring waits (and reads) here. */
static gboolean
zc_reserve (VmiTransportSocket * s, guint n)
{
  gint64 end = g_get_monotonic_time () + VMI_SOCKET_ZC_STALL_MS * 1000;

  while (zc_in_flight (s) + n > VMI_SOCKET_ZC_RING) {
    if (g_get_monotonic_time () > end)
      return FALSE;
    zc_wait (s, 100);
  }
  return TRUE;
}

/* Pages [p, p + len) spans: the page fragments it becomes */
static guint
zc_pages (const void *p, gsize len)
{
  guintptr a = (guintptr) p;

  return len == 0 ? 0 : (guint) ((a + len - 1) / 4096 - a / 4096 + 1);
}

/* Whether @d may go out with MSG_ZEROCOPY: its payload memory outlives
 * the call (a frame holds it) and send_gso() takes its gather list. Its
 * iovecs are walked once, by zc_stage(). */
static inline gboolean
zc_able (const VmiTxDatagram * d)
{
  return d->frame != NULL && d->n_iov <= 2;
}

/* Puts @d's iovecs at @out for a zerocopy send of entry @e (@used bytes of
 * its arena taken), in one walk: pieces in the frame in place, the others
 * copied into the arena. FALSE (the entry unchanged) when @d does not fit
 * in @e any more (arena, page fragments, frames); what it copied past
 * @used is then free space again. */
static gboolean
zc_stage (VmiSocketZc * e, gsize * used, const VmiTxDatagram * d,
    struct iovec *out)
{
  gsize at = *used;
  guint k, frags = e->n_frags;

  for (k = 0; k < d->n_iov; k++) {
    const struct iovec *v = &d->iov[k];

    out[k] = *v;
    if (vmi_tx_frame_contains (d->frame, v->iov_base, v->iov_len)) {
      frags += zc_pages (v->iov_base, v->iov_len);
    } else {
      if (at + v->iov_len > VMI_SOCKET_ZC_ARENA)
        return FALSE;
      frags += zc_pages (e->arena + at, v->iov_len);
      memcpy (e->arena + at, v->iov_base, v->iov_len);
      out[k].iov_base = e->arena + at;
      at += v->iov_len;
    }
    if (frags > VMI_SOCKET_ZC_FRAGS)
      return FALSE;
  }
  if (e->n_frames == 0 || e->frames[e->n_frames - 1] != d->frame) {
    if (e->n_frames == G_N_ELEMENTS (e->frames))
      return FALSE;
    e->frames[e->n_frames++] = d->frame;
  }
  e->n_frags = frags;
  *used = at;
  return TRUE;
}

/* GSO went away (the route cannot segment): zerocopy single datagrams
 * would cost more than the copy they save, so plain sends from now on; the
 * sends in flight are still released as their completions come. */
static void
zc_off (VmiTransportSocket * s)
{
  s->zc = FALSE;
}

/* Close: what the kernel still reads is waited for (bounded); whatever it
 * never reported is released all the same, the socket being gone. */
static void
zc_close (VmiTransportSocket * s)
{
  gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC;

  zc_drain (s);
  while (zc_in_flight (s) > 0 && g_get_monotonic_time () < end)
    zc_wait (s, 50);
  while (zc_in_flight (s) > 0) {
    zc_complete (s, s->zc_tail);
    s->zc_tail++;
  }
  g_free (s->zc_ring);
  s->zc_ring = NULL;
}

static void
vmi_transport_socket_close (VmiTransport * t)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;

  if (s->zc_ring)
    zc_close (s);

  if (s->joined) {
    int level = s->join.gsr_group.ss_family == AF_INET ? IPPROTO_IP :
        IPPROTO_IPV6;
    if (s->join_ssm)
      setsockopt (s->fd, level, MCAST_LEAVE_SOURCE_GROUP, &s->join,
          sizeof (struct group_source_req));
    else
      setsockopt (s->fd, level, MCAST_LEAVE_GROUP, &s->join,
          sizeof (struct group_req));
  }
  if (s->fd >= 0)
    close (s->fd);
  if (s->wake_fd >= 0)
    close (s->wake_fd);
  g_free (s->rx_mem);
  g_free (s->warning);
  g_free (s);
}

/* Datagrams of equal size go out as UDP GSO messages: the kernel cuts a
 * message into gso_size datagrams, so the gather list of 32 datagrams
 * (header, payload, header, payload, ...) becomes 32 datagrams on the wire
 * with one pass through the stack. With @zc every message is a
 * MSG_ZEROCOPY send holding its frames until its completion (the caller
 * made room for VMI_SOCKET_ZC_BURST of them; every datagram is zc_able()).
 * Returns the number of datagrams sent, or -1 with errno set; -2: a gather
 * list longer than 2; -3 (@zc): d[0] has more bytes outside its frame or
 * more page fragments than one entry holds. */
static gint
send_gso (VmiTransportSocket * s, const VmiTxDatagram * d, guint n,
    gboolean zc)
{
  guint i = 0, m = 0, k, sent = 0;
  guint max_msgs = zc ? VMI_SOCKET_ZC_BURST : VMI_SOCKET_MAX_BURST;
  guint max_segs = zc ? s->zc_segs : VMI_SOCKET_GSO_SEGS;
  int rc;

  while (i < n && m < max_msgs) {
    struct msghdr *h = &s->msgs[m].msg_hdr;
    VmiSocketZc *e = zc ? &s->zc_ring[(s->zc_next + m) % VMI_SOCKET_ZC_RING]
        : NULL;
    struct cmsghdr *cm;
    guint iov = 0, segs = 0;
    gsize seg = 0, used = 0;

    if (e)
      e->n_frames = e->n_frags = 0;
    while (i < n && segs < max_segs) {
      gsize len = 0;

      if (d[i].n_iov > 2)
        return -2;
      for (k = 0; k < d[i].n_iov; k++)
        len += d[i].iov[k].iov_len;
      if (segs == 0)
        seg = len;
      else if (len > seg)
        break;
      if (e) {
        if (!zc_stage (e, &used, &d[i], &s->gso_iov[m][iov]))
          break;
        iov += d[i].n_iov;
      } else {
        for (k = 0; k < d[i].n_iov; k++)
          s->gso_iov[m][iov++] = d[i].iov[k];
      }
      segs++;
      i++;
      /* only the last segment of a message may be shorter */
      if (len < seg)
        break;
    }
    if (segs == 0) {
      /* d[i] does not fit even an empty entry: it goes out copied */
      if (e && m == 0)
        return -3;
      break;
    }
    h->msg_name = &s->peer;
    h->msg_namelen = s->peer_len;
    h->msg_iov = s->gso_iov[m];
    h->msg_iovlen = iov;
    h->msg_flags = 0;
    if (segs > 1) {
      h->msg_control = s->gso_cmsg[m].buf;
      h->msg_controllen = sizeof (s->gso_cmsg[m].buf);
      cm = CMSG_FIRSTHDR (h);
      cm->cmsg_level = SOL_UDP;
      cm->cmsg_type = UDP_SEGMENT;
      cm->cmsg_len = CMSG_LEN (sizeof (guint16));
      *(guint16 *) CMSG_DATA (cm) = (guint16) seg;
    } else {
      h->msg_control = NULL;
      h->msg_controllen = 0;
    }
    s->msgs[m].msg_len = segs;  /* remembered: datagrams in message m */
    m++;
  }

  {
    guint per_msg[VMI_SOCKET_MAX_BURST];
    for (k = 0; k < m; k++)
      per_msg[k] = s->msgs[k].msg_len;
    rc = sendmmsg (s->fd, s->msgs, m, zc ? MSG_ZEROCOPY : 0);
    if (rc < 0)
      return -1;
    for (k = 0; k < (guint) rc; k++) {
      sent += per_msg[k];
      if (zc) {
        /* the kernel numbered this send: it is ours until it reports it */
        VmiSocketZc *z = &s->zc_ring[s->zc_next % VMI_SOCKET_ZC_RING];
        guint f;

        for (f = 0; f < z->n_frames; f++)
          vmi_tx_frame_ref (z->frames[f]);
        z->busy = TRUE;
        s->zc_next++;
      }
    }
  }
  return sent;
}

static gint
vmi_transport_socket_send_burst (VmiTransport * t, const VmiTxDatagram * d,
    guint n, GError ** error)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;
  guint done = 0;

  if (s->zc_ring && zc_in_flight (s) > 0)
    zc_drain (s);
  while (done < n) {
    guint i, chunk = MIN (n - done, VMI_SOCKET_MAX_BURST);
    int rc;

    if (s->gso) {
      gboolean zc = s->zc && zc_able (&d[done]);
      guint run = 1;

      if (s->zc) {
        /* a run of datagrams that all can, or all cannot, go zerocopy */
        while (done + run < n && run < VMI_SOCKET_GSO_SEGS * VMI_SOCKET_ZC_BURST
            && zc_able (&d[done + run]) == zc)
          run++;
        if (zc && !zc_reserve (s, VMI_SOCKET_ZC_BURST))
          goto zerocopy_stalled;
      } else {
        run = n - done;
      }
      rc = send_gso (s, &d[done], run, zc);
      if (rc == -3)
        rc = send_gso (s, &d[done], 1, FALSE);
      if (rc < 0 && zc && errno == EMSGSIZE && s->zc_segs > 1) {
        /* more page fragments than an skb holds: fewer per message */
        s->zc_segs /= 2;
        continue;
      }
      if (rc == -2) {
        /* a gather list longer than header + payload: not for GSO */
        s->gso = FALSE;
        zc_off (s);
        continue;
      }
      /* EMSGSIZE: the route's device cannot segment a super-datagram
       * (seen on multicast over the default interface) */
      if (rc < 0 && (errno == EINVAL || errno == EIO || errno == ENOTSUP
              || errno == EMSGSIZE
              || errno == EOPNOTSUPP || errno == ENOPROTOOPT)) {
        /* no GSO on this kernel or route: plain datagrams from now on */
        s->gso = FALSE;
        zc_off (s);
        continue;
      }
    } else {
      for (i = 0; i < chunk; i++) {
        struct msghdr *h = &s->msgs[i].msg_hdr;
        h->msg_name = &s->peer;
        h->msg_namelen = s->peer_len;
        h->msg_iov = d[done + i].iov;
        h->msg_iovlen = d[done + i].n_iov;
        h->msg_control = NULL;
        h->msg_controllen = 0;
        h->msg_flags = 0;
      }
      rc = sendmmsg (s->fd, s->msgs, chunk, 0);
    }
    if (rc < 0) {
      if (errno == ENOBUFS && s->zc_ring && zc_in_flight (s) > 0) {
        /* pinned pages over the socket's (or RLIMIT_MEMLOCK's) budget:
         * what the NIC has finished frees some */
        zc_wait (s, 10);
        continue;
      }
      if (errno == EINTR || errno == EAGAIN || errno == ENOBUFS)
        continue;
      /* a receiver that went away (ICMP) must not stop a sender */
      if (errno == ECONNREFUSED) {
        done++;
        continue;
      }
      /* LINK: the interface is down or gone (an ST 2022-7 path opens it
       * again); unreachable: the route may come back, the socket stays */
      g_set_error (error, VMI_TRANSPORT_ERROR, errno == ENETDOWN
          || errno == ENODEV || errno == ENXIO ? VMI_TRANSPORT_ERROR_LINK :
          VMI_TRANSPORT_ERROR_IO,
          "sendmmsg failed: %s%s%s%s", g_strerror (errno),
          errno == ENETUNREACH || errno == EHOSTUNREACH ? "; check the "
          "route to the host and the interface (" : "",
          errno == ENETUNREACH || errno == EHOSTUNREACH ? s->prefix : "",
          errno == ENETUNREACH || errno == EHOSTUNREACH ? "multicast-iface)" :
          errno == EPERM || errno == EACCES ? "; a firewall rule (or "
          "SO_BROADCAST) refuses this destination" : "");
      return -1;
    }
    done += rc;
  }
  return done;

  /* ERRORS */
zerocopy_stalled:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "MSG_ZEROCOPY: no send completed for %d ms (%u in flight); the "
        "device is not transmitting: check the link, or set zerocopy=false",
        VMI_SOCKET_ZC_STALL_MS, zc_in_flight (s));
    return -1;
  }
}

/* Hands out datagrams of the messages already received. */
static guint
rx_take (VmiTransportSocket * s, VmiRxSlot * slots, guint n)
{
  guint got = 0;

  while (got < n && s->rx_msg < s->rx_count) {
    struct mmsghdr *m = &s->rx_msgs[s->rx_msg];
    const struct sockaddr_storage *from = &s->rx_from[s->rx_msg];
    gsize len = m->msg_len, seg = len;
    struct cmsghdr *c;

    for (c = CMSG_FIRSTHDR (&m->msg_hdr); c; c = CMSG_NXTHDR (&m->msg_hdr, c))
      if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
        int g;
        memcpy (&g, CMSG_DATA (c), sizeof (g));
        if (g > 0)
          seg = g;
      } else if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL
          && s->rx_off == 0) {
        guint32 o;
        memcpy (&o, CMSG_DATA (c), sizeof (o));
        s->rx_dropped += (guint32) (o - s->rx_ovfl);
        s->rx_ovfl = o;
      }
    slots[got].data = (const guint8 *) s->rx_iov[s->rx_msg].iov_base +
        s->rx_off;
    slots[got].len = MIN (seg, len - s->rx_off);
    slots[got].src_ipv4 = from->ss_family == AF_INET ?
        ((const struct sockaddr_in *) from)->sin_addr.s_addr : 0;
    s->rx_off += slots[got].len;
    got++;
    if (s->rx_off >= len) {
      s->rx_msg++;
      s->rx_off = 0;
    }
  }
  return got;
}

static int
rx_fill (VmiTransportSocket * s)
{
  guint i;
  int rc;

  for (i = 0; i < VMI_SOCKET_RX_MSGS; i++) {
    struct msghdr *h = &s->rx_msgs[i].msg_hdr;
    s->rx_iov[i].iov_base = s->rx_mem + (gsize) i * VMI_SOCKET_RX_SIZE;
    s->rx_iov[i].iov_len = VMI_SOCKET_RX_SIZE;
    h->msg_name = &s->rx_from[i];
    h->msg_namelen = sizeof (s->rx_from[i]);
    h->msg_iov = &s->rx_iov[i];
    h->msg_iovlen = 1;
    h->msg_control = s->rx_cmsg[i].buf;
    h->msg_controllen = sizeof (s->rx_cmsg[i].buf);
    h->msg_flags = 0;
  }
  rc = recvmmsg (s->fd, s->rx_msgs, VMI_SOCKET_RX_MSGS, MSG_DONTWAIT, NULL);
  s->rx_drained = rc < VMI_SOCKET_RX_MSGS;
  if (rc > 0) {
    gint64 now = g_get_monotonic_time ();

    s->rx_count = rc;
    s->rx_msg = 0;
    s->rx_off = 0;
    for (i = 0; i < (guint) rc; i++)
      s->rx_rate_bytes += s->rx_msgs[i].msg_len;
    if (s->rx_rate_t0 == 0) {
      s->rx_rate_t0 = now;
      s->rx_rate_bytes = 0;
    } else if (now - s->rx_rate_t0 >= VMI_SOCKET_RX_RATE_WINDOW_US) {
      s->rx_bytes_per_s = s->rx_rate_bytes * G_USEC_PER_SEC /
          (guint64) (now - s->rx_rate_t0);
      s->rx_rate_t0 = now;
      s->rx_rate_bytes = 0;
    }
  }
  return rc;
}

/* How long to let datagrams gather before the next receive, µs (0: not
 * at all: the socket was not emptied, or the rate is not known yet) */
static gint64
rx_coalesce_us (VmiTransportSocket * s)
{
  guint64 lasts_us;

  if (!s->rx_drained || s->rx_bytes_per_s == 0 || s->buffer_size <= 0)
    return 0;
  lasts_us = (guint64) s->buffer_size * G_USEC_PER_SEC / s->rx_bytes_per_s;
  return MIN (VMI_SOCKET_RX_COALESCE_US, lasts_us / 4);
}

typedef enum
{
  RX_TIMEOUT,                   /* or a signal */
  RX_READY,                     /* the socket has datagrams */
  RX_WOKEN,                     /* wakeup() was called (and is consumed) */
} RxWait;

/* Waits up to @us (< 0: no limit) for wakeup() and, with @sock, for the
 * socket to become readable; the one place the wake-up eventfd is read.
 * -1 with errno on an error. */
static gint
rx_wait (VmiTransportSocket * s, gboolean sock, gint64 us)
{
  struct pollfd pfd[2] = { {s->wake_fd, POLLIN, 0}, {s->fd, POLLIN, 0} };
  struct timespec ts = { us / G_USEC_PER_SEC, (us % G_USEC_PER_SEC) * 1000 };
  guint64 v;
  int rc = ppoll (pfd, sock ? 2 : 1, us < 0 ? NULL : &ts, NULL);

  if (rc < 0)
    return errno == EINTR ? RX_TIMEOUT : -1;
  if (pfd[0].revents & POLLIN) {
    if (read (s->wake_fd, &v, sizeof (v)) < 0) {
      /* counter already drained by another wakeup: nothing to do */
    }
    return RX_WOKEN;
  }
  return rc > 0 ? RX_READY : RX_TIMEOUT;
}

static gint
vmi_transport_socket_recv_burst (VmiTransport * t, VmiRxSlot * slots, guint n,
    gint64 timeout_us, GError ** error)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;
  int rc;

  if (s->rx_msg < s->rx_count)
    return rx_take (s, slots, n);
  if (timeout_us != 0) {
    gint64 us = rx_coalesce_us (s);

    if (timeout_us > 0)
      us = MIN (us, timeout_us);
    if (us > 0 && rx_wait (s, FALSE, us) == RX_WOKEN)
      return 0;
  }

  rc = rx_fill (s);
  if (rc <= 0) {
    if (rc < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      goto recv_failed;
    if (timeout_us == 0)
      return 0;
    rc = rx_wait (s, TRUE, timeout_us);
    if (rc < 0)
      goto recv_failed;
    if (rc != RX_READY)
      return 0;
    /* only retry once per timeout slice: a spurious wakeup returns 0 */
    rc = rx_fill (s);
    if (rc < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      goto recv_failed;
    if (rc <= 0)
      return 0;
  }
  return rx_take (s, slots, n);

  /* ERRORS */
recv_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "recvmmsg failed: %s", g_strerror (errno));
    return -1;
  }
}

static void
vmi_transport_socket_wakeup (VmiTransport * t)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;
  guint64 one = 1;

  if (s->wake_fd >= 0 && write (s->wake_fd, &one, sizeof (one)) < 0) {
    /* counter saturated: a wakeup is pending anyway */
  }
}

static const gchar *
vmi_transport_socket_get_warning (VmiTransport * t)
{
  return ((VmiTransportSocket *) t)->warning;
}

static guint16
vmi_transport_socket_get_local_port (VmiTransport * t)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;
  struct sockaddr_storage local;
  socklen_t len = sizeof (local);

  if (getsockname (s->fd, (struct sockaddr *) &local, &len) < 0)
    return 0;
  return ntohs (local.ss_family == AF_INET6 ?
      ((struct sockaddr_in6 *) &local)->sin6_port :
      ((struct sockaddr_in *) &local)->sin_port);
}

static void
vmi_transport_socket_get_stats (VmiTransport * t, VmiTransportStats * stats)
{
  VmiTransportSocket *s = (VmiTransportSocket *) t;

  stats->rx_dropped = s->rx_dropped;
  stats->tx_zerocopy_done = s->zc_done;
  stats->tx_zerocopy_copied = s->zc_copied;
}

const VmiTransportClass vmi_transport_socket_class = {
  .name = "socket",
  .kind = VMI_TRANSPORT_KIND_SOCKET,
  /* only when opened with zerocopy (MSG_ZEROCOPY) */
  .caps = VMI_TRANSPORT_CAP_ZEROCOPY_TX,
  .open = vmi_transport_socket_open,
  .close = vmi_transport_socket_close,
  .send_burst = vmi_transport_socket_send_burst,
  .recv_burst = vmi_transport_socket_recv_burst,
  .wakeup = vmi_transport_socket_wakeup,
  .get_warning = vmi_transport_socket_get_warning,
  .get_stats = vmi_transport_socket_get_stats,
  .get_local_port = vmi_transport_socket_get_local_port,
};
