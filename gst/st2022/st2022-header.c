/* gst-vmi: RTP + HBRMT header pack/parse
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "st2022-private.h"

guint
st2022_header_size (const St2022Header * hdr)
{
  if (hdr == NULL)
    return 0;
  return ST2022_RTP_HEADER_SIZE + ST2022_HBRMT_HEADER_SIZE +
      (hdr->cf ? ST2022_VTS_SIZE : 0);
}

static inline void
put_be16 (guint8 * p, guint16 v)
{
  p[0] = v >> 8;
  p[1] = v & 0xff;
}

static inline void
put_be32 (guint8 * p, guint32 v)
{
  p[0] = v >> 24;
  p[1] = (v >> 16) & 0xff;
  p[2] = (v >> 8) & 0xff;
  p[3] = v & 0xff;
}

static inline guint32
get_be32 (const guint8 * p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 |
      p[3];
}

int
st2022_header_pack (const St2022Header * hdr, guint8 * buf, gsize size)
{
  guint8 *h;
  guint cf;

  if (hdr == NULL || buf == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (size < st2022_header_size (hdr))
    return ST2022_ERROR_BUFFER_TOO_SMALL;

  buf[0] = 0x80;                /* V=2, P=0, X=0, CC=0 */
  buf[1] = (hdr->marker ? 0x80 : 0) | (hdr->payload_type & 0x7f);
  put_be16 (buf + 2, hdr->seq);
  put_be32 (buf + 4, hdr->rtp_ts);
  put_be32 (buf + 8, hdr->ssrc);

  h = buf + ST2022_RTP_HEADER_SIZE;
  cf = hdr->cf & 0xf;
  h[0] = (hdr->ext & 0xf) << 4 | (hdr->f ? 0x08 : 0) | (hdr->vsid & 0x7);
  h[1] = hdr->frcount;
  h[2] = (hdr->ref & 0x3) << 6 | (hdr->scramble & 0x3) << 4 |
      (hdr->fec & 0x7) << 1 | cf >> 3;
  h[3] = (cf & 0x7) << 5;
  h[4] = (hdr->map & 0xf) << 4 | hdr->frame >> 4;
  h[5] = (hdr->frame & 0xf) << 4 | hdr->frate >> 4;
  h[6] = (hdr->frate & 0xf) << 4 | (hdr->sample & 0xf);
  h[7] = 0;
  if (cf)
    put_be32 (h + ST2022_HBRMT_HEADER_SIZE, hdr->vts);
  return ST2022_OK;
}

static gboolean
frame_code_known (guint8 c)
{
  switch (c) {
    case ST2022_FRAME_525I:
    case ST2022_FRAME_625I:
    case ST2022_FRAME_1080I:
    case ST2022_FRAME_1080P:
    case ST2022_FRAME_1080PSF:
    case ST2022_FRAME_2048_1080P:
    case ST2022_FRAME_2048_1080PSF:
    case ST2022_FRAME_720P:
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
frate_code_known (guint8 c)
{
  switch (c) {
    case ST2022_FRATE_60:
    case ST2022_FRATE_59_94:
    case ST2022_FRATE_50:
    case ST2022_FRATE_48:
    case ST2022_FRATE_47_95:
    case ST2022_FRATE_30:
    case ST2022_FRATE_29_97:
    case ST2022_FRATE_25:
    case ST2022_FRATE_24:
    case ST2022_FRATE_23_98:
      return TRUE;
    default:
      return FALSE;
  }
}

int
st2022_header_parse (const guint8 * data, gsize len, St2022Header * hdr,
    const guint8 ** payload)
{
  const guint8 *h;
  guint hlen;

  if (data == NULL || hdr == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  if (len < ST2022_RTP_HEADER_SIZE + ST2022_HBRMT_HEADER_SIZE)
    return ST2022_ERROR_SHORT;
  if ((data[0] >> 6) != 2)
    return ST2022_ERROR_RTP_VERSION;
  if (data[0] & 0x20)
    return ST2022_ERROR_RTP_PADDING;
  if (data[0] & 0x10)
    return ST2022_ERROR_RTP_EXTENSION;
  if (data[0] & 0x0f)
    return ST2022_ERROR_RTP_CSRC;

  hdr->marker = (data[1] & 0x80) != 0;
  hdr->payload_type = data[1] & 0x7f;
  hdr->seq = (guint16) (data[2] << 8 | data[3]);
  hdr->rtp_ts = get_be32 (data + 4);
  hdr->ssrc = get_be32 (data + 8);

  h = data + ST2022_RTP_HEADER_SIZE;
  hdr->ext = h[0] >> 4;
  hdr->f = (h[0] & 0x08) != 0;
  hdr->vsid = h[0] & 0x7;
  hdr->frcount = h[1];
  hdr->ref = h[2] >> 6;
  hdr->scramble = (h[2] >> 4) & 0x3;
  hdr->fec = (h[2] >> 1) & 0x7;
  hdr->cf = (guint8) ((h[2] & 1) << 3 | h[3] >> 5);
  hdr->map = h[4] >> 4;
  hdr->frame = (guint8) ((h[4] & 0xf) << 4 | h[5] >> 4);
  hdr->frate = (guint8) ((h[5] & 0xf) << 4 | h[6] >> 4);
  hdr->sample = h[6] & 0xf;
  hdr->format = NULL;

  hlen = ST2022_RTP_HEADER_SIZE + ST2022_HBRMT_HEADER_SIZE;
  if (hdr->cf) {
    if (len < hlen + ST2022_VTS_SIZE)
      return ST2022_ERROR_SHORT;
    hdr->vts = get_be32 (h + ST2022_HBRMT_HEADER_SIZE);
    hlen += ST2022_VTS_SIZE;
  } else {
    hdr->vts = 0;
  }
  hdr->header_len = hlen;

  if (hdr->ext != 0)
    return ST2022_ERROR_HBRMT_EXTENSION;
  if (!hdr->f)
    return ST2022_ERROR_HBRMT_NO_FORMAT;
  if (hdr->cf > ST2022_CF_297_1001MHZ)
    return ST2022_ERROR_BAD_CF;
  if (hdr->map != 0)
    return ST2022_ERROR_UNSUPPORTED_MAP;
  if (!frame_code_known (hdr->frame))
    return ST2022_ERROR_BAD_FRAME;
  if (!frate_code_known (hdr->frate))
    return ST2022_ERROR_BAD_FRATE;
  if (hdr->sample != ST2022_SAMPLE_422_10)
    return ST2022_ERROR_BAD_SAMPLE;
  hdr->format = st2022_format_from_codes (hdr->frame, hdr->frate, hdr->sample);
  if (hdr->format == NULL)
    return ST2022_ERROR_UNSUPPORTED_FORMAT;
  if (len - hlen != ST2022_PAYLOAD_SIZE)
    return ST2022_ERROR_LENGTH;

  if (payload)
    *payload = data + hlen;
  return ST2022_OK;
}

int
st2022_header_parse_cached (St2022HeaderCache * cache, const guint8 * data,
    gsize len, St2022Header * hdr)
{
  int r;

  if (cache == NULL || data == NULL || hdr == NULL)
    return ST2022_ERROR_INVALID_ARGUMENT;
  /* everything the validation looks at is in these bytes and the length;
   * what is left differs from datagram to datagram and is read here */
  if (cache->valid && len == cache->len && data[0] == cache->rtp0
      && (data[1] & 0x7f) == cache->pt
      && memcmp (data + 8, cache->ssrc, 4) == 0
      && memcmp (data + ST2022_RTP_HEADER_SIZE, cache->hbrmt, 8) == 0) {
    *hdr = cache->hdr;
    hdr->marker = (data[1] & 0x80) != 0;
    hdr->seq = (guint16) (data[2] << 8 | data[3]);
    hdr->rtp_ts = get_be32 (data + 4);
    if (hdr->cf)
      hdr->vts = get_be32 (data + ST2022_RTP_HEADER_SIZE +
          ST2022_HBRMT_HEADER_SIZE);
    return ST2022_OK;
  }
  r = st2022_header_parse (data, len, hdr, NULL);
  if (r == ST2022_OK) {
    cache->valid = TRUE;
    cache->len = len;
    cache->rtp0 = data[0];
    cache->pt = data[1] & 0x7f;
    memcpy (cache->ssrc, data + 8, 4);
    memcpy (cache->hbrmt, data + ST2022_RTP_HEADER_SIZE, 8);
    cache->hdr = *hdr;
  }
  return r;
}
