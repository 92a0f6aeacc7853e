/* gst-vmi: ancillary data (payload ID, timecode, captions, embedded audio)
 * for st2022sink and st2022src
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements' ANC logic lives here so that their own files only hold a
 * few calls: the sink's `audio` request pad and the per-frame insertion
 * into the raster, the source's per-frame extraction into metas and its
 * `audio` sometimes pad.  The packet work is done by the pure-C core in
 * gst/anc/vmi-anc.h.  See docs/ancillary.md.
 */

#ifndef __GST_ST2022_ANC_H__
#define __GST_ST2022_ANC_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "st2022.h"

G_BEGIN_DECLS

/* audio/x-raw the sink's `audio` pad takes and the source's gives */
#define GST_ST2022_ANC_AUDIO_CAPS \
  "audio/x-raw, format = (string) { S32LE, S24_32LE }, " \
  "rate = (int) 48000, channels = (int) [ 1, 16 ], " \
  "layout = (string) interleaved"

/* --- sender ------------------------------------------------------------- */

typedef struct _GstSt2022AncTx GstSt2022AncTx;

GstSt2022AncTx *gst_st2022_anc_tx_new (GstElement * sink);
void gst_st2022_anc_tx_free (GstSt2022AncTx * tx);
GstPadTemplate *gst_st2022_anc_tx_audio_template (void);
/* request_new_pad / release_pad of the sink */
GstPad *gst_st2022_anc_tx_request_pad (GstSt2022AncTx * tx,
    GstPadTemplate * templ, const gchar * name);
void gst_st2022_anc_tx_release_pad (GstSt2022AncTx * tx, GstPad * pad);
/* set_caps: the video format (NULL: none) */
void gst_st2022_anc_tx_set_format (GstSt2022AncTx * tx,
    const St2022Format * fmt);
/* unlock / unlock_stop: wake and fail the audio pad's waits */
void gst_st2022_anc_tx_set_flushing (GstSt2022AncTx * tx, gboolean flushing);
/* stop: forget buffered audio and the sequence */
void gst_st2022_anc_tx_reset (GstSt2022AncTx * tx);
/* render: write this frame's ANC packets into @raster (just written by the
 * raster writer); may wait for the frame's audio.  FALSE when flushing. */
gboolean gst_st2022_anc_tx_frame (GstSt2022AncTx * tx, GstBuffer * video,
    const GstSegment * segment, guint8 * raster, gsize size);
/* add the anc/audio counters to a stats structure */
void gst_st2022_anc_tx_add_stats (GstSt2022AncTx * tx, GstStructure * s);

/* --- receiver ----------------------------------------------------------- */

typedef struct _GstSt2022AncRx GstSt2022AncRx;

GstSt2022AncRx *gst_st2022_anc_rx_new (GstElement * src);
void gst_st2022_anc_rx_free (GstSt2022AncRx * rx);
GstPadTemplate *gst_st2022_anc_rx_audio_template (void);
/* start / stop: forget the stream; stop also removes the audio pad */
void gst_st2022_anc_rx_reset (GstSt2022AncRx * rx, gboolean remove_pads);
/* A side buffer for the blanking of a UYVP target (>= frame_bytes), one
 * per slot, and in @dirty its St2022Target.blank_dirty map (NULL: copy
 * all); NULL if ancillary data is off */
guint8 *gst_st2022_anc_rx_side_buffer (GstSt2022AncRx * rx, guint slot,
    const St2022Format * fmt, guint32 ** dirty);
/* receive thread, frame end: read the ANC of @raster (a full raster or the
 * side buffer), attach GstVideoTimeCodeMeta / GstVideoCaptionMeta to
 * @video and keep the frame's audio with it */
void gst_st2022_anc_rx_frame (GstSt2022AncRx * rx, GstBuffer * video,
    const guint8 * raster, const St2022FrameInfo * info);
/* streaming thread, before @video is pushed: push its audio */
void gst_st2022_anc_rx_push (GstSt2022AncRx * rx, GstBuffer * video);
void gst_st2022_anc_rx_add_stats (GstSt2022AncRx * rx, GstStructure * s);

G_END_DECLS

#endif /* __GST_ST2022_ANC_H__ */
