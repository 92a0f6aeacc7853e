/* gst-vmi: libFuzzer target for the SDP parser (gst/sdp/st2022-sdp.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: SDP text of any length and bytes (NULs included: they must be
 * refused, not read past). A parse that succeeds must give a description
 * the writer turns back into SDP that parses to the same stream.
 *
 * Structure-aware: besides libFuzzer's byte mutations (with the tokens of
 * sdp.dict), a custom mutator works on lines the way hostile SDPs differ
 * from good ones: insert a line of the grammar, duplicate, delete or swap
 * lines, repeat a token of a line many times (an m= line of 200 formats:
 * the stack overflow of issue 23), repeat an fmtp parameter (the leak of
 * issue 23), stretch a line past any limit; a crossover splices the lines
 * of two inputs. Byte-level mutation alone ran 1.45 M inputs without
 * finding either. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "st2022-sdp.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);
size_t LLVMFuzzerMutate (uint8_t * data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator (uint8_t * data, size_t size,
    size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver (const uint8_t * data1, size_t size1,
    const uint8_t * data2, size_t size2, uint8_t * out, size_t max_out_size,
    unsigned int seed);

/* Lines of the grammar the parser reads (and some it skips) */
static const char *const templates[] = {
  "v=0", "o=- 1 1 IN IP4 10.0.0.1", "o=- 2 2 IN IP6 fd00::1", "s=x",
  "t=0 0", "i=1080i50", "b=AS:1500000",
  "m=video 5004 RTP/AVP 98", "m=video 5004 RTP/AVP 96 97 98",
  "m=video 5004/2 RTP/AVP 98", "m=audio 5006 RTP/AVP 97",
  "m=video 0 RTP/AVP 98", "m=application 9 UDP/BFCP *",
  "c=IN IP4 239.1.2.3/64", "c=IN IP4 10.0.0.2", "c=IN IP6 ff15::1",
  "c=IN IP4 239.1.2.3/64/3", "c=IN IP4 239.1.2.3/",
  "a=rtpmap:98 SMPTE2022-6/27000000", "a=rtpmap:97 L24/48000/2",
  "a=rtpmap:98 SMPTE2022-6/90000", "a=fmtp:98 TP=2110TPN",
  "a=fmtp:98 TP=2110TPW; TROFF=37", "a=fmtp:98 TROFF=37;TROFF=38",
  "a=fmtp:98 interlace; TP=2110TPNL;",
  "a=source-filter: incl IN IP4 239.1.2.3 10.0.0.1",
  "a=source-filter: incl IN IP4 * 10.0.0.1 10.0.0.2",
  "a=source-filter: excl IN IP4 239.1.2.3 10.0.0.1",
  "a=ts-refclk:ptp=IEEE1588-2008:traceable",
  "a=ts-refclk:localmac=01-23-45-67-89-AB", "a=mediaclk:direct=0",
  "a=group:DUP primary secondary", "a=mid:primary", "a=mid:secondary",
};

/* counts for a repeated token: around the limits, and far past them */
static const unsigned reps[] = { 2, 31, 32, 33, 127, 128, 129, 200, 1000 };

typedef struct
{
  char *text;                   /* NUL-terminated working copy */
  char **line;                  /* into text, without their '\n' */
  size_t n;
} Lines;

static unsigned
rnd (unsigned *state, unsigned n)
{
  *state = *state * 1103515245u + 12345u;
  return n ? (*state >> 8) % n : 0;
}

static void
lines_split (Lines * l, const uint8_t * data, size_t size)
{
  size_t i, cap = 16;

  l->text = malloc (size + 1);
  memcpy (l->text, data, size);
  l->text[size] = '\0';
  l->line = malloc (cap * sizeof (char *));
  l->n = 0;
  l->line[l->n++] = l->text;
  for (i = 0; i < size; i++) {
    if (l->text[i] != '\n')
      continue;
    l->text[i] = '\0';
    if (l->n == cap) {
      cap *= 2;
      l->line = realloc (l->line, cap * sizeof (char *));
    }
    l->line[l->n++] = l->text + i + 1;
  }
}

static void
lines_free (Lines * l)
{
  free (l->line);
  free (l->text);
}

/* Appends @s (@len bytes) and a line end to @out if it fits */
static int
put (uint8_t * out, size_t * pos, size_t max, const char *s, size_t len)
{
  if (*pos + len + 1 > max)
    return 0;
  memcpy (out + *pos, s, len);
  *pos += len;
  out[(*pos)++] = '\n';
  return 1;
}

size_t
LLVMFuzzerCustomMutator (uint8_t * data, size_t size, size_t max_size,
    unsigned int seed)
{
  unsigned st = seed, op = rnd (&st, 9);
  Lines l;
  uint8_t *out;
  size_t pos = 0, i, at, other;
  int ok = 1;

  if (op == 0 || size == 0 || memchr (data, '\0', size))
    return LLVMFuzzerMutate (data, size, max_size);
  lines_split (&l, data, size);
  /* a trailing line end leaves an empty last line: not a place to work */
  if (l.n > 1 && l.line[l.n - 1][0] == '\0')
    l.n--;
  at = rnd (&st, l.n);
  other = rnd (&st, l.n);
  out = malloc (max_size);
  for (i = 0; i < l.n && ok; i++) {
    const char *ln = l.line[i];
    size_t len = strlen (ln);

    if (i != at) {
      ok = put (out, &pos, max_size, ln, len);
      continue;
    }
    switch (op) {
      case 1:{                 /* insert a line of the grammar before */
        const char *t = templates[rnd (&st, G_N_ELEMENTS (templates))];
        ok = put (out, &pos, max_size, t, strlen (t))
            && put (out, &pos, max_size, ln, len);
        break;
      }
      case 2:                  /* duplicate */
        ok = put (out, &pos, max_size, ln, len)
            && put (out, &pos, max_size, ln, len);
        break;
      case 3:                  /* delete */
        break;
      case 4:                  /* swap with another line */
        ok = put (out, &pos, max_size, l.line[other], strlen (l.line[other]));
        if (other != at)
          l.line[other] = (char *) ln;
        break;
      case 5:
      case 6:{                 /* repeat a token (5: a space-separated one,
                                 * 6: a ';'-separated fmtp parameter) */
        char sep = op == 5 ? ' ' : ';';
        const char *tok = strrchr (ln, sep);
        unsigned r = reps[rnd (&st, G_N_ELEMENTS (reps))], k;
        size_t tl;

        tok = tok ? tok : ln;
        tl = strlen (tok);
        if (pos + len + (size_t) r * (tl + 1) + 2 > max_size) {
          ok = 0;
          break;
        }
        memcpy (out + pos, ln, len);
        pos += len;
        for (k = 0; k < r; k++) {
          if (tok == ln)
            out[pos++] = sep;
          memcpy (out + pos, tok, tl);
          pos += tl;
        }
        out[pos++] = '\n';
        break;
      }
      case 7:{                 /* stretch past the line limit */
        size_t want = ST2022_SDP_MAX_LINE - 2 + rnd (&st, 5);
        if (pos + want + 2 > max_size || len == 0) {
          ok = 0;
          break;
        }
        memcpy (out + pos, ln, len);
        for (; len < want; len++)
          out[pos + len] = ln[len % strlen (ln)];
        pos += want;
        out[pos++] = '\n';
        break;
      }
      default:{                /* bytes of this line only */
        uint8_t buf[512];
        size_t n = MIN (len, sizeof (buf) / 2);

        memcpy (buf, ln, n);
        n = LLVMFuzzerMutate (buf, n, sizeof (buf));
        ok = put (out, &pos, max_size, (const char *) buf, n);
        break;
      }
    }
  }
  lines_free (&l);
  if (!ok || pos == 0) {
    free (out);
    return LLVMFuzzerMutate (data, size, max_size);
  }
  memcpy (data, out, pos);
  free (out);
  return pos;
}

size_t
LLVMFuzzerCustomCrossOver (const uint8_t * data1, size_t size1,
    const uint8_t * data2, size_t size2, uint8_t * out, size_t max_out_size,
    unsigned int seed)
{
  /* the first lines of one SDP, the last lines of the other: a session
   * part with another media part */
  unsigned st = seed;
  const uint8_t *a = data1, *b = data2;
  size_t cut1 = size1 ? rnd (&st, size1) : 0, cut2 = size2 ? rnd (&st,
      size2) : 0, n;

  while (cut1 < size1 && a[cut1] != '\n')
    cut1++;
  while (cut2 < size2 && b[cut2] != '\n')
    cut2++;
  if (cut1 < size1)
    cut1++;
  if (cut2 < size2)
    cut2++;
  n = MIN (cut1, max_out_size);
  memcpy (out, a, n);
  if (size2 - cut2 > max_out_size - n)
    return n;
  memcpy (out + n, b + cut2, size2 - cut2);
  return n + size2 - cut2;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  St2022Sdp sdp, again;
  GError *err = NULL;

  if (!st2022_sdp_parse ((const gchar *) data, size, &sdp, &err)) {
    /* an error always says something */
    if (err == NULL || err->message == NULL || err->message[0] == '\0')
      __builtin_trap ();
    g_error_free (err);
    return 0;
  }
  if (sdp.address && sdp.port && (sdp.source_address == NULL
          || strchr (sdp.source_address, ':') == NULL) == (strchr
          (sdp.address, ':') == NULL)) {
    St2022SdpDescription d = {
      .session_name = sdp.session_name,
      .origin_address = sdp.source_address,
      .address = sdp.address,
      .ttl = sdp.ttl,
      .port = sdp.port,
      .payload_type = sdp.payload_type,
      .source_filter = sdp.source_address != NULL,
      .tp = sdp.tp,
    };
    gchar *text = st2022_sdp_write (&d, NULL);

    /* a session name with a line break would not survive; all else must */
    if (text && (sdp.session_name == NULL || !strpbrk (sdp.session_name,
                "\r\n"))) {
      if (!st2022_sdp_parse (text, -1, &again, NULL))
        __builtin_trap ();
      if (strcmp (again.address, sdp.address) != 0
          || again.port != sdp.port
          || again.payload_type != sdp.payload_type
          || g_strcmp0 (again.source_address, sdp.source_address) != 0
          || g_strcmp0 (again.tp, sdp.tp) != 0)
        __builtin_trap ();
      st2022_sdp_clear (&again);
    }
    g_free (text);
  }
  st2022_sdp_clear (&sdp);
  return 0;
}
