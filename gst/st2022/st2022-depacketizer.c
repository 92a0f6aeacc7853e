/* gst-vmi: ST 2022-6 depacketizer (datagrams → caller-provided frames)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every frame of a format has exactly N = datagrams_per_frame datagrams and
 * the RTP sequence number grows by one per datagram across frames.  Once
 * the start of one frame is known (the anchor), any datagram's frame and
 * index follow from its extended sequence number alone:
 *   rel = ext_seq - anchor; frame k = rel / N; index = rel % N.
 * FRCount (anchor_frcount + k mod 256) and the marker position cross-check
 * the mapping; a mismatch means the sender restarted or skipped, and the
 * depacketizer hunts for a frame start again.  This survives a lost first
 * datagram, a lost marker and reordering across frame boundaries, which a
 * "new frame when FRCount changes" rule does not.
 */

#include <string.h>
#include "st2022-private.h"
#include "st2022-lock.h"
#include "st2022-copy.h"


typedef struct
{
  gboolean active;
  gint64 k;                     /* frame number relative to the anchor */
  gint64 start;                 /* extended seq of datagram 0 */
  St2022Header hdr;             /* header of the first datagram received */
  gboolean accepted;
  St2022Target target;
  guint32 *received;            /* bitmap of received indices */
  guint n_received;
  gboolean marker;
  guint64 first_arrival, last_arrival;
  gint64 first_ext;             /* extended seq of the first datagram received */
  /* v210 target: per datagram boundary i (between datagrams i and i + 1),
   * the packed bytes of the 6-pixel block the boundary cuts, gathered
   * until both halves are in */
  guint8 *edge;
  /* half_byte_lines, a picture target without a blanking buffer: the
   * frame as it arrives (wire layout), converted at the end */
  guint8 *wire;
  /* raster and UYVP targets: the partial line the last payload copy
   * left, until the next datagram's copy completes it */
  St2022CopyHold hold;
} Slot;

struct _St2022Depacketizer
{
  St2022DepacketizerCallbacks cb;
  gpointer user_data;
  guint window;
  gint payload_type;            /* -1: accept any */

  const St2022Format *fmt;
  guint32 ssrc;
  guint n;                      /* datagrams per frame */
  guint map_words;
  gsize v210_stride;            /* v210 target: bytes of a row */
  /* the SDI line (1-based) the last datagram began in and its first
   * byte: the next datagram begins in it or the next line */
  guint span_line;
  gsize span_line_start;
  /* targets with a blank_dirty map: the byte ranges [b0, b1) of a
   * line's HANC and VANC spaces (whole 5-byte groups from the start of
   * a line), and blank fill from a group's first byte on, long enough to
   * compare a payload at any phase */
  guint hanc_b0, hanc_b1, vanc_b0, vanc_b1;
  guint8 fill[ST2022_PAYLOAD_SIZE + 8];

  /* sequence extension, relative to the highest seq seen */
  gboolean have_seq;
  gint64 ext_high;

  /* previous datagram, for finding a frame start while hunting */
  struct
  {
    gboolean valid;
    guint16 seq;
    guint8 frcount;
    guint32 rtp_ts;
    guint32 ssrc;
    gboolean marker;
    const St2022Format *fmt;
  } last;

  gboolean synced;
  /* the anchor is a guess (first datagram taken as a frame start), until a
   * marker at the last index or a consistent later frame confirms it */
  gboolean provisional;
  gint64 anchor;                /* extended seq of frame 0's datagram 0 */
  guint8 anchor_frcount;
  /* the frame the last mapped datagram fell in: its number and the
   * extended seq of its datagram 0, so that mapping the next datagram
   * (same frame or the next) takes a compare and a subtraction instead of
   * two 64-bit divisions */
  gint64 map_k, map_start;
  gint64 last_k;                /* highest frame number created */
  /* the RTP timestamp of frame last_k (of its first datagram received):
   * how many frames a gap longer than half the sequence space spans */
  guint32 last_k_ts;

  Slot slot[2];                 /* slot[0] is the older when both active */
  /* ending frames of a numbering the sender left: their missing datagrams
   * were never sent under it, so they are not lost */
  gboolean ending_abandoned;

  /* the most recently ended frame, to tell duplicates from late arrivals */
  gboolean have_done;
  gint64 done_k;
  guint32 *done_map;
  guint done_lost;              /* its missing datagrams counted lost */

  guint32 *missing;             /* scratch for frame_end */
  St2022DepacketizerStats stats;
};

#define BIT_TEST(m, i) ((m)[(i) >> 5] & (1u << ((i) & 31)))
#define BIT_SET(m, i) ((m)[(i) >> 5] |= (1u << ((i) & 31)))
#define BIT_CLEAR(m, i) ((m)[(i) >> 5] &= ~(1u << ((i) & 31)))

/* blank fill, C 0x200 and Y 0x040, 4 words packed MSB first (the same
 * bytes for SD's multiplexed Cb Y Cr Y) */
static const guint8 blank_group[5] = { 0x80, 0x04, 0x08, 0x00, 0x40 };

/* Frame number and index of the datagram @rel (>= 0) datagrams after the
 * anchor: rel / n and rel % n, from the frame mapped last when @rel lies
 * in it or the next one (every datagram but the first of a resync) */
static inline gint64
map_rel (St2022Depacketizer * d, gint64 rel, guint * idx)
{
  gint64 off = rel - d->map_start;

  if (G_LIKELY ((guint64) off < d->n)) {
    *idx = (guint) off;
    return d->map_k;
  }
  if (G_LIKELY ((guint64) (off - d->n) < d->n)) {
    d->map_k++;
    d->map_start += d->n;
    *idx = (guint) (off - d->n);
    return d->map_k;
  }
  d->map_k = rel / d->n;
  d->map_start = d->map_k * d->n;
  *idx = (guint) (rel - d->map_start);
  return d->map_k;
}

/* a new anchor: the cache starts over at frame 0 */
static inline void
map_reset (St2022Depacketizer * d)
{
  d->map_k = 0;
  d->map_start = 0;
}

St2022Depacketizer *
st2022_depacketizer_new (const St2022DepacketizerCallbacks * callbacks,
    gpointer user_data)
{
  St2022Depacketizer *d;

  if (callbacks == NULL || callbacks->frame_begin == NULL
      || callbacks->frame_end == NULL)
    return NULL;
  d = g_try_new0 (St2022Depacketizer, 1);
  if (d == NULL)
    return NULL;
  d->cb = *callbacks;
  d->user_data = user_data;
  d->window = ST2022_DEFAULT_REORDER_WINDOW;
  d->payload_type = -1;
  return d;
}

static void
free_format_state (St2022Depacketizer * d)
{
  g_free (d->slot[0].received);
  g_free (d->slot[1].received);
  g_free (d->slot[0].edge);
  g_free (d->slot[1].edge);
  d->slot[0].edge = d->slot[1].edge = NULL;
  g_free (d->slot[0].wire);
  g_free (d->slot[1].wire);
  d->slot[0].wire = d->slot[1].wire = NULL;
  g_free (d->done_map);
  g_free (d->missing);
  d->slot[0].received = d->slot[1].received = NULL;
  d->done_map = d->missing = NULL;
}

void
st2022_depacketizer_free (St2022Depacketizer * d)
{
  if (d == NULL)
    return;
  free_format_state (d);
  g_free (d);
}

int
st2022_depacketizer_set_reorder_window (St2022Depacketizer * d, guint window)
{
  /* at most two frames are ever in flight: expire() uses a frame less a
   * datagram for a larger window */
  if (d == NULL || window < 1 || window > ST2022_MAX_REORDER_WINDOW)
    return ST2022_ERROR_INVALID_ARGUMENT;
  d->window = window;
  return ST2022_OK;
}

int
st2022_depacketizer_set_payload_type (St2022Depacketizer * d, gint pt)
{
  if (d == NULL || pt < -1 || pt > 127)
    return ST2022_ERROR_INVALID_ARGUMENT;
  d->payload_type = pt;
  return ST2022_OK;
}

/* Where a frame of half_byte_lines is assembled as it arrives: the wire
 * layout, converted to memory layout (and the picture) at its end */
static inline guint8 *
half_byte_buffer (Slot * s)
{
  if (s->target.type == ST2022_TARGET_RASTER)
    return s->target.data;
  return s->target.blank ? s->target.blank : s->wire;
}

/* The datagrams received (the others' bytes are whatever the buffer held:
 * the caller conceals them, as for any format) to the memory layout and,
 * for a picture target, the picture; v210 blocks cut by a datagram
 * boundary are thus whole, so no edges are kept. */
static void
finish_half_byte (St2022Depacketizer * d, Slot * s)
{
  St2022Target *t = &s->target;
  guint8 *buf = half_byte_buffer (s);

  st2022_raster_from_wire (d->fmt, buf);
  if (t->type != ST2022_TARGET_RASTER)
    st2022_raster_read (d->fmt, buf, d->fmt->frame_bytes,
        t->type == ST2022_TARGET_V210 ? ST2022_PIXEL_V210 : ST2022_PIXEL_UYVP,
        t->data, t->stride);
}

static void
end_slot_full (St2022Depacketizer * d, Slot * s, gboolean aborted)
{
  guint i, missing;

  if (!s->active)
    return;
  s->active = FALSE;

  missing = d->n - s->n_received;
  if (aborted)
    d->stats.packets_discarded += s->n_received;
  else if (!d->ending_abandoned)
    d->stats.packets_lost += missing;

  if (s->accepted) {
    St2022FrameInfo info;

    for (i = 0; i < d->map_words; i++)
      d->missing[i] = ~s->received[i];
    if (d->n % 32)
      d->missing[d->map_words - 1] &= (1u << (d->n % 32)) - 1;

    memset (&info, 0, sizeof (info));
    info.format = d->fmt;
    info.rtp_ts = s->hdr.rtp_ts;
    info.frcount = (guint8) (d->anchor_frcount + s->k);
    info.ssrc = d->ssrc;
    info.first_seq = (guint16) s->start;
    info.datagrams = d->n;
    info.received = s->n_received;
    info.missing = missing;
    info.complete = missing == 0;
    info.marker = s->marker;
    info.missing_map = d->missing;
    info.first_arrival_ns = s->first_arrival;
    info.last_arrival_ns = s->last_arrival;
    info.aborted = aborted;
    if (d->fmt->half_byte_lines && !aborted)
      finish_half_byte (d, s);
    else if (s->target.type == ST2022_TARGET_V210)
      info.v210_edges = s->edge;
    info.has_vts = s->hdr.cf != 0;
    if (info.has_vts)
      info.vts = s->hdr.vts -
          st2022_datagram_vts_offset ((guint) (s->first_ext - s->start));

    if (aborted) {
      d->stats.frames_aborted++;
    } else {
      d->stats.frames++;
      if (missing)
        d->stats.frames_corrupted++;
    }
    /* the payloads went in with streaming stores: make them visible
     * before the frame can reach another thread, the held line first */
    st2022_copy_stream_release (&s->hold);
    st2022_copy_stream_fence ();
    d->cb.frame_end (d->user_data, &s->target, &info);
  }
  if (aborted)
    return;

  /* remember which datagrams this frame got: later copies are duplicates */
  memcpy (d->done_map, s->received, d->map_words * sizeof (guint32));
  d->done_k = s->k;
  d->done_lost = d->ending_abandoned ? 0 : missing;
  d->have_done = TRUE;
}

static void
end_slot (St2022Depacketizer * d, Slot * s)
{
  /* an unconfirmed guess is never delivered as a frame */
  end_slot_full (d, s, d->provisional);
}

/* End pending frames in order (oldest first) */
static void
end_all (St2022Depacketizer * d)
{
  if (d->slot[0].active && d->slot[1].active && d->slot[1].k < d->slot[0].k) {
    end_slot (d, &d->slot[1]);
    end_slot (d, &d->slot[0]);
  } else {
    end_slot (d, &d->slot[0]);
    end_slot (d, &d->slot[1]);
  }
}

/* Give up frames whose last datagram is a full window behind the highest
 * sequence number seen. */
static void
expire (St2022Depacketizer * d)
{
  int pass;

  for (pass = 0; pass < 2; pass++) {
    Slot *old = NULL;
    int i;

    for (i = 0; i < 2; i++) {
      if (d->slot[i].active && (old == NULL || d->slot[i].k < old->k))
        old = &d->slot[i];
    }
    if (old == NULL || d->ext_high < old->start + d->n - 1 +
        MIN (d->window, d->n - 1))
      return;
    end_slot (d, old);
  }
}

static gboolean
set_format (St2022Depacketizer * d, const St2022Format * fmt)
{
  free_format_state (d);
  d->fmt = fmt;
  d->n = fmt->datagrams_per_frame;
  d->map_words = (d->n + 31) / 32;
  d->slot[0].received = g_try_new0 (guint32, d->map_words);
  d->slot[1].received = g_try_new0 (guint32, d->map_words);
  d->done_map = g_try_new0 (guint32, d->map_words);
  d->missing = g_try_new0 (guint32, d->map_words);
  d->slot[0].edge = g_try_malloc0 ((gsize) d->n * 16);
  d->slot[1].edge = g_try_malloc0 ((gsize) d->n * 16);
  d->v210_stride = st2022_picture_min_stride (fmt, ST2022_PIXEL_V210);
  if (fmt->half_byte_lines) {
    d->slot[0].wire = g_try_malloc (fmt->frame_bytes);
    d->slot[1].wire = g_try_malloc (fmt->frame_bytes);
  }
  d->span_line = 1;
  d->span_line_start = 0;
  {
    guint first, end, i;

    /* every space starts on a 4-word group; its end is rounded up to
     * whole bytes (comparing a bit of SAV too only ever costs a copy) */
    st2022_format_anc_space (fmt, FALSE, &first, &end);
    d->hanc_b0 = first / 4 * 5;
    d->hanc_b1 = (end * 10 + 7) / 8;
    st2022_format_anc_space (fmt, TRUE, &first, &end);
    d->vanc_b0 = first / 4 * 5;
    d->vanc_b1 = (end * 10 + 7) / 8;
    for (i = 0; i < sizeof (d->fill); i++)
      d->fill[i] = blank_group[i % 5];
  }
  if (!d->slot[0].received || !d->slot[1].received
      || !d->done_map || !d->missing || !d->slot[0].edge || !d->slot[1].edge
      || (fmt->half_byte_lines && (!d->slot[0].wire || !d->slot[1].wire))) {
    free_format_state (d);
    d->fmt = NULL;
    return FALSE;
  }
  d->have_done = FALSE;
  return TRUE;
}

static void
resync (St2022Depacketizer * d)
{
  end_all (d);
  d->synced = FALSE;
  d->have_done = FALSE;
}

static Slot *
new_slot (St2022Depacketizer * d, gint64 k, const St2022Header * hdr,
    gint64 first_ext, guint64 arrival_ns)
{
  Slot *s = NULL;
  const St2022Format *fmt = d->fmt;
  int i;

  for (i = 0; i < 2; i++) {
    if (!d->slot[i].active) {
      s = &d->slot[i];
      break;
    }
  }
  if (s == NULL) {
    /* both busy: cannot happen while window < N, but stay safe */
    Slot *old = d->slot[0].k < d->slot[1].k ? &d->slot[0] : &d->slot[1];
    end_slot (d, old);
    s = old;
  }

  if (k > d->last_k + 1) {
    /* frames in between never showed a single datagram */
    d->stats.frames_skipped += k - d->last_k - 1;
    d->stats.packets_lost += (guint64) (k - d->last_k - 1) * d->n;
  }
  if (k > d->last_k) {
    d->last_k = k;
    d->last_k_ts = hdr->rtp_ts;
  }

  s->active = TRUE;
  s->k = k;
  s->start = d->anchor + k * d->n;
  s->hdr = *hdr;
  s->first_ext = first_ext;
  s->n_received = 0;
  s->marker = FALSE;
  s->first_arrival = s->last_arrival = arrival_ns;
  memset (s->received, 0, d->map_words * sizeof (guint32));
  memset (&s->target, 0, sizeof (s->target));
  s->hold.line = NULL;

  s->accepted = d->cb.frame_begin (d->user_data, fmt, hdr, &s->target);
  if (s->accepted) {
    St2022Target *t = &s->target;
    if (t->data == NULL)
      s->accepted = FALSE;
    else if (t->type == ST2022_TARGET_RASTER)
      s->accepted = t->size >= fmt->frame_bytes;
    else if (t->type == ST2022_TARGET_UYVP)
      s->accepted = t->stride >= fmt->active_bytes &&
          t->size >= (gsize) (fmt->height - 1) * t->stride + fmt->active_bytes
          && (t->blank == NULL || t->blank_size >= fmt->frame_bytes);
    else if (t->type == ST2022_TARGET_V210)
      s->accepted = t->stride >= d->v210_stride &&
          t->size >= (gsize) (fmt->height - 1) * t->stride + d->v210_stride
          && (t->blank == NULL || t->blank_size >= fmt->frame_bytes);
    else
      s->accepted = FALSE;
  }
  if (!s->accepted)
    d->stats.frames_dropped++;
  return s;
}

/* st2022_datagram_spans_full() for datagram @idx, finding its first line
 * from the previous datagram's (one line holds more than a datagram, so
 * in order arrival needs no division) */
static int
datagram_spans (St2022Depacketizer * d, guint idx, St2022Span spans[2],
    guint src[2])
{
  const St2022Format *fmt = d->fmt;
  gsize b0 = (gsize) idx * ST2022_PAYLOAD_SIZE;

  if (G_UNLIKELY (b0 < d->span_line_start
          || b0 - d->span_line_start >= fmt->line_bytes)) {
    if (b0 >= d->span_line_start + fmt->line_bytes
        && b0 - d->span_line_start - fmt->line_bytes < fmt->line_bytes) {
      d->span_line++;
      d->span_line_start += fmt->line_bytes;
    } else {
      d->span_line = (guint) (b0 / fmt->line_bytes) + 1;
      d->span_line_start = (gsize) (d->span_line - 1) * fmt->line_bytes;
    }
  }
  return st2022_datagram_spans_at (fmt, idx, d->span_line,
      d->span_line_start, spans, src);
}

/* Whether the bytes [s, e) of the line starting at raster byte @ls, of
 * them those the payload (raster bytes [b0, b1)) carries, are blank fill */
static inline gboolean
range_blank (St2022Depacketizer * d, const guint8 * payload, gsize b0,
    gsize b1, gsize ls, gsize s, gsize e)
{
  s = MAX (s, b0);
  e = MIN (e, b1);
  /* lines start on a 5-byte group: the fill's phase is the offset's */
  return s >= e || memcmp (payload + (s - b0), d->fill + (s - ls) % 5,
      e - s) == 0;
}

/* Whether datagram @idx carries only blank fill in the ancillary data
 * spaces it crosses (at most two lines: a datagram is shorter than a
 * line); datagram_spans() has found its first line */
static gboolean
spaces_blank (St2022Depacketizer * d, guint idx, const guint8 * payload,
    guint len)
{
  const St2022Format *fmt = d->fmt;
  gsize b0 = (gsize) idx * ST2022_PAYLOAD_SIZE, b1 = b0 + len;
  gsize ls = d->span_line_start;
  guint line = d->span_line;

  for (; line <= fmt->total_lines && ls < b1; line++, ls += fmt->line_bytes) {
    if (!range_blank (d, payload, b0, b1, ls, ls + d->hanc_b0,
            ls + d->hanc_b1))
      return FALSE;
    if (st2022_format_line_to_row (fmt, line) < 0
        && !range_blank (d, payload, b0, b1, ls, ls + d->vanc_b0,
            ls + d->vanc_b1))
      return FALSE;
  }
  return TRUE;
}

/* With a blanking buffer, the rest of datagram @idx (what lies between
 * its @n picture spans) into it: not at all where the target's
 * blank_dirty map lets the buffer's blank fill stand (most datagrams of
 * a stream without ancillary data) */
static void
copy_blank (St2022Depacketizer * d, const St2022Target * t, guint idx,
    const guint8 * payload, const St2022Span * spans, const guint * src,
    int n)
{
  gsize base = (gsize) idx * ST2022_PAYLOAD_SIZE;
  guint pos = 0, end = idx == d->n - 1 ? d->fmt->last_payload_bytes :
      ST2022_PAYLOAD_SIZE;
  int k;

  if (t->blank == NULL)
    return;
  if (t->blank_dirty) {
    if (spaces_blank (d, idx, payload, end)) {
      if (!BIT_TEST (t->blank_dirty, idx))
        return;
      /* copied once more, the spaces there hold blank fill again */
      BIT_CLEAR (t->blank_dirty, idx);
    } else {
      BIT_SET (t->blank_dirty, idx);
    }
  }
  for (k = 0; k <= n; k++) {
    guint stop = k < n ? src[k] : end;

    if (stop > pos)
      memcpy (t->blank + base + pos, payload + pos, stop - pos);
    if (k < n)
      pos = src[k] + spans[k].length;
  }
}

/* Copy the active picture bytes of datagram @idx into a UYVP picture:
 * at most two line segments, blanking bytes dropped */
static void
copy_to_uyvp (St2022Depacketizer * d, Slot * s, guint idx,
    const guint8 * payload)
{
  const St2022Target *t = &s->target;
  St2022Span spans[2];
  guint src[2];
  int n, k;

  n = datagram_spans (d, idx, spans, src);
  /* the picture is not read again here: streamed, not cached */
  for (k = 0; k < n; k++)
    st2022_copy_stream_held (&s->hold, t->data + (gsize) spans[k].row *
        t->stride + spans[k].offset, payload + src[k], spans[k].length);
  copy_blank (d, t, idx, payload, spans, src, n);
}

/* One 6-pixel block of packed bytes (@len: 15, or less for a row's last
 * block) into row @row, block @j of a v210 picture; the row's last block
 * also writes the row's zero padding. */
static void
put_v210_block (St2022Depacketizer * d, const St2022Target * t, guint row,
    guint j, const guint8 * src, guint len)
{
  guint8 *dst = t->data + (gsize) row * t->stride + (gsize) j * 16;
  gsize rest = d->v210_stride - (gsize) j * 16;

  if (len < 15 || (len == 15 && (j + 1) * 15 == d->fmt->active_bytes)) {
    st2022_v210_from_packed_partial (dst, src, len, rest);
  } else {
    st2022_v210_from_packed_blocks (dst, src, 1, FALSE);
  }
}

/* The part [from, to) of row block @j that datagram @idx carries, where
 * the block is cut by the boundary before (@leading) or after the
 * datagram: kept until the neighbour's part is in, then converted. */
static void
edge_v210 (St2022Depacketizer * d, Slot * s, guint idx, guint row, guint j,
    guint from, guint to, const guint8 * rowbytes, gboolean leading)
{
  guint bs = j * 15, len = MIN (15, d->fmt->active_bytes - bs);
  guint other = leading ? idx - 1 : idx + 1;
  guint8 *e = s->edge + (gsize) (leading ? idx - 1 : idx) * 16;

  memcpy (e + (from - bs), rowbytes + from, to - from);
  if (other < d->n && BIT_TEST (s->received, other))
    put_v210_block (d, &s->target, row, j, e, len);
}

/* The active picture bytes of datagram @idx into a v210 picture: the
 * whole 6-pixel blocks of each span straight (vector code), the block a
 * datagram boundary cuts once both its parts have arrived. */
static void
copy_to_v210 (St2022Depacketizer * d, Slot * s, guint idx,
    const guint8 * payload)
{
  const St2022Target *t = &s->target;
  guint active = d->fmt->active_bytes, full = active / 15;
  St2022Span spans[2];
  guint src[2];
  int n, k;

  n = datagram_spans (d, idx, spans, src);
  for (k = 0; k < n; k++) {
    guint row = spans[k].row, off = spans[k].offset;
    guint e = off + spans[k].length, j = off / 15, jw;
    /* byte x of the row is rowbytes[x] */
    const guint8 *rowbytes = payload + src[k] - off;

    if (off % 15) {
      /* spans start on a block unless a boundary cuts it */
      edge_v210 (d, s, idx, row, j, off, MIN (e, MIN (j * 15 + 15, active)),
          rowbytes, TRUE);
      j++;
    }
    jw = MIN (e / 15, full);
    if (jw > j) {
      if (jw == full && full * 15 == active) {
        /* the row's last block carries the padding */
        if (jw - 1 > j)
          st2022_v210_from_packed_blocks (t->data + (gsize) row * t->stride +
              (gsize) j * 16, rowbytes + j * 15, jw - 1 - j, FALSE);
        put_v210_block (d, t, row, jw - 1, rowbytes + (jw - 1) * 15, 15);
      } else {
        st2022_v210_from_packed_blocks (t->data + (gsize) row * t->stride +
            (gsize) j * 16, rowbytes + j * 15, jw - j, FALSE);
      }
      j = jw;
    }
    if (j * 15 < e) {
      guint be = MIN (j * 15 + 15, active);

      if (e >= be)
        put_v210_block (d, t, row, j, rowbytes + j * 15, be - j * 15);
      else
        edge_v210 (d, s, idx, row, j, j * 15, e, rowbytes, FALSE);
    }
  }
  copy_blank (d, t, idx, payload, spans, src, n);
}

/* Try to find a frame start from this datagram and the previous one */
static gboolean
hunt (St2022Depacketizer * d, const St2022Header * h, gint64 ext)
{
  d->provisional = FALSE;
  if (d->last.valid) {
    gboolean differs = d->last.frcount != h->frcount ||
        d->last.rtp_ts != h->rtp_ts || d->last.fmt != h->format ||
        d->last.ssrc != h->ssrc;

    if (h->seq == (guint16) (d->last.seq + 1) && (differs || d->last.marker)) {
      d->anchor = ext;
      d->anchor_frcount = h->frcount;
      return TRUE;
    }
    if ((guint16) (h->seq + 1) == d->last.seq && d->last.fmt == h->format
        && d->last.ssrc == h->ssrc && (differs || h->marker)) {
      /* reordered pair: the previous one (already discarded) began a frame */
      d->anchor = ext + 1;
      d->anchor_frcount = d->last.frcount;
      return TRUE;
    }
  }
  if (h->marker) {
    d->anchor = ext + 1;
    d->anchor_frcount = (guint8) (h->frcount + 1);
    return TRUE;
  }
  if (!d->last.valid) {
    /* Nothing seen before: most often the receiver started first and this
     * is a frame's datagram 0.  Guess so, and abort the frame if a marker
     * or FRCount change later shows the guess wrong. */
    d->anchor = ext;
    d->anchor_frcount = h->frcount;
    d->provisional = TRUE;
    return TRUE;
  }
  return FALSE;
}

int
st2022_depacketizer_push (St2022Depacketizer * d, const guint8 * data,
    gsize len, guint64 arrival_ns)
{
  St2022Header h;
  int r;

  if (d == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  r = st2022_header_parse (data, len, &h, NULL);
  if (r != ST2022_OK) {
    d->stats.packets_invalid++;
    return r;
  }
  return st2022_depacketizer_push_parsed (d, data, &h, arrival_ns);
}

int
st2022_depacketizer_push_parsed (St2022Depacketizer * d,
    const guint8 * data, const St2022Header * h, guint64 arrival_ns)
{
  /* @h is read in place: a copy of the struct just written field by field
   * would wait on store forwarding */
  const guint8 *payload;
  gint64 ext, rel, k;
  guint idx, i;
  Slot *s;
  gboolean was_high, retried = FALSE;

  if (d == NULL || h == NULL || h->format == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  /* another RTP session sharing the port must not reset this stream */
  if (d->payload_type >= 0 && h->payload_type != d->payload_type) {
    d->stats.packets_invalid++;
    return ST2022_ERROR_BAD_PAYLOAD_TYPE;
  }
  payload = data + h->header_len;
  d->stats.packets++;
  d->stats.bytes += ST2022_PAYLOAD_SIZE;

  if (G_UNLIKELY (h->format != d->fmt || h->ssrc != d->ssrc)) {
    const St2022Format *old = d->fmt;

    if (old)
      d->stats.format_changes++;
    end_all (d);
    d->synced = FALSE;
    if (h->format != old && !set_format (d, h->format))
      return ST2022_ERROR_NO_MEMORY;
    d->ssrc = h->ssrc;
    if (d->cb.format_changed)
      d->cb.format_changed (d->user_data, old, h->format);
  }

  if (!d->have_seq) {
    /* start high so extended numbers stay positive */
    d->ext_high = ((gint64) 1 << 32) + h->seq;
    d->have_seq = TRUE;
  }
  ext = d->ext_high + (gint16) (h->seq - (guint16) d->ext_high);

again:
  if (!d->synced) {
    /* while hunting the reference follows the arrivals, so a sender that
     * restarted with new sequence numbers is picked up cleanly */
    d->ext_high = ext;
    if (!hunt (d, h, ext))
      goto discard;
    d->synced = TRUE;
    map_reset (d);
    d->last_k = -1;
    d->have_done = FALSE;
  }

  rel = ext - d->anchor;
  if (rel < 0) {
    /* before the first frame we assemble */
    goto discard;
  }
  k = map_rel (d, rel, &idx);

  if ((guint8) (d->anchor_frcount + k) != h->frcount
      || (h->marker && idx != d->n - 1) || k > d->last_k + 256) {
    /* the sender restarted or skipped: the mapping no longer holds */
    resync (d);
    d->provisional = FALSE;
    if (retried)
      goto discard;
    retried = TRUE;
    goto again;
  }

  if (G_UNLIKELY (d->provisional) && (k >= 1 || (h->marker
              && idx == d->n - 1)))
    d->provisional = FALSE;

  was_high = ext >= d->ext_high;
  if (ext > d->ext_high) {
    d->ext_high = ext;
    expire (d);
  }

  s = NULL;
  for (i = 0; i < 2; i++) {
    if (d->slot[i].active && d->slot[i].k == k)
      s = &d->slot[i];
  }
  if (s == NULL) {
    if (k <= d->last_k) {
      /* its frame has ended already */
      if (d->have_done && k == d->done_k && BIT_TEST (d->done_map, idx)) {
        d->stats.packets_duplicate++;
        goto done;
      }
      if (d->have_done && k == d->done_k && d->done_lost) {
        /* counted lost when its frame ended without it, it arrived after
         * all: late (discarded, reordered), not lost; a second copy is a
         * duplicate */
        BIT_SET (d->done_map, idx);
        d->stats.packets_lost--;
        d->done_lost--;
      }
      /* too late for its frame, but reordered all the same (docs: "arrived
       * after a datagram with a higher sequence number") */
      if (!was_high)
        d->stats.packets_reordered++;
      goto discard;
    }
    /* a frame ahead of all pending ones (expire() above has given up the
     * older ones whose window has passed) */
    s = new_slot (d, k, h, ext, arrival_ns);
  }

  if (BIT_TEST (s->received, idx)) {
    d->stats.packets_duplicate++;
    goto done;
  }
  if (!was_high)
    d->stats.packets_reordered++;
  BIT_SET (s->received, idx);
  s->n_received++;
  s->last_arrival = arrival_ns;
  if (h->marker)
    s->marker = TRUE;

  if (s->accepted) {
    if (G_UNLIKELY (d->fmt->half_byte_lines)) {
      guint len_copy = idx == d->n - 1 ? d->fmt->last_payload_bytes :
          ST2022_PAYLOAD_SIZE;
      memcpy (half_byte_buffer (s) + (gsize) idx * ST2022_PAYLOAD_SIZE,
          payload, len_copy);
    } else if (s->target.type == ST2022_TARGET_RASTER) {
      guint len_copy = idx == d->n - 1 ? d->fmt->last_payload_bytes :
          ST2022_PAYLOAD_SIZE;
      st2022_copy_stream_held (&s->hold, s->target.data +
          (gsize) idx * ST2022_PAYLOAD_SIZE, payload, len_copy);
    } else if (s->target.type == ST2022_TARGET_UYVP) {
      copy_to_uyvp (d, s, idx, payload);
    } else {
      copy_to_v210 (d, s, idx, payload);
    }
  } else {
    d->stats.packets_discarded++;
  }

  if (s->n_received == d->n) {
    /* N datagrams with one FRCount in a row: the guess was right */
    d->provisional = FALSE;
    /* complete: end it, and any older frame first to keep order */
    Slot *o = &d->slot[s == &d->slot[0] ? 1 : 0];
    if (o->active && o->k < s->k)
      end_slot (d, o);
    end_slot (d, s);
  }
  goto done;

discard:
  d->stats.packets_discarded++;
done:
  d->last.valid = TRUE;
  d->last.seq = h->seq;
  d->last.frcount = h->frcount;
  d->last.rtp_ts = h->rtp_ts;
  d->last.ssrc = h->ssrc;
  d->last.marker = h->marker;
  d->last.fmt = h->format;
  return ST2022_OK;
}

void
st2022_depacketizer_flush (St2022Depacketizer * d)
{
  if (d == NULL)
    return;
  end_all (d);
  d->synced = FALSE;
  d->provisional = FALSE;
  d->have_done = FALSE;
  /* the next datagram may be a new stream's first */
  d->last.valid = FALSE;
}

void
st2022_depacketizer_flush_abandoned (St2022Depacketizer * d)
{
  if (d == NULL)
    return;
  d->ending_abandoned = TRUE;
  st2022_depacketizer_flush (d);
  d->ending_abandoned = FALSE;
}

void
st2022_depacketizer_get_stats (St2022Depacketizer * d,
    St2022DepacketizerStats * stats)
{
  if (d == NULL || stats == NULL)
    return;
  *stats = d->stats;
}

const St2022Format *
st2022_depacketizer_get_format (St2022Depacketizer * d)
{
  return d ? d->fmt : NULL;
}

gboolean
st2022_depacketizer_continues (St2022Depacketizer * d, const St2022Header * h)
{
  gint64 ext, rel, k;
  guint idx;

  if (d == NULL || h == NULL || !d->synced || h->format != d->fmt
      || h->ssrc != d->ssrc)
    return FALSE;
  /* up to half the sequence space either way: a jump ahead after a loss,
   * or a late datagram (a continuation run the lock confirms may begin
   * with one it kept while the stream moved past it) */
  ext = d->ext_high + (gint16) (h->seq - (guint16) d->ext_high);
  rel = ext - d->anchor;
  if (rel < 0)
    return FALSE;
  k = map_rel (d, rel, &idx);
  return (guint8) (d->anchor_frcount + k) == h->frcount
      && k <= d->last_k + 256;
}

/* Where the mapping puts @h (the same extension push_parsed() applies):
 * its FRCount and marker agree, and it is not implausibly far ahead;
 * @before: what a datagram before the first frame gets */
static gboolean
mapping_fits (St2022Depacketizer * d, const St2022Header * h,
    gboolean before)
{
  gint64 ext, rel, k;
  guint idx;

  ext = d->ext_high + (gint16) (h->seq - (guint16) d->ext_high);
  rel = ext - d->anchor;
  if (rel < 0)
    return before;
  k = map_rel (d, rel, &idx);
  return (guint8) (d->anchor_frcount + k) == h->frcount
      && (!h->marker || idx == d->n - 1) && k <= d->last_k + 256;
}

gboolean
st2022_depacketizer_fits (St2022Depacketizer * d, const St2022Header * h)
{
  if (d == NULL || h == NULL || !d->synced || d->provisional
      || h->format != d->fmt || h->ssrc != d->ssrc)
    return TRUE;
  /* before the first frame: discarded anyway */
  return mapping_fits (d, h, TRUE);
}

gboolean
st2022_depacketizer_places (St2022Depacketizer * d, const St2022Header * h)
{
  if (d == NULL || h == NULL || !d->synced || d->provisional
      || h->format != d->fmt || h->ssrc != d->ssrc)
    return FALSE;
  return mapping_fits (d, h, FALSE);
}

gboolean
st2022_depacketizer_fills (St2022Depacketizer * d, const St2022Header * h)
{
  gint64 ext, k;
  guint idx, i;

  if (!st2022_depacketizer_places (d, h))
    return FALSE;
  ext = d->ext_high + (gint16) (h->seq - (guint16) d->ext_high);
  k = map_rel (d, ext - d->anchor, &idx);
  for (i = 0; i < 2; i++)
    if (d->slot[i].active && d->slot[i].k == k)
      return !BIT_TEST (d->slot[i].received, idx);
  return d->have_done && k == d->done_k && !BIT_TEST (d->done_map, idx);
}

gboolean
st2022_depacketizer_bridge (St2022Depacketizer * d, const St2022Header * h)
{
  gint64 est, k, start, ext, off;
  guint32 inc, dts;
  guint idx;

  if (d == NULL || h == NULL || !d->synced || d->provisional
      || h->format != d->fmt || h->ssrc != d->ssrc || d->last_k < 0)
    return FALSE;
  /* the frames the timestamp says lie between (27 MHz: the difference
   * wraps after 2^32 ticks, 159 s), the one FRCount names nearest to
   * that, and the timestamp must agree to within a frame (a sender that
   * stamps each datagram is up to a frame off) */
  inc = d->fmt->rtp_ts_increment;
  dts = h->rtp_ts - d->last_k_ts;
  est = d->last_k + (gint64) ((dts + (guint64) inc / 2) / inc);
  k = est + (gint8) (h->frcount - (guint8) (d->anchor_frcount + est));
  off = (k - d->last_k) * (gint64) inc - (gint64) dts;
  if (off <= -(gint64) inc || off >= (gint64) inc)
    return FALSE;
  /* ... and its sequence number must fall in that frame, the marker on
   * the frame's last datagram */
  start = d->anchor + k * d->n;
  idx = (guint16) (h->seq - (guint16) start);
  if (idx >= d->n || (h->marker && idx != d->n - 1))
    return FALSE;
  ext = start + idx;
  /* nearer, the sequence number alone places it (_continues()) */
  if (ext - d->ext_high < 0x8000)
    return FALSE;

  /* the frames begun end as the stream left them, the ones in between
   * were sent and lost whole */
  end_all (d);
  d->stats.frames_skipped += k - d->last_k - 1;
  d->stats.packets_lost += (guint64) (k - d->last_k - 1) * d->n;
  /* frame k is frame 0 of the mapping now: frame numbers stay small
   * however long the gap */
  d->anchor = start;
  d->anchor_frcount = h->frcount;
  d->last_k = -1;
  d->ext_high = ext;
  d->have_done = FALSE;
  map_reset (d);
  return TRUE;
}
