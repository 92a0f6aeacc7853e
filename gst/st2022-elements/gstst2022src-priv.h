/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The instance of st2022src, shared by its element glue (gstst2022src.c:
 * class, start/stop, the depacketizer's frame callbacks, create) and the
 * helpers beside it, one concern each: properties (gstst2022srcprops.c),
 * statistics (gstst2022srcstats.c), the receive thread
 * (gstst2022srcrx.c), caps and allocation (gstst2022srccaps.c). Not
 * installed. */

#ifndef __GST_ST2022_SRC_PRIV_H__
#define __GST_ST2022_SRC_PRIV_H__

#include <gst/video/video.h>

#include "gstst2022src.h"
#include "gstst2022anc.h"
#include "gstst2022common.h"
#include "gstst2022helpers.h"
#include "transport/vmi-rx-engine.h"
#include "st2022/st2022.h"
#include "st2022/st2022-lock.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_st2022_src_debug);

#define DEFAULT_PROP_ADDRESS "0.0.0.0"
#define DEFAULT_PROP_PORT 5004
#define DEFAULT_PROP_MULTICAST_IFACE NULL
#define DEFAULT_PROP_SOURCE_ADDRESS NULL
#define DEFAULT_PROP_BUFFER_SIZE (64 * 1024 * 1024)
#define DEFAULT_PROP_DROP_CORRUPTED FALSE
#define DEFAULT_PROP_PAYLOAD_TYPE 0
#define DEFAULT_PROP_SSRC G_MAXUINT
#define DEFAULT_PROP_LOCK_DATAGRAMS ST2022_LOCK_DEFAULT_CONFIRM
#define DEFAULT_PROP_TIMEOUT GST_SECOND
#define DEFAULT_PROP_SHARED_ENGINE ""
#define DEFAULT_PROP_RX_CPU -1
#define DEFAULT_PROP_DPDK_RX_MBUFS 0
/* dpdk-rx-mbufs=0 with a shared engine: room for a replay of one frame of
 * each of 8 interleaved 1080p59.94 streams (35,976 datagrams) loaded up
 * front by net_pcap infinite_rx, and the RX ring */
#define SHARED_ENGINE_RX_MBUFS 49151

/* datagrams per recv_burst() */
#define RX_BURST 64
/* without a `timeout`, how long the stream may pause before a frame still
 * waiting for its end is given up and pushed (µs): a sender never pauses
 * inside a frame, but a loaded sending host may be descheduled a while */
#define IDLE_FLUSH_US (500 * 1000)
/* longest wait in recv_burst(): the receive thread's clock tick for
 * timeouts and statistics during silence */
#define RX_TIMEOUT_US 20000
/* up to two frames between frame_begin and frame_end, plus one spare */
#define N_SLOTS 3
/* finished frames waiting for the streaming thread; beyond, the oldest is
 * dropped (a live source serves the newest) */
#define OUT_QUEUE_MAX 3
/* frames dropped because the streaming thread took none for this long
 * (µs) mean it is blocked downstream, not slow: say so once */
#define STALL_WARN_US (2 * G_USEC_PER_SEC)
/* concealed frames allowed in a burst (see conceal_allowed) */
#define CONCEAL_BURST 16
/* longest wait of an IS-05 retarget for the old stream's frame to end */
#define RETARGET_WAIT_US (100 * 1000)

enum
{
  PROP_0,
  PROP_ADDRESS,
  PROP_PORT,
  PROP_MULTICAST_IFACE,
  PROP_SOURCE_ADDRESS,
  PROP_BUFFER_SIZE,
  PROP_DROP_CORRUPTED,
  PROP_STATS,
  PROP_PAYLOAD_TYPE,
  PROP_SSRC,
  PROP_LOCK_DATAGRAMS,
  PROP_TIMEOUT,
  PROP_SHARED_ENGINE,
  PROP_RX_CPU,
  PROP_DPDK_RX_MBUFS,
  /* the shared ones (gstst2022helpers.h): transport, iface, dpdk-eal-args,
   * dpdk-port, stats-interval; sdp, sdp-file; nmos, nmos-registry,
   * nmos-node-port, nmos-label; secondary-*, seamless-window (ST 2022-7);
   * clock-source, ptp-domain, ptp-timeout */
  PROP_HELPERS_FIRST,
};

typedef struct
{
  gboolean in_use;
  GstBuffer *buffer;            /* the output frame */
  GstVideoFrame frame;          /* @buffer mapped for writing */
  gboolean v210;                /* output format when the frame began */
  const St2022Format *fmt;
  guint16 hdr_seq;              /* first datagram seen of the frame */
  guint32 hdr_vts;
  guint8 hdr_cf;
} GstSt2022SrcSlot;

struct _GstSt2022Src
{
  GstPushSrc parent;

  /* properties, under the object lock */
  gchar *address;
  gint port;
  gchar *multicast_iface;
  gchar *source_address;
  gint buffer_size;
  gboolean drop_corrupted;
  guint payload_type;
  guint ssrc;
  guint lock_datagrams;
  guint64 timeout;
  gchar *shared_engine;
  gint rx_cpu;
  guint dpdk_rx_mbufs;
  GstSt2022CommonSettings common;
  GstSt2022SdpSettings sdp;
  GstSt2022LegsSettings legs_settings;
  /* the helpers' settings above, and nmos and timing below */
  GstSt2022Helpers helpers;

  /* ST 2022-7: the second path and the merge (gstst2022srclegs.c); NULL with
   * one path. Freed at the next start: its counters outlive stop */
  GstSt2022SrcLegs *legs;
  GstSt2022Clock timing;

  /* receive thread only (created in start, joined in stop) */
  GThread *thread;
  gint thread_cpu;
  VmiTransport *t;
  /* shared-engine: the engine's thread receives for us (no @thread, no
   * @t); its transport, for statistics, while we are a member */
  VmiRxEngineMember *member;
  gboolean shared;              /* set before joining: frame_begin never waits */
  VmiTransport *engine_t;
  St2022Depacketizer *depay;
  St2022StreamLock *lock_gate;
  VmiRxSlot rx[RX_BURST];
  GstSt2022SrcSlot slots[N_SLOTS];
  GstBuffer *prev;              /* last finished frame: concealment source */
  gint64 last_rx_mono;          /* last valid datagram of the locked stream */
  gint64 full_since;            /* full bursts without the stream since */
  GstClockTime last_burst;      /* arrival of the last datagrams read */
  guint64 rx_dropped_told;      /* transport drops told to the lock */
  gint64 start_mono;
  guint in_progress;            /* frames begun and not ended */
  gboolean had_signal, signal_lost;
  GstClockTime conceal_budget, conceal_last;
  GstClockTime last_post;
  GstClockTime last_fold;        /* counters last folded by a run */

  /* shared by the receive and streaming threads, under @lock */
  GMutex lock;
  GCond cond;
  GQueue out;                   /* finished frames, oldest first */
  gboolean flushing;            /* unlock() .. unlock_stop() */
  gboolean stopping;            /* stop(): the receive thread ends */
  const St2022Format *want_fmt; /* the receive thread waits for caps */
  gint neg_result;              /* 0 pending, 1 done, -1 failed */
  GError *rx_error;
  gint64 taken_mono;            /* the streaming thread last took a frame */
  gboolean pushing_audio;       /* ... and is pushing on the audio pad */
  gboolean stall_warned;        /* since it last took one */
  const St2022Format *fmt;      /* format of the negotiated caps */
  GstVideoInfo vinfo;           /* negotiated */
  gboolean v210;

  /* streaming thread */
  const St2022Format *stream_fmt;       /* the caps' format (get_caps) */
  gboolean flow_error;
  gboolean eos_posted;

  /* ancillary data and the `audio` sometimes pad (gstst2022anc.c) */
  GstSt2022AncRx *anc;

  /* NMOS (gst/nmos/gstst2022nmos.c); a transport an IS-05 activation
   * hands to the receive thread (NULL: receive nothing), under @lock */
  GstSt2022Nmos *nmos;
  VmiTransport *swap_t;
  VmiTransport *swap_t2;        /* ST 2022-7: the second path's, or NULL */
  gint swap_pending;            /* atomic */
  gint64 swap_since;            /* receive thread */

  /* stats, under the object lock: the depacketizer's counters plus ours */
  GstSt2022Stats stats;
  St2022LockStats lock_stats;
  guint64 packets_discarded;
  guint64 packets_overflow;      /* datagrams of the stream (the lock's) */
  guint64 overflow_events;      /* the transport's drop count, its unit */
  guint64 frames_skipped;
  guint64 frames_aborted;
  guint64 format_changes;
  guint64 dropped_corrupted;
  guint64 dropped_caps;         /* begun under caps changed since */
  guint64 dropped_queue;        /* downstream too slow */
  guint64 dropped_conceal;      /* over the concealment budget */
  guint64 frames_pushed;
  guint64 signal_lost_count, signal_restored_count;
};

/* gstst2022src.c: GstPushSrc's class, for chaining up from the helpers */
GstBaseSrcClass *gst_st2022_src_parent_base_class (void);

/* gstst2022srccaps.c: GstBaseSrc's caps, allocation and query vfuncs */
GstCaps *gst_st2022_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter);
gboolean gst_st2022_src_negotiate (GstBaseSrc * bsrc);
GstCaps *gst_st2022_src_fixate (GstBaseSrc * bsrc, GstCaps * caps);
gboolean gst_st2022_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps);
gboolean gst_st2022_src_decide_allocation (GstBaseSrc * bsrc,
    GstQuery * query);
gboolean gst_st2022_src_query (GstBaseSrc * bsrc, GstQuery * query);

/* gstst2022srcprops.c: every property of the element, installed on
 * @gobject_class; set/get (object lock taken) */
void gst_st2022_src_install_properties (GObjectClass * gobject_class);
void gst_st2022_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void gst_st2022_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* gstst2022srcrx.c: the receive thread (g_thread_new data: the element);
 * joining the shared engine @name with the stream @cfg describes (FALSE:
 * error posted) */
gpointer gst_st2022_src_rx_thread (gpointer data);
gboolean gst_st2022_src_join_engine (GstSt2022Src * self,
    GstSt2022Transport kind, const gchar * name, VmiTransportConfig * cfg,
    gint cpu, guint mbufs);

/* gstst2022srcstats.c: the `stats` structure (object lock held); the
 * depacketizer's, the lock's and the transport's counters folded into ours
 * (receive thread); `st2022-stats` posted; the probe that posts it just
 * before EOS; a frame's duration; the QoS message of a frame not pushed
 * (@arrival: pipeline clock time, or NONE) */
GstStructure *gst_st2022_src_stats_structure_unlocked (GstSt2022Src * self);
void gst_st2022_src_update_stats (GstSt2022Src * self);
void gst_st2022_src_post_stats (GstSt2022Src * self);
GstPadProbeReturn gst_st2022_src_eos_probe (GstPad * pad,
    GstPadProbeInfo * info, gpointer user_data);
GstClockTime gst_st2022_src_frame_duration (const St2022Format * fmt);
void gst_st2022_src_post_qos (GstSt2022Src * self, const St2022Format * fmt,
    GstClockTime arrival);

G_END_DECLS

#endif /* __GST_ST2022_SRC_PRIV_H__ */
