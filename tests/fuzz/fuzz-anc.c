/* gst-vmi: libFuzzer target for the ST 291-1 ancillary data parsers
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: byte 0 picks the format (of the st2022 table), the rest is packed
 * 10-bit SDI words written over the blanking of a raster (HANC start of
 * line 1 onwards, where the reader looks first) and, as words, straight into
 * vmi_anc_packet_parse().  Every packet found goes through the ATC, audio
 * data and audio control parsers, the ST 272 (SD) audio parser and the
 * audio de-embedder (its SD gap placement too).
 *
 * Build (clang): -fsanitize=fuzzer,address,undefined; see
 * tests/anc/meson.build and docs/ancillary.md "Fuzzing".
 */

#include <stdint.h>
#include <string.h>
#include "vmi-anc.h"

/* one raster per format of the table, however many it holds */
static guint8 **rasters;
static VmiAncAudioRx *rx;

static void
on_packet (gpointer user_data, const VmiAncPacket * p)
{
  VmiAncTimecode tc;
  VmiAncAudioData a;
  VmiAncAudioControl c;
  VmiAncSdAudio sa;

  vmi_anc_atc_parse (p, &tc);
  if (vmi_anc_sd_audio_parse (p, &sa) == VMI_ANC_OK)
    vmi_anc_audio_rx_push_sd (rx, &sa);
  if (vmi_anc_audio_data_parse (p, &a) == VMI_ANC_OK)
    vmi_anc_audio_rx_push_data (rx, &a);
  if (vmi_anc_audio_control_parse (p, &c) == VMI_ANC_OK)
    vmi_anc_audio_rx_push_control (rx, &c);
}

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  const St2022Format *fmt;
  guint idx, nwords, i;
  guint16 *words;
  VmiAncPacket p;
  VmiAncReadStats st = { 0 };
  static gint32 out[2048 * 16];
  guint concealed;

  if (size < 1)
    return 0;
  idx = data[0] % st2022_format_count ();
  fmt = st2022_format_get (idx);
  data++;
  size--;
  if (rx == NULL) {
    rx = vmi_anc_audio_rx_new ();
    rasters = g_new0 (guint8 *, st2022_format_count ());
  }
  if (rasters[idx] == NULL)
    rasters[idx] = g_malloc0 (fmt->frame_bytes);

  /* the input as words for the packet parser, from every start offset
   * of the first few words */
  nwords = (size / 5) * 4;
  words = g_new (guint16, nwords + 4);
  st2022_unpack_words (data, words, nwords);
  for (i = 0; i < MIN (nwords, 8u); i++)
    vmi_anc_packet_parse (words + i, nwords - i, &p);
  g_free (words);

  /* the input over the raster from line 1's HANC, and a whole-frame read */
  memset (rasters[idx], 0, fmt->frame_bytes);
  memcpy (rasters[idx] + 20, data, MIN (size, fmt->frame_bytes - 20));
  vmi_anc_audio_rx_begin_frame (rx);
  vmi_anc_read_frame (fmt, rasters[idx], fmt->frame_bytes, NULL, &st,
      on_packet, NULL);
  /* again with a side buffer's blank_dirty map and a missing map, their
   * bits from the input: the reader skips the spaces of clear datagrams */
  {
    guint map_words = (fmt->datagrams_per_frame + 31) / 32;
    guint32 *blank = g_new0 (guint32, map_words);
    guint32 *missing = g_new0 (guint32, map_words);

    for (i = 0; i < map_words && size > 0; i++) {
      blank[i] = 0x01010101u * data[i % size];
      missing[i] = data[(i * 7 + 3) % size] < 16 ? 1u << (data[i % size]
          & 31) : 0;
    }
    vmi_anc_read_frame_full (fmt, rasters[idx], fmt->frame_bytes, missing,
        blank, &st, on_packet, NULL);
    g_free (blank);
    g_free (missing);
  }
  vmi_anc_audio_rx_end_frame (rx, size % 3 ? 0 :
      vmi_anc_audio_frame_samples (fmt, size), vmi_anc_audio_rx_channels (rx),
      out, 2048, &concealed);
  return 0;
}
