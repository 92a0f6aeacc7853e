/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What st2022sink and st2022src share: the transport and pacing enums, the
 * statistics counters and their GstStructure form, and the opening of a
 * transport with the user-facing errors. */

#ifndef __GST_ST2022_COMMON_H__
#define __GST_ST2022_COMMON_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "transport/vmi-transport.h"
#include "st2022/st2022.h"

G_BEGIN_DECLS

/**
 * GstSt2022Transport:
 * @GST_ST2022_TRANSPORT_SOCKET: kernel UDP sockets (works everywhere)
 * @GST_ST2022_TRANSPORT_PACKET: AF_PACKET raw frames on `iface`
 * @GST_ST2022_TRANSPORT_DPDK: DPDK kernel bypass
 */
typedef enum
{
  GST_ST2022_TRANSPORT_SOCKET = VMI_TRANSPORT_KIND_SOCKET,
  GST_ST2022_TRANSPORT_PACKET = VMI_TRANSPORT_KIND_PACKET,
  GST_ST2022_TRANSPORT_DPDK = VMI_TRANSPORT_KIND_DPDK,
} GstSt2022Transport;

/**
 * GstSt2022Pacing:
 * @GST_ST2022_PACING_NONE: send each frame as fast as possible
 * @GST_ST2022_PACING_SOFTWARE: spread each frame's datagrams evenly over the
 *   frame period against the pipeline clock (sleep, then spin)
 * @GST_ST2022_PACING_PA_FREE_RUNNING: Pacing-Assistant, fixed τ (raw
 *   transports only)
 * @GST_ST2022_PACING_PA_CONTROLLED: Pacing-Assistant, frequency-controlled τ
 *   (raw transports only)
 */
typedef enum
{
  GST_ST2022_PACING_NONE,
  GST_ST2022_PACING_SOFTWARE,
  GST_ST2022_PACING_PA_FREE_RUNNING,
  GST_ST2022_PACING_PA_CONTROLLED,
} GstSt2022Pacing;

/**
 * GstSt2022GapFrame:
 * @GST_ST2022_GAP_FRAME_MAC_CONTROL: 802.3 MAC-control frame, opcode 0
 *   (no station acts on it)
 * @GST_ST2022_GAP_FRAME_PAUSE: 802.3x PAUSE with quanta 0, for NICs or
 *   switches that refuse unknown opcodes
 *
 * What the gap frames of Pacing-Assistant pacing are (both to
 * 01:80:C2:00:00:01, which bridges never forward).
 */
typedef enum
{
  GST_ST2022_GAP_FRAME_MAC_CONTROL = VMI_TRANSPORT_GAP_MAC_CONTROL,
  GST_ST2022_GAP_FRAME_PAUSE = VMI_TRANSPORT_GAP_PAUSE,
} GstSt2022GapFrame;

/**
 * GstSt2022Underrun:
 * @GST_ST2022_UNDERRUN_REPEAT: repeat the last frame
 * @GST_ST2022_UNDERRUN_GAP: send gap frames for the missing frame's time
 *
 * What a Pacing-Assistant-paced wire carries when upstream is late.
 */
typedef enum
{
  GST_ST2022_UNDERRUN_REPEAT,
  GST_ST2022_UNDERRUN_GAP,
} GstSt2022Underrun;

#define GST_TYPE_ST2022_TRANSPORT (gst_st2022_transport_get_type ())
GType gst_st2022_transport_get_type (void);
#define GST_TYPE_ST2022_PACING (gst_st2022_pacing_get_type ())
GType gst_st2022_pacing_get_type (void);
#define GST_TYPE_ST2022_GAP_FRAME (gst_st2022_gap_frame_get_type ())
GType gst_st2022_gap_frame_get_type (void);
#define GST_TYPE_ST2022_UNDERRUN (gst_st2022_underrun_get_type ())
GType gst_st2022_underrun_get_type (void);

/* The properties both elements have, with the same meaning: installed,
 * stored, set and read by the helpers below. */
typedef enum
{
  GST_ST2022_COMMON_PROP_TRANSPORT,
  GST_ST2022_COMMON_PROP_IFACE,
  GST_ST2022_COMMON_PROP_DPDK_EAL_ARGS,
  GST_ST2022_COMMON_PROP_DPDK_PORT,
  GST_ST2022_COMMON_PROP_STATS_INTERVAL,
  GST_ST2022_COMMON_N_PROPS,
} GstSt2022CommonProp;

/* under the element's object lock, like its other properties */
typedef struct
{
  GstSt2022Transport transport;
  gchar *iface;
  gchar *dpdk_eal_args;
  gint dpdk_port;
  guint stats_interval;
} GstSt2022CommonSettings;

/* Installs the GstSt2022CommonProp properties as IDs @first_id + n. */
void gst_st2022_common_install_properties (GObjectClass * klass,
    guint first_id);
void gst_st2022_common_settings_init (GstSt2022CommonSettings * s);
void gst_st2022_common_settings_clear (GstSt2022CommonSettings * s);
/* @prop_id - @first_id is a GstSt2022CommonProp; FALSE when it is none */
gboolean gst_st2022_common_set_property (GstSt2022CommonSettings * s,
    guint first_id, guint prop_id, const GValue * value);
gboolean gst_st2022_common_get_property (const GstSt2022CommonSettings * s,
    guint first_id, guint prop_id, GValue * value);

/* TRUE when an st2022-stats message is due at @now: every stats-interval
 * ms (0: never); the first call, or time going back, starts a new period.
 * @element's object lock guards @s. */
gboolean gst_st2022_common_stats_due (GstElement * element,
    const GstSt2022CommonSettings * s, GstClockTime * last_post,
    GstClockTime now);

/* Counters; written by the streaming thread only, read under the object
 * lock for the `stats` property. */
typedef struct
{
  guint64 packets;
  guint64 packets_lost;
  guint64 packets_reordered;
  guint64 packets_duplicate;
  guint64 packets_invalid;
  guint64 frames;
  guint64 frames_corrupted;
  guint64 frames_dropped;
  guint64 bytes;
  /* sink: frames whose launch time had passed by more than a frame period
   * (sent at once, pacing restarted) */
  guint64 frames_late;
  /* sink, Pacing-Assistant: frame periods upstream missed, frames sent
   * again in their place (underrun=repeat), gap frames and their wire
   * bytes */
  guint64 underruns;
  guint64 frames_repeated;
  guint64 gap_frames;
  guint64 gap_bytes;
  /* sink, zerocopy=true: sends the kernel reported done, and those it
   * copied after all */
  guint64 zerocopy_done;
  guint64 zerocopy_copied;
} GstSt2022Stats;

#define GST_ST2022_STATS_NAME "st2022-stats"

GstStructure *gst_st2022_stats_to_structure (const GstSt2022Stats * stats,
    gboolean is_sink);

/* Opens @kind for @element, posting the GST_ELEMENT_ERROR users see when it
 * is not in this build, lacks @required_caps (VmiTransportCaps; @required_by
 * names the setting that needs them, e.g. "pacing=pa-controlled") or fails
 * to open, and the transport's warning (capped buffers, ...) if it has
 * one. */
VmiTransport *gst_st2022_transport_open (GstElement * element,
    GstSt2022Transport kind, const VmiTransportConfig * config,
    guint required_caps, const gchar * required_by);
/* The same, but a failure because the link is not there (a missing or
 * down interface, VMI_TRANSPORT_ERROR_LINK) posts nothing and sets
 * @link_error (when not NULL): the caller may open again later. */
VmiTransport *gst_st2022_transport_try_open (GstElement * element,
    GstSt2022Transport kind, const VmiTransportConfig * config,
    guint required_caps, const gchar * required_by, GError ** link_error);

/* Replaces @cfg's strings by copies of their own, made while the element's
 * object lock is held: a set_property from another thread cannot then free
 * one while the transport opens. g_auto(VmiTransportConfig) frees them. */
void gst_st2022_transport_config_own_strings (VmiTransportConfig * cfg);
void gst_st2022_transport_config_clear (VmiTransportConfig * cfg);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VmiTransportConfig,
    gst_st2022_transport_config_clear);

/* "socket", "packet", "dpdk" */
const gchar *gst_st2022_transport_nick (GstSt2022Transport kind);

/* "UYVP or v210 at 1920x1080 interlaced 30000/1001, ..." for errors. */
gchar *gst_st2022_supported_formats_string (void);

/* video/x-raw of @fmt: format { UYVP, v210 } (UYVP first, the wire's own
 * packing), size, rate, interlace-mode (and field-order=top-field-first
 * when interlaced). */
GstStructure *gst_st2022_format_structure (const St2022Format * fmt);

/* Caps of all the formats the core knows, for the two formats, with
 * interlace-mode (and field-order=top-field-first when interlaced). */
GstCaps *gst_st2022_supported_caps (void);
/* pixel-aspect-ratio and colorimetry of @fmt's pictures */
void gst_st2022_format_set_colorimetry (GstStructure * s,
    const St2022Format * fmt);

G_END_DECLS

#endif /* __GST_ST2022_COMMON_H__ */
