/* gst-vmi: ANC packets in the SDI raster, and audio (de-)embedding
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include "vmi-anc.h"

/* Word positions within a line of the interleaved C/Y stream */
#define CRC_WORD 12
/* most words of one channel in a space: 720p23.98's HANC, 2833 */
#define MAX_SPACE_WORDS 3072

/* interleaved word range of a space: [first, end) */
static inline void
space_range (const St2022Format * fmt, VmiAncSpace space, guint * first,
    guint * end)
{
  st2022_format_anc_space (fmt, space == VMI_ANC_VANC, first, end);
}

guint
vmi_anc_space_words (const St2022Format * fmt, guint line, VmiAncSpace space)
{
  guint first, end;

  if (fmt == NULL || line < 1 || line > fmt->total_lines)
    return 0;
  if (space == VMI_ANC_VANC && st2022_format_line_to_row (fmt, line) >= 0)
    return 0;
  space_range (fmt, space, &first, &end);
  return fmt->sd ? end - first : (end - first) / 2;
}

struct _VmiAncWriter
{
  const St2022Format *fmt;
  guint8 *raster;
  guint16 *used;                /* [(total_lines + 1) * 4] */
  guint8 *vanc_dirty;           /* [total_lines + 1] */
  guint16 *scratch;             /* one line of words */
};

VmiAncWriter *
vmi_anc_writer_new (const St2022Format * fmt)
{
  VmiAncWriter *w;

  if (fmt == NULL)
    return NULL;
  w = g_new0 (VmiAncWriter, 1);
  w->fmt = fmt;
  w->used = g_new0 (guint16, (fmt->total_lines + 1) * 4);
  w->vanc_dirty = g_new0 (guint8, fmt->total_lines + 1);
  w->scratch = g_new0 (guint16, fmt->line_words);
  return w;
}

void
vmi_anc_writer_free (VmiAncWriter * w)
{
  if (w == NULL)
    return;
  g_free (w->used);
  g_free (w->vanc_dirty);
  g_free (w->scratch);
  g_free (w);
}

int
vmi_anc_writer_begin (VmiAncWriter * w, guint8 * raster, gsize size)
{
  if (w == NULL || raster == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (size < w->fmt->frame_bytes)
    return VMI_ANC_ERROR_SHORT;
  w->raster = raster;
  memset (w->used, 0, (w->fmt->total_lines + 1) * 4 * sizeof (guint16));
  memset (w->vanc_dirty, 0, w->fmt->total_lines + 1);
  return VMI_ANC_OK;
}

guint
vmi_anc_writer_used (VmiAncWriter * w, guint line, VmiAncSpace space,
    VmiAncChannel channel)
{
  if (w == NULL || line < 1 || line > w->fmt->total_lines)
    return 0;
  return w->used[line * 4 + space * 2 + channel];
}

int
vmi_anc_writer_add (VmiAncWriter * w, guint line, VmiAncSpace space,
    VmiAncChannel channel, const VmiAncPacket * p)
{
  const St2022Format *fmt;
  guint16 pw[VMI_ANC_MAX_WORDS];
  guint16 *lw;
  guint first, end, start, a0, a1, n, i, cap, stride;
  guint16 *used;
  guint8 *lp;

  if (w == NULL || p == NULL || w->raster == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  if (line < 1 || line > fmt->total_lines || channel > VMI_ANC_CHANNEL_Y)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  /* VANC is CRC-covered: the last line's CRC is carried into the next
   * frame by the raster writer, so keep it blank (SD has no CRC) */
  if (space == VMI_ANC_VANC && ((!fmt->sd && line == fmt->total_lines) ||
          st2022_format_line_to_row (fmt, line) >= 0))
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  /* SD: packets follow each other word by word in the one stream */
  if (fmt->sd)
    channel = VMI_ANC_CHANNEL_C;

  cap = vmi_anc_space_words (fmt, line, space);
  used = &w->used[line * 4 + space * 2 + channel];
  n = VMI_ANC_PACKET_WORDS (p->dc);
  if (*used + n > cap)
    return VMI_ANC_ERROR_NO_SPACE;
  vmi_anc_packet_to_words (p, pw, G_N_ELEMENTS (pw));

  /* read-modify-write only the 4-word (5-byte) groups the packet touches */
  space_range (fmt, space, &first, &end);
  stride = fmt->sd ? 1 : 2;
  start = first + stride * *used + channel;
  a0 = start & ~3u;
  a1 = ((start + stride * (n - 1)) | 3u) + 1;
  lp = w->raster + (gsize) (line - 1) * fmt->line_bytes;
  lw = w->scratch;
  st2022_unpack_words (lp + a0 / 4 * 5, lw, a1 - a0);
  for (i = 0; i < n; i++)
    lw[start - a0 + stride * i] = pw[i];
  st2022_pack_words (lw, lp + a0 / 4 * 5, a1 - a0);

  *used += n;
  if (space == VMI_ANC_VANC && !fmt->sd)
    w->vanc_dirty[line] = 1;
  return VMI_ANC_OK;
}

int
vmi_anc_writer_end (VmiAncWriter * w)
{
  const St2022Format *fmt;
  guint line, i, first, end;
  guint16 *lw;

  if (w == NULL || w->raster == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  lw = w->scratch;
  space_range (fmt, VMI_ANC_VANC, &first, &end);
  for (line = 1; line < fmt->total_lines; line++) {
    guint32 cc = 0, cy = 0;
    guint8 *next;
    guint16 tail[12], crc[4];

    if (!w->vanc_dirty[line])
      continue;
    /* the next line's CRC covers this line's active words (now holding
     * VANC) followed by its own EAV and LN words */
    st2022_unpack_words (w->raster + (gsize) (line - 1) * fmt->line_bytes +
        first / 4 * 5, lw, end - first);
    for (i = 0; i < end - first; i += 2) {
      cc = st2022_crc18_update (cc, &lw[i], 1);
      cy = st2022_crc18_update (cy, &lw[i + 1], 1);
    }
    next = w->raster + (gsize) line * fmt->line_bytes;
    st2022_unpack_words (next, tail, 12);
    for (i = 0; i < 12; i += 2) {
      cc = st2022_crc18_update (cc, &tail[i], 1);
      cy = st2022_crc18_update (cy, &tail[i + 1], 1);
    }
    st2022_crc_words (cc, &crc[0], &crc[2]);
    st2022_crc_words (cy, &crc[1], &crc[3]);
    st2022_pack_words (crc, next + CRC_WORD / 4 * 5, 4);
  }
  w->raster = NULL;
  return VMI_ANC_OK;
}

/* ---------------------------------------------------------------- */
/* Reading                                                          */
/* ---------------------------------------------------------------- */

/* raster bytes [b0, b1] (in memory) touch a datagram that never came */
static gboolean
bytes_missing (const St2022Format * fmt, const guint32 * map, gsize b0,
    gsize b1, guint n_datagrams)
{
  guint d;

  if (map == NULL)
    return FALSE;
  b0 = st2022_raster_wire_offset (fmt, b0);
  b1 = st2022_raster_wire_offset (fmt, b1);
  for (d = b0 / ST2022_PAYLOAD_SIZE; d <= b1 / ST2022_PAYLOAD_SIZE; d++) {
    if (d >= n_datagrams)
      return TRUE;
    if (map[d / 32] & (1u << (d % 32)))
      return TRUE;
  }
  return FALSE;
}

typedef struct
{
  const St2022Format *fmt;
  const guint32 *missing;
  const guint32 *blank_map;
  VmiAncReadStats *stats;
  VmiAncPacketFunc cb;
  gpointer user_data;
  guint16 words[2][MAX_SPACE_WORDS + 8];        /* one space, de-interleaved */
  VmiAncPacket pkt;
} Reader;

static void
read_space (Reader * r, const guint8 * lp, gsize line_off, guint line,
    VmiAncSpace space)
{
  const St2022Format *fmt = r->fmt;
  guint first, end, i, ch, nwords;
  /* SD: one stream, packets in consecutive words */
  guint stride = fmt->sd ? 1 : 2, nch = fmt->sd ? 1 : 2;
  guint16 head[8];

  space_range (fmt, space, &first, &end);
  if (bytes_missing (fmt, r->missing, line_off + first / 4 * 5,
          line_off + first / 4 * 5 + 9, fmt->datagrams_per_frame)) {
    /* cannot tell whether packets were there */
    return;
  }
  /* the datagrams these bytes came in put only blank fill in the spaces
   * there: no packet starts here, and the bytes need not be read */
  if (r->blank_map && !bytes_missing (fmt, r->blank_map,
          line_off + first / 4 * 5, line_off + first / 4 * 5 + 9,
          fmt->datagrams_per_frame))
    return;
  /* most spaces are blank: look at the first 8 words before the rest */
  st2022_unpack_words (lp + first / 4 * 5, head, 8);
  if (fmt->sd ? !(head[0] == 0 && head[1] == 0x3ff && head[2] == 0x3ff) :
      !((head[0] == 0 && head[2] == 0x3ff && head[4] == 0x3ff) ||
          (head[1] == 0 && head[3] == 0x3ff && head[5] == 0x3ff)))
    return;

  nwords = (end - first) / stride;
  if (nwords > MAX_SPACE_WORDS)
    return;
  if (fmt->sd) {
    st2022_unpack_words (lp + first / 4 * 5, r->words[0], nwords);
  } else {
    guint16 lw[2 * MAX_SPACE_WORDS + 8];

    st2022_unpack_words (lp + first / 4 * 5, lw, end - first);
    for (i = 0; i < nwords; i++) {
      r->words[0][i] = lw[2 * i];
      r->words[1][i] = lw[2 * i + 1];
    }
  }

  for (ch = 0; ch < nch; ch++) {
    guint off = 0;

    while (off + 7 <= nwords) {
      int n = vmi_anc_packet_parse (&r->words[ch][off], nwords - off, &r->pkt);
      guint len = n > 0 ? (guint) n :
          VMI_ANC_PACKET_WORDS (r->words[ch][off + 5] & 0xff);
      /* line words of this packet: first + stride * off + ch ... */
      gsize b0 = line_off + (first + stride * off + ch) * 10 / 8;
      gsize b1 = line_off + ((first + stride * (off + len - 1) + ch) * 10 +
          9) / 8;

      if (n == VMI_ANC_ERROR_NO_ADF)
        break;
      if (bytes_missing (fmt, r->missing, b0, b1, fmt->datagrams_per_frame)) {
        if (r->stats)
          r->stats->lost++;
        break;
      }
      if (n == VMI_ANC_ERROR_SHORT)
        break;
      if (n == VMI_ANC_ERROR_PARITY) {
        /* the length cannot be trusted: nothing after it either */
        if (r->stats)
          r->stats->checksum_errors++;
        break;
      }
      if (n == VMI_ANC_ERROR_CHECKSUM) {
        if (r->stats)
          r->stats->checksum_errors++;
        off += len;
        continue;
      }
      r->pkt.line = line;
      r->pkt.space = space;
      r->pkt.channel = ch;
      r->pkt.offset = off;
      if (r->stats)
        r->stats->packets++;
      if (r->cb)
        r->cb (r->user_data, &r->pkt);
      off += len;
    }
  }
}

int
vmi_anc_read_frame (const St2022Format * fmt, const guint8 * raster,
    gsize size, const guint32 * missing_map, VmiAncReadStats * stats,
    VmiAncPacketFunc cb, gpointer user_data)
{
  return vmi_anc_read_frame_full (fmt, raster, size, missing_map, NULL,
      stats, cb, user_data);
}

int
vmi_anc_read_frame_full (const St2022Format * fmt, const guint8 * raster,
    gsize size, const guint32 * missing_map, const guint32 * blank_map,
    VmiAncReadStats * stats, VmiAncPacketFunc cb, gpointer user_data)
{
  Reader *r;
  guint line;

  if (fmt == NULL || raster == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (size < fmt->frame_bytes)
    return VMI_ANC_ERROR_SHORT;
  /* the de-interleave buffers are too big for every caller's stack */
  r = g_new (Reader, 1);
  r->fmt = fmt;
  r->missing = missing_map;
  r->blank_map = fmt->half_byte_lines ? NULL : blank_map;
  r->stats = stats;
  r->cb = cb;
  r->user_data = user_data;
  for (line = 1; line <= fmt->total_lines; line++) {
    gsize off = (gsize) (line - 1) * fmt->line_bytes;

    read_space (r, raster + off, off, line, VMI_ANC_HANC);
    if ((fmt->sd || line < fmt->total_lines) &&
        st2022_format_line_to_row (fmt, line) < 0)
      read_space (r, raster + off, off, line, VMI_ANC_VANC);
  }
  g_free (r);
  return VMI_ANC_OK;
}

/* ---------------------------------------------------------------- */
/* Audio embedding                                                  */
/* ---------------------------------------------------------------- */

/* AES3 professional channel status: 48 kHz, linear PCM, 24-bit words;
 * byte 23 is the CRCC (x^8+x^4+x^3+x^2+1, preset 1s, LSB first) */
static void
channel_status (guint8 cs[24])
{
  guint i, k;
  guint8 crc = 0xff;

  memset (cs, 0, 24);
  cs[0] = 0x01 | 0x40;          /* professional; fs 48 kHz */
  cs[2] = 0x01 | 0x05 << 3;     /* 24-bit aux use; word length 24 */
  for (i = 0; i < 23; i++) {
    crc ^= cs[i];
    for (k = 0; k < 8; k++)
      crc = (crc & 1) ? (crc >> 1) ^ 0xb8 : crc >> 1;
  }
  cs[23] = crc;
}

void
vmi_anc_audio_tx_init (VmiAncAudioTx * tx)
{
  guint i;

  memset (tx, 0, sizeof (*tx));
  for (i = 0; i < 4; i++)
    tx->dbn[i] = tx->ctrl_dbn[i] = 1;
}

static guint8
next_dbn (guint8 * dbn)
{
  guint8 v = *dbn;

  /* 1..255: 0 would mean "not numbered" */
  *dbn = v == 255 ? 1 : v + 1;
  return v;
}

/* The line after a switching point carries no audio (ST 299-1) */
static gboolean
audio_line_ok (const St2022Format * fmt, guint line)
{
  return !(line == 8 || (fmt->interlaced && line == 570));
}

int
vmi_anc_audio_tx_frame (VmiAncAudioTx * tx, VmiAncWriter * w,
    const gint32 * samples, guint n, guint channels)
{
  const St2022Format *fmt;
  guint groups, g, k, line, on_line, per_line, lk, ret;
  guint8 cs[24];

  if (tx == NULL || w == NULL || (samples == NULL && n > 0) || channels < 1
      || channels > VMI_ANC_AUDIO_MAX_CHANNELS)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  /* ST 299-1 is HD's packet format */
  if (fmt->sd)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (n != vmi_anc_audio_frame_samples (fmt, tx->frame_index))
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  groups = (channels + 3) / 4;
  channel_status (cs);
  /* samples whose line is full wait for the next one: as many per line
   * as the C-channel HANC holds data packets of every group */
  per_line = vmi_anc_space_words (fmt, 1, VMI_ANC_HANC) /
      (VMI_ANC_PACKET_WORDS (VMI_ANC_AUDIO_DATA_DC) * groups);
  if (per_line == 0)
    return VMI_ANC_ERROR_NO_SPACE;

  /* control packets: one per group and field, Y channel, line 9 / 571 */
  for (g = 0; g < groups; g++) {
    VmiAncAudioControl c = { 0 };
    VmiAncPacket p;
    guint lines[2] = { 9, 571 }, nl = fmt->interlaced ? 2 : 1, li;

    c.group = g;
    c.af = vmi_anc_audio_sequence_length (fmt) > 1 ?
        (guint8) (tx->frame_index % 5 + 1) : 0;
    c.active = 0;
    for (k = 0; k < 4; k++)
      if (4 * g + k < channels)
        c.active |= 1 << k;
    for (li = 0; li < nl; li++) {
      c.dbn = next_dbn (&tx->ctrl_dbn[g]);
      vmi_anc_audio_control_build (&c, &p);
      ret = vmi_anc_writer_add (w, lines[li], VMI_ANC_HANC,
          VMI_ANC_CHANNEL_Y, &p);
      if (ret != VMI_ANC_OK)
        return ret;
    }
  }

  line = 0;
  on_line = 0;
  for (k = 0; k < n; k++) {
    guint s = (guint) ((tx->samples_sent + k) % 192);
    guint at, clk;

    vmi_anc_audio_sample_phase (fmt, tx->frame_index, k, &at, &clk);
    if (at > line) {
      line = at;
      on_line = 0;
    }
    while (!audio_line_ok (fmt, line) || on_line >= per_line) {
      line++;
      on_line = 0;
    }
    if (line > fmt->total_lines)
      return VMI_ANC_ERROR_NO_SPACE;
    on_line++;
    for (g = 0; g < groups; g++) {
      VmiAncAudioData a = { 0 };
      VmiAncPacket p;

      a.group = g;
      a.dbn = next_dbn (&tx->dbn[g]);
      /* the clock word counts from the EAV of the line the instant falls
       * in; MPF says the packet sits on a later line */
      a.clk = (guint16) clk;
      a.mpf = line != at;
      for (lk = 0; lk < 4; lk++) {
        guint c = 4 * g + lk;
        a.samples[lk] = c < channels ? samples[(gsize) k * channels + c] : 0;
      }
      a.z = s == 0;
      a.c = (cs[s / 8] >> (s % 8)) & 1;
      vmi_anc_audio_data_build (&a, &p);
      ret = vmi_anc_writer_add (w, line, VMI_ANC_HANC, VMI_ANC_CHANNEL_C, &p);
      if (ret != VMI_ANC_OK)
        return ret;
    }
  }
  tx->samples_sent += n;
  tx->frame_index++;
  return VMI_ANC_OK;
}

/* ---------------------------------------------------------------- */
/* Audio de-embedding                                               */
/* ---------------------------------------------------------------- */

/* largest frame: 2002 samples (23.98) */
#define RX_MAX_SAMPLES 2048
#define RX_MAX_GAPS 64

struct _VmiAncAudioRx
{
  gint32 samples[4][RX_MAX_SAMPLES][4];
  guint8 got[4][RX_MAX_SAMPLES];
  guint16 clk[4][RX_MAX_SAMPLES];       /* with MPF in bit 15 */
  guint16 line[4][RX_MAX_SAMPLES];
  guint n[4];                   /* positions used this frame */
  gint last[4];                 /* last data block number - 1, or -1 */
  gboolean seen[4];
  guint8 active[4];
  gboolean have_active[4];
  guint af;
  /* ST 272 (SD): a data block number counts packets of 3 or 4 samples, so
   * a gap says where samples are missing but not how many; the frame's
   * shortfall is put there at its end (vmi_anc_audio_rx_end_frame()) */
  gboolean sd[4];
  gint sd_last[4];              /* last data block number, -1 none */
  guint sd_gaps[4];
  guint16 sd_gap_at[4][RX_MAX_GAPS];    /* sample position of the gap */
  guint16 sd_gap_packets[4][RX_MAX_GAPS];
  gboolean sd_tail_padded[4];   /* the last frame's shortfall went at its
                                 * end: a gap before this frame's first
                                 * packet is those packets */
};

VmiAncAudioRx *
vmi_anc_audio_rx_new (void)
{
  VmiAncAudioRx *rx = g_new0 (VmiAncAudioRx, 1);

  vmi_anc_audio_rx_reset (rx);
  return rx;
}

void
vmi_anc_audio_rx_free (VmiAncAudioRx * rx)
{
  g_free (rx);
}

void
vmi_anc_audio_rx_reset (VmiAncAudioRx * rx)
{
  guint g;

  memset (rx, 0, sizeof (*rx));
  for (g = 0; g < 4; g++)
    rx->last[g] = rx->sd_last[g] = -1;
}

void
vmi_anc_audio_rx_discont (VmiAncAudioRx * rx)
{
  guint g;

  for (g = 0; g < 4; g++) {
    rx->last[g] = rx->sd_last[g] = -1;
    rx->sd_tail_padded[g] = FALSE;
  }
}

void
vmi_anc_audio_rx_begin_frame (VmiAncAudioRx * rx)
{
  guint g;

  for (g = 0; g < 4; g++) {
    if (rx->n[g])
      memset (rx->got[g], 0, rx->n[g]);
    rx->n[g] = 0;
    rx->sd_gaps[g] = 0;
  }
  rx->af = 0;
}

void
vmi_anc_audio_rx_skip (VmiAncAudioRx * rx, guint64 samples)
{
  guint g;

  for (g = 0; g < 4; g++) {
    if (rx->last[g] >= 0)
      rx->last[g] = (gint) ((rx->last[g] + samples) % 255);
    /* ST 272 numbers packets of 3 or 4 samples: no count to run on by */
    rx->sd_last[g] = -1;
    rx->sd_tail_padded[g] = FALSE;
  }
}

void
vmi_anc_audio_rx_push_data (VmiAncAudioRx * rx, const VmiAncAudioData * a)
{
  vmi_anc_audio_rx_push_data_near (rx, a, -1);
}

void
vmi_anc_audio_rx_push_data_near (VmiAncAudioRx * rx,
    const VmiAncAudioData * a, gint near)
{
  guint g = a->group & 3, pos = rx->n[g];

  /* a gap in the data block numbers is that many lost packets: their
   * samples keep their place (as silence); the clock phase tells the place
   * also after more than 254 lost packets (a frame's head lost with the
   * end of the one before) or without a packet before */
  if (near >= 0 && (guint) near >= pos)
    pos = near;
  else if (a->dbn != 0 && rx->last[g] >= 0)
    pos += (a->dbn - 1 - rx->last[g] - 1 + 2 * 255) % 255;
  if (a->dbn != 0)
    rx->last[g] = a->dbn - 1;
  rx->seen[g] = TRUE;
  if (pos >= RX_MAX_SAMPLES)
    return;
  memcpy (rx->samples[g][pos], a->samples, sizeof (a->samples));
  rx->got[g][pos] = 1;
  rx->clk[g][pos] = (a->clk & 0x1fff) | (a->mpf ? 0x8000 : 0);
  rx->line[g][pos] = (guint16) a->line;
  rx->n[g] = pos + 1;
}

void
vmi_anc_audio_rx_push_control (VmiAncAudioRx * rx,
    const VmiAncAudioControl * c)
{
  guint g = c->group & 3;

  rx->active[g] = c->active;
  rx->have_active[g] = TRUE;
  rx->seen[g] = TRUE;
  if (c->af)
    rx->af = c->af;
}

guint
vmi_anc_audio_rx_channels (VmiAncAudioRx * rx)
{
  guint g, k, channels = 0;

  for (g = 0; g < 4; g++) {
    if (!rx->seen[g])
      continue;
    if (!rx->have_active[g]) {
      channels = 4 * g + 4;
      continue;
    }
    for (k = 0; k < 4; k++)
      if (rx->active[g] & (1 << k))
        channels = MAX (channels, 4 * g + k + 1);
  }
  return channels;
}

guint
vmi_anc_audio_rx_frame_number (VmiAncAudioRx * rx)
{
  return rx->af;
}

guint
vmi_anc_audio_rx_check_phase (VmiAncAudioRx * rx, const St2022Format * fmt,
    guint64 frame_index)
{
  guint g, i, n, line, clk, bad = 0;

  if (rx == NULL || fmt == NULL)
    return 0;
  n = vmi_anc_audio_frame_samples (fmt, frame_index);
  for (g = 0; g < 4; g++) {
    for (i = 0; i < MIN (rx->n[g], RX_MAX_SAMPLES); i++) {
      gboolean mpf = (rx->clk[g][i] & 0x8000) != 0;

      if (!rx->got[g][i])
        continue;
      /* more samples than the frame has: each extra one is wrong */
      if (i >= n || vmi_anc_audio_sample_phase (fmt, frame_index, i, &line,
              &clk) != VMI_ANC_OK) {
        bad++;
        continue;
      }
      if ((rx->clk[g][i] & 0x1fff) != clk || (rx->line[g][i] != 0 &&
              (mpf ? rx->line[g][i] <= line : rx->line[g][i] != line)))
        bad++;
    }
  }
  return bad;
}

/* An SD group short of @expected samples: the shortfall goes into this
 * frame's data block number gaps, shared by their packet counts (exact
 * with one gap), or at the frame's end when there is none (packets lost
 * after the last one received; the next frame's leading gap is then
 * theirs). */
static void
sd_place_gaps (VmiAncAudioRx * rx, guint g, guint expected)
{
  guint short_by, total = 0, i, done = 0, before = 0, end;
  guint add[RX_MAX_GAPS];

  if (expected == 0 || rx->n[g] >= expected || expected > RX_MAX_SAMPLES) {
    rx->sd_tail_padded[g] = FALSE;
    return;
  }
  short_by = expected - rx->n[g];
  rx->sd_tail_padded[g] = rx->sd_gaps[g] == 0;
  for (i = 0; i < rx->sd_gaps[g]; i++)
    total += rx->sd_gap_packets[g][i];
  /* cumulative rounding: the shares add up to the shortfall */
  for (i = 0; i < rx->sd_gaps[g]; i++) {
    before += rx->sd_gap_packets[g][i];
    add[i] = (guint) (((guint64) short_by * before + total / 2) / total) -
        done;
    done += add[i];
  }
  /* shift from the last gap down: samples after gap i move by the shares
   * of gaps 0..i */
  end = rx->n[g];
  for (i = rx->sd_gaps[g]; i-- > 0;) {
    guint at = rx->sd_gap_at[g][i];

    memmove (rx->samples[g][at + done], rx->samples[g][at],
        (end - at) * sizeof (rx->samples[g][0]));
    memmove (&rx->got[g][at + done], &rx->got[g][at], end - at);
    memset (&rx->got[g][at + done - add[i]], 0, add[i]);
    done -= add[i];
    end = at;
  }
  rx->n[g] = expected;
}

guint
vmi_anc_audio_rx_end_frame (VmiAncAudioRx * rx, guint expected,
    guint channels, gint32 * out, guint max, guint * concealed)
{
  guint count = 0, g, i, c, lost = 0;

  for (g = 0; g < 4; g++)
    if (rx->sd[g])
      sd_place_gaps (rx, g, expected);
  if (expected) {
    count = expected;
  } else {
    for (g = 0; g < 4; g++)
      count = MAX (count, rx->n[g]);
  }
  count = MIN (count, MIN (max, RX_MAX_SAMPLES));
  channels = MIN (channels, VMI_ANC_AUDIO_MAX_CHANNELS);
  for (i = 0; i < count; i++) {
    gboolean hole = FALSE;

    for (c = 0; c < channels; c++) {
      g = c / 4;
      if (i < rx->n[g] && rx->got[g][i]) {
        out[(gsize) i * channels + c] = rx->samples[g][i][c % 4];
      } else {
        out[(gsize) i * channels + c] = 0;
        hole = TRUE;
      }
    }
    if (hole)
      lost++;
  }
  /* packets lost at the end of the frame still used block numbers: the
   * next frame's first packet must not count them again */
  for (g = 0; g < 4; g++) {
    if (rx->seen[g] && rx->last[g] >= 0 && rx->n[g] < count)
      rx->last[g] = (rx->last[g] + (count - rx->n[g])) % 255;
  }
  if (concealed)
    *concealed = lost;
  return count;
}

/* ---------------------------------------------------------------- */
/* ST 272 SD embedded audio                                         */
/* ---------------------------------------------------------------- */

static guint
parity9 (guint v)
{
  guint bits = 0;

  for (; v; v >>= 1)
    bits += v & 1;
  return bits & 1;
}

/* b9 = !b8 of a 9-bit value */
static guint16
w9 (guint v)
{
  v &= 0x1ff;
  return (guint16) (v | ((v & 0x100) ? 0 : 0x200));
}

int
vmi_anc_sd_audio_build (const VmiAncSdAudio * a, VmiAncPacket * p)
{
  guint i, ch, k = 0;

  if (a == NULL || p == NULL || a->group > 3 || a->n < 1
      || a->n > VMI_ANC_SD_AUDIO_MAX || a->channels < 1 || a->channels > 4)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  vmi_anc_packet_init (p, VMI_ANC_DID_SD_AUDIO_G1 - 2 * a->group, a->dbn);
  for (i = 0; i < a->n; i++) {
    for (ch = 0; ch < a->channels; ch++) {
      /* the 20 most significant of the 24 bits */
      guint s = ((guint32) a->samples[i][ch] >> 4) & 0xfffff;
      guint x0 = (a->z[i] & 1) | ch << 1 | (s & 0x3f) << 3;
      guint x1 = (s >> 6) & 0x1ff;
      guint x2 = (s >> 15) | (a->v & 1) << 5 | (a->u & 1) << 6 |
          (a->c[i] & 1) << 7;

      /* P: even parity over the 26 bits b0-b8, b0-b8, b0-b7 */
      x2 |= (parity9 (x0) ^ parity9 (x1) ^ parity9 (x2)) << 8;
      p->udw[k++] = w9 (x0);
      p->udw[k++] = w9 (x1);
      p->udw[k++] = w9 (x2);
    }
  }
  p->dc = (guint8) k;
  return VMI_ANC_OK;
}

int
vmi_anc_sd_audio_parse (const VmiAncPacket * p, VmiAncSdAudio * a)
{
  guint i, k, sub;

  if (p == NULL || a == NULL)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  if (p->did < VMI_ANC_DID_SD_AUDIO_G1 - 6
      || (p->did & 1) == 0 || p->dc == 0 || p->dc % 3)
    return VMI_ANC_ERROR_WRONG_TYPE;
  memset (a, 0, sizeof (*a));
  a->group = (VMI_ANC_DID_SD_AUDIO_G1 - p->did) / 2;
  a->dbn = p->sdid;
  sub = p->dc / 3;
  for (k = 0; k < sub; k++) {
    guint x0 = p->udw[3 * k] & 0x1ff, x1 = p->udw[3 * k + 1] & 0x1ff;
    guint x2 = p->udw[3 * k + 2] & 0x1ff, ch = (x0 >> 1) & 3;
    guint s;

    if (parity9 (x0) ^ parity9 (x1) ^ parity9 (x2))
      return VMI_ANC_ERROR_PARITY;
    /* the channels of a sample follow each other from 0 */
    if (ch == 0 && k > 0) {
      if (a->channels == 0)
        a->channels = k;
      if (k % a->channels)
        return VMI_ANC_ERROR_WRONG_TYPE;
    }
    i = a->channels ? k / a->channels : 0;
    if ((a->channels ? k % a->channels : k) != ch
        || i >= VMI_ANC_SD_AUDIO_MAX)
      return VMI_ANC_ERROR_WRONG_TYPE;
    s = (x0 >> 3) | x1 << 6 | (x2 & 0x1f) << 15;
    /* 20-bit two's complement back to 24-bit */
    a->samples[i][ch] = ((gint32) (s << 12)) >> 8;
    if (ch == 0) {
      a->z[i] = x0 & 1;
      a->c[i] = (x2 >> 7) & 1;
    }
    a->v = (x2 >> 5) & 1;
    a->u = (x2 >> 6) & 1;
  }
  if (a->channels == 0)
    a->channels = sub;
  if (sub % a->channels)
    return VMI_ANC_ERROR_WRONG_TYPE;
  a->n = sub / a->channels;
  return VMI_ANC_OK;
}

/* ST 272: no audio on the line after a switching point */
static gboolean
sd_audio_line_ok (const St2022Format * fmt, guint line)
{
  if (fmt->total_lines == 525)
    return line != 11 && line != 274;
  return line != 7 && line != 320;
}

int
vmi_anc_sd_audio_tx_frame (VmiAncAudioTx * tx, VmiAncWriter * w,
    const gint32 * samples, guint n, guint channels)
{
  const St2022Format *fmt;
  guint groups, g, line, idx = 0, lines, k = 0, lk;
  guint8 cs[24];
  int ret;

  if (tx == NULL || w == NULL || (samples == NULL && n > 0) || channels < 1
      || channels > VMI_ANC_AUDIO_MAX_CHANNELS)
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  fmt = w->fmt;
  if (!fmt->sd || n != vmi_anc_audio_frame_samples (fmt, tx->frame_index))
    return VMI_ANC_ERROR_INVALID_ARGUMENT;
  groups = (channels + 3) / 4;
  channel_status (cs);
  lines = fmt->total_lines - 2;
  for (line = 1; line <= fmt->total_lines; line++) {
    guint end, m;

    if (!sd_audio_line_ok (fmt, line))
      continue;
    /* line idx of the usable ones carries samples [idx n / lines,
     * (idx + 1) n / lines): 3 or 4 a line */
    end = (guint) ((guint64) (idx + 1) * n / lines);
    idx++;
    m = end - k;
    if (m == 0)
      continue;
    for (g = 0; g < groups; g++) {
      VmiAncSdAudio a = { 0 };
      VmiAncPacket p;
      guint i;

      a.group = g;
      a.dbn = next_dbn (&tx->dbn[g]);
      a.n = m;
      a.channels = MIN (4, channels - 4 * g);
      for (i = 0; i < m; i++) {
        guint s = (guint) ((tx->samples_sent + k + i) % 192);

        for (lk = 0; lk < a.channels; lk++)
          a.samples[i][lk] = samples[(gsize) (k + i) * channels + 4 * g + lk];
        a.z[i] = s == 0;
        a.c[i] = (cs[s / 8] >> (s % 8)) & 1;
      }
      ret = vmi_anc_sd_audio_build (&a, &p);
      if (ret == VMI_ANC_OK)
        ret = vmi_anc_writer_add (w, line, VMI_ANC_HANC, VMI_ANC_CHANNEL_C,
            &p);
      if (ret != VMI_ANC_OK)
        return ret;
    }
    k = end;
  }
  tx->samples_sent += n;
  tx->frame_index++;
  return VMI_ANC_OK;
}

void
vmi_anc_audio_rx_push_sd (VmiAncAudioRx * rx, const VmiAncSdAudio * a)
{
  VmiAncAudioControl c = { 0 };
  VmiAncAudioData d = { 0 };
  guint i, g;

  c.group = a->group;
  c.active = (1u << a->channels) - 1;
  vmi_anc_audio_rx_push_control (rx, &c);
  g = a->group & 3;
  rx->sd[g] = TRUE;
  /* lost packets: remember where (sd_place_gaps() decides how many
   * samples); a gap before the frame's first packet after a frame padded
   * at its end is that frame's */
  if (a->dbn != 0) {
    guint missing = rx->sd_last[g] < 0 ? 0 :
        (guint) (a->dbn - rx->sd_last[g] - 1 + 2 * 255) % 255;

    if (missing > 0 && !(rx->n[g] == 0 && rx->sd_tail_padded[g])
        && rx->sd_gaps[g] < RX_MAX_GAPS && rx->n[g] < RX_MAX_SAMPLES) {
      rx->sd_gap_at[g][rx->sd_gaps[g]] = (guint16) rx->n[g];
      rx->sd_gap_packets[g][rx->sd_gaps[g]] = (guint16) MIN (missing, 255);
      rx->sd_gaps[g]++;
    }
    rx->sd_last[g] = a->dbn;
  }
  d.group = a->group;
  for (i = 0; i < a->n; i++) {
    memcpy (d.samples, a->samples[i], sizeof (d.samples));
    d.z = a->z[i];
    d.c = a->c[i];
    vmi_anc_audio_rx_push_data (rx, &d);
  }
}
