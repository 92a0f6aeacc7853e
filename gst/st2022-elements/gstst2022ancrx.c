/* gst-vmi: ancillary data for st2022src: the side buffers the
 * depacketizer writes blanking into, the ANC packets read from them
 * (timecode, captions, payload ID, audio), and the audio pad
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/audio/audio.h>
#include "gstst2022anc.h"
#include "gstst2022anc-priv.h"
#include "vmi-anc.h"

GST_DEBUG_CATEGORY_EXTERN (gst_st2022_anc_debug);
#define GST_CAT_DEFAULT gst_st2022_anc_debug

static GstStaticPadTemplate audio_src_template =
GST_STATIC_PAD_TEMPLATE ("audio", GST_PAD_SRC, GST_PAD_SOMETIMES,
    GST_STATIC_CAPS ("audio/x-raw, format = (string) S32LE, "
        "rate = (int) 48000, channels = (int) [ 1, 16 ], "
        "layout = (string) interleaved"));

/* ======================================================================= */
/* Receiver                                                                */
/* ======================================================================= */

#define RX_SIDE_BUFFERS 4
/* how far the video's PTS (arrival times) may be from where the samples of
 * the missing frames put the audio for the gap to be filled */
#define GAP_SLACK (GST_SECOND)
/* longest run of missing frames filled with silence: 10 s */
#define MAX_GAP_SAMPLES (10 * VMI_ANC_AUDIO_RATE)
/* how long an unlinked audio pad may drop the audio before a warning */
#define AUDIO_UNLINKED_WARN (2 * GST_SECOND)

typedef struct
{
  GstBuffer *buf;
  guint channels;
  guint64 frame_no;
  guint64 sample_pos;           /* its first sample's place in the stream */
} FrameAudio;

static void
frame_audio_free (gpointer data)
{
  FrameAudio *fa = data;

  gst_buffer_unref (fa->buf);
  g_free (fa);
}

static GQuark
frame_audio_quark (void)
{
  static gsize q = 0;

  if (g_once_init_enter (&q))
    g_once_init_leave (&q, g_quark_from_static_string ("st2022-anc-audio"));
  return (GQuark) q;
}

struct _GstSt2022AncRx
{
  GstElement *src;

  /* receive thread */
  guint8 *side[RX_SIDE_BUFFERS];
  gsize side_size[RX_SIDE_BUFFERS];
  /* per side buffer: the St2022Target.blank_dirty map and its format */
  guint32 *side_dirty[RX_SIDE_BUFFERS];
  const St2022Format *side_fmt[RX_SIDE_BUFFERS];
  VmiAncAudioRx *arx;
  const St2022Format *fmt;
  gboolean have_frcount;
  guint8 last_frcount;
  gboolean lossy;               /* this frame lost datagrams */
  guint64 seq_index;            /* frame's place in the 1000/1001 sequence */
  guint64 frame_no;
  guint64 sample_pos;           /* samples the sender sent before this frame */
  gint32 *samples;
  /* per frame, filled by the packet callback */
  VmiAncTimecode tc[2];
  gboolean have_tc[2];
  GstBuffer *video;
  guint8 payload_id[4];
  gboolean have_payload_id;

  /* streaming thread */
  GstPad *audio_pad;
  guint channels;
  gboolean need_segment;
  guint64 last_frame_no;
  guint64 next_sample_pos;      /* sample_pos the next buffer continues at */
  GstClockTime unlinked_since;  /* first push that found no peer */
  gboolean unlinked_warned;
  gboolean audio_started;
  GstClockTime audio_base;
  guint64 audio_since_base;
  gulong probe_id;

  /* counters, under @lock */
  GMutex lock;
  guint64 packets;
  guint64 checksum_errors;
  guint64 lost;
  guint64 timecodes;
  guint64 captions;
  guint32 payload_id_value;
  guint64 payload_id_mismatches;
  guint64 audio_samples;
  guint64 audio_concealed;
  guint64 audio_clock_mismatches;
  guint64 audio_gap_samples;    /* silence pushed for frames that never came */
};

static GstPadProbeReturn
video_event_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstSt2022AncRx *rx = user_data;
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
  GstPad *apad;

  switch (GST_EVENT_TYPE (ev)) {
    case GST_EVENT_EOS:
    case GST_EVENT_FLUSH_START:
    case GST_EVENT_FLUSH_STOP:
      GST_OBJECT_LOCK (rx->src);
      apad = rx->audio_pad ? gst_object_ref (rx->audio_pad) : NULL;
      GST_OBJECT_UNLOCK (rx->src);
      if (apad) {
        if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_STOP)
          rx->need_segment = TRUE;
        gst_pad_push_event (apad, gst_event_ref (ev));
        gst_object_unref (apad);
      }
      break;
    default:
      break;
  }
  return GST_PAD_PROBE_OK;
}

GstSt2022AncRx *
gst_st2022_anc_rx_new (GstElement * src)
{
  GstSt2022AncRx *rx = g_new0 (GstSt2022AncRx, 1);
  GstPad *vpad = gst_element_get_static_pad (src, "src");

  gst_st2022_anc_debug_init ();
  rx->src = src;
  g_mutex_init (&rx->lock);
  rx->arx = vmi_anc_audio_rx_new ();
  rx->samples = g_new0 (gint32, MAX_FRAME_SAMPLES *
      VMI_ANC_AUDIO_MAX_CHANNELS);
  if (vpad) {
    /* the audio pad ends and flushes with the video */
    rx->probe_id = gst_pad_add_probe (vpad,
        GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
        video_event_probe, rx, NULL);
    gst_object_unref (vpad);
  }
  return rx;
}

void
gst_st2022_anc_rx_free (GstSt2022AncRx * rx)
{
  guint i;

  if (rx == NULL)
    return;
  for (i = 0; i < RX_SIDE_BUFFERS; i++) {
    g_free (rx->side[i]);
    g_free (rx->side_dirty[i]);
  }
  vmi_anc_audio_rx_free (rx->arx);
  g_free (rx->samples);
  g_mutex_clear (&rx->lock);
  g_free (rx);
}

GstPadTemplate *
gst_st2022_anc_rx_audio_template (void)
{
  return gst_static_pad_template_get (&audio_src_template);
}

void
gst_st2022_anc_rx_reset (GstSt2022AncRx * rx, gboolean remove_pads)
{
  GstPad *apad = NULL;

  vmi_anc_audio_rx_reset (rx->arx);
  rx->fmt = NULL;
  rx->have_frcount = FALSE;
  rx->seq_index = 0;
  rx->frame_no = 0;
  rx->sample_pos = 0;
  rx->unlinked_since = GST_CLOCK_TIME_NONE;
  rx->unlinked_warned = FALSE;
  rx->audio_started = FALSE;
  rx->need_segment = TRUE;
  g_mutex_lock (&rx->lock);
  rx->packets = rx->checksum_errors = rx->lost = 0;
  rx->timecodes = rx->captions = rx->payload_id_mismatches = 0;
  rx->audio_samples = rx->audio_concealed = rx->audio_clock_mismatches = 0;
  rx->audio_gap_samples = 0;
  rx->payload_id_value = 0;
  g_mutex_unlock (&rx->lock);
  if (remove_pads) {
    GST_OBJECT_LOCK (rx->src);
    apad = rx->audio_pad;
    rx->audio_pad = NULL;
    GST_OBJECT_UNLOCK (rx->src);
    rx->channels = 0;
    if (apad) {
      gst_pad_set_active (apad, FALSE);
      gst_element_remove_pad (rx->src, apad);
    }
  }
}

/* Whether the depacketizer may leave a side buffer's blank fill standing
 * (St2022Target.blank_dirty): yes unless VMI_RX_BLANK=copy, which keeps
 * every non-picture byte copied, for the benchmarks' A/B runs */
static gboolean
rx_blank_skip (void)
{
  static gsize once;
  static gboolean skip;

  if (g_once_init_enter (&once)) {
    skip = g_strcmp0 (g_getenv ("VMI_RX_BLANK"), "copy") != 0;
    g_once_init_leave (&once, 1);
  }
  return skip;
}

guint8 *
gst_st2022_anc_rx_side_buffer (GstSt2022AncRx * rx, guint slot,
    const St2022Format * fmt, guint32 ** dirty)
{
  *dirty = NULL;
  if (slot >= RX_SIDE_BUFFERS)
    return NULL;
  if (rx->side_size[slot] < fmt->frame_bytes) {
    g_free (rx->side[slot]);
    rx->side[slot] = g_malloc0 (fmt->frame_bytes);
    rx->side_size[slot] = fmt->frame_bytes;
    rx->side_fmt[slot] = NULL;
  }
  if (rx->side_fmt[slot] != fmt) {
    gsize words = (fmt->datagrams_per_frame + 31) / 32;

    /* nothing known of what the buffer holds in the new layout: every
     * datagram's blanking is copied once */
    g_free (rx->side_dirty[slot]);
    rx->side_dirty[slot] = g_malloc (words * sizeof (guint32));
    memset (rx->side_dirty[slot], 0xff, words * sizeof (guint32));
    rx->side_fmt[slot] = fmt;
  }
  if (rx_blank_skip ())
    *dirty = rx->side_dirty[slot];
  return rx->side[slot];
}

static void
rx_packet (gpointer user_data, const VmiAncPacket * p)
{
  GstSt2022AncRx *rx = user_data;
  VmiAncAudioData a;
  VmiAncAudioControl c;
  VmiAncTimecode tc;
  guint8 d[VMI_ANC_MAX_UDW];
  guint i;

  if (rx->fmt != NULL && rx->fmt->sd && p->did >= VMI_ANC_DID_SD_AUDIO_G1 - 6
      && (p->did & 1)) {
    VmiAncSdAudio sa;

    /* ST 272: a bad AES3 subframe parity counts as a checksum error */
    if (vmi_anc_sd_audio_parse (p, &sa) == VMI_ANC_OK)
      vmi_anc_audio_rx_push_sd (rx->arx, &sa);
    else
      rx->checksum_errors++;
    return;
  }
  if (p->did <= VMI_ANC_DID_AUDIO_G1 && p->did >= VMI_ANC_DID_AUDIO_G1 - 3) {
    if (vmi_anc_audio_data_parse (p, &a) == VMI_ANC_OK)
      /* a frame that lost datagrams may have lost the packets before
       * this one: its clock phase word says where it goes */
      vmi_anc_audio_rx_push_data_near (rx->arx, &a, rx->lossy ?
          vmi_anc_audio_sample_at (rx->fmt, rx->seq_index, a.line, a.clk,
              a.mpf) : -1);
    else
      rx->checksum_errors++;
    return;
  }
  if (vmi_anc_audio_control_parse (p, &c) == VMI_ANC_OK) {
    vmi_anc_audio_rx_push_control (rx->arx, &c);
    return;
  }
  if (p->did == VMI_ANC_DID_PAYLOAD_ID && p->sdid == VMI_ANC_SDID_PAYLOAD_ID
      && p->dc == 4) {
    for (i = 0; i < 4; i++)
      rx->payload_id[i] = p->udw[i] & 0xff;
    rx->have_payload_id = TRUE;
    return;
  }
  if (vmi_anc_atc_parse (p, &tc) == VMI_ANC_OK) {
    guint k = tc.dbb1 == VMI_ANC_ATC_VITC2 ? 1 : 0;

    if (tc.dbb1 <= VMI_ANC_ATC_VITC2 && !rx->have_tc[k]) {
      rx->tc[k] = tc;
      rx->have_tc[k] = TRUE;
    }
    return;
  }
  if (p->did == VMI_ANC_DID_CAPTION && (p->sdid == VMI_ANC_SDID_CDP
          || p->sdid == 0x02)) {
    for (i = 0; i < p->dc; i++)
      d[i] = p->udw[i] & 0xff;
    gst_buffer_add_video_caption_meta (rx->video, p->sdid == 0x02 ?
        GST_VIDEO_CAPTION_TYPE_CEA608_S334_1A :
        GST_VIDEO_CAPTION_TYPE_CEA708_CDP, d, p->dc);
    rx->captions++;
  }
}

static void
rx_timecode (GstSt2022AncRx * rx, GstBuffer * video, const St2022Format * fmt)
{
  GstVideoTimeCodeFlags flags = 0;
  VmiAncTimecode *tc;
  guint frames;
  gboolean pairs = !fmt->interlaced && fmt->fps_n > 30 * fmt->fps_d;

  if (rx->have_tc[0])
    tc = &rx->tc[0];
  else if (rx->have_tc[1])
    tc = &rx->tc[1];
  else
    return;
  frames = tc->frames;
  if (pairs)
    frames = 2 * frames + (tc->dbb1 == VMI_ANC_ATC_VITC2 ? 1 : 0);
  if (tc->drop_frame)
    flags |= GST_VIDEO_TIME_CODE_FLAGS_DROP_FRAME;
  if (fmt->interlaced && !fmt->psf)
    flags |= GST_VIDEO_TIME_CODE_FLAGS_INTERLACED;
  gst_buffer_add_video_time_code_meta_full (video, fmt->fps_n, fmt->fps_d,
      NULL, flags, tc->hours, tc->minutes, tc->seconds, frames, 0);
  rx->timecodes++;
}

/* The blank_dirty map the depacketizer kept for @raster, when it is one
 * of the side buffers and was filled with the map: the reader then skips
 * the spaces of datagrams that brought only blank fill there */
static const guint32 *
side_dirty_of (GstSt2022AncRx * rx, const guint8 * raster,
    const St2022Format * fmt)
{
  guint i;

  if (!rx_blank_skip ())
    return NULL;
  for (i = 0; i < RX_SIDE_BUFFERS; i++) {
    if (rx->side[i] == raster)
      return rx->side_fmt[i] == fmt ? rx->side_dirty[i] : NULL;
  }
  return NULL;
}

void
gst_st2022_anc_rx_frame (GstSt2022AncRx * rx, GstBuffer * video,
    const guint8 * raster, const St2022FrameInfo * info)
{
  const St2022Format *fmt = info->format;
  VmiAncReadStats st = { 0 };
  guint8 want[4];
  guint channels, expected = 0, n = 0, concealed = 0, mismatches;

  if (raster == NULL)
    return;
  if (fmt != rx->fmt) {
    vmi_anc_audio_rx_reset (rx->arx);
    rx->fmt = fmt;
    rx->have_frcount = FALSE;
  }
  /* frames that never came here (dropped, skipped) break the data block
   * number chain; their samples keep their place in the stream, so the
   * audio pad can fill them with silence */
  if (rx->have_frcount && info->frcount != (guint8) (rx->last_frcount + 1)) {
    guint8 k, missing = (guint8) (info->frcount - rx->last_frcount - 1);
    guint64 skipped = 0;

    /* a frame finished after its successor (its end came late) is no
     * jump ahead: only a forward gap holds missing frames, whose packets
     * the data block numbers counted on (the sender's run on: the next
     * frame's first packets, lost with them, keep their place) */
    if (missing < 128) {
      for (k = 0; k < missing; k++)
        skipped += vmi_anc_audio_frame_samples (fmt, rx->seq_index++);
      rx->sample_pos += skipped;
      rx->frame_no += missing;
      vmi_anc_audio_rx_skip (rx->arx, skipped);
    } else {
      vmi_anc_audio_rx_discont (rx->arx);
    }
  }
  rx->lossy = !info->complete;
  rx->have_frcount = TRUE;
  rx->last_frcount = info->frcount;

  rx->video = video;
  rx->have_tc[0] = rx->have_tc[1] = FALSE;
  rx->have_payload_id = FALSE;
  vmi_anc_audio_rx_begin_frame (rx->arx);

  g_mutex_lock (&rx->lock);
  vmi_anc_read_frame_full (fmt, raster, fmt->frame_bytes,
      info->complete ? NULL : info->missing_map,
      side_dirty_of (rx, raster, fmt), &st, rx_packet, rx);
  rx->packets += st.packets;
  rx->checksum_errors += st.checksum_errors;
  rx->lost += st.lost;
  rx_timecode (rx, video, fmt);
  if (rx->have_payload_id) {
    rx->payload_id_value = GST_READ_UINT32_BE (rx->payload_id);
    vmi_anc_st352_bytes (fmt, want);
    /* the format in the payload ID disagrees with the HBRMT header's */
    if (rx->payload_id[0] != want[0] || rx->payload_id[1] != want[1])
      rx->payload_id_mismatches++;
  }
  g_mutex_unlock (&rx->lock);
  rx->video = NULL;

  channels = vmi_anc_audio_rx_channels (rx->arx);
  if (vmi_anc_audio_rx_frame_number (rx->arx))
    rx->seq_index = vmi_anc_audio_rx_frame_number (rx->arx) - 1;
  if (channels > 0) {
    GstBuffer *abuf;
    GstMapInfo map;
    FrameAudio *fa;
    guint i;

    /* a frame with lost datagrams has the count its place in the
     * sequence gives; a complete one what it carries */
    if (!info->complete)
      expected = vmi_anc_audio_frame_samples (fmt, rx->seq_index);
    /* ST 272 has no clock phase words */
    mismatches = fmt->sd ? 0 :
        vmi_anc_audio_rx_check_phase (rx->arx, fmt, rx->seq_index);
    n = vmi_anc_audio_rx_end_frame (rx->arx, expected, channels, rx->samples,
        MAX_FRAME_SAMPLES, &concealed);
    if (n > 0) {
      abuf = gst_buffer_new_allocate (NULL, (gsize) n * channels * 4, NULL);
      gst_buffer_map (abuf, &map, GST_MAP_WRITE);
      for (i = 0; i < n * channels; i++)
        GST_WRITE_UINT32_LE (map.data + 4 * i, (guint32) rx->samples[i] << 8);
      gst_buffer_unmap (abuf, &map);
      if (concealed) {
        GST_BUFFER_FLAG_SET (abuf, GST_BUFFER_FLAG_CORRUPTED);
        if (concealed == n)
          GST_BUFFER_FLAG_SET (abuf, GST_BUFFER_FLAG_GAP);
      }
      fa = g_new0 (FrameAudio, 1);
      fa->buf = abuf;
      fa->channels = channels;
      fa->frame_no = rx->frame_no;
      fa->sample_pos = rx->sample_pos;
      gst_mini_object_set_qdata (GST_MINI_OBJECT (video),
          frame_audio_quark (), fa, frame_audio_free);
      g_mutex_lock (&rx->lock);
      rx->audio_samples += n;
      rx->audio_concealed += concealed;
      rx->audio_clock_mismatches += mismatches;
      g_mutex_unlock (&rx->lock);
    }
  }
  rx->sample_pos += n > 0 ? n : vmi_anc_audio_frame_samples (fmt,
      rx->seq_index);
  rx->seq_index++;
  rx->frame_no++;
}

static GstCaps *
audio_caps (guint channels)
{
  GstCaps *caps = gst_caps_new_simple ("audio/x-raw",
      "format", G_TYPE_STRING, "S32LE",
      "rate", G_TYPE_INT, VMI_ANC_AUDIO_RATE,
      "channels", G_TYPE_INT, channels,
      "layout", G_TYPE_STRING, "interleaved", NULL);

  /* ST 299-1 says nothing about speaker positions beyond stereo */
  if (channels == 2)
    gst_caps_set_simple (caps, "channel-mask", GST_TYPE_BITMASK,
        (guint64) 0x3, NULL);
  else if (channels > 2)
    gst_caps_set_simple (caps, "channel-mask", GST_TYPE_BITMASK,
        (guint64) 0, NULL);
  return caps;
}

/* The next buffer's PTS, duration and offsets, from the running count. */
static void
stamp_audio (GstSt2022AncRx * rx, GstBuffer * abuf, guint64 n)
{
  if (GST_CLOCK_TIME_IS_VALID (rx->audio_base)) {
    GST_BUFFER_PTS (abuf) = rx->audio_base +
        gst_util_uint64_scale (rx->audio_since_base, GST_SECOND,
        VMI_ANC_AUDIO_RATE);
    GST_BUFFER_DURATION (abuf) = gst_util_uint64_scale (rx->audio_since_base +
        n, GST_SECOND, VMI_ANC_AUDIO_RATE) - (GST_BUFFER_PTS (abuf) -
        rx->audio_base);
  }
  GST_BUFFER_OFFSET (abuf) = rx->audio_since_base;
  GST_BUFFER_OFFSET_END (abuf) = rx->audio_since_base + n;
  rx->audio_since_base += n;
}

/* How many samples of silence stand for frames that never came: @gap, what
 * their places in the sequence add up to, unless the video's PTS (arrival
 * times) says otherwise by more than GAP_SLACK (a sender that restarted:
 * FRCount jumps anywhere), then the time the video says passed. -1: too
 * long to fill (start a new count). */
static gint64
gap_samples (GstSt2022AncRx * rx, GstBuffer * video, guint64 gap)
{
  GstClockTime at, pts = GST_BUFFER_PTS (video), span;

  if (GST_CLOCK_TIME_IS_VALID (rx->audio_base) &&
      GST_CLOCK_TIME_IS_VALID (pts)) {
    at = rx->audio_base + gst_util_uint64_scale (rx->audio_since_base,
        GST_SECOND, VMI_ANC_AUDIO_RATE);
    span = gst_util_uint64_scale (gap, GST_SECOND, VMI_ANC_AUDIO_RATE);
    if (pts + GAP_SLACK < at + span || pts > at + span + GAP_SLACK) {
      GST_INFO_OBJECT (rx->src, "%" G_GUINT64_FORMAT " samples missing, but "
          "the video's PTS %" GST_TIME_FORMAT " is not near %" GST_TIME_FORMAT
          ": the video's time is filled", gap, GST_TIME_ARGS (pts),
          GST_TIME_ARGS (at + span));
      gap = pts > at ? gst_util_uint64_scale_round (pts - at,
          VMI_ANC_AUDIO_RATE, GST_SECOND) : 0;
    }
  }
  return gap > MAX_GAP_SAMPLES ? -1 : (gint64) gap;
}

/* @n samples of silence in the place of frames that never came. */
static void
push_silence (GstSt2022AncRx * rx, guint channels, guint64 n)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, n * channels * 4, NULL);

  gst_buffer_memset (buf, 0, 0, n * channels * 4);
  GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_GAP);
  stamp_audio (rx, buf, n);
  g_mutex_lock (&rx->lock);
  rx->audio_gap_samples += n;
  g_mutex_unlock (&rx->lock);
  GST_DEBUG_OBJECT (rx->src, "%" G_GUINT64_FORMAT " samples of missing "
      "frames pushed as silence", n);
  gst_pad_push (rx->audio_pad, buf);
}

/* An audio pad nobody linked loses the embedded audio without a word:
 * after AUDIO_UNLINKED_WARN of it, say so once. */
static void
audio_check_linked (GstSt2022AncRx * rx, GstFlowReturn ret, GstClockTime pts)
{
  if (ret != GST_FLOW_NOT_LINKED) {
    rx->unlinked_since = GST_CLOCK_TIME_NONE;
    return;
  }
  if (rx->unlinked_warned || !GST_CLOCK_TIME_IS_VALID (pts))
    return;
  if (!GST_CLOCK_TIME_IS_VALID (rx->unlinked_since))
    rx->unlinked_since = pts;
  if (pts - rx->unlinked_since < AUDIO_UNLINKED_WARN)
    return;
  rx->unlinked_warned = TRUE;
  GST_ELEMENT_WARNING (rx->src, STREAM, FAILED, ("the stream carries "
          "embedded audio, but st2022src's audio pad has not been linked for "
          "%u s: the audio is discarded; link the audio pad through a queue "
          "(st2022src name=src ... src.audio ! queue ! ...) to use it",
          (guint) (AUDIO_UNLINKED_WARN / GST_SECOND)), (NULL));
}

void
gst_st2022_anc_rx_push (GstSt2022AncRx * rx, GstBuffer * video)
{
  FrameAudio *fa = gst_mini_object_steal_qdata (GST_MINI_OBJECT (video),
      frame_audio_quark ());
  GstBuffer *abuf;
  GstFlowReturn ret;
  GstClockTime pts;
  gint64 fill;
  guint n;

  if (fa == NULL)
    return;
  abuf = fa->buf;
  fa->buf = NULL;

  if (rx->audio_pad == NULL) {
    GstPad *pad = gst_pad_new_from_static_template (&audio_src_template,
        "audio");
    GstEvent *ss = gst_pad_get_sticky_event (GST_BASE_SRC_PAD (rx->src),
        GST_EVENT_STREAM_START, 0);
    gchar *id;
    GstEvent *ev;
    guint group;

    gst_pad_use_fixed_caps (pad);
    gst_pad_set_active (pad, TRUE);
    id = gst_pad_create_stream_id (pad, rx->src, "audio");
    ev = gst_event_new_stream_start (id);
    if (ss && gst_event_parse_group_id (ss, &group))
      gst_event_set_group_id (ev, group);
    gst_pad_store_sticky_event (pad, ev);
    gst_event_unref (ev);
    gst_clear_event (&ss);
    g_free (id);
    GST_OBJECT_LOCK (rx->src);
    rx->audio_pad = pad;
    GST_OBJECT_UNLOCK (rx->src);
    rx->channels = 0;
    rx->need_segment = TRUE;
    gst_element_add_pad (rx->src, pad);
    gst_element_no_more_pads (rx->src);
  }
  if (fa->channels != rx->channels) {
    GstCaps *caps = audio_caps (fa->channels);

    gst_pad_push_event (rx->audio_pad, gst_event_new_caps (caps));
    gst_caps_unref (caps);
    rx->channels = fa->channels;
  }
  if (rx->need_segment) {
    GstSegment seg;

    gst_segment_init (&seg, GST_FORMAT_TIME);
    gst_pad_push_event (rx->audio_pad, gst_event_new_segment (&seg));
    rx->need_segment = FALSE;
  }

  /* continuous timestamps counted in samples from the video's PTS; the
   * samples of frames that never got here (dropped under load) become
   * silence flagged GAP, so a muxer sees one unbroken sample count and the
   * picture stays in sync; for a jump the video's timestamps do not
   * confirm (a new sender) the silence lasts what the video says passed;
   * only more than 10 s missing starts a new count (DISCONT) */
  n = gst_buffer_get_size (abuf) / (4 * fa->channels);
  fill = 0;
  if (rx->audio_started && fa->sample_pos > rx->next_sample_pos) {
    fill = gap_samples (rx, video, fa->sample_pos - rx->next_sample_pos);
    if (fill < 0)
      rx->audio_started = FALSE;
  }
  if (!rx->audio_started || fa->sample_pos < rx->next_sample_pos) {
    rx->audio_base = GST_BUFFER_PTS (video);
    rx->audio_since_base = 0;
    GST_BUFFER_FLAG_SET (abuf, GST_BUFFER_FLAG_DISCONT);
    rx->audio_started = TRUE;
  } else if (fill > 0) {
    push_silence (rx, fa->channels, fill);
  }
  rx->last_frame_no = fa->frame_no;
  rx->next_sample_pos = fa->sample_pos + n;
  stamp_audio (rx, abuf, n);
  g_free (fa);

  pts = GST_BUFFER_PTS (abuf);
  ret = gst_pad_push (rx->audio_pad, abuf);
  if (ret != GST_FLOW_OK && ret != GST_FLOW_NOT_LINKED)
    GST_DEBUG_OBJECT (rx->src, "audio push: %s", gst_flow_get_name (ret));
  audio_check_linked (rx, ret, pts);
}

void
gst_st2022_anc_rx_add_stats (GstSt2022AncRx * rx, GstStructure * s)
{
  gchar id[11];

  g_mutex_lock (&rx->lock);
  /* ST 352 writes payload IDs in hex (0x85 = 1080i 1.485 Gb/s): as text,
   * so gst-launch -m prints it as the standard's tables do */
  g_snprintf (id, sizeof id, "0x%08X", rx->payload_id_value);
  gst_structure_set (s,
      "anc-packets", G_TYPE_UINT64, rx->packets,
      "anc-checksum-errors", G_TYPE_UINT64, rx->checksum_errors,
      "anc-packets-lost", G_TYPE_UINT64, rx->lost,
      "timecodes", G_TYPE_UINT64, rx->timecodes,
      "captions", G_TYPE_UINT64, rx->captions,
      "payload-id", G_TYPE_STRING, id,
      "payload-id-mismatches", G_TYPE_UINT64, rx->payload_id_mismatches,
      "audio-samples", G_TYPE_UINT64, rx->audio_samples,
      "audio-concealed-samples", G_TYPE_UINT64, rx->audio_concealed,
      "audio-clock-mismatches", G_TYPE_UINT64, rx->audio_clock_mismatches,
      "audio-gap-samples", G_TYPE_UINT64, rx->audio_gap_samples, NULL);
  g_mutex_unlock (&rx->lock);
}
