/* gst-vmi: rasters whose lines are not whole bytes on the wire
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 720p23.98 and 720p24 have 4125 samples a line: 82,500 bits, 10,312.5
 * bytes, so on the wire every second line starts half way through a byte.
 * In memory such a line carries one blank C/Y pair (20 bits) more, just
 * before its SAV: every line is then whole 5-byte groups and all the code
 * that addresses lines by bytes (writer, reader, checker, ancillary data)
 * works unchanged.  The conversion between the two layouts moves nibbles
 * (every offset is a multiple of 20 bits, so of 4), in place: compacting
 * towards the start for the wire, expanding from the end for memory.
 */

#include <string.h>
#include "st2022-private.h"

static inline guint64
load_be64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

static inline void
store_be64 (guint8 * p, guint64 v)
{
  v = GUINT64_TO_BE (v);
  memcpy (p, &v, 8);
}

/* out[i] = in[i] << 4 | in[i + 1] >> 4 for i < m (reads in[0..m]); in
 * place towards lower addresses (out <= in) */
static void
shl4_forward (guint8 * out, const guint8 * in, gsize m)
{
  gsize i = 0;

  for (; i + 8 <= m; i += 8)
    store_be64 (out + i, load_be64 (in + i) << 4 | in[i + 8] >> 4);
  for (; i < m; i++)
    out[i] = (guint8) (in[i] << 4 | in[i + 1] >> 4);
}

/* the same towards higher addresses (out > in), from the end */
static void
shl4_backward (guint8 * out, const guint8 * in, gsize m)
{
  gsize i = m;

  for (; i % 8 != 0; i--)
    out[i - 1] = (guint8) (in[i - 1] << 4 | in[i] >> 4);
  for (; i >= 8; i -= 8)
    store_be64 (out + i - 8, load_be64 (in + i - 8) << 4 | in[i] >> 4);
}

static inline guint8
get_nibble (const guint8 * buf, gsize k)
{
  return k & 1 ? buf[k / 2] & 0x0f : buf[k / 2] >> 4;
}

static inline void
set_nibble (guint8 * buf, gsize k, guint8 v)
{
  guint8 *p = buf + k / 2;

  *p = k & 1 ? (*p & 0xf0) | v : (guint8) ((*p & 0x0f) | v << 4);
}

/* Copies @n nibbles from nibble @sn of @buf to nibble @dn of @buf (nibble
 * 2k is byte k's high half), overlapping as memmove allows for bytes; the
 * nibbles around the destination range are kept.  The partial bytes at
 * either end are read first and written last: in place, they may share a
 * byte with the source. */
static void
move_nibbles (guint8 * buf, gsize dn, gsize sn, gsize n)
{
  gboolean lead, trail;
  guint8 lead_v = 0, trail_v = 0;
  guint8 *out;
  const guint8 *in;
  gsize m;

  if (n == 0 || dn == sn)
    return;
  lead = dn & 1;
  if (lead) {
    lead_v = get_nibble (buf, sn);
    dn++;
    sn++;
    n--;
  }
  trail = n & 1;
  if (trail)
    trail_v = get_nibble (buf, sn + n - 1);
  m = n / 2;
  out = buf + dn / 2;
  in = buf + sn / 2;
  if ((sn & 1) == 0)
    memmove (out, in, m);
  else if (out <= in)
    shl4_forward (out, in, m);
  else
    shl4_backward (out, in, m);
  if (trail)
    set_nibble (buf, dn + n - 1, trail_v);
  if (lead)
    set_nibble (buf, dn - 1, lead_v);
}

/* the blank C/Y pair 200 040 as 5 nibbles */
static const guint8 pad_nibbles[5] = { 0x8, 0x0, 0x0, 0x4, 0x0 };

static void
put_pad (guint8 * buf, gsize nib)
{
  guint i;

  for (i = 0; i < 5; i++)
    set_nibble (buf, nib + i, pad_nibbles[i]);
}

/* A line in nibbles: head (EAV to the pad) and rest (SAV and active) */
static void
line_parts (const St2022Format * fmt, gsize * head, gsize * rest)
{
  guint pad = fmt->line_words - fmt->width * 2 - 10;

  *head = (gsize) pad * 5 / 2;
  *rest = (gsize) (fmt->line_words - pad - 2) * 5 / 2;
}

/* The layouts of a half_byte_lines format in nibbles: FALSE for others */
typedef struct
{
  gsize head, rest;             /* a line's parts before and after the pad */
  gsize mem_line, wire_line;    /* a line in memory and on the wire */
} Layout;

static gboolean
layout_of (const St2022Format * fmt, const guint8 * raster, Layout * l)
{
  if (fmt == NULL || raster == NULL || !fmt->half_byte_lines)
    return FALSE;
  line_parts (fmt, &l->head, &l->rest);
  l->mem_line = (gsize) fmt->line_bytes * 2;
  l->wire_line = l->head + l->rest;
  return TRUE;
}

void
st2022_raster_to_wire (const St2022Format * fmt, guint8 * raster)
{
  Layout l;
  guint line;

  if (!layout_of (fmt, raster, &l))
    return;
  /* every line moves towards the start, by 5 nibbles per line before it */
  for (line = 0; line < fmt->total_lines; line++) {
    gsize s = line * l.mem_line, d = line * l.wire_line;
    move_nibbles (raster, d, s, l.head);
    move_nibbles (raster, d + l.head, s + l.head + 5, l.rest);
  }
}

void
st2022_raster_from_wire (const St2022Format * fmt, guint8 * raster)
{
  Layout l;
  guint line;

  if (!layout_of (fmt, raster, &l))
    return;
  /* from the end: every line moves towards it */
  for (line = fmt->total_lines; line-- > 0;) {
    gsize s = line * l.wire_line, d = line * l.mem_line;
    move_nibbles (raster, d + l.head + 5, s + l.head, l.rest);
    move_nibbles (raster, d, s, l.head);
    put_pad (raster, d + l.head);
  }
}

gsize
st2022_raster_wire_offset (const St2022Format * fmt, gsize offset)
{
  gsize head, rest, line, nib;

  if (fmt == NULL || !fmt->half_byte_lines)
    return offset;
  line_parts (fmt, &head, &rest);
  line = offset / fmt->line_bytes;
  nib = (offset % fmt->line_bytes) * 2;
  if (nib >= head + 5)
    nib -= 5;
  else if (nib > head)
    nib = head;
  return (line * (head + rest) + nib) / 2;
}

/* SAV: 8 words */
#define SAV_NIBBLES 20

int
st2022_wire_spans (const St2022Format * fmt, guint index,
    St2022Span spans[2], guint src_offset[2])
{
  gsize head, rest, wl, n0, n1;
  guint line, n = 0;

  line_parts (fmt, &head, &rest);
  wl = head + rest;
  n0 = (gsize) index * ST2022_PAYLOAD_SIZE * 2;
  n1 = MIN (n0 + ST2022_PAYLOAD_SIZE * 2, fmt->wire_bytes * 2);
  for (line = (guint) (n0 / wl) + 1; line <= fmt->total_lines
      && (gsize) (line - 1) * wl < n1 && n < 2; line++) {
    gint row = st2022_format_line_to_row (fmt, line);
    gsize a0, a1, st, e;

    if (row < 0)
      continue;
    a0 = (gsize) (line - 1) * wl + head + SAV_NIBBLES;
    a1 = a0 + (gsize) fmt->active_bytes * 2;
    st = MAX (a0, n0);
    e = MIN (a1, n1);
    if (st >= e)
      continue;
    spans[n].row = (guint) row;
    spans[n].offset = (guint) ((st - a0) / 2);
    spans[n].length = (guint) ((e - a0 + 1) / 2) - spans[n].offset;
    if (src_offset)
      src_offset[n] = (guint) ((st - n0) / 2);
    n++;
  }
  return (int) n;
}

/* memory bytes [b0, b1) from @prev or @black */
static void
conceal_bytes (guint8 * raster, const guint8 * prev, const guint8 black[5],
    gsize b0, gsize b1)
{
  gsize k;

  if (b1 <= b0)
    return;
  if (prev) {
    memcpy (raster + b0, prev + b0, b1 - b0);
  } else {
    for (k = b0; k < b1; k++)
      raster[k] = black[k % 5];
  }
}

void
st2022_wire_conceal_datagram (const St2022Format * fmt, guint index,
    guint8 * raster, const guint8 * prev_raster, const guint8 black[5])
{
  gsize head, rest, wl, n0, n1, ml;
  guint line;

  line_parts (fmt, &head, &rest);
  wl = head + rest;
  ml = (gsize) fmt->line_bytes * 2;
  n0 = (gsize) index * ST2022_PAYLOAD_SIZE * 2;
  n1 = MIN (n0 + ST2022_PAYLOAD_SIZE * 2, fmt->wire_bytes * 2);
  for (line = (guint) (n0 / wl); line < fmt->total_lines
      && (gsize) line * wl < n1; line++) {
    gsize w0 = (gsize) line * wl, m0 = (gsize) line * ml;
    gsize s = MAX (n0, w0), e = MIN (n1, w0 + wl);

    /* the head maps to the same place in the line, the rest 5 nibbles
     * (the pad) later */
    if (s < w0 + head)
      conceal_bytes (raster, prev_raster, black, (m0 + s - w0) / 2,
          (m0 + MIN (e, w0 + head) - w0 + 1) / 2);
    if (e > w0 + head) {
      gsize s2 = MAX (s, w0 + head);
      conceal_bytes (raster, prev_raster, black, (m0 + s2 - w0 + 5) / 2,
          (m0 + e - w0 + 5 + 1) / 2);
    }
  }
}
