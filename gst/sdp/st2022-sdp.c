/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SDP for ST 2022-6: a line-by-line reader strict about the lines it
 * uses (o=, c=, m=, rtpmap, fmtp, source-filter) and silent about the
 * others (i=, b=, a=mid, ...), so NMOS and vendor SDPs pass and a typo in
 * what configures the receiver is named, never guessed around. */

#include "st2022-sdp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK (st2022 - sdp - error - quark, st2022_sdp_error);

#define MAX_QUOTE 100

typedef struct
{
  gboolean set;
  gchar *address;
  gboolean ipv6;
  gboolean multicast;
  guint ttl;
} Conn;

typedef struct
{
  guint line_no;
  gchar *line;
  gchar *dest;
  gchar *src;
} Filter;

typedef struct
{
  guint index;
  guint line_no;
  gchar *line;
  gboolean candidate;           /* video, RTP/AVP */
  guint16 port;
  guint8 formats[ST2022_SDP_MAX_FORMATS];
  guint n_formats;
  Conn conn;
  Filter filter;
  gint pt;                      /* the SMPTE2022-6 format, -1 none */
  guint other_line_no;          /* first rtpmap that is not ST 2022-6 */
  gchar *other_line;
  gchar *fmtp[128];
  gchar *ts_refclk;
  gchar *mediaclk;
  gchar *mid;                   /* a=mid (RFC 5888) */
} Media;

typedef struct
{
  Conn conn;
  Filter filter;
  gchar *ts_refclk;
  gchar *mediaclk;
  gboolean have_o, have_s, have_t;
  gchar *origin;
  gchar *name;
  /* a=group:DUP (RFC 7104): the two mids, NULL without one */
  gchar **dup;
  gchar *taken_mid;             /* the mid of the stream taken */
} Session;

/* The line as quoted in errors: printable ASCII, at most MAX_QUOTE. */
static gchar *
quote_line (const gchar * line)
{
  gsize n = strlen (line), i;
  gboolean cut = n > MAX_QUOTE;
  GString *s = g_string_sized_new (MAX_QUOTE + 4);

  for (i = 0; i < MIN (n, MAX_QUOTE); i++)
    g_string_append_c (s, (line[i] >= 0x20 && line[i] < 0x7f) ? line[i] : '?');
  if (cut)
    g_string_append (s, "...");
  return g_string_free (s, FALSE);
}

static gboolean line_error (GError ** error, gint code, guint line_no,
    const gchar * line, const gchar * fmt, ...) G_GNUC_PRINTF (5, 6);

static gboolean
line_error (GError ** error, gint code, guint line_no, const gchar * line,
    const gchar * fmt, ...)
{
  va_list ap;
  gchar *why, *q = quote_line (line);

  va_start (ap, fmt);
  why = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, ST2022_SDP_ERROR, code, "line %u: '%s': %s", line_no, q,
      why);
  g_free (why);
  g_free (q);
  return FALSE;
}

/* A decimal number in [0, max], the whole of @s. */
static gboolean
parse_uint (const gchar * s, guint64 max, guint64 * out)
{
  guint64 v = 0;

  if (*s == '\0')
    return FALSE;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return FALSE;
    v = v * 10 + (guint) (*s - '0');
    if (v > max)
      return FALSE;
  }
  *out = v;
  return TRUE;
}

static gboolean
classify_address (const gchar * addr, gboolean want_ipv6, gboolean * multicast)
{
  guint8 buf[16];

  if (want_ipv6) {
    if (inet_pton (AF_INET6, addr, buf) != 1)
      return FALSE;
    *multicast = buf[0] == 0xff;
  } else {
    if (inet_pton (AF_INET, addr, buf) != 1)
      return FALSE;
    *multicast = (buf[0] & 0xf0) == 0xe0;
  }
  return TRUE;
}

static void
conn_clear (Conn * c)
{
  g_clear_pointer (&c->address, g_free);
  c->set = FALSE;
}

static void
filter_clear (Filter * f)
{
  g_clear_pointer (&f->line, g_free);
  g_clear_pointer (&f->dest, g_free);
  g_clear_pointer (&f->src, g_free);
}

static void
media_clear (Media * m)
{
  guint i;

  g_free (m->line);
  g_free (m->other_line);
  conn_clear (&m->conn);
  filter_clear (&m->filter);
  for (i = 0; i < 128; i++)
    g_free (m->fmtp[i]);
  g_free (m->ts_refclk);
  g_free (m->mediaclk);
  g_free (m->mid);
  memset (m, 0, sizeof (*m));
  m->pt = -1;
}

/* c=IN IP4 <addr>[/<ttl>[/<n>]] | c=IN IP6 <addr>[/<n>] */
static gboolean
parse_conn (const gchar * value, Conn * c, guint line_no, const gchar * line,
    GError ** error)
{
  gchar **tok = g_strsplit (value, " ", -1);
  gchar **parts = NULL;
  guint64 ttl = 0, n = 1;
  gboolean ok = FALSE, ipv6;
  guint nparts;

  if (g_strv_length (tok) != 3 || strcmp (tok[0], "IN") != 0) {
    line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "expected c=IN IP4 <address>[/<ttl>] or c=IN IP6 <address>");
    goto out;
  }
  if (strcmp (tok[1], "IP4") != 0 && strcmp (tok[1], "IP6") != 0) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "address type '%s' is neither IP4 nor IP6", tok[1]);
    goto out;
  }
  ipv6 = tok[1][2] == '6';
  parts = g_strsplit (tok[2], "/", -1);
  nparts = g_strv_length (parts);
  conn_clear (c);
  if (parts[0] == NULL || *parts[0] == '\0') {
    line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "no address: expected c=IN %s <address>", tok[1]);
    goto out;
  }
  if (!classify_address (parts[0], ipv6, &c->multicast)) {
    line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
        "'%s' is not a numeric %s address", parts[0], ipv6 ? "IPv6" : "IPv4");
    goto out;
  }
  if (!ipv6 && nparts > 1 && !c->multicast) {
    line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
        "a TTL (/%s) is only for multicast groups; write c=IN IP4 %s",
        parts[1], parts[0]);
    goto out;
  }
  if (nparts > (ipv6 ? 2u : 3u)
      || (!ipv6 && nparts > 1 && !parse_uint (parts[1], 255, &ttl))
      || (nparts > (ipv6 ? 1u : 2u)
          && !parse_uint (parts[ipv6 ? 1 : 2], G_MAXUINT32, &n))) {
    line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
        "expected <address>/<ttl 0-255>%s", ipv6 ? "" : "[/<count>]");
    goto out;
  }
  if (n != 1) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "%" G_GUINT64_FORMAT " addresses: an ST 2022-6 stream is one "
        "address (leave out the /<count>)", n);
    goto out;
  }
  c->set = TRUE;
  c->address = g_strdup (parts[0]);
  c->ipv6 = ipv6;
  c->ttl = (guint) ttl;
  ok = TRUE;
out:
  g_strfreev (parts);
  g_strfreev (tok);
  return ok;
}

/* a=source-filter: <incl|excl> IN <IP4|IP6|*> <dest> <src> (RFC 4570) */
static gboolean
parse_filter (const gchar * value, Filter * f, guint line_no,
    const gchar * line, GError ** error)
{
  gchar **tok = g_strsplit_set (value, " ", -1);
  GPtrArray *w = g_ptr_array_new ();
  gboolean ok = FALSE;
  guint i;

  for (i = 0; tok[i]; i++)
    if (*tok[i])
      g_ptr_array_add (w, tok[i]);
  if (w->len < 5 || strcmp (w->pdata[1], "IN") != 0) {
    line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "expected a=source-filter: incl IN IP4 <group> <source>");
    goto out;
  }
  if (strcmp (w->pdata[0], "excl") == 0) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "exclusive source filters are not supported; use 'incl' with the "
        "sender's address");
    goto out;
  }
  if (strcmp (w->pdata[0], "incl") != 0) {
    line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "filter mode '%s' is neither incl nor excl", (gchar *) w->pdata[0]);
    goto out;
  }
  if (w->len > 5) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "%u sources: a receiver here filters on one source address",
        w->len - 4);
    goto out;
  }
  {
    gboolean mc, ipv6 = strcmp (w->pdata[2], "IP6") == 0;
    if (!classify_address (w->pdata[4], ipv6, &mc) || mc) {
      line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
          "source '%s' is not a unicast %s address", (gchar *) w->pdata[4],
          ipv6 ? "IPv6" : "IPv4");
      goto out;
    }
  }
  filter_clear (f);
  f->line_no = line_no;
  f->line = g_strdup (line);
  f->dest = g_strdup (w->pdata[3]);
  f->src = g_strdup (w->pdata[4]);
  ok = TRUE;
out:
  g_ptr_array_free (w, TRUE);
  g_strfreev (tok);
  return ok;
}

/* a=group:DUP <mid> <mid> (RFC 7104; session level) */
static gboolean
parse_dup (const gchar * value, Session * s, guint line_no,
    const gchar * line, GError ** error)
{
  gchar **tok = g_strsplit_set (value, " ", -1);
  /* the words are copies: freed with the array unless handed to @s */
  GPtrArray *w = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = FALSE;
  guint i;

  for (i = 0; tok[i]; i++)
    if (*tok[i])
      g_ptr_array_add (w, g_strdup (tok[i]));
  if (s->dup) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "a second DUP group: a receiver here takes one stream on two paths");
    goto out;
  }
  if (w->len != 2 || strcmp (w->pdata[0], w->pdata[1]) == 0) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "expected a=group:DUP <primary mid> <secondary mid>: two paths");
    goto out;
  }
  g_ptr_array_add (w, NULL);
  s->dup = (gchar **) g_ptr_array_free (w, FALSE);
  w = NULL;
  ok = TRUE;
out:
  if (w)
    g_ptr_array_free (w, TRUE);
  g_strfreev (tok);
  return ok;
}

/* m=<media> <port> <proto> <fmt> ... */
static gboolean
parse_media (const gchar * value, Media * m, guint line_no, const gchar * line,
    GError ** error)
{
  gchar **tok = g_strsplit (value, " ", -1);
  guint n = g_strv_length (tok), i;
  guint64 v;
  gboolean ok = FALSE;

  if (n < 4) {
    line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "expected m=video <port> RTP/AVP <payload type>");
    goto out;
  }
  m->line_no = line_no;
  m->line = g_strdup (line);
  m->candidate = strcmp (tok[0], "video") == 0
      && strcmp (tok[2], "RTP/AVP") == 0;
  if (!m->candidate) {
    ok = TRUE;                  /* audio, data, ...: not ours, not checked */
    goto out;
  }
  if (strchr (tok[1], '/')) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "a port range: an ST 2022-6 stream is one port");
    goto out;
  }
  if (!parse_uint (tok[1], 65535, &v)) {
    line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
        "port '%s' is not a number 1-65535", tok[1]);
    goto out;
  }
  m->port = v;
  if (n - 3 > ST2022_SDP_MAX_FORMATS) {
    line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, line_no, line,
        "%u formats: at most %u payload types per m= line", n - 3,
        ST2022_SDP_MAX_FORMATS);
    goto out;
  }
  for (i = 3; i < n; i++) {
    if (!parse_uint (tok[i], 127, &v)) {
      line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
          "RTP payload type '%s' is not a number 0-127", tok[i]);
      goto out;
    }
    m->formats[m->n_formats++] = v;
  }
  ok = TRUE;
out:
  g_strfreev (tok);
  return ok;
}

static gboolean
media_has_format (const Media * m, guint pt)
{
  guint i;

  for (i = 0; i < m->n_formats; i++)
    if (m->formats[i] == pt)
      return TRUE;
  return FALSE;
}

/* a=rtpmap:<pt> <encoding>/<clock>[/<params>] */
static gboolean
parse_rtpmap (const gchar * value, Media * m, guint line_no,
    const gchar * line, GError ** error)
{
  const gchar *sp = strchr (value, ' ');
  gchar *pt_s = NULL, **enc = NULL;
  guint64 pt, rate;
  gboolean ok = FALSE;

  if (sp == NULL)
    goto syntax;
  pt_s = g_strndup (value, sp - value);
  enc = g_strsplit (sp + 1, "/", -1);
  if (!parse_uint (pt_s, 127, &pt) || g_strv_length (enc) < 2
      || *enc[0] == '\0' || !parse_uint (enc[1], G_MAXUINT32, &rate))
    goto syntax;
  if (!m->candidate) {
    ok = TRUE;
    goto out;
  }
  if (!media_has_format (m, pt)) {
    line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
        "payload type %u is not one of the formats of '%s'", (guint) pt,
        m->line);
    goto out;
  }
  if (g_ascii_strcasecmp (enc[0], ST2022_SDP_ENCODING) == 0) {
    if (rate != ST2022_SDP_CLOCK_RATE) {
      line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
          "ST 2022-6 runs on a 27 MHz RTP clock: expected a=rtpmap:%u "
          ST2022_SDP_ENCODING "/27000000", (guint) pt);
      goto out;
    }
    if (m->pt < 0)
      m->pt = pt;
  } else if (m->other_line == NULL) {
    m->other_line_no = line_no;
    m->other_line = g_strdup (line);
  }
  ok = TRUE;
  goto out;

syntax:
  line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
      "expected a=rtpmap:<payload type> <encoding>/<clock rate>");
out:
  g_strfreev (enc);
  g_free (pt_s);
  return ok;
}

/* The ST 2022-8 parameters of @fmtp into @out (TP, TROFF), checked. */
static gboolean
parse_fmtp_params (const gchar * fmtp, St2022Sdp * out, guint line_no,
    const gchar * line, GError ** error)
{
  gchar **params = g_strsplit (fmtp, ";", -1);
  gboolean ok = TRUE;
  guint i;

  g_clear_pointer (&out->tp, g_free);
  g_clear_pointer (&out->troff, g_free);
  for (i = 0; ok && params[i]; i++) {
    gchar *p = g_strstrip (params[i]);
    gchar *eq = strchr (p, '=');
    guint64 v;

    if (*p == '\0' || eq == NULL)
      continue;                 /* flags (e.g. "interlace") are not ours */
    *eq = '\0';
    /* one value per name: a second one is a typo or a conflict, and
     * which one the sender meant cannot be guessed */
    if ((strcmp (p, "TP") == 0 && out->tp)
        || (strcmp (p, "TROFF") == 0 && out->troff)) {
      ok = line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
          "%s is given twice: write each fmtp parameter once", p);
    } else if (strcmp (p, "TP") == 0) {
      if (strcmp (eq + 1, "2110TPN") != 0 && strcmp (eq + 1, "2110TPNL") != 0
          && strcmp (eq + 1, "2110TPW") != 0)
        ok = line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
            "TP=%s: the ST 2022-8 sender types are 2110TPN, 2110TPNL and "
            "2110TPW", eq + 1);
      else
        out->tp = g_strdup (eq + 1);
    } else if (strcmp (p, "TROFF") == 0) {
      if (!parse_uint (eq + 1, G_MAXUINT32, &v))
        ok = line_error (error, ST2022_SDP_ERROR_INVALID, line_no, line,
            "TROFF=%s is not a number of microseconds", eq + 1);
      else
        out->troff = g_strdup (eq + 1);
    }
  }
  g_strfreev (params);
  return ok;
}

static gboolean
parse_fmtp (const gchar * value, Media * m, guint line_no, const gchar * line,
    GError ** error)
{
  const gchar *sp = strchr (value, ' ');
  gchar *pt_s = sp ? g_strndup (value, sp - value) : g_strdup (value);
  guint64 pt;
  gboolean ok = parse_uint (pt_s, 127, &pt);

  g_free (pt_s);
  if (!ok)
    return line_error (error, ST2022_SDP_ERROR_SYNTAX, line_no, line,
        "expected a=fmtp:<payload type> <parameters>");
  if (m->candidate) {
    St2022Sdp check = { 0 };
    gchar *params = g_strstrip (g_strdup (sp ? sp + 1 : ""));

    /* checked here, so the error quotes this line */
    ok = parse_fmtp_params (params, &check, line_no, line, error);
    st2022_sdp_clear (&check);
    if (!ok) {
      g_free (params);
      return FALSE;
    }
    g_free (m->fmtp[pt]);
    m->fmtp[pt] = params;
  }
  return TRUE;
}

/* @m (ST 2022-6, of the DUP group) as the second path */
static gboolean
finish_secondary (Media * m, const Session * s, St2022Sdp * out,
    GError ** error)
{
  const Conn *c = m->conn.set ? &m->conn : &s->conn;
  const Filter *f = m->filter.line ? &m->filter : &s->filter;

  if (!c->set)
    return line_error (error, ST2022_SDP_ERROR_INVALID, m->line_no, m->line,
        "no c= line for the second stream of the DUP group: add c=IN IP4 "
        "<address> to it");
  if (m->port == 0)
    return line_error (error, ST2022_SDP_ERROR_INVALID, m->line_no, m->line,
        "port 0 means the stream is disabled");
  if ((guint) m->pt != out->payload_type)
    return line_error (error, ST2022_SDP_ERROR_UNSUPPORTED, m->line_no,
        m->line, "the two streams of a DUP group carry one stream: use payload "
        "type %u here too", out->payload_type);
  out->has_secondary = TRUE;
  out->secondary_address = g_strdup (c->address);
  out->secondary_multicast = c->multicast;
  out->secondary_port = m->port;
  out->secondary_source_address = f->line ? g_strdup (f->src) : NULL;
  return TRUE;
}

/* Takes @m as the stream when it is ST 2022-6 and none was taken yet (with
 * a DUP group, only one of the group's). */
static gboolean
finish_media (Media * m, Session * s, St2022Sdp * out,
    gboolean * taken, Media * rejected, GError ** error)
{
  const Conn *c;
  const Filter *f;
  if (!m->line || !m->candidate)
    return TRUE;
  if (*taken) {
    /* ST 2022-7: the group's other stream is the second path */
    if (s->dup && m->pt >= 0 && m->mid && !out->has_secondary
        && s->taken_mid && strcmp (m->mid, s->taken_mid) != 0
        && (strcmp (m->mid, s->dup[0]) == 0
            || strcmp (m->mid, s->dup[1]) == 0))
      return finish_secondary (m, s, out, error);
    return TRUE;
  }
  if (m->pt < 0) {
    /* remembered for the error if no media is ST 2022-6 */
    if (rejected->line == NULL) {
      rejected->line_no = m->other_line ? m->other_line_no : m->line_no;
      rejected->line = g_strdup (m->other_line ? m->other_line : m->line);
      rejected->other_line = m->other_line ? g_strdup ("rtpmap") : NULL;
    }
    return TRUE;
  }
  c = m->conn.set ? &m->conn : &s->conn;
  if (!c->set)
    return line_error (error, ST2022_SDP_ERROR_INVALID, m->line_no, m->line,
        "no c= line for this stream (in the media or the session part): "
        "add c=IN IP4 <address>");
  if (m->port == 0)
    return line_error (error, ST2022_SDP_ERROR_INVALID, m->line_no, m->line,
        "port 0 means the stream is disabled");
  f = m->filter.line ? &m->filter : &s->filter;
  if (f->line && strcmp (f->dest, "*") != 0 && strcmp (f->dest,
          c->address) != 0)
    return line_error (error, ST2022_SDP_ERROR_INVALID, f->line_no, f->line,
        "the filter is for %s but the stream goes to %s", f->dest,
        c->address);

  if (s->dup && (m->mid == NULL || (strcmp (m->mid, s->dup[0]) != 0
              && strcmp (m->mid, s->dup[1]) != 0)))
    return TRUE;                /* not one of the group's streams */
  *taken = TRUE;
  s->taken_mid = g_strdup (m->mid);
  out->address = g_strdup (c->address);
  out->ipv6 = c->ipv6;
  out->multicast = c->multicast;
  out->ttl = c->ttl;
  out->port = m->port;
  out->payload_type = m->pt;
  out->source_address = f->line ? g_strdup (f->src) : NULL;
  out->ts_refclk = g_strdup (m->ts_refclk ? m->ts_refclk : s->ts_refclk);
  out->mediaclk = g_strdup (m->mediaclk ? m->mediaclk : s->mediaclk);
  out->media_index = m->index;
  if (m->fmtp[m->pt]) {
    out->fmtp = g_strdup (m->fmtp[m->pt]);
    parse_fmtp_params (out->fmtp, out, m->line_no, m->line, NULL);
  }
  return TRUE;
}

void
st2022_sdp_clear (St2022Sdp * sdp)
{
  g_free (sdp->session_name);
  g_free (sdp->origin_address);
  g_free (sdp->address);
  g_free (sdp->source_address);
  g_free (sdp->fmtp);
  g_free (sdp->tp);
  g_free (sdp->troff);
  g_free (sdp->ts_refclk);
  g_free (sdp->mediaclk);
  g_free (sdp->secondary_address);
  g_free (sdp->secondary_source_address);
  memset (sdp, 0, sizeof (*sdp));
}

gboolean
st2022_sdp_parse (const gchar * text, gssize len, St2022Sdp * out,
    GError ** error)
{
  gchar *copy, **lines;
  Session s = { 0 };
  Media m, rejected;
  gboolean ok = FALSE, taken = FALSE, seen_v = FALSE;
  guint i, n_media = 0, last_line_no = 0;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof (*out));
  memset (&m, 0, sizeof (m));
  memset (&rejected, 0, sizeof (rejected));
  m.pt = -1;
  if ((len < 0 ? strlen (text) : (gsize) len) > ST2022_SDP_MAX_SIZE) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_SYNTAX,
        "the SDP is %" G_GSIZE_FORMAT " bytes: an ST 2022-6 SDP is a few "
        "hundred, at most %u are read", len < 0 ? strlen (text) : (gsize) len,
        ST2022_SDP_MAX_SIZE);
    return FALSE;
  }
  copy = len < 0 ? g_strdup (text) : g_strndup (text, len);
  if (len >= 0 && strlen (copy) != (gsize) len) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_SYNTAX,
        "the SDP contains a NUL byte: it is text, one <type>=<value> per line");
    g_free (copy);
    return FALSE;
  }
  lines = g_strsplit (copy, "\n", -1);
  g_free (copy);

  for (i = 0; lines[i]; i++) {
    gchar *line = lines[i];
    gsize l = strlen (line);
    guint no = i + 1;
    const gchar *v;

    if (l > 0 && line[l - 1] == '\r')
      line[--l] = '\0';
    if (l == 0)
      continue;                 /* blank lines, the final line end */
    last_line_no = no;
    if (l > ST2022_SDP_MAX_LINE) {
      line_error (error, ST2022_SDP_ERROR_SYNTAX, no, line,
          "a line of %" G_GSIZE_FORMAT " bytes: at most %u per line", l,
          ST2022_SDP_MAX_LINE);
      goto out;
    }
    if (l < 2 || line[1] != '=' || !g_ascii_islower (line[0])) {
      line_error (error, ST2022_SDP_ERROR_SYNTAX, no, line,
          "not an SDP line: every line is <letter>=<value>");
      goto out;
    }
    v = line + 2;
    if (!seen_v) {
      if (strcmp (line, "v=0") != 0) {
        line_error (error, ST2022_SDP_ERROR_SYNTAX, no, line,
            "an SDP starts with v=0");
        goto out;
      }
      seen_v = TRUE;
      continue;
    }

    switch (line[0]) {
      case 'o':{
        gchar **tok = g_strsplit (v, " ", -1);
        gboolean good = g_strv_length (tok) == 6 && strcmp (tok[3], "IN") == 0;
        if (good) {
          g_free (s.origin);
          s.origin = g_strdup (tok[5]);
        }
        g_strfreev (tok);
        if (!good) {
          line_error (error, ST2022_SDP_ERROR_SYNTAX, no, line,
              "expected o=<user> <session id> <version> IN IP4 <address>");
          goto out;
        }
        s.have_o = TRUE;
        break;
      }
      case 's':
        s.have_s = TRUE;
        g_free (s.name);
        s.name = g_strdup (v);
        break;
      case 't':
        s.have_t = TRUE;
        break;
      case 'm':
        if (!finish_media (&m, &s, out, &taken, &rejected, error))
          goto out;
        media_clear (&m);
        m.index = n_media++;
        if (!parse_media (v, &m, no, line, error))
          goto out;
        break;
      case 'c':
        if (!parse_conn (v, m.line ? &m.conn : &s.conn, no, line, error))
          goto out;
        break;
      case 'a':{
        const gchar *colon = strchr (v, ':');
        gsize nl = colon ? (gsize) (colon - v) : strlen (v);
        const gchar *val = colon ? colon + 1 : "";
        gchar **target = NULL;

        if (nl == 6 && strncmp (v, "rtpmap", 6) == 0) {
          if (m.line == NULL) {
            line_error (error, ST2022_SDP_ERROR_INVALID, no, line,
                "a=rtpmap belongs after the m= line it describes");
            goto out;
          }
          if (!parse_rtpmap (val, &m, no, line, error))
            goto out;
        } else if (nl == 4 && strncmp (v, "fmtp", 4) == 0) {
          if (m.line == NULL) {
            line_error (error, ST2022_SDP_ERROR_INVALID, no, line,
                "a=fmtp belongs after the m= line it describes");
            goto out;
          }
          if (!parse_fmtp (val, &m, no, line, error))
            goto out;
        } else if (nl == 13 && strncmp (v, "source-filter", 13) == 0) {
          if (!parse_filter (val, m.line ? &m.filter : &s.filter, no, line,
                  error))
            goto out;
        } else if (nl == 9 && strncmp (v, "ts-refclk", 9) == 0) {
          target = m.line ? &m.ts_refclk : &s.ts_refclk;
        } else if (nl == 8 && strncmp (v, "mediaclk", 8) == 0) {
          target = m.line ? &m.mediaclk : &s.mediaclk;
        } else if (nl == 3 && strncmp (v, "mid", 3) == 0 && m.line) {
          target = &m.mid;
        } else if (nl == 5 && strncmp (v, "group", 5) == 0
            && g_str_has_prefix (val, "DUP ") && !m.line) {
          if (!parse_dup (val + 4, &s, no, line, error))
            goto out;
        }
        if (target) {
          g_free (*target);
          *target = g_strdup (val);
        }
        break;
      }
      default:
        break;                  /* i=, u=, e=, p=, b=, z=, k=, r=: not ours */
    }
  }
  if (!finish_media (&m, &s, out, &taken, &rejected, error))
    goto out;

  if (!seen_v) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_SYNTAX,
        "empty SDP: expected v=0, o=, s=, t=, m=video ... lines");
    goto out;
  }
  if (!s.have_o || !s.have_s || !s.have_t) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_SYNTAX,
        "line %u: the SDP has no %s line (RFC 4566 requires v=, o=, s= and "
        "t= before the media)", last_line_no,
        !s.have_o ? "o=" : !s.have_s ? "s=" : "t=");
    goto out;
  }
  if (!taken) {
    if (rejected.line && rejected.other_line)
      line_error (error, ST2022_SDP_ERROR_NOT_ST2022_6, rejected.line_no,
          rejected.line, "not ST 2022-6: expected a=rtpmap:<payload type> "
          ST2022_SDP_ENCODING "/27000000");
    else if (rejected.line)
      line_error (error, ST2022_SDP_ERROR_NOT_ST2022_6, rejected.line_no,
          rejected.line, "no a=rtpmap:<payload type> " ST2022_SDP_ENCODING
          "/27000000 for this media");
    else
      g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_NOT_ST2022_6,
          "no ST 2022-6 stream in the SDP: expected m=video <port> RTP/AVP "
          "<payload type> with a=rtpmap:<payload type> " ST2022_SDP_ENCODING
          "/27000000");
    goto out;
  }
  if (s.dup && !out->has_secondary) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_INVALID,
        "a=group:DUP %s %s: no second ST 2022-6 stream with a=mid:%s",
        s.dup[0], s.dup[1], strcmp (s.taken_mid, s.dup[0]) == 0 ?
        s.dup[1] : s.dup[0]);
    goto out;
  }
  if (s.dup && strcmp (s.taken_mid, s.dup[1]) == 0) {
    /* the group's order says which path is which, not the m= order */
    gchar *a = out->address, *f = out->source_address;
    gboolean mc = out->multicast;
    guint16 port = out->port;

    out->address = out->secondary_address;
    out->multicast = out->secondary_multicast;
    out->port = out->secondary_port;
    out->source_address = out->secondary_source_address;
    out->secondary_address = a;
    out->secondary_multicast = mc;
    out->secondary_port = port;
    out->secondary_source_address = f;
  }
  out->session_name = g_strdup (s.name);
  out->origin_address = g_strdup (s.origin);
  ok = TRUE;

out:
  if (!ok)
    st2022_sdp_clear (out);
  media_clear (&m);
  media_clear (&rejected);
  conn_clear (&s.conn);
  filter_clear (&s.filter);
  g_free (s.ts_refclk);
  g_free (s.mediaclk);
  g_free (s.origin);
  g_free (s.name);
  g_strfreev (s.dup);
  g_free (s.taken_mid);
  g_strfreev (lines);
  return ok;
}

gboolean
st2022_sdp_read_file (const gchar * path, gchar ** text, GError ** error)
{
  struct stat st;
  gchar *buf = NULL;
  gsize got = 0;
  gint fd, e;

  g_return_val_if_fail (path != NULL && text != NULL, FALSE);

  *text = NULL;
  /* O_NONBLOCK: a FIFO opens at once (then is refused) instead of waiting
   * for a writer that may never come */
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    goto sys_error;
  if (fstat (fd, &st) < 0)
    goto sys_error;
  if (!S_ISREG (st.st_mode)) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_FILE,
        "%s is not a regular file (a device, FIFO, socket or directory): "
        "save the SDP to a file", path);
    goto fail;
  }
  if (st.st_size > ST2022_SDP_MAX_SIZE)
    goto too_big;
  /* read one byte more than allowed: a file growing meanwhile is caught */
  buf = g_malloc (ST2022_SDP_MAX_SIZE + 2);
  while (got <= ST2022_SDP_MAX_SIZE) {
    gssize r = read (fd, buf + got, ST2022_SDP_MAX_SIZE + 1 - got);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      goto sys_error;
    if (r == 0)
      break;
    got += r;
  }
  if (got > ST2022_SDP_MAX_SIZE)
    goto too_big;
  buf[got] = '\0';
  close (fd);
  *text = buf;
  return TRUE;

too_big:
  g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_FILE,
      "%s is larger than %u bytes: not an SDP", path, ST2022_SDP_MAX_SIZE);
  goto fail;
sys_error:
  e = errno;
  g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_FILE, "%s: %s",
      path, g_strerror (e));
fail:
  if (fd >= 0)
    close (fd);
  g_free (buf);
  return FALSE;
}

/* One m= section: the stream sent to @address:@port (from @origin), with
 * a=mid:@mid when @mid. FALSE (@error) when @address is not numeric. */
static gboolean
write_media (GString * s, const St2022SdpDescription * d,
    const gchar * address, guint16 port, const gchar * origin,
    const gchar * refclk_mac, const gchar * mid, GError ** error)
{
  gboolean dst_v6 = strchr (address, ':') != NULL, dst_mc;
  gboolean org_v6 = origin && strchr (origin, ':') != NULL;

  if (!classify_address (address, dst_v6, &dst_mc)) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_INVALID,
        "destination '%s' is not a numeric IPv4 or IPv6 address", address);
    return FALSE;
  }
  g_string_append_printf (s, "m=video %u RTP/AVP %u\r\n", port,
      d->payload_type);
  /* RFC 4566: an IPv4 group carries its TTL, IPv6 and unicast do not */
  if (dst_mc && !dst_v6)
    g_string_append_printf (s, "c=IN IP4 %s/%u\r\n", address, d->ttl);
  else
    g_string_append_printf (s, "c=IN %s %s\r\n", dst_v6 ? "IP6" : "IP4",
        address);
  if (d->ts_refclk)
    g_string_append_printf (s, "a=ts-refclk:%s\r\n", d->ts_refclk);
  else if (refclk_mac)
    g_string_append_printf (s, "a=ts-refclk:localmac=%s\r\n", refclk_mac);
  if (d->mediaclk)
    g_string_append_printf (s, "a=mediaclk:%s\r\n", d->mediaclk);
  if (d->source_filter && origin && org_v6 == dst_v6)
    g_string_append_printf (s, "a=source-filter: incl IN %s %s %s\r\n",
        dst_v6 ? "IP6" : "IP4", address, origin);
  g_string_append_printf (s, "a=rtpmap:%u " ST2022_SDP_ENCODING
      "/27000000\r\n", d->payload_type);
  if (d->tp)
    g_string_append_printf (s, "a=fmtp:%u TP=%s\r\n", d->payload_type, d->tp);
  if (mid)
    g_string_append_printf (s, "a=mid:%s\r\n", mid);
  return TRUE;
}

gchar *
st2022_sdp_write (const St2022SdpDescription * d, GError ** error)
{
  GString *s;
  gboolean dst_v6, dst_mc, org_v6 = FALSE, org_mc;
  const gchar *origin = d->origin_address ? d->origin_address : "0.0.0.0";

  g_return_val_if_fail (d != NULL && d->address != NULL, NULL);

  dst_v6 = strchr (d->address, ':') != NULL;
  if (!classify_address (d->address, dst_v6, &dst_mc)) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_INVALID,
        "destination '%s' is not a numeric IPv4 or IPv6 address", d->address);
    return NULL;
  }
  org_v6 = strchr (origin, ':') != NULL;
  if (!classify_address (origin, org_v6, &org_mc)) {
    g_set_error (error, ST2022_SDP_ERROR, ST2022_SDP_ERROR_INVALID,
        "sender address '%s' is not a numeric IPv4 or IPv6 address", origin);
    return NULL;
  }

  s = g_string_new ("v=0\r\n");
  g_string_append_printf (s, "o=- %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
      " IN %s %s\r\n", d->session_id, d->session_id, org_v6 ? "IP6" : "IP4",
      origin);
  g_string_append_printf (s, "s=%s\r\n",
      d->session_name && *d->session_name ? d->session_name : "ST 2022-6");
  g_string_append (s, "t=0 0\r\n");
  if (d->secondary_address) {
    /* RFC 7104: one stream on two paths, the group's first the primary */
    g_string_append (s, "a=group:DUP primary secondary\r\n");
    if (!write_media (s, d, d->address, d->port, d->origin_address,
            d->refclk_mac, "primary", error)
        || !write_media (s, d, d->secondary_address, d->secondary_port,
            d->secondary_origin_address, d->secondary_refclk_mac,
            "secondary", error)) {
      g_string_free (s, TRUE);
      return NULL;
    }
  } else {
    write_media (s, d, d->address, d->port, d->origin_address, d->refclk_mac,
        NULL, NULL);
  }
  return g_string_free (s, FALSE);
}
