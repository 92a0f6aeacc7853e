/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The `packet` transport: AF_PACKET on a named interface, IPv4 only.
 *
 * Send: whole Ethernet frames (headers from vmi-rawnet, gap frames from
 * vmi-gap-frame) are copied into a TPACKET_V2 PACKET_TX_RING and handed to
 * the driver with PACKET_QDISC_BYPASS, so the NIC's queue is the only
 * queue after the ring and frames leave in exactly the order of the burst.
 * When the driver queue is full the kernel leaves the frame in the ring
 * (send() says ENOBUFS) and we kick it again later: a full NIC queue is
 * back-pressure, never a drop.
 *
 * Receive: a TPACKET_V3 ring of the interface's IPv4 frames, sorted by
 * vmi_rawnet_classify(); a kernel UDP socket, bound to the port with a
 * filter that drops everything, holds the port and the (source-specific)
 * group membership, so the kernel sends the IGMP reports, answers queries
 * and never answers our stream with ICMP port-unreachable. The kernel's
 * own ARP answers for the interface's address. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "vmi-transport.h"
#include "vmi-transport-private.h"
#include "vmi-rawnet.h"
#include "vmi-gap-frame.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <netdb.h>
#include <time.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <linux/filter.h>

#ifndef PACKET_QDISC_BYPASS
#define PACKET_QDISC_BYPASS 20
#endif
#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

/* TX ring: one 2 KiB slot per frame (a 1514-byte frame and the 32-byte
 * tpacket2_hdr fit); 1024 slots by default, a bit over 1 ms of wire time
 * at 10 Gbit/s: deep enough that a busy transmit thread never leaves
 * the NIC idle, shallow enough that back-pressure reaches the pacer. */
#define TX_FRAME_SIZE 2048
#define TX_DEFAULT_FRAMES 1024
#define TX_MIN_FRAMES 64
#define TX_MAX_FRAMES 65536
/* a full ring: how long send_burst() waits for a free slot, in slices */
#define TX_FULL_WAIT_NS 1000000
#define TX_FULL_SLICE_NS 50000

/* RX ring: a block is handed to us when full or after RX_BLOCK_TOV_MS
 * (which bounds the added latency), so a slow stream fills each block only
 * partly and the ring holds n_blocks x RX_BLOCK_TOV_MS of it: small blocks,
 * many of them (64 MiB = 512 blocks: 1 s of a slow stream; at 3 Gbit/s a
 * block fills in 0.35 ms and the ring holds 170 ms, whatever the block
 * size), so a receive thread that a loaded machine starves for a while
 * loses nothing */
#define RX_BLOCK_SIZE (128 << 10)
#define RX_DEFAULT_BYTES (64 << 20)
#define RX_FRAME_SIZE 2048
#define RX_BLOCK_TOV_MS 2

typedef struct
{
  VmiTransport parent;

  VmiTransportDirection direction;
  int fd;                       /* AF_PACKET, with the ring */
  int kfd;                      /* RX: the kernel UDP socket (port, join) */
  int wake_fd;
  guint ifindex;
  gchar ifname[IF_NAMESIZE];
  guint8 mac[6];
  guint mtu;
  guint8 *ring;
  gsize ring_size;
  gchar *warning;

  /* TX */
  VmiRawnetFlow flow;
  guint tx_frames, tx_head;
  guint tx_data_off;
  gsize max_payload;            /* UDP payload that fits the MTU and a slot */
  VmiGapOpcode gap_opcode;
  guint64 tx_gap_frames, tx_gap_bytes;  /* written by the sender only */

  /* RX */
  VmiRawnetFilter filter;
  guint rx_blocks, rx_block;    /* blocks, the one being read */
  guint rx_left;                /* packets of rx_block not looked at yet */
  struct tpacket3_hdr *rx_next;
  gboolean rx_release;          /* rx_block done, release on the next call */
  guint64 rx_filtered;          /* written by the receiver only */
  GMutex stats_lock;
  guint64 rx_dropped;           /* accumulated PACKET_STATISTICS */
  /* how messages name this path's properties (VmiTransportConfig) */
  const gchar *prefix;
} VmiTransportPacket;

static void vmi_transport_packet_close (VmiTransport * t);

static gboolean
resolve_ipv4 (const gchar * host, const gchar * what, guint32 * out,
    GError ** error)
{
  struct addrinfo hints = { 0 }, *res = NULL;
  int rc;

  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  rc = getaddrinfo (host, NULL, &hints, &res);
  if (rc != 0 || res == NULL) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "%s '%s' is not an IPv4 address or name (transport=packet is IPv4 "
        "only): %s", what, host, gai_strerror (rc));
    if (res)
      freeaddrinfo (res);
    return FALSE;
  }
  *out = ((struct sockaddr_in *) res->ai_addr)->sin_addr.s_addr;
  freeaddrinfo (res);
  return TRUE;
}

static const gchar *
ip_str (guint32 ip, gchar buf[INET_ADDRSTRLEN])
{
  struct in_addr a = {.s_addr = ip };
  return inet_ntop (AF_INET, &a, buf, INET_ADDRSTRLEN);
}

static gboolean
permission_error (int err)
{
  return err == EPERM || err == EACCES;
}

static void
set_permission_error (GError ** error, const gchar * what)
{
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_PERMISSION,
      "transport=packet cannot %s: raw sockets need root or CAP_NET_RAW; "
      "run as root or give the program the capability with "
      "'setcap cap_net_raw+ep <program>'", what);
}

/* The interface's index, MAC, MTU, IPv4 address and netmask (0 when it has
 * none); fails when it does not exist or is down, or has no carrier when
 * @need_carrier. */
static gboolean
query_iface (VmiTransportPacket * p, const gchar * name, gboolean need_carrier,
    guint32 * ip, guint32 * netmask, GError ** error)
{
  struct ifreq ifr;
  int fd;

  if (name == NULL || *name == '\0') {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "transport=packet needs the network interface to use: set "
        "%siface=<name> (see 'ip link')", p->prefix);
    return FALSE;
  }
  if (strlen (name) >= IF_NAMESIZE
      || (p->ifindex = if_nametoindex (name)) == 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "no network interface named '%s' (%siface; see 'ip link' for the "
        "names)", name, p->prefix);
    return FALSE;
  }
  g_strlcpy (p->ifname, name, sizeof (p->ifname));

  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot create a socket: %s", g_strerror (errno));
    return FALSE;
  }
  memset (&ifr, 0, sizeof (ifr));
  g_strlcpy (ifr.ifr_name, name, sizeof (ifr.ifr_name));
  if (ioctl (fd, SIOCGIFFLAGS, &ifr) < 0)
    goto ioctl_failed;
  if (!(ifr.ifr_flags & IFF_UP)) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "network interface '%s' is down: bring it up with "
        "'ip link set %s up'", name, name);
    close (fd);
    return FALSE;
  }
  if (!(ifr.ifr_flags & IFF_RUNNING) && need_carrier) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "network interface '%s' has no carrier yet (cable or peer down, or "
        "just brought up)", name);
    close (fd);
    return FALSE;
  }
  if (!(ifr.ifr_flags & IFF_RUNNING))
    p->warning = g_strdup_printf ("network interface '%s' has no carrier "
        "(cable or peer down): nothing is sent or received until it has",
        name);
  if (ioctl (fd, SIOCGIFHWADDR, &ifr) < 0)
    goto ioctl_failed;
  if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "network interface '%s' is not an Ethernet interface: "
        "transport=packet writes Ethernet frames", name);
    close (fd);
    return FALSE;
  }
  memcpy (p->mac, ifr.ifr_hwaddr.sa_data, 6);
  if (ioctl (fd, SIOCGIFMTU, &ifr) < 0)
    goto ioctl_failed;
  p->mtu = ifr.ifr_mtu;
  *ip = *netmask = 0;
  if (ioctl (fd, SIOCGIFADDR, &ifr) == 0) {
    *ip = ((struct sockaddr_in *) &ifr.ifr_addr)->sin_addr.s_addr;
    if (ioctl (fd, SIOCGIFNETMASK, &ifr) == 0)
      *netmask = ((struct sockaddr_in *) &ifr.ifr_netmask)->sin_addr.s_addr;
  }
  close (fd);
  return TRUE;

ioctl_failed:
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
      "cannot query network interface '%s': %s", name, g_strerror (errno));
  close (fd);
  return FALSE;
}

/* An AF_PACKET socket of @version with a ring of @req set up and mapped,
 * bound to the interface for @protocol (0: receives nothing). */
static gboolean
open_ring (VmiTransportPacket * p, int version, int ring_opt,
    const void *req, gsize req_len, gsize ring_size, guint16 protocol,
    GError ** error)
{
  struct sockaddr_ll sll = { 0 };

  /* protocol 0 until the ring is ready: nothing queues before it */
  p->fd = socket (AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
  if (p->fd < 0) {
    if (permission_error (errno))
      set_permission_error (error, "open a raw socket");
    else
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
          "cannot create an AF_PACKET socket: %s", g_strerror (errno));
    return FALSE;
  }
  if (setsockopt (p->fd, SOL_PACKET, PACKET_VERSION, &version,
          sizeof (version)) < 0
      || setsockopt (p->fd, SOL_PACKET, ring_opt, req, req_len) < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot set up a %" G_GSIZE_FORMAT "-byte AF_PACKET ring on '%s': %s",
        ring_size, p->ifname, g_strerror (errno));
    return FALSE;
  }
  p->ring = mmap (NULL, ring_size, PROT_READ | PROT_WRITE,
      MAP_SHARED | MAP_POPULATE, p->fd, 0);
  if (p->ring == MAP_FAILED) {
    p->ring = NULL;
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot map the AF_PACKET ring (%" G_GSIZE_FORMAT " bytes): %s",
        ring_size, g_strerror (errno));
    return FALSE;
  }
  p->ring_size = ring_size;
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons (protocol);
  sll.sll_ifindex = p->ifindex;
  if (bind (p->fd, (struct sockaddr *) &sll, sizeof (sll)) < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot bind an AF_PACKET socket to '%s': %s", p->ifname,
        g_strerror (errno));
    return FALSE;
  }
  return TRUE;
}

/* The neighbour table's entry for @ip on the interface. */
static gboolean
neigh_lookup (VmiTransportPacket * p, guint32 ip, guint8 mac[6])
{
  struct arpreq req;
  int fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  memset (&req, 0, sizeof (req));
  ((struct sockaddr_in *) &req.arp_pa)->sin_family = AF_INET;
  ((struct sockaddr_in *) &req.arp_pa)->sin_addr.s_addr = ip;
  g_strlcpy (req.arp_dev, p->ifname, sizeof (req.arp_dev));
  ok = ioctl (fd, SIOCGARP, &req) == 0 && (req.arp_flags & ATF_COM);
  close (fd);
  if (ok)
    memcpy (mac, req.arp_ha.sa_data, 6);
  return ok;
}

static gint64
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Asks @ip for its MAC ourselves (vmi-rawnet ARP on a socket of our own):
 * three requests, 300 ms apart. The kernel learns nothing from replies it
 * did not ask for, so its neighbour table cannot be relied on. */
static gboolean
arp_resolve (VmiTransportPacket * p, guint32 src_ip, guint32 ip,
    guint8 mac[6])
{
  struct sockaddr_ll sll = { 0 };
  guint8 req[VMI_RAWNET_CTRL_FRAME_MAX], buf[2048];
  gsize req_len;
  gboolean found = FALSE;
  guint attempt;
  int fd;

  fd = socket (AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons (ETH_P_ARP));
  if (fd < 0)
    return FALSE;
  sll.sll_family = AF_PACKET;
  sll.sll_protocol = htons (ETH_P_ARP);
  sll.sll_ifindex = p->ifindex;
  if (bind (fd, (struct sockaddr *) &sll, sizeof (sll)) < 0)
    goto done;
  req_len = vmi_rawnet_build_arp_request (req, sizeof (req), p->mac, src_ip,
      ip);
  for (attempt = 0; attempt < 3 && !found; attempt++) {
    gint64 end = mono_ns () + 300 * G_GINT64_CONSTANT (1000000);

    if (send (fd, req, req_len, 0) < 0)
      break;
    while (!found) {
      struct pollfd pfd = {.fd = fd,.events = POLLIN };
      gint64 left = end - mono_ns ();
      ssize_t n;

      if (left <= 0 || poll (&pfd, 1, (int) (left / 1000000) + 1) <= 0)
        break;
      n = recv (fd, buf, sizeof (buf), MSG_DONTWAIT);
      if (n > 0)
        found = vmi_rawnet_parse_arp_reply (buf, n, ip, mac);
    }
  }
done:
  close (fd);
  return found;
}

static gboolean
open_send (VmiTransportPacket * p, const VmiTransportConfig * cfg,
    guint32 if_ip, guint32 netmask, GError ** error)
{
  struct tpacket_req req = { 0 };
  VmiRawnetFlow *fl = &p->flow;
  gchar a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
  int one = 1, sndbuf;
  guint frames;

  if (!resolve_ipv4 (cfg->address, "address", &fl->dst_ip, error))
    return FALSE;
  if (cfg->bind_address && *cfg->bind_address) {
    if (!resolve_ipv4 (cfg->bind_address, "bind-address", &fl->src_ip, error))
      return FALSE;
  } else if (if_ip != 0) {
    fl->src_ip = if_ip;
  } else {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "network interface '%s' has no IPv4 address to send from: give it "
        "one ('ip addr add ... dev %s') or set %sbind-address", p->ifname,
        p->ifname, p->prefix);
    return FALSE;
  }
  if (cfg->port == 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "transport=packet needs a destination port (port=0 given)");
    return FALSE;
  }
  memcpy (fl->src_mac, p->mac, 6);
  fl->dst_port = cfg->port;
  fl->src_port = cfg->source_port ? cfg->source_port : cfg->port;
  fl->dscp = 0;

  if (vmi_rawnet_is_multicast (fl->dst_ip)) {
    vmi_rawnet_multicast_mac (fl->dst_ip, fl->dst_mac);
    fl->ttl = cfg->ttl_mc > 0 ? MIN (cfg->ttl_mc, 255) : 1;
  } else {
    fl->ttl = 64;
    if (cfg->destination_mac && *cfg->destination_mac) {
      if (!vmi_rawnet_parse_mac (cfg->destination_mac, fl->dst_mac)) {
        g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
            "%sdestination-mac '%s' is not a MAC address: write it as "
            "aa:bb:cc:dd:ee:ff", p->prefix, cfg->destination_mac);
        return FALSE;
      }
    } else if (fl->dst_ip == G_MAXUINT32) {
      memset (fl->dst_mac, 0xff, 6);
    } else if (netmask == 0 || if_ip == 0
        || ((fl->dst_ip ^ if_ip) & netmask) != 0) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
          "%s is not on the subnet of '%s' (%s), so its MAC cannot be "
          "found by ARP: set %sdestination-mac to the MAC of the next hop "
          "(the router)", ip_str (fl->dst_ip, a), p->ifname,
          if_ip ? ip_str (if_ip, b) : "no IPv4 address", p->prefix);
      return FALSE;
    } else if (!neigh_lookup (p, fl->dst_ip, fl->dst_mac)
        && !arp_resolve (p, fl->src_ip, fl->dst_ip, fl->dst_mac)) {
      /* LINK: the receiver or its network may come (an ST 2022-7 second
       * path asks again) */
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
          "no ARP answer from %s on '%s' within 1 s: check that the "
          "receiver is up, or set %sdestination-mac=aa:bb:cc:dd:ee:ff",
          ip_str (fl->dst_ip, a), p->ifname, p->prefix);
      return FALSE;
    }
  }
  p->gap_opcode = cfg->gap_kind == VMI_TRANSPORT_GAP_PAUSE ?
      VMI_GAP_OPCODE_PAUSE : VMI_GAP_OPCODE_RESERVED;

  frames = cfg->buffer_size > 0 ? (guint) cfg->buffer_size / TX_FRAME_SIZE :
      TX_DEFAULT_FRAMES;
  frames = CLAMP (frames, TX_MIN_FRAMES, TX_MAX_FRAMES);
  /* whole pages per block: 2 slots per 4 KiB page */
  frames = (frames + 1) & ~1u;
  req.tp_frame_size = TX_FRAME_SIZE;
  req.tp_frame_nr = frames;
  req.tp_block_size = 2 * TX_FRAME_SIZE;
  req.tp_block_nr = frames / 2;
  if (!open_ring (p, TPACKET_V2, PACKET_TX_RING, &req, sizeof (req),
          (gsize) frames * TX_FRAME_SIZE, 0, error))
    return FALSE;
  p->tx_frames = frames;
  p->tx_data_off = TPACKET2_HDRLEN - sizeof (struct sockaddr_ll);
  p->max_payload = MIN (p->mtu - 28,
      TX_FRAME_SIZE - p->tx_data_off - VMI_RAWNET_UDP_HDR_LEN);
  if (setsockopt (p->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
          sizeof (one)) < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "this kernel has no PACKET_QDISC_BYPASS (Linux >= 3.14): %s",
        g_strerror (errno));
    return FALSE;
  }
  /* frames the NIC has not sent yet count against the send buffer: let a
   * whole ring be in flight */
  sndbuf = (int) MIN ((guint64) frames * 4 * TX_FRAME_SIZE, G_MAXINT / 2);
  if (setsockopt (p->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
          sizeof (sndbuf)) < 0)
    setsockopt (p->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof (sndbuf));
  return TRUE;
}

static gboolean
open_receive (VmiTransportPacket * p, const VmiTransportConfig * cfg,
    guint32 if_ip, GError ** error)
{
  static struct sock_filter drop_all[] = { BPF_STMT (BPF_RET | BPF_K, 0) };
  struct sock_fprog prog = { 1, drop_all };
  struct tpacket_req3 req = { 0 };
  struct sockaddr_in sin = { 0 };
  VmiRawnetFilter *f = &p->filter;
  gchar a[INET_ADDRSTRLEN];
  guint32 addr = 0;
  gsize bytes;
  int one = 1;

  if (!resolve_ipv4 (cfg->address && *cfg->address ? cfg->address :
          "0.0.0.0", "address", &addr, error))
    return FALSE;
  if (cfg->port == 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
        "transport=packet needs the port to receive on (port=0 given)");
    return FALSE;
  }
  f->port = cfg->port;
  memcpy (f->local_mac, p->mac, 6);
  if (vmi_rawnet_is_multicast (addr)) {
    f->group = addr;
    f->local_ip = if_ip;
  } else {
    f->local_ip = addr ? addr : if_ip;
  }
  if (cfg->source_address && *cfg->source_address) {
    if (f->group == 0) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_ADDRESS,
          "source-address '%s' filters a multicast group, but address %s is "
          "not one", cfg->source_address, ip_str (addr, a));
      return FALSE;
    }
    if (!resolve_ipv4 (cfg->source_address, "source-address", &f->source,
            error))
      return FALSE;
  }

  /* the kernel's UDP socket: the port, the membership, no data */
  p->kfd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
  if (p->kfd < 0)
    goto kfd_failed;
  if (f->group)
    setsockopt (p->kfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
  if (setsockopt (p->kfd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
          sizeof (prog)) < 0)
    goto kfd_failed;
  sin.sin_family = AF_INET;
  sin.sin_port = htons (cfg->port);
  sin.sin_addr.s_addr = f->group ? f->group : addr;
  if (bind (p->kfd, (struct sockaddr *) &sin, sizeof (sin)) < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, errno == EADDRINUSE ?
        VMI_TRANSPORT_ERROR_BUSY : VMI_TRANSPORT_ERROR_OPEN,
        "cannot bind to %s port %u: %s", ip_str (sin.sin_addr.s_addr, a),
        cfg->port, g_strerror (errno));
    return FALSE;
  }
  if (f->group) {
    struct group_source_req gsr = { 0 };
    struct sockaddr_in *g = (struct sockaddr_in *) &gsr.gsr_group;
    struct sockaddr_in *s = (struct sockaddr_in *) &gsr.gsr_source;
    int rc;

    gsr.gsr_interface = p->ifindex;
    g->sin_family = AF_INET;
    g->sin_addr.s_addr = f->group;
    s->sin_family = AF_INET;
    s->sin_addr.s_addr = f->source;
    if (f->source)
      rc = setsockopt (p->kfd, IPPROTO_IP, MCAST_JOIN_SOURCE_GROUP, &gsr,
          sizeof (gsr));
    else
      rc = setsockopt (p->kfd, IPPROTO_IP, MCAST_JOIN_GROUP, &gsr,
          sizeof (struct group_req));
    if (rc < 0) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
          "cannot join multicast group %s on '%s': %s",
          ip_str (f->group, a), p->ifname, g_strerror (errno));
      return FALSE;
    }
  }

  bytes = cfg->buffer_size > 0 ? (gsize) cfg->buffer_size : RX_DEFAULT_BYTES;
  req.tp_block_size = RX_BLOCK_SIZE;
  req.tp_block_nr = MAX (2, (bytes + RX_BLOCK_SIZE - 1) / RX_BLOCK_SIZE);
  req.tp_frame_size = RX_FRAME_SIZE;
  req.tp_frame_nr = req.tp_block_nr * (RX_BLOCK_SIZE / RX_FRAME_SIZE);
  req.tp_retire_blk_tov = RX_BLOCK_TOV_MS;
  if (!open_ring (p, TPACKET_V3, PACKET_RX_RING, &req, sizeof (req),
          (gsize) req.tp_block_nr * RX_BLOCK_SIZE, ETH_P_IP, error))
    return FALSE;
  p->rx_blocks = req.tp_block_nr;
  setsockopt (p->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof (one));
  if (f->group) {
    /* the NIC's own filter must pass the group's MAC */
    struct packet_mreq mr = { 0 };

    mr.mr_ifindex = p->ifindex;
    mr.mr_type = PACKET_MR_MULTICAST;
    mr.mr_alen = 6;
    vmi_rawnet_multicast_mac (f->group, mr.mr_address);
    if (setsockopt (p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
            sizeof (mr)) < 0) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
          "cannot add the multicast MAC of %s on '%s': %s",
          ip_str (f->group, a), p->ifname, g_strerror (errno));
      return FALSE;
    }
  }
  p->wake_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (p->wake_fd < 0) {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
        "cannot create an eventfd: %s", g_strerror (errno));
    return FALSE;
  }
  return TRUE;

kfd_failed:
  g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_OPEN,
      "cannot create the UDP socket that holds port %u: %s", cfg->port,
      g_strerror (errno));
  return FALSE;
}

static VmiTransport *
vmi_transport_packet_open (const VmiTransportConfig * cfg, GError ** error)
{
  VmiTransportPacket *p;
  guint32 if_ip, netmask;
  const gchar *iface = cfg->iface && *cfg->iface ? cfg->iface :
      cfg->multicast_iface;
  gboolean ok;

  p = g_new0 (VmiTransportPacket, 1);
  p->parent.klass = &vmi_transport_packet_class;
  p->direction = cfg->direction;
  p->prefix = cfg->prop_prefix ? cfg->prop_prefix : "";
  p->fd = p->kfd = p->wake_fd = -1;
  g_mutex_init (&p->stats_lock);

  if (!query_iface (p, iface, cfg->need_carrier, &if_ip, &netmask, error))
    goto error;
  if (cfg->direction == VMI_TRANSPORT_DIR_SEND)
    ok = open_send (p, cfg, if_ip, netmask, error);
  else
    ok = open_receive (p, cfg, if_ip, error);
  if (!ok)
    goto error;
  return &p->parent;

error:
  vmi_transport_packet_close (&p->parent);
  return NULL;
}

static void
vmi_transport_packet_close (VmiTransport * t)
{
  VmiTransportPacket *p = (VmiTransportPacket *) t;

  if (p->ring)
    munmap (p->ring, p->ring_size);
  if (p->fd >= 0)
    close (p->fd);
  /* closing the UDP socket leaves the group (the kernel sends the report) */
  if (p->kfd >= 0)
    close (p->kfd);
  if (p->wake_fd >= 0)
    close (p->wake_fd);
  g_mutex_clear (&p->stats_lock);
  g_free (p->warning);
  g_free (p);
}

static inline struct tpacket2_hdr *
tx_slot (VmiTransportPacket * p, guint i)
{
  return (struct tpacket2_hdr *) (p->ring + (gsize) i * TX_FRAME_SIZE);
}

/* the slot's status; the kernel may add timestamp bits to AVAILABLE */
static inline guint32
tx_slot_busy (VmiTransportPacket * p, guint i)
{
  return __atomic_load_n (&tx_slot (p, i)->tp_status, __ATOMIC_ACQUIRE) &
      (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING | TP_STATUS_WRONG_FORMAT);
}

/* Hands the requested slots to the driver. FALSE with @error on a hard
 * failure; a full driver queue (ENOBUFS) or send buffer (EAGAIN) leaves
 * the frames in the ring for the next kick. */
static gboolean
tx_kick (VmiTransportPacket * p, GError ** error)
{
  if (send (p->fd, NULL, 0, MSG_DONTWAIT) >= 0)
    return TRUE;
  if (errno == ENOBUFS || errno == EAGAIN || errno == EWOULDBLOCK
      || errno == EINTR)
    return TRUE;
  /* LINK: an ST 2022-7 path opens it again (a ring of stale frames is
   * not sent when the interface returns) */
  if (errno == ENETDOWN || errno == ENXIO || errno == ENODEV)
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "network interface '%s' went down or away", p->ifname);
  else
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "AF_PACKET send on '%s' failed: %s", p->ifname, g_strerror (errno));
  return FALSE;
}

/* Waits at most TX_FULL_WAIT_NS for slot @i to be free, kicking the
 * kernel in between (a frame the driver refused stays queued in the ring
 * until the next kick). 1: free, 0: still full, -1: error. */
static gint
tx_wait_slot (VmiTransportPacket * p, guint i, GError ** error)
{
  gint64 end = mono_ns () + TX_FULL_WAIT_NS;
  const struct timespec slice = { 0, TX_FULL_SLICE_NS };

  for (;;) {
    guint32 st = tx_slot_busy (p, i);
    struct pollfd pfd = {.fd = p->fd,.events = POLLOUT };

    if (st == 0)
      return 1;
    if (st & TP_STATUS_WRONG_FORMAT) {
      g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
          "the kernel refused a frame of %u bytes on '%s' (longer than the "
          "interface's MTU %u + 14?)", tx_slot (p, i)->tp_len, p->ifname,
          p->mtu);
      return -1;
    }
    if (mono_ns () >= end)
      return 0;
    if (!tx_kick (p, error))
      return -1;
    ppoll (&pfd, 1, &slice, NULL);
  }
}

static gint
vmi_transport_packet_send_burst (VmiTransport * t, const VmiTxDatagram * d,
    guint n, GError ** error)
{
  VmiTransportPacket *p = (VmiTransportPacket *) t;
  const gsize room = TX_FRAME_SIZE - p->tx_data_off;
  guint i, k;
  gint rc;

  for (i = 0; i < n; i++) {
    struct tpacket2_hdr *h = tx_slot (p, p->tx_head);
    guint8 *data = (guint8 *) h + p->tx_data_off;
    guint len;

    if (G_UNLIKELY (tx_slot_busy (p, p->tx_head))) {
      /* ring full: hand what is queued to the driver; when that frees no
       * slot, return a short count, waiting (briefly) only when nothing
       * of this burst was queued yet */
      if (!tx_kick (p, error))
        return -1;
      if (tx_slot_busy (p, p->tx_head)) {
        if (i > 0)
          return i;
        rc = tx_wait_slot (p, p->tx_head, error);
        if (rc <= 0)
          return rc;
      }
    }

    if (d[i].gap_wire_bytes) {
      len = vmi_gap_frame_build (data, room, d[i].gap_wire_bytes, p->mac,
          p->gap_opcode);
      if (G_UNLIKELY (len == 0 || len > p->mtu + 14))
        goto bad_gap;
      /* one writer: plain reads, atomic stores for get_stats() */
      __atomic_store_n (&p->tx_gap_frames, p->tx_gap_frames + 1,
          __ATOMIC_RELAXED);
      __atomic_store_n (&p->tx_gap_bytes, p->tx_gap_bytes +
          d[i].gap_wire_bytes, __ATOMIC_RELAXED);
    } else {
      gsize plen = 0;
      guint8 *w = data + VMI_RAWNET_UDP_HDR_LEN;

      for (k = 0; k < d[i].n_iov; k++) {
        gsize l = d[i].iov[k].iov_len;

        plen += l;
        if (G_UNLIKELY (plen > p->max_payload))
          goto too_big;
        memcpy (w, d[i].iov[k].iov_base, l);
        w += l;
      }
      vmi_rawnet_build_udp_header (data, &p->flow, plen);
      len = VMI_RAWNET_UDP_HDR_LEN + plen;
    }
    h->tp_len = len;
    h->tp_snaplen = len;
    __atomic_store_n (&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
    p->tx_head = p->tx_head + 1 == p->tx_frames ? 0 : p->tx_head + 1;
  }
  if (i > 0 && !tx_kick (p, error))
    return -1;
  return i;

  /* ERRORS */
bad_gap:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "gap of %u wire bytes cannot be sent on '%s': gap frames are %u..%u "
        "wire bytes and at most MTU %u + 38", d[i].gap_wire_bytes, p->ifname,
        VMI_GAP_MIN_WIRE_BYTES, VMI_GAP_MAX_WIRE_BYTES, p->mtu);
    goto queued;
  }
too_big:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "datagram larger than %" G_GSIZE_FORMAT " bytes (MTU %u of '%s'): "
        "transport=packet does not fragment", p->max_payload, p->mtu,
        p->ifname);
    goto queued;
  }
queued:
  /* what was queued before the bad entry still goes out */
  tx_kick (p, NULL);
  return -1;
}

static inline struct tpacket_block_desc *
rx_block_desc (VmiTransportPacket * p, guint i)
{
  return (struct tpacket_block_desc *) (p->ring + (gsize) i * RX_BLOCK_SIZE);
}

static void
rx_release_block (VmiTransportPacket * p)
{
  __atomic_store_n (&rx_block_desc (p, p->rx_block)->hdr.bh1.block_status,
      TP_STATUS_KERNEL, __ATOMIC_RELEASE);
  p->rx_block = p->rx_block + 1 == p->rx_blocks ? 0 : p->rx_block + 1;
  p->rx_next = NULL;
  p->rx_left = 0;
  p->rx_release = FALSE;
}

/* Our datagrams from the blocks the kernel has handed over; stops at the
 * end of a block that gave some (they point into it: it is released on
 * the next call). */
static guint
rx_take (VmiTransportPacket * p, VmiRxSlot * slots, guint n)
{
  guint got = 0;
  guint64 filtered = 0;

  while (got < n) {
    struct tpacket_block_desc *bd = rx_block_desc (p, p->rx_block);

    if (p->rx_next == NULL) {
      if (!(__atomic_load_n (&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
              TP_STATUS_USER))
        break;
      p->rx_left = bd->hdr.bh1.num_pkts;
      p->rx_next = (struct tpacket3_hdr *) ((guint8 *) bd +
          bd->hdr.bh1.offset_to_first_pkt);
    }
    while (got < n && p->rx_left > 0) {
      struct tpacket3_hdr *h = p->rx_next;
      const guint8 *frame = (const guint8 *) h + h->tp_mac;
      const guint8 *payload;
      gsize plen;
      guint32 src;

      p->rx_next = (struct tpacket3_hdr *) ((guint8 *) h + h->tp_next_offset);
      p->rx_left--;
      /* a tag the kernel took off: another VLAN's frame (see vmi-rawnet.h) */
      if ((h->tp_status & TP_STATUS_VLAN_VALID) || h->tp_snaplen < h->tp_len
          || vmi_rawnet_classify (frame, h->tp_snaplen, &p->filter, &payload,
              &plen, &src) != VMI_RAWNET_RX_OURS) {
        filtered++;
        continue;
      }
      slots[got].data = payload;
      slots[got].len = plen;
      slots[got].src_ipv4 = src;
      got++;
    }
    if (p->rx_left == 0) {
      if (got > 0) {
        p->rx_release = TRUE;
        break;
      }
      rx_release_block (p);
    }
  }
  if (filtered)
    __atomic_store_n (&p->rx_filtered, p->rx_filtered + filtered,
        __ATOMIC_RELAXED);
  return got;
}

/* Clears the socket's pending error; TRUE when the interface is there and
 * up again (the error told of a down that has passed) */
static gboolean
rx_error_passed (VmiTransportPacket * p)
{
  struct ifreq ifr;
  int err = 0;
  socklen_t len = sizeof (err);

  getsockopt (p->fd, SOL_SOCKET, SO_ERROR, &err, &len);
  memset (&ifr, 0, sizeof (ifr));
  return if_indextoname (p->ifindex, ifr.ifr_name) != NULL
      && ioctl (p->fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP);
}

static gint
vmi_transport_packet_recv_burst (VmiTransport * t, VmiRxSlot * slots, guint n,
    gint64 timeout_us, GError ** error)
{
  VmiTransportPacket *p = (VmiTransportPacket *) t;
  gint64 end = timeout_us > 0 ? g_get_monotonic_time () + timeout_us : 0;
  guint got;

  if (p->rx_release)
    rx_release_block (p);
  if (G_UNLIKELY (n == 0))
    return 0;
  for (;;) {
    struct pollfd pfd[2];
    int ms, rc;

    got = rx_take (p, slots, n);
    if (got > 0 || timeout_us == 0)
      return got;
    if (timeout_us < 0) {
      ms = -1;
    } else {
      gint64 left = end - g_get_monotonic_time ();
      if (left <= 0)
        return 0;
      ms = (int) ((left + 999) / 1000);
    }
    pfd[0].fd = p->fd;
    pfd[0].events = POLLIN;
    pfd[0].revents = 0;
    pfd[1].fd = p->wake_fd;
    pfd[1].events = POLLIN;
    pfd[1].revents = 0;
    rc = poll (pfd, 2, ms);
    if (rc < 0 && errno != EINTR)
      goto poll_failed;
    if (pfd[1].revents & POLLIN) {
      guint64 v;
      if (read (p->wake_fd, &v, sizeof (v)) < 0) {
        /* drained by another wakeup: nothing to do */
      }
      return 0;
    }
    if (pfd[0].revents & (POLLHUP | POLLNVAL))
      goto iface_gone;
    /* ENETDOWN the kernel left when the interface went down: gone only
     * while it still is (up again, the ring receives as before) */
    if ((pfd[0].revents & POLLERR) && !rx_error_passed (p))
      goto iface_gone;
  }

  /* ERRORS */
poll_failed:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_IO,
        "poll on the AF_PACKET ring failed: %s", g_strerror (errno));
    return -1;
  }
iface_gone:
  {
    g_set_error (error, VMI_TRANSPORT_ERROR, VMI_TRANSPORT_ERROR_LINK,
        "network interface '%s' went away or down", p->ifname);
    return -1;
  }
}

static void
vmi_transport_packet_wakeup (VmiTransport * t)
{
  VmiTransportPacket *p = (VmiTransportPacket *) t;
  guint64 one = 1;

  if (p->wake_fd >= 0 && write (p->wake_fd, &one, sizeof (one)) < 0) {
    /* counter saturated: a wakeup is pending anyway */
  }
}

static const gchar *
vmi_transport_packet_get_warning (VmiTransport * t)
{
  return ((VmiTransportPacket *) t)->warning;
}

static void
vmi_transport_packet_get_stats (VmiTransport * t, VmiTransportStats * stats)
{
  VmiTransportPacket *p = (VmiTransportPacket *) t;

  if (p->direction == VMI_TRANSPORT_DIR_RECEIVE) {
    struct tpacket_stats_v3 st;
    socklen_t len = sizeof (st);

    /* the kernel's counters reset on every read: keep the sum */
    g_mutex_lock (&p->stats_lock);
    if (getsockopt (p->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
      p->rx_dropped += st.tp_drops;
    stats->rx_dropped = p->rx_dropped;
    g_mutex_unlock (&p->stats_lock);
    stats->rx_filtered = __atomic_load_n (&p->rx_filtered, __ATOMIC_RELAXED);
  } else {
    stats->tx_gap_frames = __atomic_load_n (&p->tx_gap_frames,
        __ATOMIC_RELAXED);
    stats->tx_gap_bytes = __atomic_load_n (&p->tx_gap_bytes,
        __ATOMIC_RELAXED);
  }
}

const VmiTransportClass vmi_transport_packet_class = {
  .name = "packet",
  .kind = VMI_TRANSPORT_KIND_PACKET,
  .caps = VMI_TRANSPORT_CAP_RAW_ETHERNET | VMI_TRANSPORT_CAP_GAP_FRAMES,
  .open = vmi_transport_packet_open,
  .close = vmi_transport_packet_close,
  .send_burst = vmi_transport_packet_send_burst,
  .recv_burst = vmi_transport_packet_recv_burst,
  .wakeup = vmi_transport_packet_wakeup,
  .get_warning = vmi_transport_packet_get_warning,
  .get_stats = vmi_transport_packet_get_stats,
};
