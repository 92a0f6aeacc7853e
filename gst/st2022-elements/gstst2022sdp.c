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

#include "gstst2022sdp.h"
#include "sdp/st2022-sdp.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netpacket/packet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC (st2022sdp_debug);
#define GST_CAT_DEFAULT st2022sdp_debug

void
gst_st2022_sdp_install_properties (GObjectClass * klass, guint first_id,
    gboolean is_sink)
{
  if (is_sink) {
    /**
     * GstSt2022Sink:sdp:
     *
     * The SDP (RFC 4566, in the form NMOS controllers use) describing the
     * stream being sent: destination, port, TTL, the sender's address as
     * source filter, payload type, ST 2022-8 traffic shape. Built at start
     * (READY to PAUSED); NULL before.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_SDP_PROP_SDP,
        g_param_spec_string ("sdp", "SDP",
            "SDP of the stream being sent (from PAUSED on)", NULL,
            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
    /**
     * GstSt2022Sink:sdp-file:
     *
     * A file to write the `sdp` to at start (replaced if it exists), for
     * a receiver's `sdp-file` or any SDP-reading tool. NULL: none.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_SDP_PROP_SDP_FILE,
        g_param_spec_string ("sdp-file", "SDP file",
            "File to write the stream's SDP to at start", NULL,
            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
            GST_PARAM_MUTABLE_READY));
  } else {
    /**
     * GstSt2022Src:sdp:
     *
     * An SDP (text) describing the stream to receive: at start it sets
     * `address`, `port`, `source-address` and `payload-type` (the first
     * m=video RTP/AVP media with a=rtpmap:<pt> SMPTE2022-6/27000000). A
     * malformed SDP fails the state change with an error quoting its line.
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_SDP_PROP_SDP,
        g_param_spec_string ("sdp", "SDP",
            "SDP text of the stream to receive (sets address, port, "
            "source-address, payload-type at start)", NULL,
            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
            GST_PARAM_MUTABLE_READY));
    /**
     * GstSt2022Src:sdp-file:
     *
     * Like `sdp`, read from this file at start (`sdp` wins when both are
     * set).
     */
    g_object_class_install_property (klass,
        first_id + GST_ST2022_SDP_PROP_SDP_FILE,
        g_param_spec_string ("sdp-file", "SDP file",
            "File holding the SDP of the stream to receive", NULL,
            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
            GST_PARAM_MUTABLE_READY));
  }
  {
    static gsize done = 0;

    if (g_once_init_enter (&done)) {
      GST_DEBUG_CATEGORY_INIT (st2022sdp_debug, "st2022sdp", 0,
          "ST 2022-6 SDP");
      g_once_init_leave (&done, 1);
    }
  }
}

void
gst_st2022_sdp_settings_clear (GstSt2022SdpSettings * s)
{
  g_clear_pointer (&s->sdp, g_free);
  g_clear_pointer (&s->sdp_file, g_free);
  g_clear_pointer (&s->ts_refclk, g_free);
}

gboolean
gst_st2022_sdp_set_property (GstSt2022SdpSettings * s, guint first_id,
    guint prop_id, const GValue * value)
{
  if (prop_id == first_id + GST_ST2022_SDP_PROP_SDP) {
    g_free (s->sdp);
    s->sdp = g_value_dup_string (value);
  } else if (prop_id == first_id + GST_ST2022_SDP_PROP_SDP_FILE) {
    g_free (s->sdp_file);
    s->sdp_file = g_value_dup_string (value);
  } else {
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_st2022_sdp_get_property (const GstSt2022SdpSettings * s, guint first_id,
    guint prop_id, GValue * value)
{
  if (prop_id == first_id + GST_ST2022_SDP_PROP_SDP)
    g_value_set_string (value, s->sdp);
  else if (prop_id == first_id + GST_ST2022_SDP_PROP_SDP_FILE)
    g_value_set_string (value, s->sdp_file);
  else
    return FALSE;
  return TRUE;
}

/* @host as a numeric address (a name is resolved). */
static gboolean
numeric_host (const gchar * host, guint16 port, struct sockaddr_storage *ss,
    socklen_t * ss_len, gchar * out, gsize out_len)
{
  struct addrinfo hints = { 0 }, *res = NULL;
  gboolean ok;

  hints.ai_socktype = SOCK_DGRAM;
  if (getaddrinfo (host, NULL, &hints, &res) != 0 || res == NULL)
    return FALSE;
  memcpy (ss, res->ai_addr, res->ai_addrlen);
  *ss_len = res->ai_addrlen;
  if (ss->ss_family == AF_INET)
    ((struct sockaddr_in *) ss)->sin_port = htons (port);
  else
    ((struct sockaddr_in6 *) ss)->sin6_port = htons (port);
  ok = getnameinfo (res->ai_addr, res->ai_addrlen, out, out_len, NULL, 0,
      NI_NUMERICHOST) == 0;
  freeaddrinfo (res);
  return ok;
}

/* The address this host sends from towards @dst (what the kernel's routing
 * picks; on @iface's address for a multicast group sent there), and the
 * MAC of the interface holding it ("" when none, e.g. loopback). */
static gboolean
local_source (const struct sockaddr_storage *dst, socklen_t dst_len,
    const gchar * iface, gchar * addr, gsize addr_len, gchar * mac)
{
  struct sockaddr_storage local;
  socklen_t local_len = sizeof (local);
  struct ifaddrs *ifs = NULL, *i;
  gchar ifname[IF_NAMESIZE] = "";
  int fd;
  gboolean found = FALSE;

  mac[0] = '\0';
  if (getifaddrs (&ifs) != 0)
    return FALSE;
  if (iface && *iface) {
    for (i = ifs; i && !found; i = i->ifa_next)
      if (i->ifa_addr && i->ifa_addr->sa_family == dst->ss_family
          && strcmp (i->ifa_name, iface) == 0) {
        memcpy (&local, i->ifa_addr, dst->ss_family == AF_INET ?
            sizeof (struct sockaddr_in) : sizeof (struct sockaddr_in6));
        found = TRUE;
      }
  }
  if (!found) {
    fd = socket (dst->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    /* connect() on UDP sends nothing: it only asks the routing table */
    found = fd >= 0 && connect (fd, (const struct sockaddr *) dst, dst_len)
        == 0 && getsockname (fd, (struct sockaddr *) &local, &local_len) == 0;
    if (fd >= 0)
      close (fd);
  }
  if (found)
    found = getnameinfo ((struct sockaddr *) &local, local.ss_family ==
        AF_INET ? sizeof (struct sockaddr_in) : sizeof (struct sockaddr_in6),
        addr, addr_len, NULL, 0, NI_NUMERICHOST) == 0;
  for (i = ifs; found && i && !ifname[0]; i = i->ifa_next) {
    gchar a[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
    if (i->ifa_addr && i->ifa_addr->sa_family == local.ss_family
        && getnameinfo (i->ifa_addr, local.ss_family == AF_INET ?
            sizeof (struct sockaddr_in) : sizeof (struct sockaddr_in6), a,
            sizeof (a), NULL, 0, NI_NUMERICHOST) == 0 && strcmp (a, addr) == 0)
      g_strlcpy (ifname, i->ifa_name, sizeof (ifname));
  }
  for (i = ifs; ifname[0] && i; i = i->ifa_next) {
    if (i->ifa_addr && i->ifa_addr->sa_family == AF_PACKET
        && strcmp (i->ifa_name, ifname) == 0) {
      struct sockaddr_ll *ll = (struct sockaddr_ll *) i->ifa_addr;
      static const guint8 zero[6] = { 0 };
      if (ll->sll_halen == 6 && memcmp (ll->sll_addr, zero, 6) != 0)
        g_snprintf (mac, 18, "%02X-%02X-%02X-%02X-%02X-%02X",
            ll->sll_addr[0], ll->sll_addr[1], ll->sll_addr[2],
            ll->sll_addr[3], ll->sll_addr[4], ll->sll_addr[5]);
    }
  }
  freeifaddrs (ifs);
  return found;
}

/* @config's destination and the address (and MAC) it is sent from */
static gboolean
path_addresses (const VmiTransportConfig * config, gchar * dst_s,
    gsize dst_len_s, gchar * src_s, gsize src_len_s, gchar * mac)
{
  struct sockaddr_storage dst;
  socklen_t dst_len;

  if (!numeric_host (config->address, config->port, &dst, &dst_len, dst_s,
          dst_len_s))
    return FALSE;
  if (config->bind_address && *config->bind_address)
    g_strlcpy (src_s, config->bind_address, src_len_s);
  else if (!local_source (&dst, dst_len, config->multicast_iface, src_s,
          src_len_s, mac))
    src_s[0] = '\0';
  return TRUE;
}

gboolean
gst_st2022_sdp_sink_start (GstElement * sink, GstSt2022SdpSettings * s,
    const VmiTransportConfig * config, const VmiTransportConfig * secondary,
    guint payload_type, GstSt2022Pacing pacing)
{
  St2022SdpDescription d = { 0 };
  gchar dst_s[INET6_ADDRSTRLEN + 8], src_s[INET6_ADDRSTRLEN + 8] = "";
  gchar dst2_s[INET6_ADDRSTRLEN + 8], src2_s[INET6_ADDRSTRLEN + 8] = "";
  gchar mac[18] = "", mac2[18] = "", *text, *name, *file;
  GError *err = NULL;

  if (!path_addresses (config, dst_s, sizeof (dst_s), src_s, sizeof (src_s),
          mac))
    goto bad_host;
  /* ST 2022-7: both paths, an RFC 7104 DUP group */
  if (secondary) {
    if (!path_addresses (secondary, dst2_s, sizeof (dst2_s), src2_s,
            sizeof (src2_s), mac2)) {
      config = secondary;
      goto bad_host;
    }
    d.secondary_address = dst2_s;
    d.secondary_port = secondary->port;
    d.secondary_origin_address = src2_s[0] ? src2_s : NULL;
    d.secondary_refclk_mac = mac2[0] ? mac2 : NULL;
  }

  name = gst_element_get_name (sink);
  d.session_name = name;
  /* NTP seconds, as RFC 4566 suggests for o= */
  d.session_id = g_get_real_time () / G_USEC_PER_SEC + G_GUINT64_CONSTANT
      (2208988800);
  d.origin_address = src_s[0] ? src_s : NULL;
  d.address = dst_s;
  d.ttl = config->ttl_mc;
  d.port = config->port;
  d.payload_type = payload_type;
  d.source_filter = TRUE;
  /* ST 2022-8 sender type: software pacing spreads each frame evenly but
   * carries OS jitter (wide); Pacing-Assistant is linear and narrow;
   * unpaced bursts are neither, so no claim is made */
  d.tp = pacing == GST_ST2022_PACING_SOFTWARE ? "2110TPW" :
      pacing == GST_ST2022_PACING_NONE ? NULL : "2110TPNL";
  d.refclk_mac = mac[0] ? mac : NULL;
  d.ts_refclk = s->ts_refclk;
  d.mediaclk = s->ts_refclk ? "direct=0" : NULL;
  text = st2022_sdp_write (&d, &err);
  g_free (name);
  if (text == NULL)
    goto write_failed;
  GST_INFO_OBJECT (sink, "SDP:\n%s", text);

  GST_OBJECT_LOCK (sink);
  g_free (s->sdp);
  s->sdp = g_strdup (text);
  file = g_strdup (s->sdp_file);
  GST_OBJECT_UNLOCK (sink);
  g_object_notify (G_OBJECT (sink), "sdp");

  if (file && *file && !g_file_set_contents (file, text, -1, &err))
    goto file_failed;
  g_free (file);
  g_free (text);
  return TRUE;

  /* ERRORS */
bad_host:
  {
    GST_ELEMENT_ERROR (sink, RESOURCE, SETTINGS,
        ("Cannot describe the stream in SDP: host '%s' does not resolve to "
            "an IP address; set %s to a numeric address", config->address,
            config == secondary ? "secondary-host" : "host"),
        (NULL));
    return FALSE;
  }
write_failed:
  {
    GST_ELEMENT_ERROR (sink, RESOURCE, SETTINGS,
        ("Cannot describe the stream in SDP: %s", err->message), (NULL));
    g_clear_error (&err);
    return FALSE;
  }
file_failed:
  {
    GST_ELEMENT_ERROR (sink, RESOURCE, OPEN_WRITE,
        ("Cannot write sdp-file: %s; set sdp-file to a writable path",
            err->message), (NULL));
    g_clear_error (&err);
    g_free (file);
    g_free (text);
    return FALSE;
  }
}

gboolean
gst_st2022_sdp_src_configure (GstElement * src, GstSt2022SdpSettings * s)
{
  gchar *text, *file, *where;
  St2022Sdp sdp;
  GError *err = NULL;
  gboolean ok;

  GST_OBJECT_LOCK (src);
  text = g_strdup (s->sdp && *s->sdp ? s->sdp : NULL);
  file = g_strdup (s->sdp_file && *s->sdp_file ? s->sdp_file : NULL);
  GST_OBJECT_UNLOCK (src);

  if (text == NULL && file == NULL)
    return TRUE;
  if (text == NULL && !st2022_sdp_read_file (file, &text, &err))
    goto read_failed;
  where = s->sdp && *s->sdp ? g_strdup ("sdp") :
      g_strdup_printf ("sdp-file %s", file);
  ok = st2022_sdp_parse (text, -1, &sdp, &err);
  g_free (text);
  if (!ok)
    goto parse_failed;
  g_free (where);

  GST_INFO_OBJECT (src, "from the SDP: address %s port %u source %s pt %u",
      sdp.address, sdp.port, GST_STR_NULL (sdp.source_address),
      sdp.payload_type);
  g_object_set (src, "address", sdp.address, "port", (gint) sdp.port,
      "source-address", sdp.source_address, "payload-type",
      (guint) sdp.payload_type, NULL);
  /* ST 2022-7: a DUP group sets the second path too */
  if (sdp.has_secondary) {
    GST_INFO_OBJECT (src, "second path from the SDP: %s port %u source %s",
        sdp.secondary_address, sdp.secondary_port,
        GST_STR_NULL (sdp.secondary_source_address));
    g_object_set (src, "secondary-address", sdp.secondary_address,
        "secondary-port", (gint) sdp.secondary_port,
        "secondary-source-address", sdp.secondary_source_address, NULL);
  }
  st2022_sdp_clear (&sdp);
  g_free (file);
  return TRUE;

  /* ERRORS */
read_failed:
  {
    GST_ELEMENT_ERROR (src, RESOURCE, OPEN_READ,
        ("Cannot read sdp-file: %s; point sdp-file at the sender's SDP",
            err->message), (NULL));
    g_clear_error (&err);
    g_free (file);
    return FALSE;
  }
parse_failed:
  {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
        ("Invalid SDP (%s): %s", where, err->message),
        ("fix that line, or leave sdp and sdp-file unset and set address, "
            "port, source-address and payload-type"));
    g_clear_error (&err);
    g_free (where);
    g_free (file);
    return FALSE;
  }
}
