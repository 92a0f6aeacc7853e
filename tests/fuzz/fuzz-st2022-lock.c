/* gst-vmi: libFuzzer target for the stream lock (gst/st2022/st2022-lock.c)
 * in front of the depacketizer, as st2022src drives them
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: byte 0 = lock-datagrams - 1 (mod 32), then 4-byte records
 * building datagrams of several streams at once: op (bits 0-1 which of 4
 * streams, bit 2 its other format, bit 3 marker, bits 4-5 how its sequence
 * number moves: +1, +d, -d, absolute), d / sequence bytes, FRCount delta.
 * Op bits 6-7 == 3 instead resets the lock (a signal loss), notes
 * transport drops or pushes a runt. So the lock sees interleaved streams,
 * strays, spoofs of the locked SSRC, restarts, renumberings and losses.
 *
 * Checks besides the sanitizers: a RELOCK hands back exactly
 * lock-datagrams datagrams, all of the RELOCK datagram's stream, sequence
 * numbers rising by 1-4, the last one the RELOCK datagram itself; the
 * lock's foreign + out-of-window counters equal the FOREIGN and
 * OUT_OF_WINDOW verdicts minus the run members handed back; one lock per
 * RELOCK; ACCEPT only while locked; every frame the depacketizer began
 * ends once. */

#include <stdint.h>
#include <string.h>
#include "st2022.h"
#include "st2022-lock.h"

typedef struct
{
  guint8 *buf[2];
  gsize size[2];
  guint busy, in_flight;
} Ctx;

static gboolean
fz_begin (gpointer user, const St2022Format * fmt, const St2022Header * hdr,
    St2022Target * t)
{
  Ctx *c = user;
  guint slot = c->busy & 1 ? 1 : 0;

  if (c->busy == 3)
    __builtin_trap ();
  if (c->size[slot] != fmt->frame_bytes) {
    g_free (c->buf[slot]);
    c->buf[slot] = g_malloc (fmt->frame_bytes);
    c->size[slot] = fmt->frame_bytes;
  }
  c->busy |= 1u << slot;
  c->in_flight++;
  t->type = ST2022_TARGET_RASTER;
  t->data = c->buf[slot];
  t->size = fmt->frame_bytes;
  t->user_data = GUINT_TO_POINTER (slot);
  return TRUE;
}

static void
fz_end (gpointer user, St2022Target * t, const St2022FrameInfo * info)
{
  Ctx *c = user;

  if (c->in_flight == 0)
    __builtin_trap ();
  c->in_flight--;
  c->busy &= ~(1u << GPOINTER_TO_UINT (t->user_data));
}

static const St2022DepacketizerCallbacks fz_callbacks = {
  fz_begin, fz_end, NULL
};

typedef struct
{
  guint32 ssrc;
  guint16 seq;
  guint8 frcount;
} Stream;

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  static guint8 payload[ST2022_PAYLOAD_SIZE];
  /* 720p59.94 and 1080i59.94: two formats of different frame sizes */
  const St2022Format *fmts[2] = { st2022_format_from_name ("720p59.94"),
    st2022_format_from_name ("1080i59.94")
  };
  Stream streams[4] = {
    {0x5eed0001, 1000, 0}, {0x5eed0002, 60000, 9},
    {0x5eed0001, 30000, 100}, {0xbad, 7, 0}
  };
  guint8 dg[ST2022_DATAGRAM_SIZE];
  Ctx c = { {NULL, NULL}, {0, 0}, 0, 0 };
  St2022Depacketizer *d;
  St2022StreamLock *l;
  St2022LockStats ls;
  guint confirm;
  guint64 held = 0, relocks = 0, replayed = 0;
  gsize pos = 1;

  if (size < 1 || fmts[0] == NULL || fmts[1] == NULL)
    return 0;
  confirm = 1 + data[0] % 32;
  d = st2022_depacketizer_new (&fz_callbacks, &c);
  l = st2022_stream_lock_new (confirm);
  st2022_stream_lock_set_depacketizer (l, d);

  while (size - pos >= 4) {
    const guint8 *r = data + pos;
    guint op = r[0];
    Stream *s = &streams[op & 3];
    const St2022Format *f = fmts[(op >> 2) & 1];
    St2022Header h;
    gsize len;
    gboolean locked = st2022_stream_lock_is_locked (l);

    pos += 4;
    if ((op >> 6) == 3) {
      switch (r[1] % 3) {
        case 0:
          st2022_stream_lock_reset (l);
          st2022_depacketizer_flush (d);
          break;
        case 1:
          st2022_stream_lock_note_dropped (l, r[2] << 8 | r[3]);
          break;
        default:
          if (st2022_stream_lock_push (l, r, 4, &h) != ST2022_LOCK_INVALID)
            __builtin_trap ();
          st2022_depacketizer_push (d, r, 4, 0);
          break;
      }
      continue;
    }
    switch ((op >> 4) & 3) {
      case 0:
        s->seq++;
        break;
      case 1:
        s->seq += r[1];
        break;
      case 2:
        s->seq -= r[1];
        break;
      default:
        s->seq = (guint16) (r[1] << 8 | r[2]);
        break;
    }
    s->frcount += r[3] & 3;
    memset (&h, 0, sizeof (h));
    h.payload_type = 98;
    h.marker = (op >> 3) & 1;
    h.seq = s->seq;
    h.ssrc = s->ssrc;
    h.frcount = s->frcount;
    h.f = TRUE;
    h.cf = f->cf_code;
    h.frame = f->frame_code;
    h.frate = f->frate_code;
    h.sample = f->sample_code;
    st2022_header_pack (&h, dg, sizeof (dg));
    len = st2022_header_size (&h);
    memcpy (dg + len, payload, ST2022_PAYLOAD_SIZE);
    len += ST2022_PAYLOAD_SIZE;

    switch (st2022_stream_lock_push (l, dg, len, &h)) {
      case ST2022_LOCK_ACCEPT:
        if (!locked)
          __builtin_trap ();
        st2022_depacketizer_push_parsed (d, dg, &h, 0);
        break;
      case ST2022_LOCK_INVALID:
        __builtin_trap ();      /* every record builds a valid datagram */
      case ST2022_LOCK_FOREIGN:
      case ST2022_LOCK_OUT_OF_WINDOW:
        held++;
        break;
      case ST2022_LOCK_RELOCK:{
        guint n = st2022_stream_lock_replay_count (l), i;
        guint16 prev = 0;

        if (n != confirm || !st2022_stream_lock_is_locked (l))
          __builtin_trap ();
        relocks++;
        replayed += n - 1;
        held++;
        if (st2022_stream_lock_relock_is_new_stream (l))
          st2022_depacketizer_flush (d);
        for (i = 0; i < n; i++) {
          gsize rl;
          const guint8 *p = st2022_stream_lock_replay (l, i, &rl);
          St2022Header rh;
          guint16 step;

          if (p == NULL || st2022_header_parse (p, rl, &rh, NULL) !=
              ST2022_OK || rh.ssrc != h.ssrc || rh.format != h.format
              || rh.payload_type != h.payload_type)
            __builtin_trap ();
          step = rh.seq - prev;
          if (i > 0 && (step < 1 || step > 4))
            __builtin_trap ();
          if (i == n - 1 && (rh.seq != h.seq || rl != len
                  || memcmp (p, dg, len) != 0))
            __builtin_trap ();
          prev = rh.seq;
          st2022_depacketizer_push (d, p, rl, 0);
        }
        if (st2022_stream_lock_replay (l, n, &len) != NULL)
          __builtin_trap ();
        break;
      }
    }
  }
  st2022_stream_lock_get_stats (l, &ls);
  /* the RELOCK datagram is in no counter, its run's others left them */
  if (ls.foreign + ls.out_of_window != held - relocks - replayed
      || ls.locks != relocks)
    __builtin_trap ();
  st2022_depacketizer_flush (d);
  if (c.in_flight != 0)
    __builtin_trap ();
  st2022_stream_lock_free (l);
  st2022_depacketizer_free (d);
  g_free (c.buf[0]);
  g_free (c.buf[1]);
  return 0;
}
