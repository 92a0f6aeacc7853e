/* gst-vmi: ancillary data for st2022sink (the receiver's side is in
 * gstst2022ancrx.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/base/gstadapter.h>
#include <gst/audio/audio.h>
#include "gstst2022anc.h"
#include "gstst2022anc-priv.h"
#include "vmi-anc.h"

GST_DEBUG_CATEGORY (gst_st2022_anc_debug);
#define GST_CAT_DEFAULT gst_st2022_anc_debug

/* the audio pad buffers at most this much ahead of the video */
#define AUDIO_MAX_BUFFERED (GST_SECOND)
/* how long a frame waits for its audio before sending silence */
#define AUDIO_WAIT_US (G_TIME_SPAN_SECOND)

void
gst_st2022_anc_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_st2022_anc_debug, "st2022anc", 0,
        "ST 2022-6 ancillary data");
    g_once_init_leave (&done, 1);
  }
}

static GstStaticPadTemplate audio_sink_template =
GST_STATIC_PAD_TEMPLATE ("audio", GST_PAD_SINK, GST_PAD_REQUEST,
    GST_STATIC_CAPS (GST_ST2022_ANC_AUDIO_CAPS));

/* ======================================================================= */
/* Sender                                                                  */
/* ======================================================================= */

struct _GstSt2022AncTx
{
  GstElement *sink;

  /* audio pad state, under @lock */
  GMutex lock;
  GCond cond;
  GstPad *audio_pad;
  GstAdapter *adapter;
  GstAudioInfo ainfo;
  gboolean have_caps;
  GstSegment segment;
  GstClockTime first_rt;        /* running time of the first sample buffered */
  gboolean aligned;             /* the first video frame took its share */
  gboolean eos, flushing, starved, warned;

  /* streaming thread of the sink (render) */
  const St2022Format *fmt;
  VmiAncWriter *writer;
  VmiAncAudioTx atx;
  guint16 cdp_seq;
  gint32 *samples;

  /* counters, under @lock */
  guint64 packets;
  guint64 timecodes;
  guint64 captions;
  guint64 audio_samples;
  guint64 audio_silence;
  guint64 anc_errors;
};

GstSt2022AncTx *
gst_st2022_anc_tx_new (GstElement * sink)
{
  GstSt2022AncTx *tx = g_new0 (GstSt2022AncTx, 1);

  gst_st2022_anc_debug_init ();
  tx->sink = sink;
  g_mutex_init (&tx->lock);
  g_cond_init (&tx->cond);
  tx->adapter = gst_adapter_new ();
  tx->samples = g_new0 (gint32, MAX_FRAME_SAMPLES *
      VMI_ANC_AUDIO_MAX_CHANNELS);
  tx->first_rt = GST_CLOCK_TIME_NONE;
  gst_segment_init (&tx->segment, GST_FORMAT_TIME);
  vmi_anc_audio_tx_init (&tx->atx);
  return tx;
}

void
gst_st2022_anc_tx_free (GstSt2022AncTx * tx)
{
  if (tx == NULL)
    return;
  vmi_anc_writer_free (tx->writer);
  g_object_unref (tx->adapter);
  g_free (tx->samples);
  g_mutex_clear (&tx->lock);
  g_cond_clear (&tx->cond);
  g_free (tx);
}

GstPadTemplate *
gst_st2022_anc_tx_audio_template (void)
{
  return gst_static_pad_template_get (&audio_sink_template);
}

static gboolean
audio_sink_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstSt2022AncTx *tx = gst_pad_get_element_private (pad);
  gboolean ret = TRUE;

  g_mutex_lock (&tx->lock);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      GstAudioInfo info;

      gst_event_parse_caps (event, &caps);
      if (gst_audio_info_from_caps (&info, caps)
          && GST_AUDIO_INFO_RATE (&info) == VMI_ANC_AUDIO_RATE
          && GST_AUDIO_INFO_CHANNELS (&info) >= 1
          && GST_AUDIO_INFO_CHANNELS (&info) <= VMI_ANC_AUDIO_MAX_CHANNELS
          && (GST_AUDIO_INFO_FORMAT (&info) == GST_AUDIO_FORMAT_S32LE
              || GST_AUDIO_INFO_FORMAT (&info) == GST_AUDIO_FORMAT_S24_32LE)) {
        if (tx->have_caps && GST_AUDIO_INFO_BPF (&info) !=
            GST_AUDIO_INFO_BPF (&tx->ainfo))
          gst_adapter_clear (tx->adapter);
        tx->ainfo = info;
        tx->have_caps = TRUE;
      } else {
        ret = FALSE;
      }
      break;
    }
    case GST_EVENT_SEGMENT:
      gst_event_copy_segment (event, &tx->segment);
      break;
    case GST_EVENT_EOS:
      tx->eos = TRUE;
      break;
    case GST_EVENT_FLUSH_START:
      tx->flushing = TRUE;
      break;
    case GST_EVENT_FLUSH_STOP:
      tx->flushing = FALSE;
      tx->eos = FALSE;
      tx->aligned = FALSE;
      tx->first_rt = GST_CLOCK_TIME_NONE;
      gst_adapter_clear (tx->adapter);
      gst_segment_init (&tx->segment, GST_FORMAT_TIME);
      break;
    default:
      break;
  }
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
  gst_event_unref (event);
  return ret;
}

static GstFlowReturn
audio_sink_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  GstSt2022AncTx *tx = gst_pad_get_element_private (pad);
  gsize limit;

  g_mutex_lock (&tx->lock);
  if (tx->flushing)
    goto flushing;
  if (!tx->have_caps)
    goto not_negotiated;
  if (!GST_CLOCK_TIME_IS_VALID (tx->first_rt) && !tx->aligned
      && GST_BUFFER_PTS_IS_VALID (buf))
    tx->first_rt = gst_segment_to_running_time (&tx->segment,
        GST_FORMAT_TIME, GST_BUFFER_PTS (buf));
  /* hold upstream while a second of audio waits for its video */
  limit = (gsize) GST_AUDIO_INFO_BPF (&tx->ainfo) * VMI_ANC_AUDIO_RATE;
  while (gst_adapter_available (tx->adapter) >= limit && !tx->flushing)
    g_cond_wait (&tx->cond, &tx->lock);
  if (tx->flushing)
    goto flushing;
  gst_adapter_push (tx->adapter, buf);
  tx->starved = FALSE;
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
  return GST_FLOW_OK;

flushing:
  g_mutex_unlock (&tx->lock);
  gst_buffer_unref (buf);
  return GST_FLOW_FLUSHING;
not_negotiated:
  g_mutex_unlock (&tx->lock);
  gst_buffer_unref (buf);
  return GST_FLOW_NOT_NEGOTIATED;
}

/* Deactivating the pad (PAUSED->READY) waits for its streaming thread,
 * which may be waiting above for video to take its audio: release it
 * first, as the sink's own unlock() does for the video pad. */
static gboolean
audio_sink_activate_mode (GstPad * pad, GstObject * parent, GstPadMode mode,
    gboolean active)
{
  GstSt2022AncTx *tx = gst_pad_get_element_private (pad);

  g_mutex_lock (&tx->lock);
  tx->flushing = !active;
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
  return TRUE;
}

GstPad *
gst_st2022_anc_tx_request_pad (GstSt2022AncTx * tx, GstPadTemplate * templ,
    const gchar * name)
{
  GstPad *pad;

  g_mutex_lock (&tx->lock);
  if (tx->audio_pad) {
    g_mutex_unlock (&tx->lock);
    GST_WARNING_OBJECT (tx->sink, "st2022sink has one audio pad (16 "
        "channels): interleave the channels before it (audiointerleave)");
    return NULL;
  }
  pad = gst_pad_new_from_template (templ, "audio");
  gst_pad_set_element_private (pad, tx);
  gst_pad_set_chain_function (pad, GST_DEBUG_FUNCPTR (audio_sink_chain));
  gst_pad_set_event_function (pad, GST_DEBUG_FUNCPTR (audio_sink_event));
  gst_pad_set_activatemode_function (pad,
      GST_DEBUG_FUNCPTR (audio_sink_activate_mode));
  GST_PAD_SET_PROXY_ALLOCATION (pad);
  tx->audio_pad = pad;
  tx->have_caps = FALSE;
  g_mutex_unlock (&tx->lock);
  gst_pad_set_active (pad, TRUE);
  gst_element_add_pad (tx->sink, pad);
  return pad;
}

void
gst_st2022_anc_tx_release_pad (GstSt2022AncTx * tx, GstPad * pad)
{
  g_mutex_lock (&tx->lock);
  if (pad != tx->audio_pad) {
    g_mutex_unlock (&tx->lock);
    return;
  }
  tx->audio_pad = NULL;
  tx->have_caps = FALSE;
  gst_adapter_clear (tx->adapter);
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
  gst_pad_set_active (pad, FALSE);
  gst_element_remove_pad (tx->sink, pad);
}

void
gst_st2022_anc_tx_set_format (GstSt2022AncTx * tx, const St2022Format * fmt)
{
  if (fmt == tx->fmt)
    return;
  g_clear_pointer (&tx->writer, vmi_anc_writer_free);
  tx->fmt = fmt;
  if (fmt)
    tx->writer = vmi_anc_writer_new (fmt);
  /* a new sequence of 1000/1001 sample counts */
  vmi_anc_audio_tx_init (&tx->atx);
}

void
gst_st2022_anc_tx_set_flushing (GstSt2022AncTx * tx, gboolean flushing)
{
  g_mutex_lock (&tx->lock);
  tx->flushing = flushing;
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
}

void
gst_st2022_anc_tx_reset (GstSt2022AncTx * tx)
{
  g_mutex_lock (&tx->lock);
  gst_adapter_clear (tx->adapter);
  tx->aligned = FALSE;
  tx->eos = FALSE;
  tx->starved = FALSE;
  tx->first_rt = GST_CLOCK_TIME_NONE;
  tx->packets = tx->timecodes = tx->captions = 0;
  tx->audio_samples = tx->audio_silence = tx->anc_errors = 0;
  g_cond_broadcast (&tx->cond);
  g_mutex_unlock (&tx->lock);
  gst_st2022_anc_tx_set_format (tx, NULL);
}

static void
tx_add (GstSt2022AncTx * tx, guint line, VmiAncSpace space,
    VmiAncChannel ch, const VmiAncPacket * p, guint * n)
{
  int rc = vmi_anc_writer_add (tx->writer, line, space, ch, p);

  if (rc == VMI_ANC_OK) {
    (*n)++;
  } else {
    GST_WARNING_OBJECT (tx->sink, "ANC packet %02x/%02x on line %u: %s",
        p->did, p->sdid, line, vmi_anc_result_to_string (rc));
    g_mutex_lock (&tx->lock);
    tx->anc_errors++;
    g_mutex_unlock (&tx->lock);
  }
}

static void
tx_timecode (GstSt2022AncTx * tx, GstBuffer * video, guint * n)
{
  GstVideoTimeCodeMeta *meta = gst_buffer_get_video_time_code_meta (video);
  const St2022Format *fmt = tx->fmt;
  VmiAncTimecode tc = { 0 };
  VmiAncPacket p;
  gboolean pairs;

  if (meta == NULL)
    return;
  tc.hours = meta->tc.hours;
  tc.minutes = meta->tc.minutes;
  tc.seconds = meta->tc.seconds;
  tc.drop_frame =
      (meta->tc.config.flags & GST_VIDEO_TIME_CODE_FLAGS_DROP_FRAME) != 0;
  /* ST 12-1 counts at most 30 frames: faster progressive rates send frame
   * pairs, the second of each pair as ATC_VITC2 */
  pairs = !fmt->interlaced && fmt->fps_n > 30 * fmt->fps_d;
  if (pairs) {
    tc.frames = meta->tc.frames / 2;
    tc.dbb1 = meta->tc.frames % 2 ? VMI_ANC_ATC_VITC2 : VMI_ANC_ATC_VITC1;
    vmi_anc_atc_build (&tc, &p);
    tx_add (tx, vmi_anc_atc_line (fmt, VMI_ANC_ATC_VITC1), VMI_ANC_VANC,
        VMI_ANC_CHANNEL_Y, &p, n);
  } else {
    tc.frames = meta->tc.frames;
    tc.dbb1 = VMI_ANC_ATC_VITC1;
    vmi_anc_atc_build (&tc, &p);
    tx_add (tx, vmi_anc_atc_line (fmt, VMI_ANC_ATC_VITC1), VMI_ANC_VANC,
        VMI_ANC_CHANNEL_Y, &p, n);
    if (fmt->interlaced) {
      tc.dbb1 = VMI_ANC_ATC_VITC2;
      vmi_anc_atc_build (&tc, &p);
      tx_add (tx, vmi_anc_atc_line (fmt, VMI_ANC_ATC_VITC2), VMI_ANC_VANC,
          VMI_ANC_CHANNEL_Y, &p, n);
    }
  }
  g_mutex_lock (&tx->lock);
  tx->timecodes++;
  g_mutex_unlock (&tx->lock);
}

static void
tx_captions (GstSt2022AncTx * tx, GstBuffer * video, guint * n)
{
  gpointer state = NULL;
  GstMeta *m;
  guint8 cdp[256];

  while ((m = gst_buffer_iterate_meta_filtered (video, &state,
              GST_VIDEO_CAPTION_META_API_TYPE))) {
    GstVideoCaptionMeta *cm = (GstVideoCaptionMeta *) m;
    VmiAncPacket p;
    int len;

    switch (cm->caption_type) {
      case GST_VIDEO_CAPTION_TYPE_CEA708_CDP:
        if (vmi_anc_cdp_build (cm->data, cm->size, &p) != VMI_ANC_OK)
          continue;
        break;
      case GST_VIDEO_CAPTION_TYPE_CEA708_RAW:
        len = vmi_anc_cdp_from_cc_data (cm->data, cm->size, tx->fmt->fps_n,
            tx->fmt->fps_d, tx->cdp_seq++, cdp, sizeof (cdp));
        if (len < 0 || vmi_anc_cdp_build (cdp, len, &p) != VMI_ANC_OK)
          continue;
        break;
      case GST_VIDEO_CAPTION_TYPE_CEA608_S334_1A:
        /* ST 334-1 CEA-608 packet: the S334-1A triplets as they are */
        if (cm->size > VMI_ANC_MAX_UDW)
          continue;
        vmi_anc_packet_init (&p, VMI_ANC_DID_CAPTION, 0x02);
        vmi_anc_packet_set_data (&p, cm->data, cm->size);
        break;
      default:
        continue;
    }
    tx_add (tx, vmi_anc_caption_line (tx->fmt), VMI_ANC_VANC,
        VMI_ANC_CHANNEL_Y, &p, n);
    g_mutex_lock (&tx->lock);
    tx->captions++;
    g_mutex_unlock (&tx->lock);
  }
}

/* Called with @tx->lock: this frame's samples out of the adapter, silence
 * for what is missing.  The first frame lines the audio up with the video
 * by running time. */
static gboolean
tx_take_audio (GstSt2022AncTx * tx, GstClockTime video_rt, guint need,
    guint channels)
{
  guint bpf = GST_AUDIO_INFO_BPF (&tx->ainfo), have, i, got;
  gboolean s24 = GST_AUDIO_INFO_FORMAT (&tx->ainfo) ==
      GST_AUDIO_FORMAT_S24_32LE;
  gint64 end = g_get_monotonic_time () + AUDIO_WAIT_US;
  guint silence_before = 0;
  const guint8 *data;

  for (;;) {
    have = gst_adapter_available (tx->adapter) / bpf;
    if (tx->flushing)
      return FALSE;
    if ((tx->aligned && have >= need) || (!tx->aligned && have > 0)
        || tx->eos || tx->starved || tx->audio_pad == NULL)
      break;
    if (!g_cond_wait_until (&tx->cond, &tx->lock, end)) {
      tx->starved = TRUE;
      if (!tx->warned) {
        tx->warned = TRUE;
        GST_ELEMENT_WARNING (tx->sink, STREAM, FAILED,
            ("the audio pad gave no samples for a second: sending silence"),
            ("frames go on with silent audio until samples arrive again"));
      }
    }
  }

  if (!tx->aligned && have > 0 && GST_CLOCK_TIME_IS_VALID (video_rt)
      && GST_CLOCK_TIME_IS_VALID (tx->first_rt)) {
    /* audio that starts before the video is dropped, audio that starts
     * later is preceded by silence: sample 0 of the first frame is the
     * sample of the video's running time */
    if (tx->first_rt < video_rt) {
      guint64 drop = gst_util_uint64_scale_round (video_rt - tx->first_rt,
          VMI_ANC_AUDIO_RATE, GST_SECOND);
      gst_adapter_flush (tx->adapter, MIN (drop, have) * bpf);
    } else {
      silence_before = MIN (need, (guint) gst_util_uint64_scale_round
          (tx->first_rt - video_rt, VMI_ANC_AUDIO_RATE, GST_SECOND));
    }
    tx->aligned = TRUE;
    have = gst_adapter_available (tx->adapter) / bpf;
  } else if (have > 0) {
    tx->aligned = TRUE;
  }

  memset (tx->samples, 0, (gsize) need * channels * sizeof (gint32));
  got = MIN (have, need - silence_before);
  if (got > 0) {
    data = gst_adapter_map (tx->adapter, (gsize) got * bpf);
    for (i = 0; i < got * channels; i++) {
      guint32 v = GST_READ_UINT32_LE (data + 4 * i);
      tx->samples[silence_before * channels + i] = s24 ?
          (gint32) (v << 8) >> 8 : (gint32) v >> 8;
    }
    gst_adapter_unmap (tx->adapter);
    gst_adapter_flush (tx->adapter, (gsize) got * bpf);
  }
  tx->audio_samples += got;
  tx->audio_silence += need - got;
  g_cond_broadcast (&tx->cond);
  return TRUE;
}

gboolean
gst_st2022_anc_tx_frame (GstSt2022AncTx * tx, GstBuffer * video,
    const GstSegment * segment, guint8 * raster, gsize size)
{
  const St2022Format *fmt = tx->fmt;
  VmiAncPacket p;
  guint lines[2], nl, i, n = 0, channels = 0, need;
  gboolean audio;
  GstClockTime rt = GST_CLOCK_TIME_NONE;
  int rc;

  if (fmt == NULL || tx->writer == NULL)
    return TRUE;
  if (vmi_anc_writer_begin (tx->writer, raster, size) != VMI_ANC_OK)
    return TRUE;

  /* ST 352 on every frame */
  vmi_anc_st352_build (fmt, &p);
  nl = vmi_anc_st352_lines (fmt, lines);
  for (i = 0; i < nl; i++)
    tx_add (tx, lines[i], VMI_ANC_HANC, VMI_ANC_CHANNEL_Y, &p, &n);

  tx_timecode (tx, video, &n);
  tx_captions (tx, video, &n);

  g_mutex_lock (&tx->lock);
  audio = tx->audio_pad != NULL && tx->have_caps;
  if (audio) {
    channels = GST_AUDIO_INFO_CHANNELS (&tx->ainfo);
    need = vmi_anc_audio_frame_samples (fmt, tx->atx.frame_index);
    if (GST_BUFFER_PTS_IS_VALID (video))
      rt = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
          GST_BUFFER_PTS (video));
    if (!tx_take_audio (tx, rt, need, channels)) {
      g_mutex_unlock (&tx->lock);
      vmi_anc_writer_end (tx->writer);
      return FALSE;
    }
  }
  g_mutex_unlock (&tx->lock);
  if (audio) {
    /* SD: ST 272, one packet per group on every line but two */
    rc = fmt->sd ? vmi_anc_sd_audio_tx_frame (&tx->atx, tx->writer,
        tx->samples, need, channels) : vmi_anc_audio_tx_frame (&tx->atx,
        tx->writer, tx->samples, need, channels);
    if (rc != VMI_ANC_OK)
      GST_WARNING_OBJECT (tx->sink, "audio embedding: %s",
          vmi_anc_result_to_string (rc));
    else
      n += (fmt->sd ? fmt->total_lines - 2 : need + 1) * ((channels + 3) / 4);
  }
  vmi_anc_writer_end (tx->writer);

  g_mutex_lock (&tx->lock);
  tx->packets += n;
  g_mutex_unlock (&tx->lock);
  return TRUE;
}

void
gst_st2022_anc_tx_add_stats (GstSt2022AncTx * tx, GstStructure * s)
{
  g_mutex_lock (&tx->lock);
  gst_structure_set (s,
      "anc-packets", G_TYPE_UINT64, tx->packets,
      "anc-errors", G_TYPE_UINT64, tx->anc_errors,
      "timecodes", G_TYPE_UINT64, tx->timecodes,
      "captions", G_TYPE_UINT64, tx->captions,
      "audio-samples", G_TYPE_UINT64, tx->audio_samples,
      "audio-silence-samples", G_TYPE_UINT64, tx->audio_silence, NULL);
  g_mutex_unlock (&tx->lock);
}
