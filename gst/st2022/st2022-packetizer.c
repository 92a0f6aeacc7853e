/* gst-vmi: ST 2022-6 packetizer (raster → datagrams, zero copy)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "st2022-private.h"

struct _St2022Packetizer
{
  const St2022Format *fmt;
  St2022PacketizerConfig cfg;
  guint8 hdr[ST2022_MAX_HEADER_SIZE];   /* constant fields pre-packed */
  guint header_len;

  guint16 seq;                  /* seq of the next datagram */
  guint8 frcount;               /* FRCount of the current frame */
  guint32 vts_frame;            /* video timestamp at the current frame start */
  guint32 rtp_ts;
  const guint8 *raster;
  /* ring mode (begin_frame_ring): payloads at raster + pos, pos wrapping
   * at ring_size (0: a flat raster) */
  gsize ring_size;
  gsize pos;
  guint next;                   /* next datagram index */
  gboolean started;             /* a frame was begun at least once */
  gboolean vts_set;             /* set_vts(): the next frame's vts given */
  guint32 vts_next;

  guint8 tail[ST2022_PAYLOAD_SIZE];     /* last datagram, zero padded */
};

void
st2022_packetizer_config_init (St2022PacketizerConfig * cfg)
{
  if (cfg == NULL)
    return;
  memset (cfg, 0, sizeof (*cfg));
  cfg->payload_type = ST2022_DEFAULT_PAYLOAD_TYPE;
  cfg->video_timestamp = TRUE;
}

St2022Packetizer *
st2022_packetizer_new (const St2022Format * fmt,
    const St2022PacketizerConfig * cfg)
{
  St2022Packetizer *p;
  St2022Header h;

  if (fmt == NULL)
    return NULL;
  p = g_try_new0 (St2022Packetizer, 1);
  if (p == NULL)
    return NULL;
  p->fmt = fmt;
  if (cfg)
    p->cfg = *cfg;
  else
    st2022_packetizer_config_init (&p->cfg);

  memset (&h, 0, sizeof (h));
  h.payload_type = p->cfg.payload_type;
  h.ssrc = p->cfg.ssrc;
  h.f = TRUE;
  h.vsid = p->cfg.vsid;
  h.ref = p->cfg.ref;
  h.cf = p->cfg.video_timestamp ? fmt->cf_code : ST2022_CF_NONE;
  h.frame = fmt->frame_code;
  h.frate = fmt->frate_code;
  h.sample = fmt->sample_code;
  p->header_len = st2022_header_size (&h);
  st2022_header_pack (&h, p->hdr, sizeof (p->hdr));

  p->seq = p->cfg.initial_seq;
  p->frcount = p->cfg.initial_frcount;
  p->vts_frame = p->cfg.initial_vts;
  p->next = fmt->datagrams_per_frame;
  return p;
}

void
st2022_packetizer_free (St2022Packetizer * p)
{
  g_free (p);
}

static void
begin_common (St2022Packetizer * p, const guint8 * raster, gsize ring_size,
    gsize origin, guint32 rtp_ts)
{
  const St2022Format *fmt = p->fmt;

  if (p->started) {
    /* Datagrams of an abandoned frame keep their sequence numbers so a
     * receiver sees them as lost and stays aligned to frame starts. */
    p->seq += fmt->datagrams_per_frame - p->next;
    p->frcount++;
    p->vts_frame += fmt->vts_increment;
  }
  if (p->vts_set) {
    p->vts_frame = p->vts_next;
    p->vts_set = FALSE;
  }
  p->started = TRUE;
  p->raster = raster;
  p->ring_size = ring_size;
  p->pos = origin;
  p->rtp_ts = rtp_ts;
  p->next = 0;

  /* per-frame fields: RTP timestamp and FRCount */
  p->hdr[4] = rtp_ts >> 24;
  p->hdr[5] = (rtp_ts >> 16) & 0xff;
  p->hdr[6] = (rtp_ts >> 8) & 0xff;
  p->hdr[7] = rtp_ts & 0xff;
  p->hdr[ST2022_RTP_HEADER_SIZE + 1] = p->frcount;
}

int
st2022_packetizer_begin_frame (St2022Packetizer * p, const guint8 * raster,
    gsize raster_size, guint32 rtp_ts)
{
  if (p == NULL || raster == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (raster_size < p->fmt->frame_bytes)
    return ST2022_ERROR_BUFFER_TOO_SMALL;
  begin_common (p, raster, 0, 0, rtp_ts);
  return ST2022_OK;
}

int
st2022_packetizer_begin_frame_ring (St2022Packetizer * p,
    const guint8 * base, gsize ring_size, gsize origin, guint32 rtp_ts)
{
  /* a ring holds lines as the sliced writer lays them out in memory;
   * where that is not the wire's (half_byte_lines), only whole rasters
   * converted by st2022_raster_to_wire() are sent */
  if (p == NULL || base == NULL || ring_size < ST2022_PAYLOAD_SIZE
      || p->fmt->half_byte_lines)
    return ST2022_ERROR_INVALID_ARGUMENT;
  begin_common (p, base, ring_size, origin % ring_size, rtp_ts);
  return ST2022_OK;
}

/* The last payload, zero padded: copied when it is asked for, so a raster
 * written a few lines ahead of the packetizer has its last line by then */
static const guint8 *
fill_tail (St2022Packetizer * p, const guint8 * src)
{
  const St2022Format *fmt = p->fmt;

  memcpy (p->tail, src, fmt->last_payload_bytes);
  memset (p->tail + fmt->last_payload_bytes, 0,
      ST2022_PAYLOAD_SIZE - fmt->last_payload_bytes);
  return p->tail;
}

int
st2022_packetizer_next (St2022Packetizer * p, St2022Datagram * out, guint max)
{
  const St2022Format *fmt;
  guint n, last;
  gboolean vts;

  if (p == NULL || (out == NULL && max > 0))
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (p->raster == NULL)
    return 0;
  fmt = p->fmt;
  last = fmt->datagrams_per_frame - 1;
  vts = p->header_len == ST2022_MAX_HEADER_SIZE;

  for (n = 0; n < max && p->next <= last; n++, p->next++, out++) {
    guint i = p->next;
    guint8 *h = out->header;

    memcpy (h, p->hdr, ST2022_MAX_HEADER_SIZE);
    h[1] = (h[1] & 0x7f) | (i == last ? 0x80 : 0);
    h[2] = p->seq >> 8;
    h[3] = p->seq & 0xff;
    if (vts) {
      guint32 v = p->vts_frame + st2022_datagram_vts_offset (i);
      h[20] = v >> 24;
      h[21] = (v >> 16) & 0xff;
      h[22] = (v >> 8) & 0xff;
      h[23] = v & 0xff;
    }
    out->header_len = p->header_len;
    if (p->ring_size) {
      const guint8 *src = p->raster + p->pos;

      p->pos += ST2022_PAYLOAD_SIZE;
      if (p->pos >= p->ring_size)
        p->pos -= p->ring_size;
      out->payload = i == last ? fill_tail (p, src) : src;
    } else {
      const guint8 *src = p->raster + (gsize) i * ST2022_PAYLOAD_SIZE;

      out->payload = i == last ? fill_tail (p, src) : src;
    }
    out->payload_len = ST2022_PAYLOAD_SIZE;
    out->index = i;
    p->seq++;
  }
  return (int) n;
}

guint
st2022_packetizer_remaining (St2022Packetizer * p)
{
  if (p == NULL || p->raster == NULL)
    return 0;
  return p->fmt->datagrams_per_frame - p->next;
}

/* The getters report what the next st2022_packetizer_begin_frame() will
 * use, so a packetizer re-created on a format change continues the stream
 * (sequence, FRCount, video timestamp) exactly where the old one stops. */
guint16
st2022_packetizer_get_seq (St2022Packetizer * p)
{
  if (p == NULL)
    return 0;
  return p->started ? (guint16) (p->seq + p->fmt->datagrams_per_frame -
      p->next) : p->seq;
}

guint8
st2022_packetizer_get_frcount (St2022Packetizer * p)
{
  if (p == NULL)
    return 0;
  return p->started ? (guint8) (p->frcount + 1) : p->frcount;
}

guint32
st2022_packetizer_get_vts (St2022Packetizer * p)
{
  if (p == NULL)
    return 0;
  if (p->vts_set)
    return p->vts_next;
  return p->started ? p->vts_frame + p->fmt->vts_increment : p->vts_frame;
}

void
st2022_packetizer_set_vts (St2022Packetizer * p, guint32 vts)
{
  if (p == NULL)
    return;
  p->vts_set = TRUE;
  p->vts_next = vts;
}

void
st2022_packetizer_set_ref (St2022Packetizer * p, guint8 ref)
{
  if (p == NULL)
    return;
  p->cfg.ref = ref & 0x3;
  /* HBRMT byte 2: R in its top two bits */
  p->hdr[ST2022_RTP_HEADER_SIZE + 2] = (p->hdr[ST2022_RTP_HEADER_SIZE + 2] &
      0x3f) | p->cfg.ref << 6;
}
