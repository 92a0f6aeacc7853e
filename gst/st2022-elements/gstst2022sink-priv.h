/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The instance of st2022sink, shared by its element glue (gstst2022sink.c:
 * class, pads, start/stop, caps, render) and the helpers beside it, one
 * concern each: properties (gstst2022sinkprops.c) and statistics
 * (gstst2022sinkstats.c). Not installed. */

#ifndef __GST_ST2022_SINK_PRIV_H__
#define __GST_ST2022_SINK_PRIV_H__

#include <gst/video/video.h>

#include "gstst2022sink.h"
#include "gstst2022anc.h"
#include "gstst2022common.h"
#include "gstst2022helpers.h"
#include "transport/vmi-tx-engine.h"
#include "st2022/st2022.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_st2022_sink_debug);

#define DEFAULT_PROP_HOST "127.0.0.1"
#define DEFAULT_PROP_PORT 5004
#define DEFAULT_PROP_MULTICAST_IFACE NULL
#define DEFAULT_PROP_TTL_MC 1
#define DEFAULT_PROP_PAYLOAD_TYPE 98
#define DEFAULT_PROP_SSRC G_MAXUINT
#define DEFAULT_PROP_PACING GST_ST2022_PACING_SOFTWARE
#define DEFAULT_PROP_LINE_RATE G_GUINT64_CONSTANT (10000000000)
#define DEFAULT_PROP_BUFFER_SIZE (8 * 1024 * 1024)
#define DEFAULT_PROP_BIND_ADDRESS NULL
#define DEFAULT_PROP_DESTINATION_MAC NULL
#define DEFAULT_PROP_GAP_FRAME GST_ST2022_GAP_FRAME_MAC_CONTROL
#define DEFAULT_PROP_REFERENCE_ADDRESS NULL
#define DEFAULT_PROP_REFERENCE_PORT 0
#define DEFAULT_PROP_PACING_WINDOW GST_SECOND
#define DEFAULT_PROP_PACING_WINDOWS 2
#define DEFAULT_PROP_UNDERRUN GST_ST2022_UNDERRUN_REPEAT
#define DEFAULT_PROP_TX_CPU -1
#define DEFAULT_PROP_SHARED_ENGINE NULL
#define DEFAULT_PROP_ZEROCOPY FALSE
#define DEFAULT_PROP_PSF FALSE
/* GstBaseSink's processing-deadline, our default (see init) */
#define DEFAULT_PROCESSING_DEADLINE (60 * GST_MSECOND)

enum
{
  PROP_0,
  PROP_HOST,
  PROP_PORT,
  PROP_MULTICAST_IFACE,
  PROP_TTL_MC,
  PROP_PAYLOAD_TYPE,
  PROP_SSRC,
  PROP_PACING,
  PROP_LINE_RATE,
  PROP_BUFFER_SIZE,
  PROP_BIND_ADDRESS,
  PROP_DESTINATION_MAC,
  PROP_GAP_FRAME,
  PROP_REFERENCE_ADDRESS,
  PROP_REFERENCE_PORT,
  PROP_PACING_WINDOW,
  PROP_PACING_WINDOWS,
  PROP_UNDERRUN,
  PROP_TX_CPU,
  PROP_SHARED_ENGINE,
  PROP_ZEROCOPY,
  PROP_PSF,
  PROP_STATS,
  /* the shared ones (gstst2022helpers.h): transport, iface, dpdk-eal-args,
   * dpdk-port, stats-interval; sdp, sdp-file; nmos, nmos-registry,
   * nmos-node-port, nmos-label; secondary-* (ST 2022-7); clock-source,
   * ptp-domain, ptp-timeout, tx-offset */
  PROP_HELPERS_FIRST,
};

struct _GstSt2022Sink
{
  GstBaseSink parent;

  /* properties, under the object lock */
  gchar *host;
  gint port;
  gchar *multicast_iface;
  gint ttl_mc;
  guint payload_type;
  guint ssrc;
  GstSt2022Pacing pacing;
  guint64 line_rate;
  GstSt2022CommonSettings common;
  gint buffer_size;
  gchar *bind_address;
  gchar *destination_mac;
  GstSt2022GapFrame gap_frame;
  gchar *reference_address;
  gint reference_port;
  guint64 pacing_window;
  guint pacing_windows;
  GstSt2022Underrun underrun;
  gint tx_cpu;
  gchar *shared_engine;
  gboolean zerocopy;
  guint zc_checks;              /* frames since start, for the copy check */
  gboolean zc_warned;
  gboolean psf;
  GstSt2022SdpSettings sdp;
  GstSt2022LegsSettings legs_settings;
  GstSt2022Clock timing;
  /* the helpers' settings: these, and nmos below */
  GstSt2022Helpers helpers;

  /* streaming state */
  VmiTransport *t;              /* both paths' with a secondary-host */
  gboolean path_up[2];          /* as last told (ST 2022-7) */
  VmiTxEngine *engine;
  GstVideoInfo vinfo;
  const St2022Format *fmt;
  St2022PixelFormat pixfmt;
  St2022RasterWriter *writer;
  /* sliced writing: the transmit thread's writer, the lines written here */
  St2022RasterWriter *tail_writer;
  guint slice_head;
  GstClockTime period;
  guint32 cur_ssrc;
  guint32 rtp_offset;
  guint32 last_rtp;
  gboolean have_last_rtp;
  guint32 rtp_per_frame;        /* rounded, for non-timestamped input */
  gint64 next_free_mono;        /* end of the previous frame's send, ns */

  /* ancillary data and the `audio` request pad (gstst2022anc.c) */
  GstSt2022AncTx *anc;

  /* NMOS (gst/nmos/gstst2022nmos.c) */
  GstSt2022Nmos *nmos;

  /* stats: written by the streaming thread, copied under the object lock */
  GstSt2022Stats stats;
  GstClockTime last_post;
  /* late frames since the last warning, the worst of them, and when that
   * warning went out (streaming thread) */
  guint64 late_unwarned;
  gint64 late_worst, late_warned_mono;
};

/* gstst2022sinkprops.c: every property of the element, installed on
 * @gobject_class; set/get (object lock taken) */
void gst_st2022_sink_install_properties (GObjectClass * gobject_class);
void gst_st2022_sink_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void gst_st2022_sink_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* gstst2022sinkstats.c: the `stats` structure (object lock held), posted
 * as `st2022-stats`; a frame sent @late ns after its launch time (QoS
 * message, and a warning now and then); the check, every 32nd frame, that
 * zerocopy=true does not copy */
GstStructure *gst_st2022_sink_stats_structure_unlocked (GstSt2022Sink * self);
void gst_st2022_sink_post_stats (GstSt2022Sink * self);
void gst_st2022_sink_report_late (GstSt2022Sink * self, GstClockTime rt,
    GstClockTime pts, GstClockTime period, gint64 late, gint64 now);
void gst_st2022_sink_check_zerocopy (GstSt2022Sink * self);

G_END_DECLS

#endif /* __GST_ST2022_SINK_PRIV_H__ */
