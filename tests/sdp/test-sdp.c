/* gst-vmi: unit tests of the SDP core (gst/sdp/st2022-sdp.[ch]).
 *
 * The good texts are real-world forms: what nmos-cpp's
 * make_session_description() writes for a "video/SMPTE2022-6" sender
 * (attribute order ts-refclk, mediaclk, source-filter, rtpmap, fmtp; CRLF;
 * fmtp TP=2110TPNL as ST 2022-8 wants), and an ST 2022-7 pair as a
 * published replay device documents it (i= line, a=group:DUP, "TP=...;"
 * with a trailing semicolon). The bad ones must fail naming their line.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/sdp/sdp.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "st2022-sdp.h"

static const gchar nmos_cpp_sdp[] =
    "v=0\r\n"
    "o=- 3745911798 3745911798 IN IP4 192.168.9.142\r\n"
    "s=Example Sender 1 (SDI)\r\n"
    "t=0 0\r\n"
    "m=video 50020 RTP/AVP 98\r\n"
    "c=IN IP4 239.22.142.1/32\r\n"
    "a=ts-refclk:ptp=IEEE1588-2008:traceable\r\n"
    "a=mediaclk:direct=0\r\n"
    "a=source-filter: incl IN IP4 239.22.142.1 192.168.9.142\r\n"
    "a=rtpmap:98 SMPTE2022-6/27000000\r\n" "a=fmtp:98 TP=2110TPNL\r\n";

static const gchar dup_pair_sdp[] =
    "v=0\n"
    "o=- 1990966629 450267930 IN IP4 192.168.0.1\n"
    "s=PCAP Replay\n"
    "i=1080i25 (1080i50)  1920x1080  1.485 Gb/s\n"
    "t=0 0\n"
    "a=group:DUP primary secondary\n"
    "m=video 40000 RTP/AVP 98\n"
    "c=IN IP4 239.0.0.1/8\n"
    "a=source-filter: incl IN IP4 239.0.0.1 192.168.0.1\n"
    "a=rtpmap:98 SMPTE2022-6/27000000\n"
    "a=fmtp:98 TP=2110TPW;\n"
    "a=ts-refclk:localmac=02-00-5e-00-00-01\n"
    "a=mediaclk:direct=0\n"
    "a=mid:primary\n"
    "m=video 40000 RTP/AVP 98\n"
    "c=IN IP4 239.0.0.2/8\n"
    "a=source-filter: incl IN IP4 239.0.0.2 192.168.0.2\n"
    "a=rtpmap:98 SMPTE2022-6/27000000\n"
    "a=fmtp:98 TP=2110TPW;\n"
    "a=ts-refclk:localmac=02-00-5e-00-00-02\n"
    "a=mediaclk:direct=0\n" "a=mid:secondary\n";

GST_START_TEST (test_parse_nmos_cpp)
{
  St2022Sdp sdp;
  GError *err = NULL;

  fail_unless (st2022_sdp_parse (nmos_cpp_sdp, -1, &sdp, &err),
      "%s", err ? err->message : "");
  fail_unless_equals_string (sdp.session_name, "Example Sender 1 (SDI)");
  fail_unless_equals_string (sdp.origin_address, "192.168.9.142");
  fail_unless_equals_string (sdp.address, "239.22.142.1");
  fail_unless (sdp.multicast);
  fail_if (sdp.ipv6);
  fail_unless_equals_int (sdp.ttl, 32);
  fail_unless_equals_int (sdp.port, 50020);
  fail_unless_equals_int (sdp.payload_type, 98);
  fail_unless_equals_string (sdp.source_address, "192.168.9.142");
  fail_unless_equals_string (sdp.fmtp, "TP=2110TPNL");
  fail_unless_equals_string (sdp.tp, "2110TPNL");
  fail_unless (sdp.troff == NULL);
  fail_unless_equals_string (sdp.ts_refclk, "ptp=IEEE1588-2008:traceable");
  fail_unless_equals_string (sdp.mediaclk, "direct=0");
  fail_unless_equals_int (sdp.media_index, 0);
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

GST_START_TEST (test_parse_dup_pair)
{
  St2022Sdp sdp;
  GError *err = NULL;

  /* the first leg of the pair */
  fail_unless (st2022_sdp_parse (dup_pair_sdp, -1, &sdp, &err),
      "%s", err ? err->message : "");
  fail_unless_equals_string (sdp.address, "239.0.0.1");
  fail_unless_equals_int (sdp.ttl, 8);
  fail_unless_equals_int (sdp.port, 40000);
  fail_unless_equals_int (sdp.payload_type, 98);
  fail_unless_equals_string (sdp.source_address, "192.168.0.1");
  fail_unless_equals_string (sdp.fmtp, "TP=2110TPW;");
  fail_unless_equals_string (sdp.tp, "2110TPW");
  fail_unless_equals_string (sdp.ts_refclk, "localmac=02-00-5e-00-00-01");
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

/* session-level c= and source filter, an audio stream first, the 2022-6
 * format second on its m= line, lower-case encoding name, TROFF */
GST_START_TEST (test_parse_session_level)
{
  static const gchar text[] =
      "v=0\n"
      "o=jdoe 1 2 IN IP4 10.1.2.3\n"
      "s=-\n"
      "c=IN IP4 232.1.2.3/16\n"
      "t=0 0\n"
      "a=source-filter: incl IN IP4 * 10.1.2.3\n"
      "m=audio 5006 RTP/AVP 97\n"
      "a=rtpmap:97 L24/48000/2\n"
      "m=video 5004 RTP/AVP 96 112\n"
      "b=AS:3000000\n"
      "a=rtpmap:96 raw/90000\n"
      "a=rtpmap:112 smpte2022-6/27000000\n"
      "a=fmtp:112 TP=2110TPN; TROFF=37\n";
  St2022Sdp sdp;
  GError *err = NULL;

  fail_unless (st2022_sdp_parse (text, -1, &sdp, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_string (sdp.address, "232.1.2.3");
  fail_unless_equals_int (sdp.ttl, 16);
  fail_unless_equals_int (sdp.port, 5004);
  fail_unless_equals_int (sdp.payload_type, 112);
  fail_unless_equals_string (sdp.source_address, "10.1.2.3");
  fail_unless_equals_string (sdp.tp, "2110TPN");
  fail_unless_equals_string (sdp.troff, "37");
  fail_unless_equals_int (sdp.media_index, 1);
  fail_unless (sdp.ts_refclk == NULL);
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

GST_START_TEST (test_parse_unicast_ipv6)
{
  static const gchar uc[] =
      "v=0\no=- 1 1 IN IP4 10.0.0.1\ns=x\nt=0 0\n"
      "m=video 6000 RTP/AVP 98\nc=IN IP4 10.0.0.2\n"
      "a=rtpmap:98 SMPTE2022-6/27000000\n";
  static const gchar v6[] =
      "v=0\no=- 1 1 IN IP6 fd00::1\ns=x\nt=0 0\n"
      "m=video 6002 RTP/AVP 99\nc=IN IP6 ff3e::8000:1\n"
      "a=source-filter: incl IN IP6 ff3e::8000:1 fd00::1\n"
      "a=rtpmap:99 SMPTE2022-6/27000000\n";
  St2022Sdp sdp;

  fail_unless (st2022_sdp_parse (uc, -1, &sdp, NULL));
  fail_unless_equals_string (sdp.address, "10.0.0.2");
  fail_if (sdp.multicast);
  fail_unless_equals_int (sdp.ttl, 0);
  fail_unless (sdp.source_address == NULL);
  fail_unless (sdp.fmtp == NULL && sdp.tp == NULL);
  st2022_sdp_clear (&sdp);

  fail_unless (st2022_sdp_parse (v6, -1, &sdp, NULL));
  fail_unless_equals_string (sdp.address, "ff3e::8000:1");
  fail_unless (sdp.multicast && sdp.ipv6);
  fail_unless_equals_int (sdp.port, 6002);
  fail_unless_equals_int (sdp.payload_type, 99);
  fail_unless_equals_string (sdp.source_address, "fd00::1");
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

#define HEAD "v=0\no=- 1 1 IN IP4 10.0.0.1\ns=x\nt=0 0\n"
#define MEDIA "m=video 5004 RTP/AVP 98\nc=IN IP4 239.1.2.3/64\n"
#define RTPMAP "a=rtpmap:98 SMPTE2022-6/27000000\n"

static const struct
{
  const gchar *text;
  gint code;
  const gchar *message;
} bad[] = {
  {"", ST2022_SDP_ERROR_SYNTAX,
      "empty SDP: expected v=0, o=, s=, t=, m=video ... lines"},
  {"o=- 1 1 IN IP4 10.0.0.1\nv=0\n", ST2022_SDP_ERROR_SYNTAX,
      "line 1: 'o=- 1 1 IN IP4 10.0.0.1': an SDP starts with v=0"},
  {"v=0\nhello world\n", ST2022_SDP_ERROR_SYNTAX,
      "line 2: 'hello world': not an SDP line: every line is <letter>=<value>"},
  {"v=0\no=- 1 IN IP4 10.0.0.1\n", ST2022_SDP_ERROR_SYNTAX,
      "line 2: 'o=- 1 IN IP4 10.0.0.1': expected o=<user> <session id> "
      "<version> IN IP4 <address>"},
  {"v=0\no=- 1 1 IN IP4 10.0.0.1\nt=0 0\n" MEDIA RTPMAP,
        ST2022_SDP_ERROR_SYNTAX,
        "line 6: the SDP has no s= line (RFC 4566 requires v=, o=, s= and t= "
      "before the media)"},
  {HEAD "m=video 70000 RTP/AVP 98\n", ST2022_SDP_ERROR_INVALID,
      "line 5: 'm=video 70000 RTP/AVP 98': port '70000' is not a number 1-65535"},
  {HEAD "m=video 5004/2 RTP/AVP 98\n", ST2022_SDP_ERROR_UNSUPPORTED,
      "line 5: 'm=video 5004/2 RTP/AVP 98': a port range: an ST 2022-6 stream "
      "is one port"},
  {HEAD "m=video 5004 RTP/AVP x98\n", ST2022_SDP_ERROR_INVALID,
      "line 5: 'm=video 5004 RTP/AVP x98': RTP payload type 'x98' is not a "
      "number 0-127"},
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IP4 239.1.2.300/64\n",
        ST2022_SDP_ERROR_INVALID,
      "line 6: 'c=IN IP4 239.1.2.300/64': '239.1.2.300' is not a numeric IPv4 address"},
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IP4 239.1.2.3/64/4\n",
        ST2022_SDP_ERROR_UNSUPPORTED,
        "line 6: 'c=IN IP4 239.1.2.3/64/4': 4 addresses: an ST 2022-6 stream "
      "is one address (leave out the /<count>)"},
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IP4 10.0.0.2/64\n",
        ST2022_SDP_ERROR_INVALID,
        "line 6: 'c=IN IP4 10.0.0.2/64': a TTL (/64) is only for multicast "
      "groups; write c=IN IP4 10.0.0.2"},
  /* found by fuzz_sdp: an empty address */
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IP4 \n", ST2022_SDP_ERROR_SYNTAX,
      "line 6: 'c=IN IP4 ': no address: expected c=IN IP4 <address>"},
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IP4 /64\n", ST2022_SDP_ERROR_SYNTAX,
      "line 6: 'c=IN IP4 /64': no address: expected c=IN IP4 <address>"},
  {HEAD "m=video 5004 RTP/AVP 98\nc=IN IPX 1.2.3.4\n",
        ST2022_SDP_ERROR_UNSUPPORTED,
      "line 6: 'c=IN IPX 1.2.3.4': address type 'IPX' is neither IP4 nor IP6"},
  {HEAD MEDIA "a=rtpmap:98 SMPTE2022-6/90000\n", ST2022_SDP_ERROR_INVALID,
        "line 7: 'a=rtpmap:98 SMPTE2022-6/90000': ST 2022-6 runs on a 27 MHz "
      "RTP clock: expected a=rtpmap:98 SMPTE2022-6/27000000"},
  {HEAD MEDIA "a=rtpmap:97 SMPTE2022-6/27000000\n", ST2022_SDP_ERROR_INVALID,
        "line 7: 'a=rtpmap:97 SMPTE2022-6/27000000': payload type 97 is not "
      "one of the formats of 'm=video 5004 RTP/AVP 98'"},
  {HEAD MEDIA "a=rtpmap:98\n", ST2022_SDP_ERROR_SYNTAX,
        "line 7: 'a=rtpmap:98': expected a=rtpmap:<payload type> "
      "<encoding>/<clock rate>"},
  {HEAD MEDIA "a=rtpmap:98 raw/90000\n", ST2022_SDP_ERROR_NOT_ST2022_6,
        "line 7: 'a=rtpmap:98 raw/90000': not ST 2022-6: expected "
      "a=rtpmap:<payload type> SMPTE2022-6/27000000"},
  {HEAD MEDIA, ST2022_SDP_ERROR_NOT_ST2022_6,
        "line 5: 'm=video 5004 RTP/AVP 98': no a=rtpmap:<payload type> "
      "SMPTE2022-6/27000000 for this media"},
  {HEAD "m=audio 5004 RTP/AVP 97\na=rtpmap:97 L24/48000/2\n",
        ST2022_SDP_ERROR_NOT_ST2022_6,
        "no ST 2022-6 stream in the SDP: expected m=video <port> RTP/AVP "
      "<payload type> with a=rtpmap:<payload type> SMPTE2022-6/27000000"},
  {HEAD "m=video 5004 RTP/AVP 98\n" RTPMAP, ST2022_SDP_ERROR_INVALID,
        "line 5: 'm=video 5004 RTP/AVP 98': no c= line for this stream (in "
      "the media or the session part): add c=IN IP4 <address>"},
  {HEAD "m=video 0 RTP/AVP 98\nc=IN IP4 239.1.2.3/64\n" RTPMAP,
        ST2022_SDP_ERROR_INVALID,
      "line 5: 'm=video 0 RTP/AVP 98': port 0 means the stream is disabled"},
  {HEAD MEDIA "a=source-filter: excl IN IP4 239.1.2.3 10.0.0.9\n" RTPMAP,
        ST2022_SDP_ERROR_UNSUPPORTED,
        "line 7: 'a=source-filter: excl IN IP4 239.1.2.3 10.0.0.9': exclusive "
      "source filters are not supported; use 'incl' with the sender's address"},
  {HEAD MEDIA "a=source-filter: incl IN IP4 239.9.9.9 10.0.0.9\n" RTPMAP,
        ST2022_SDP_ERROR_INVALID,
        "line 7: 'a=source-filter: incl IN IP4 239.9.9.9 10.0.0.9': the filter "
      "is for 239.9.9.9 but the stream goes to 239.1.2.3"},
  {HEAD MEDIA "a=source-filter: incl IN IP4 239.1.2.3\n" RTPMAP,
        ST2022_SDP_ERROR_SYNTAX,
        "line 7: 'a=source-filter: incl IN IP4 239.1.2.3': expected "
      "a=source-filter: incl IN IP4 <group> <source>"},
  {HEAD MEDIA RTPMAP "a=fmtp:98 TP=2110TPX\n", ST2022_SDP_ERROR_INVALID,
        "line 8: 'a=fmtp:98 TP=2110TPX': TP=2110TPX: the ST 2022-8 sender "
      "types are 2110TPN, 2110TPNL and 2110TPW"},
  {HEAD MEDIA RTPMAP "a=fmtp:98 TP=2110TPN; TROFF=soon\n",
        ST2022_SDP_ERROR_INVALID,
        "line 8: 'a=fmtp:98 TP=2110TPN; TROFF=soon': TROFF=soon is not a "
      "number of microseconds"},
  {"v=0\na=rtpmap:98 SMPTE2022-6/27000000\n", ST2022_SDP_ERROR_INVALID,
        "line 2: 'a=rtpmap:98 SMPTE2022-6/27000000': a=rtpmap belongs after "
      "the m= line it describes"},
  {"v=0\n\001\002=\n", ST2022_SDP_ERROR_SYNTAX,
      "line 2: '?" "?=': not an SDP line: every line is <letter>=<value>"},
};

GST_START_TEST (test_parse_bad)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    St2022Sdp sdp;
    GError *err = NULL;

    fail_if (st2022_sdp_parse (bad[i].text, -1, &sdp, &err), "case %u", i);
    fail_unless (err != NULL);
    fail_unless (g_error_matches (err, ST2022_SDP_ERROR, bad[i].code),
        "case %u: code %d, message %s", i, err->code, err->message);
    fail_unless_equals_string (err->message, bad[i].message);
    fail_unless (sdp.address == NULL);
    g_error_free (err);
  }
}

GST_END_TEST;

GST_START_TEST (test_parse_nul)
{
  static const gchar text[] = HEAD MEDIA RTPMAP;
  St2022Sdp sdp;
  GError *err = NULL;
  gchar *copy = g_memdup2 (text, sizeof (text));

  copy[20] = '\0';
  fail_if (st2022_sdp_parse (copy, sizeof (text) - 1, &sdp, &err));
  fail_unless (g_error_matches (err, ST2022_SDP_ERROR,
          ST2022_SDP_ERROR_SYNTAX));
  g_error_free (err);
  g_free (copy);
  /* the length given is respected: the text up to the RTPMAP line only */
  fail_if (st2022_sdp_parse (text, strlen (HEAD MEDIA), &sdp, NULL));
  fail_unless (st2022_sdp_parse (text, sizeof (text) - 1, &sdp, NULL));
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

/* An m= line of @n formats (98 first, then 0, 1, 2, ...). */
static gchar *
sdp_with_formats (guint n)
{
  GString *s = g_string_new (HEAD "m=video 5004 RTP/AVP 98");
  guint i;

  for (i = 1; i < n; i++)
    g_string_append_printf (s, " %u", (i - 1) % 128);
  g_string_append (s, "\nc=IN IP4 239.1.2.3/64\n" RTPMAP);
  return g_string_free (s, FALSE);
}

/* D1: 129 formats overwrote the stack silently, 200 crashed (SIGSEGV). */
GST_START_TEST (test_parse_too_many_formats)
{
  static const guint counts[] = { 33, 129, 200, 1000 };
  St2022Sdp sdp;
  GError *err = NULL;
  gchar *text, *want;
  guint i;

  text = sdp_with_formats (ST2022_SDP_MAX_FORMATS);
  fail_unless (st2022_sdp_parse (text, -1, &sdp, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (sdp.payload_type, 98);
  st2022_sdp_clear (&sdp);
  g_free (text);

  for (i = 0; i < G_N_ELEMENTS (counts); i++) {
    text = sdp_with_formats (counts[i]);
    fail_if (st2022_sdp_parse (text, -1, &sdp, &err));
    fail_unless (g_error_matches (err, ST2022_SDP_ERROR,
            ST2022_SDP_ERROR_UNSUPPORTED), "%s", err->message);
    want = g_strdup_printf ("%u formats: at most 32 payload types per m= "
        "line", counts[i]);
    fail_unless (g_str_has_prefix (err->message, "line 5: 'm=video 5004 "
            "RTP/AVP 98 0 1 2 3"), "%s", err->message);
    fail_unless (g_str_has_suffix (err->message, want), "%s", err->message);
    g_free (want);
    g_clear_error (&err);
    fail_unless (sdp.address == NULL);
    g_free (text);
  }
}

GST_END_TEST;

GST_START_TEST (test_parse_limits)
{
  St2022Sdp sdp;
  GError *err = NULL;
  GString *s;
  gchar *big;

  /* a line at the limit is read; one byte more is refused by number */
  s = g_string_new (HEAD MEDIA RTPMAP "a=x-vendor:");
  while (s->len - strlen (HEAD MEDIA RTPMAP) < ST2022_SDP_MAX_LINE)
    g_string_append_c (s, 'v');
  g_string_append_c (s, '\n');
  fail_unless (st2022_sdp_parse (s->str, s->len, &sdp, &err), "%s",
      err ? err->message : "");
  st2022_sdp_clear (&sdp);
  g_string_insert_c (s, strlen (HEAD MEDIA RTPMAP) + 12, 'v');
  fail_if (st2022_sdp_parse (s->str, s->len, &sdp, &err));
  fail_unless (g_error_matches (err, ST2022_SDP_ERROR,
          ST2022_SDP_ERROR_SYNTAX));
  fail_unless (g_str_has_prefix (err->message, "line 8: 'a=x-vendor:vvv"),
      "%s", err->message);
  fail_unless (g_str_has_suffix (err->message, "...': a line of 4097 bytes: "
          "at most 4096 per line"), "%s", err->message);
  g_clear_error (&err);
  g_string_free (s, TRUE);

  /* the whole text: 64 KiB of blank lines are still text, one more byte
   * is not read at all */
  big = g_malloc0 (ST2022_SDP_MAX_SIZE + 2);
  memcpy (big, HEAD MEDIA RTPMAP, strlen (HEAD MEDIA RTPMAP));
  memset (big + strlen (HEAD MEDIA RTPMAP), '\n',
      ST2022_SDP_MAX_SIZE - strlen (HEAD MEDIA RTPMAP));
  fail_unless (st2022_sdp_parse (big, -1, &sdp, &err), "%s",
      err ? err->message : "");
  st2022_sdp_clear (&sdp);
  big[ST2022_SDP_MAX_SIZE] = '\n';
  fail_if (st2022_sdp_parse (big, -1, &sdp, &err));
  fail_unless_equals_string (err->message, "the SDP is 65537 bytes: an ST "
      "2022-6 SDP is a few hundred, at most 65536 are read");
  g_clear_error (&err);
  g_free (big);
}

GST_END_TEST;

/* D8: a repeated fmtp parameter leaked the first value (found by the leak
 * checker of the ASan tier and of scripts/fuzz) and was taken silently. */
GST_START_TEST (test_parse_fmtp_repeated)
{
  static const struct
  {
    const gchar *fmtp;
    const gchar *message;
  } cases[] = {
    {"a=fmtp:98 TP=2110TPN; TROFF=37; TROFF=37",
        "line 8: 'a=fmtp:98 TP=2110TPN; TROFF=37; TROFF=37': TROFF is given "
          "twice: write each fmtp parameter once"},
    {"a=fmtp:98 TP=2110TPN;TP=2110TPW",
        "line 8: 'a=fmtp:98 TP=2110TPN;TP=2110TPW': TP is given twice: "
          "write each fmtp parameter once"},
  };
  St2022Sdp sdp;
  GError *err = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *text = g_strconcat (HEAD MEDIA RTPMAP, cases[i].fmtp, "\n", NULL);

    fail_if (st2022_sdp_parse (text, -1, &sdp, &err));
    fail_unless (g_error_matches (err, ST2022_SDP_ERROR,
            ST2022_SDP_ERROR_INVALID));
    fail_unless_equals_string (err->message, cases[i].message);
    g_clear_error (&err);
    g_free (text);
  }
  /* two fmtp lines for one format: the last wins, nothing leaks */
  fail_unless (st2022_sdp_parse (HEAD MEDIA RTPMAP "a=fmtp:98 TROFF=1\n"
          "a=fmtp:98 TP=2110TPW; TROFF=37\n", -1, &sdp, &err));
  fail_unless_equals_string (sdp.tp, "2110TPW");
  fail_unless_equals_string (sdp.troff, "37");
  st2022_sdp_clear (&sdp);
}

GST_END_TEST;

/* D6: /dev/zero was read without end (2.1 GB), a FIFO blocked for ever. */
GST_START_TEST (test_read_file)
{
  gchar *dir = g_dir_make_tmp ("test-sdp-XXXXXX", NULL);
  gchar *good = g_build_filename (dir, "good.sdp", NULL);
  gchar *big = g_build_filename (dir, "big.sdp", NULL);
  gchar *fifo = g_build_filename (dir, "fifo.sdp", NULL);
  gchar *missing = g_build_filename (dir, "missing.sdp", NULL);
  gchar *text = NULL, *want, *data;
  GError *err = NULL;

  fail_unless (g_file_set_contents (good, nmos_cpp_sdp, -1, NULL));
  fail_unless (st2022_sdp_read_file (good, &text, &err));
  fail_unless_equals_string (text, nmos_cpp_sdp);
  g_free (text);

  /* exactly the limit is read; one byte more is refused */
  data = g_malloc (ST2022_SDP_MAX_SIZE + 1);
  memset (data, '\n', ST2022_SDP_MAX_SIZE + 1);
  fail_unless (g_file_set_contents (big, data, ST2022_SDP_MAX_SIZE, NULL));
  fail_unless (st2022_sdp_read_file (big, &text, &err));
  fail_unless_equals_int (strlen (text), ST2022_SDP_MAX_SIZE);
  g_free (text);
  fail_unless (g_file_set_contents (big, data, ST2022_SDP_MAX_SIZE + 1,
          NULL));
  fail_if (st2022_sdp_read_file (big, &text, &err));
  fail_unless (text == NULL);
  want = g_strdup_printf ("%s is larger than 65536 bytes: not an SDP", big);
  fail_unless_equals_string (err->message, want);
  g_free (want);
  g_clear_error (&err);
  g_free (data);

  fail_if (st2022_sdp_read_file ("/dev/zero", &text, &err));
  fail_unless (g_error_matches (err, ST2022_SDP_ERROR, ST2022_SDP_ERROR_FILE));
  fail_unless_equals_string (err->message, "/dev/zero is not a regular file "
      "(a device, FIFO, socket or directory): save the SDP to a file");
  g_clear_error (&err);

  /* no writer: this would block for ever if opened waiting */
  fail_unless (mkfifo (fifo, 0600) == 0);
  fail_if (st2022_sdp_read_file (fifo, &text, &err));
  want = g_strdup_printf ("%s is not a regular file (a device, FIFO, socket "
      "or directory): save the SDP to a file", fifo);
  fail_unless_equals_string (err->message, want);
  g_free (want);
  g_clear_error (&err);

  fail_if (st2022_sdp_read_file (dir, &text, &err));
  fail_unless (g_str_has_suffix (err->message, "is not a regular file (a "
          "device, FIFO, socket or directory): save the SDP to a file"));
  g_clear_error (&err);

  fail_if (st2022_sdp_read_file (missing, &text, &err));
  want = g_strdup_printf ("%s: No such file or directory", missing);
  fail_unless_equals_string (err->message, want);
  g_free (want);
  g_clear_error (&err);

  g_unlink (good);
  g_unlink (big);
  g_unlink (fifo);
  g_rmdir (dir);
  g_free (good);
  g_free (big);
  g_free (fifo);
  g_free (missing);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_write_multicast)
{
  St2022SdpDescription d = {
    .session_name = "st2022sink",
    .session_id = 42,
    .origin_address = "192.168.1.10",
    .address = "239.1.2.3",
    .ttl = 64,
    .port = 5004,
    .payload_type = 98,
    .source_filter = TRUE,
    .tp = "2110TPW",
    .refclk_mac = "02-00-5E-01-02-03",
  };
  gchar *text = st2022_sdp_write (&d, NULL);

  fail_unless_equals_string (text,
      "v=0\r\n"
      "o=- 42 42 IN IP4 192.168.1.10\r\n"
      "s=st2022sink\r\n"
      "t=0 0\r\n"
      "m=video 5004 RTP/AVP 98\r\n"
      "c=IN IP4 239.1.2.3/64\r\n"
      "a=ts-refclk:localmac=02-00-5E-01-02-03\r\n"
      "a=source-filter: incl IN IP4 239.1.2.3 192.168.1.10\r\n"
      "a=rtpmap:98 SMPTE2022-6/27000000\r\n" "a=fmtp:98 TP=2110TPW\r\n");
  g_free (text);
}

GST_END_TEST;

/* ST 2059: the PTP reference replaces localmac, mediaclk follows it, and
 * the parser reads both back */
GST_START_TEST (test_write_ptp_refclk)
{
  St2022SdpDescription d = {
    .session_id = 7,
    .origin_address = "10.0.0.2",
    .address = "239.1.2.3",
    .ttl = 1,
    .port = 5004,
    .payload_type = 98,
    .refclk_mac = "02-00-5E-01-02-03",
    .ts_refclk = "ptp=IEEE1588-2008:08-00-11-FF-FE-21-E1-B0:127",
    .mediaclk = "direct=0",
  };
  gchar *text = st2022_sdp_write (&d, NULL);
  St2022Sdp sdp;

  fail_unless_equals_string (text,
      "v=0\r\n"
      "o=- 7 7 IN IP4 10.0.0.2\r\n"
      "s=ST 2022-6\r\n"
      "t=0 0\r\n"
      "m=video 5004 RTP/AVP 98\r\n"
      "c=IN IP4 239.1.2.3/1\r\n"
      "a=ts-refclk:ptp=IEEE1588-2008:08-00-11-FF-FE-21-E1-B0:127\r\n"
      "a=mediaclk:direct=0\r\n" "a=rtpmap:98 SMPTE2022-6/27000000\r\n");
  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless_equals_string (sdp.ts_refclk,
      "ptp=IEEE1588-2008:08-00-11-FF-FE-21-E1-B0:127");
  fail_unless_equals_string (sdp.mediaclk, "direct=0");
  st2022_sdp_clear (&sdp);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_write_unicast_minimal)
{
  St2022SdpDescription d = {
    .address = "127.0.0.1",
    .ttl = 64,
    .port = 6000,
    .payload_type = 100,
  };
  GError *err = NULL;
  gchar *text = st2022_sdp_write (&d, NULL);

  fail_unless_equals_string (text,
      "v=0\r\n"
      "o=- 0 0 IN IP4 0.0.0.0\r\n"
      "s=ST 2022-6\r\n"
      "t=0 0\r\n"
      "m=video 6000 RTP/AVP 100\r\n"
      "c=IN IP4 127.0.0.1\r\n" "a=rtpmap:100 SMPTE2022-6/27000000\r\n");
  g_free (text);

  d.address = "localhost";
  fail_unless (st2022_sdp_write (&d, &err) == NULL);
  fail_unless_equals_string (err->message,
      "destination 'localhost' is not a numeric IPv4 or IPv6 address");
  g_error_free (err);
}

GST_END_TEST;

/* What we write, we and GStreamer's own SDP parser read back. */
GST_START_TEST (test_round_trip)
{
  St2022SdpDescription d = {
    .session_name = "rt", .session_id = 7, .origin_address = "10.9.8.7",
    .address = "239.255.0.1", .ttl = 5, .port = 20000, .payload_type = 127,
    .source_filter = TRUE, .tp = "2110TPNL",
  };
  gchar *text = st2022_sdp_write (&d, NULL);
  St2022Sdp sdp;
  GstSDPMessage *msg;
  const GstSDPMedia *media;
  const GstSDPConnection *conn;

  fail_unless (st2022_sdp_parse (text, -1, &sdp, NULL));
  fail_unless_equals_string (sdp.address, "239.255.0.1");
  fail_unless_equals_int (sdp.ttl, 5);
  fail_unless_equals_int (sdp.port, 20000);
  fail_unless_equals_int (sdp.payload_type, 127);
  fail_unless_equals_string (sdp.source_address, "10.9.8.7");
  fail_unless_equals_string (sdp.tp, "2110TPNL");
  fail_unless_equals_string (sdp.origin_address, "10.9.8.7");
  st2022_sdp_clear (&sdp);

  fail_unless_equals_int (gst_sdp_message_new (&msg), GST_SDP_OK);
  fail_unless_equals_int (gst_sdp_message_parse_buffer ((guint8 *) text,
          strlen (text), msg), GST_SDP_OK);
  fail_unless_equals_int (gst_sdp_message_medias_len (msg), 1);
  media = gst_sdp_message_get_media (msg, 0);
  fail_unless_equals_string (gst_sdp_media_get_media (media), "video");
  fail_unless_equals_int (gst_sdp_media_get_port (media), 20000);
  fail_unless_equals_string (gst_sdp_media_get_proto (media), "RTP/AVP");
  fail_unless_equals_string (gst_sdp_media_get_format (media, 0), "127");
  fail_unless_equals_string (gst_sdp_media_get_attribute_val (media,
          "rtpmap"), "127 SMPTE2022-6/27000000");
  conn = gst_sdp_media_get_connection (media, 0);
  fail_unless_equals_string (conn->address, "239.255.0.1");
  fail_unless_equals_int (conn->ttl, 5);
  gst_sdp_message_free (msg);
  g_free (text);
}

GST_END_TEST;

static Suite *
sdp_suite (void)
{
  Suite *s = suite_create ("sdp");
  TCase *tc = tcase_create ("core");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse_nmos_cpp);
  tcase_add_test (tc, test_parse_dup_pair);
  tcase_add_test (tc, test_parse_session_level);
  tcase_add_test (tc, test_parse_unicast_ipv6);
  tcase_add_test (tc, test_parse_bad);
  tcase_add_test (tc, test_parse_nul);
  tcase_add_test (tc, test_parse_too_many_formats);
  tcase_add_test (tc, test_parse_limits);
  tcase_add_test (tc, test_parse_fmtp_repeated);
  tcase_add_test (tc, test_read_file);
  tcase_add_test (tc, test_write_multicast);
  tcase_add_test (tc, test_write_unicast_minimal);
  tcase_add_test (tc, test_write_ptp_refclk);
  tcase_add_test (tc, test_round_trip);
  return s;
}

GST_CHECK_MAIN (sdp);
