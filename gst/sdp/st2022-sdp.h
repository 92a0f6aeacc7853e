/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* SDP (RFC 4566) for SMPTE ST 2022-6 streams, in the form NMOS IS-05
 * controllers (nmos-cpp) hand out:
 *
 *   v=0
 *   o=- 1234 1234 IN IP4 192.168.1.10
 *   s=st2022sink
 *   t=0 0
 *   m=video 5004 RTP/AVP 98
 *   c=IN IP4 239.1.2.3/64
 *   a=source-filter: incl IN IP4 239.1.2.3 192.168.1.10
 *   a=rtpmap:98 SMPTE2022-6/27000000
 *   a=fmtp:98 TP=2110TPW
 *
 * Pure C (GLib only, no GObject): written by st2022sink, read by st2022src,
 * the tests and the fuzz target. Errors name the line (number and text) and
 * say what was expected. */

#ifndef __ST2022_SDP_H__
#define __ST2022_SDP_H__

#include <glib.h>

G_BEGIN_DECLS

#define ST2022_SDP_ENCODING "SMPTE2022-6"
#define ST2022_SDP_CLOCK_RATE 27000000

/* Hostile-input bounds. An ST 2022-6 SDP is a few hundred bytes; these
 * leave room for any vendor's extra lines and refuse the rest. */
#define ST2022_SDP_MAX_SIZE (64 * 1024)  /* text or file, bytes */
#define ST2022_SDP_MAX_LINE 4096        /* one line, bytes */
#define ST2022_SDP_MAX_FORMATS 32       /* payload types on one m= line */

#define ST2022_SDP_ERROR (st2022_sdp_error_quark ())
GQuark st2022_sdp_error_quark (void);

typedef enum
{
  ST2022_SDP_ERROR_SYNTAX,      /* a line that is not SDP */
  ST2022_SDP_ERROR_INVALID,     /* SDP, but a value is wrong */
  ST2022_SDP_ERROR_NOT_ST2022_6,        /* no ST 2022-6 media in it */
  ST2022_SDP_ERROR_UNSUPPORTED, /* valid SDP we cannot receive */
  ST2022_SDP_ERROR_FILE,        /* the SDP file cannot be read */
} St2022SdpErrorCode;

/* What a receiver needs, as parsed; strings owned (st2022_sdp_clear()). */
typedef struct
{
  gchar *session_name;          /* s=, NULL if absent */
  gchar *origin_address;        /* o= unicast address */
  gchar *address;               /* c=: multicast group or unicast receiver */
  gboolean ipv6;
  gboolean multicast;
  guint ttl;                    /* c= IPv4 multicast /ttl; 0 = not given */
  guint16 port;                 /* m= */
  guint8 payload_type;          /* the m= format whose rtpmap is SMPTE2022-6 */
  gchar *source_address;        /* a=source-filter: incl (first source) */
  gchar *fmtp;                  /* a=fmtp:<pt> parameters, as written */
  gchar *tp;                    /* fmtp TP= (ST 2022-8 traffic shape) */
  gchar *troff;                 /* fmtp TROFF= (ST 2022-8 offset, us) */
  gchar *ts_refclk;             /* a=ts-refclk value */
  gchar *mediaclk;              /* a=mediaclk value */
  guint media_index;            /* which m= line (0-based) was taken */
  /* RFC 7104 a=group:DUP <primary mid> <secondary mid> (ST 2022-7): the
   * second path, from the m= section of the group's second mid (the
   * fields above are the first's); FALSE without such a group */
  gboolean has_secondary;
  gchar *secondary_address;
  gboolean secondary_multicast;
  guint16 secondary_port;
  gchar *secondary_source_address;
} St2022Sdp;

/* Parses @text (@len bytes, -1 = NUL-terminated; LF or CRLF line ends).
 * Takes the first m=video RTP/AVP media whose format has
 * a=rtpmap:<pt> SMPTE2022-6/27000000 (the first leg of an ST 2022-7 pair).
 * Returns FALSE with @error "line N: '<line>': <what is wrong>" on malformed
 * SDP (a line longer than ST2022_SDP_MAX_LINE, an m= line with more than
 * ST2022_SDP_MAX_FORMATS formats, an fmtp parameter given twice included),
 * when the text is larger than ST2022_SDP_MAX_SIZE, or when nothing in it
 * is ST 2022-6. @out is cleared first. */
gboolean st2022_sdp_parse (const gchar * text, gssize len, St2022Sdp * out,
    GError ** error);
void st2022_sdp_clear (St2022Sdp * sdp);

/* Reads the SDP file @path into @text (NUL-terminated, g_free() it):
 * a regular file of at most ST2022_SDP_MAX_SIZE bytes, opened without
 * blocking. Devices (/dev/zero), FIFOs, sockets and directories are
 * refused, never waited on or read without end. FALSE with @error
 * (ST2022_SDP_ERROR_FILE) naming the file and the problem. */
gboolean st2022_sdp_read_file (const gchar * path, gchar ** text,
    GError ** error);

/* What a sender describes. */
typedef struct
{
  const gchar *session_name;    /* s=; NULL = "ST 2022-6" */
  guint64 session_id;           /* o= session id and version */
  const gchar *origin_address;  /* o= and the source filter: the sender's IP */
  const gchar *address;         /* c=: destination (group or unicast) */
  guint ttl;                    /* written for IPv4 multicast */
  guint16 port;
  guint8 payload_type;
  /* a=source-filter: incl, as nmos-cpp writes whenever it knows the
   * sender's address; FALSE or origin NULL: none */
  gboolean source_filter;
  /* ST 2022-8 traffic shape for a=fmtp:<pt> TP=...; NULL = no fmtp */
  const gchar *tp;
  /* a=ts-refclk:localmac=<mac> ("01-23-45-67-89-AB"); NULL = none */
  const gchar *refclk_mac;
  /* ST 2022-7: the second path's destination and port (and its sender's
   * address for its source filter); with @secondary_address the SDP is an
   * RFC 7104 a=group:DUP primary secondary of two m= sections (a=mid:primary,
   * a=mid:secondary). NULL = one path */
  const gchar *secondary_address;
  guint16 secondary_port;
  const gchar *secondary_origin_address;
  const gchar *secondary_refclk_mac;
  /* ST 2059: a=ts-refclk:<ts_refclk> in place of localmac (RFC 7273,
   * "ptp=IEEE1588-2008:<grandmaster>:<domain>") and a=mediaclk:<mediaclk>
   * ("direct=0"); NULL = none */
  const gchar *ts_refclk;
  const gchar *mediaclk;
} St2022SdpDescription;

/* The SDP text (CRLF line ends), or NULL with @error when an address is
 * not a numeric IPv4/IPv6 address. g_free() it. */
gchar *st2022_sdp_write (const St2022SdpDescription * desc, GError ** error);

G_END_DECLS

#endif /* __ST2022_SDP_H__ */
