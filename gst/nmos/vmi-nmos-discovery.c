/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#define G_LOG_DOMAIN "vmi-nmos"

#include "vmi-nmos-discovery.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vmi-dnssd.h"

/* how long answers are collected after the PTR query (responders delay
 * shared answers by 20-120 ms, RFC 6762 §6), and after a follow-up for
 * missing SRV/TXT/A records */
#define PTR_WINDOW_MS 1000
#define FOLLOWUP_WINDOW_MS 400
#define MAX_FOLLOWUPS 2
/* the PTR query goes out again once after this, in case it was lost */
#define PTR_REPEAT_MS 250

static const gchar *const types[] = {
  "_nmos-register._tcp.local",
  /* IS-04 v1.3: nodes that support v1.2 and below MUST browse it too; we
   * register v1.3 only, but a registry may advertise v1.3 under it */
  "_nmos-registration._tcp.local",
};

/* the IPv4 addresses of the interfaces a query goes out on */
static GArray *
query_interfaces (void)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (struct in_addr));
  struct ifaddrs *ifa, *i;

  if (getifaddrs (&ifa) != 0)
    return a;
  for (i = ifa; i; i = i->ifa_next) {
    if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
      continue;
    if (!(i->ifa_flags & IFF_UP) || !(i->ifa_flags & IFF_MULTICAST))
      continue;
    g_array_append_val (a, ((struct sockaddr_in *) i->ifa_addr)->sin_addr);
  }
  freeifaddrs (ifa);
  return a;
}

static void
send_query (int fd, GArray * ifs, const guint8 * q, gsize len)
{
  struct sockaddr_in dst = { 0 };
  guint i;

  dst.sin_family = AF_INET;
  dst.sin_port = htons (VMI_DNSSD_MDNS_PORT);
  inet_pton (AF_INET, VMI_DNSSD_MDNS_GROUP, &dst.sin_addr);
  if (ifs->len == 0) {
    /* no multicast interface: the default route may still take it */
    if (sendto (fd, q, len, 0, (struct sockaddr *) &dst, sizeof (dst)) < 0)
      g_debug ("nmos: mDNS query: %s", g_strerror (errno));
    return;
  }
  for (i = 0; i < ifs->len; i++) {
    struct in_addr *a = &g_array_index (ifs, struct in_addr, i);
    if (setsockopt (fd, IPPROTO_IP, IP_MULTICAST_IF, a, sizeof (*a)) < 0
        || sendto (fd, q, len, 0, (struct sockaddr *) &dst,
            sizeof (dst)) < 0)
      g_debug ("nmos: mDNS query on %s: %s", inet_ntoa (*a),
          g_strerror (errno));
  }
}

/* Takes the answers to query @id until @until (monotonic µs) */
static void
collect (int fd, VmiDnssdBrowse * b, guint16 id, gint64 until,
    const gint * stop, GArray * ifs, const guint8 * repeat, gsize repeat_len,
    gint64 repeat_at)
{
  guint8 pkt[VMI_DNSSD_MAX_PACKET];

  for (;;) {
    gint64 now = g_get_monotonic_time ();
    struct pollfd pfd = { fd, POLLIN, 0 };
    struct sockaddr_in from;
    socklen_t fl = sizeof (from);
    guint16 rid;
    gssize n;
    gint wait_ms;

    if (now >= until || g_atomic_int_get (stop))
      return;
    if (repeat && now >= repeat_at) {
      send_query (fd, ifs, repeat, repeat_len);
      repeat = NULL;
    }
    wait_ms = (gint) MIN ((until - now) / 1000 + 1, 50);
    if (poll (&pfd, 1, wait_ms) <= 0)
      continue;
    n = recvfrom (fd, pkt, sizeof (pkt), 0, (struct sockaddr *) &from, &fl);
    if (n <= 0)
      continue;
    /* an answer to a legacy (one-shot) query comes from a responder's
     * port 5353 with our query's id (RFC 6762 §6.7); anything else is not
     * ours */
    if (ntohs (from.sin_port) != VMI_DNSSD_MDNS_PORT)
      continue;
    if (vmi_dnssd_parse (pkt, n, &rid, NULL, NULL) < 0 || rid != id)
      continue;
    vmi_dnssd_browse_add_packet (b, pkt, n);
  }
}

guint
vmi_nmos_discover_registries (GPtrArray * urls, gboolean allow_development,
    const gint * stop)
{
  VmiDnssdBrowse *b = g_new0 (VmiDnssdBrowse, 1);
  VmiDnssdCandidate c[VMI_DNSSD_MAX_SERVICES];
  guint8 q[VMI_DNSSD_MAX_PACKET];
  struct sockaddr_in any = { 0 };
  guint16 id = (guint16) g_random_int_range (1, 0x10000);
  GArray *ifs;
  guchar ttl = 255, loop = 1;
  gsize ql;
  guint n, i, seen;
  gint fd;

  vmi_dnssd_browse_init (b, (const char *const *) types, G_N_ELEMENTS (types));
  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    g_message ("nmos: DNS-SD socket: %s", g_strerror (errno));
    g_free (b);
    return 0;
  }
  any.sin_family = AF_INET;
  /* ephemeral port: a one-shot querier, answered by unicast */
  if (bind (fd, (struct sockaddr *) &any, sizeof (any)) < 0)
    g_message ("nmos: DNS-SD bind: %s", g_strerror (errno));
  setsockopt (fd, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof (ttl));
  setsockopt (fd, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof (loop));
  ifs = query_interfaces ();

  ql = vmi_dnssd_browse_query (b, TRUE, q, sizeof (q), id);
  send_query (fd, ifs, q, ql);
  collect (fd, b, id, g_get_monotonic_time () + PTR_WINDOW_MS * 1000, stop,
      ifs, q, ql, g_get_monotonic_time () + PTR_REPEAT_MS * 1000);
  /* a responder that left out the SRV, TXT or A records */
  for (i = 0; i < MAX_FOLLOWUPS && !g_atomic_int_get (stop); i++) {
    ql = vmi_dnssd_browse_query (b, FALSE, q, sizeof (q), id);
    if (ql == 0)
      break;
    send_query (fd, ifs, q, ql);
    collect (fd, b, id, g_get_monotonic_time () + FOLLOWUP_WINDOW_MS * 1000,
        stop, ifs, NULL, 0, 0);
  }
  close (fd);
  g_array_unref (ifs);

  n = vmi_dnssd_registry_candidates (b, "v1.3", allow_development,
      g_random_int (), c, G_N_ELEMENTS (c));
  for (i = 0; i < n; i++) {
    g_debug ("nmos: DNS-SD: %s pri %d (%s)", c[i].url, c[i].pri,
        c[i].instance);
    g_ptr_array_add (urls, g_strdup (c[i].url));
  }
  seen = b->n_services;
  g_free (b);
  return seen;
}
