/* gst-vmi: concealment helpers: which picture bytes a datagram carries
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "st2022-private.h"

int
st2022_datagram_spans (const St2022Format * fmt, guint index,
    St2022Span spans[2])
{
  return st2022_datagram_spans_full (fmt, index, spans, NULL);
}

int
st2022_datagram_spans_full (const St2022Format * fmt, guint index,
    St2022Span spans[2], guint src_offset[2])
{
  guint line;

  if (fmt == NULL || spans == NULL || index >= fmt->datagrams_per_frame)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (fmt->half_byte_lines)
    return st2022_wire_spans (fmt, index, spans, src_offset);
  line = (guint) ((gsize) index * ST2022_PAYLOAD_SIZE / fmt->line_bytes) + 1;
  return st2022_datagram_spans_at (fmt, index, line,
      (gsize) (line - 1) * fmt->line_bytes, spans, src_offset);
}

int
st2022_datagram_spans_at (const St2022Format * fmt, guint index, guint line,
    gsize line_start, St2022Span spans[2], guint src_offset[2])
{
  gsize b0, b1;
  guint n = 0;

  b0 = (gsize) index * ST2022_PAYLOAD_SIZE;
  b1 = MIN (b0 + ST2022_PAYLOAD_SIZE, fmt->frame_bytes);

  /* 1376 B is less than a line, so at most two lines are touched */
  for (; line <= fmt->total_lines && line_start < b1;
      line++, line_start += fmt->line_bytes) {
    gsize a0, a1, s, e;
    gint row;

    row = st2022_format_line_to_row (fmt, line);
    if (row < 0)
      continue;
    a0 = line_start + fmt->active_offset;
    a1 = a0 + fmt->active_bytes;
    s = MAX (a0, b0);
    e = MIN (a1, b1);
    if (s >= e)
      continue;
    spans[n].row = (guint) row;
    spans[n].offset = (guint) (s - a0);
    spans[n].length = (guint) (e - s);
    if (src_offset)
      src_offset[n] = (guint) (s - b0);
    n++;
  }
  return (int) n;
}

/* UYVP black: Cb=0x200 Y=0x040 Cr=0x200 Y=0x040 packed MSB first */
static const guint8 uyvp_black[5] = { 0x80, 0x04, 0x08, 0x00, 0x40 };

/* The spans of the next datagram from *@i on that @map marks missing
 * (*@i then points past it): how many (0..2), or -1 when none is left. */
static int
next_missing_spans (const St2022Format * fmt, const guint32 * map, guint * i,
    St2022Span spans[2])
{
  for (; *i < fmt->datagrams_per_frame; (*i)++) {
    /* skip whole clean words quickly */
    if ((*i % 32) == 0 && map[*i / 32] == 0) {
      *i += 31;
      continue;
    }
    if (map[*i / 32] & (1u << (*i % 32)))
      return st2022_datagram_spans (fmt, (*i)++, spans);
  }
  return -1;
}

int
st2022_conceal_uyvp (const St2022Format * fmt, const guint32 * missing_map,
    guint8 * dst, gsize dst_stride, const guint8 * prev, gsize prev_stride)
{
  St2022Span spans[2];
  guint i;
  int n, k;

  if (fmt == NULL || missing_map == NULL || dst == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (dst_stride < fmt->active_bytes || (prev && prev_stride <
          fmt->active_bytes))
    return ST2022_ERROR_INVALID_ARGUMENT;

  i = 0;
  while ((n = next_missing_spans (fmt, missing_map, &i, spans)) >= 0) {
    for (k = 0; k < n; k++) {
      guint8 *d = dst + (gsize) spans[k].row * dst_stride + spans[k].offset;
      if (prev) {
        memcpy (d, prev + (gsize) spans[k].row * prev_stride +
            spans[k].offset, spans[k].length);
      } else {
        guint j;
        for (j = 0; j < spans[k].length; j++)
          d[j] = uyvp_black[(spans[k].offset + j) % 5];
      }
    }
  }
  return ST2022_OK;
}

static gboolean
is_missing (const guint32 * map, guint i)
{
  return (map[i / 32] & (1u << (i % 32))) != 0;
}

int
st2022_conceal_v210 (const St2022Format * fmt, const guint32 * missing_map,
    const guint8 * edges, guint8 * dst, gsize dst_stride, const guint8 * prev,
    gsize prev_stride)
{
  St2022Span spans[2];
  gsize row_bytes;
  guint i, j;
  int n, k;

  if (fmt == NULL || missing_map == NULL || dst == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  row_bytes = st2022_picture_min_stride (fmt, ST2022_PIXEL_V210);
  if (dst_stride < row_bytes || (prev && prev_stride < row_bytes))
    return ST2022_ERROR_INVALID_ARGUMENT;

  i = 0;
  while ((n = next_missing_spans (fmt, missing_map, &i, spans)) >= 0) {
    for (k = 0; k < n; k++) {
      guint row = spans[k].row;
      gsize a0 = (gsize) (st2022_format_row_to_line (fmt, row) - 1) *
          fmt->line_bytes + fmt->active_offset;
      guint8 *d = dst + (gsize) row * dst_stride;
      const guint8 *p = prev ? prev + (gsize) row * prev_stride : NULL;

      /* the 6-pixel blocks the span touches */
      for (j = spans[k].offset / 15;
          j * 15 < spans[k].offset + spans[k].length; j++) {
        guint len = MIN (15, fmt->active_bytes - j * 15), x;
        gsize b0 = a0 + j * 15, cut;
        guint d0 = b0 / ST2022_PAYLOAD_SIZE;
        guint d1 = (b0 + len - 1) / ST2022_PAYLOAD_SIZE;
        guint8 block[15];

        /* the concealment source's words, packed */
        if (p != NULL) {
          st2022_v210_to_packed_block (block, p + (gsize) j * 16, len);
        } else {
          for (x = 0; x < len; x++)
            block[x] = uyvp_black[x % 5];
        }
        /* a cut block keeps the words its received side carried */
        cut = (gsize) (d0 + 1) * ST2022_PAYLOAD_SIZE - b0;
        if (edges != NULL && d0 != d1) {
          if (!is_missing (missing_map, d0))
            memcpy (block, edges + (gsize) d0 * 16, cut);
          else if (!is_missing (missing_map, d1))
            memcpy (block + cut, edges + (gsize) d0 * 16 + cut, len - cut);
        }
        if (len < 15 || (j + 1) * 15 == fmt->active_bytes)
          st2022_v210_from_packed_partial (d + (gsize) j * 16, block, len,
              row_bytes - (gsize) j * 16);
        else
          st2022_v210_from_packed_blocks (d + (gsize) j * 16, block, 1,
              FALSE);
      }
    }
  }
  return ST2022_OK;
}

int
st2022_conceal_raster (const St2022Format * fmt, const guint32 * missing_map,
    guint8 * raster, const guint8 * prev_raster)
{
  guint i;

  if (fmt == NULL || missing_map == NULL || raster == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (fmt->half_byte_lines) {
    for (i = 0; i < fmt->datagrams_per_frame; i++)
      if (missing_map[i / 32] & (1u << (i % 32)))
        st2022_wire_conceal_datagram (fmt, i, raster, prev_raster,
            uyvp_black);
    return ST2022_OK;
  }

  for (i = 0; i < fmt->datagrams_per_frame; i++) {
    gsize off, len, k;

    if (!(missing_map[i / 32] & (1u << (i % 32))))
      continue;
    off = (gsize) i * ST2022_PAYLOAD_SIZE;
    len = MIN (ST2022_PAYLOAD_SIZE, fmt->frame_bytes - off);
    if (prev_raster) {
      memcpy (raster + off, prev_raster + off, len);
    } else {
      for (k = 0; k < len; k++)
        raster[off + k] = uyvp_black[(off + k) % 5];
    }
  }
  return ST2022_OK;
}
