/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-st2022sink
 * @title: st2022sink
 *
 * Sends raw 10-bit 4:2:2 video (`UYVP` or `v210`) as a SMPTE ST 2022-6
 * stream: every frame becomes a full SDI raster (EAV/SAV, line numbers,
 * CRCs, blanking) cut into 1400-byte RTP/HBRMT datagrams. With
 * `pacing=software` (the default on sockets) each frame's datagrams are
 * spread evenly over the frame period against the pipeline clock; the sink
 * does its own synchronisation, so the base class never waits on the clock.
 *
 * The RTP timestamp (27 MHz) is the buffer's running time; it advances by
 * exactly 27e6/frame-rate per frame for a regular stream. With
 * `clock-source=ptp` or `tai` (SMPTE ST 2059) the element provides a PTP
 * (or TAI) clock instead and sends each frame `tx-offset` ns after its
 * alignment point on the SMPTE epoch, with that point's RTP and video
 * timestamps (docs/timing.md).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc is-live=true ! \
 *   video/x-raw,format=UYVP,width=1920,height=1080,framerate=30000/1001,interlace-mode=interleaved ! \
 *   st2022sink host=239.1.1.1 port=5004 multicast-iface=eth0
 * ]| Sends 1080i59.94 colour bars to a multicast group.
 *
 * ST 2022-7: with `secondary-host` set every datagram also goes to a second
 * path (`secondary-*`), identical, on its own socket or port; a path whose
 * sends fail is counted, posted as `st2022-path` with a warning, and never
 * stops the other; a second path whose interface is missing or down at
 * start, or goes away, is opened in the background (docs/seamless.md).
 *
 * Many streams per core (transport=dpdk, pacing software or none): sinks
 * of one process with the same `shared-engine` name share one transmit
 * thread (pinned by `tx-cpu`) and one DPDK port; the thread sends
 * whichever stream's datagrams are due first, each stream still paced on
 * its own frame period, and sinks join and leave while the others send
 * (docs/transports.md).
 *
 * Not run by the docs test: it needs a NIC bound to vfio-pci.
 * |[
 * gst-launch-1.0 \
 *   videotestsrc is-live=true ! video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001 ! \
 *   st2022sink transport=dpdk dpdk-eal-args="-a 0000:01:00.0" host=239.1.1.1 \
 *     bind-address=192.168.1.10 shared-engine=tx0 tx-cpu=3 \
 *   videotestsrc is-live=true pattern=ball ! video/x-raw,format=UYVP,width=1920,height=1080,framerate=60000/1001 ! \
 *   st2022sink transport=dpdk dpdk-eal-args="-a 0000:01:00.0" host=239.1.1.2 \
 *     bind-address=192.168.1.10 shared-engine=tx0
 * ]| Two 1080p59.94 streams sent by one thread on CPU 3.
 *
 * Statistics are in the `stats` property and are posted as an element
 * message named `st2022-stats` every `stats-interval` ms and at EOS.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/prctl.h>
#include <pthread.h>
#include <sched.h>

#include "gstst2022sink-priv.h"
#include "transport/vmi-transport-dual.h"
#include "gstst2022uri.h"
#include "gstst2022meta.h"
#include "gstst2022slice.h"
#include "gstvmielements.h"
#include "pool/gstvmibufferpool.h"

GST_DEBUG_CATEGORY (gst_st2022_sink_debug);
#define GST_CAT_DEFAULT gst_st2022_sink_debug

#define gst_st2022_sink_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstSt2022Sink, gst_st2022_sink, GST_TYPE_BASE_SINK,
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER,
        gst_st2022_sink_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (st2022sink, "st2022sink",
    GST_RANK_NONE, GST_TYPE_ST2022_SINK,
    GST_DEBUG_CATEGORY_INIT (gst_st2022_sink_debug, "st2022sink", 0,
        "ST 2022-6 sender"));

/* Any raster in the two packings: what caps queries and accept-caps let
 * through so that a size we cannot send reaches set_caps() and its error
 * naming what we can send, however the caps arrive (through a queue, a
 * capsfilter). The pad template lists the exact formats. */
static GstStaticCaps any_raster_caps =
GST_STATIC_CAPS ("video/x-raw, format = (string) { UYVP, v210 }, "
    "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], "
    "framerate = (fraction) [ 0, MAX ]");
/* Raw video in any format: offered alone, it still reaches set_caps() */
static GstStaticCaps any_video_caps = GST_STATIC_CAPS ("video/x-raw");

static void gst_st2022_sink_finalize (GObject * object);
static gboolean gst_st2022_sink_start (GstBaseSink * bsink);
static gboolean gst_st2022_sink_stop (GstBaseSink * bsink);
static gboolean gst_st2022_sink_unlock (GstBaseSink * bsink);
static gboolean gst_st2022_sink_unlock_stop (GstBaseSink * bsink);
static GstCaps *gst_st2022_sink_get_caps (GstBaseSink * bsink,
    GstCaps * filter);
static gboolean gst_st2022_sink_set_caps (GstBaseSink * bsink, GstCaps * caps);
static void gst_st2022_sink_get_times (GstBaseSink * bsink, GstBuffer * buf,
    GstClockTime * start, GstClockTime * end);
static gboolean gst_st2022_sink_propose_allocation (GstBaseSink * bsink,
    GstQuery * query);
static gboolean gst_st2022_sink_event (GstBaseSink * bsink, GstEvent * event);
static gboolean gst_st2022_sink_query (GstBaseSink * bsink, GstQuery * query);
static GstPad *gst_st2022_sink_request_new_pad (GstElement * element,
    GstPadTemplate * templ, const gchar * name, const GstCaps * caps);
static void gst_st2022_sink_release_pad (GstElement * element, GstPad * pad);
static GstFlowReturn gst_st2022_sink_render (GstBaseSink * bsink,
    GstBuffer * buffer);

static GstClock *
gst_st2022_sink_provide_clock (GstElement * element)
{
  return gst_st2022_clock_provide (element, &GST_ST2022_SINK (element)->timing);
}

static void
gst_st2022_sink_class_init (GstSt2022SinkClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->set_property = gst_st2022_sink_set_property;
  gobject_class->get_property = gst_st2022_sink_get_property;
  gobject_class->finalize = gst_st2022_sink_finalize;
  element_class->provide_clock = gst_st2022_sink_provide_clock;
  gst_st2022_sink_install_properties (gobject_class);

  {
    GstCaps *caps = gst_st2022_supported_caps ();

    gst_element_class_add_pad_template (element_class,
        gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
    gst_caps_unref (caps);
  }
  gst_element_class_add_pad_template (element_class,
      gst_st2022_anc_tx_audio_template ());
  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_st2022_sink_request_new_pad);
  element_class->release_pad = GST_DEBUG_FUNCPTR (gst_st2022_sink_release_pad);
  gst_element_class_set_static_metadata (element_class,
      "ST 2022-6 sink", "Sink/Network/Video",
      "Sends raw video as a paced SMPTE ST 2022-6 stream, and its SDP. "
      "Example: gst-launch-1.0 videotestsrc is-live=true ! "
      "video/x-raw,format=UYVP,width=1920,height=1080,"
      "framerate=30000/1001,interlace-mode=interleaved ! st2022sink "
      "host=239.1.1.1 port=5004 sdp-file=stream.sdp",
      "gst-vmi developers");

  bsink_class->start = GST_DEBUG_FUNCPTR (gst_st2022_sink_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_st2022_sink_stop);
  bsink_class->unlock = GST_DEBUG_FUNCPTR (gst_st2022_sink_unlock);
  bsink_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_st2022_sink_unlock_stop);
  bsink_class->get_caps = GST_DEBUG_FUNCPTR (gst_st2022_sink_get_caps);
  bsink_class->set_caps = GST_DEBUG_FUNCPTR (gst_st2022_sink_set_caps);
  bsink_class->get_times = GST_DEBUG_FUNCPTR (gst_st2022_sink_get_times);
  bsink_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_st2022_sink_propose_allocation);
  bsink_class->event = GST_DEBUG_FUNCPTR (gst_st2022_sink_event);
  bsink_class->query = GST_DEBUG_FUNCPTR (gst_st2022_sink_query);
  bsink_class->render = GST_DEBUG_FUNCPTR (gst_st2022_sink_render);

  gst_type_mark_as_plugin_api (GST_TYPE_ST2022_TRANSPORT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_ST2022_PACING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_ST2022_GAP_FRAME, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_ST2022_UNDERRUN, 0);
}

static GstPad *
gst_st2022_sink_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * name, const GstCaps * caps)
{
  return gst_st2022_anc_tx_request_pad (GST_ST2022_SINK (element)->anc, templ,
      name);
}

static void
gst_st2022_sink_release_pad (GstElement * element, GstPad * pad)
{
  gst_st2022_anc_tx_release_pad (GST_ST2022_SINK (element)->anc, pad);
}

static void
gst_st2022_sink_init (GstSt2022Sink * self)
{
  self->anc = gst_st2022_anc_tx_new (GST_ELEMENT (self));
  self->nmos = gst_st2022_nmos_new (GST_ELEMENT (self));
  self->helpers.common = &self->common;
  self->helpers.sdp = &self->sdp;
  self->helpers.nmos = self->nmos;
  self->helpers.legs = &self->legs_settings;
  self->helpers.clock = &self->timing;
  self->host = g_strdup (DEFAULT_PROP_HOST);
  self->port = DEFAULT_PROP_PORT;
  self->multicast_iface = g_strdup (DEFAULT_PROP_MULTICAST_IFACE);
  self->ttl_mc = DEFAULT_PROP_TTL_MC;
  self->payload_type = DEFAULT_PROP_PAYLOAD_TYPE;
  self->ssrc = DEFAULT_PROP_SSRC;
  self->pacing = DEFAULT_PROP_PACING;
  self->line_rate = DEFAULT_PROP_LINE_RATE;
  gst_st2022_common_settings_init (&self->common);
  gst_st2022_legs_settings_init (&self->legs_settings, TRUE);
  gst_st2022_clock_init (&self->timing);
  GST_OBJECT_FLAG_SET (self, GST_ELEMENT_FLAG_PROVIDE_CLOCK);
  self->buffer_size = DEFAULT_PROP_BUFFER_SIZE;
  self->bind_address = g_strdup (DEFAULT_PROP_BIND_ADDRESS);
  self->destination_mac = g_strdup (DEFAULT_PROP_DESTINATION_MAC);
  self->gap_frame = DEFAULT_PROP_GAP_FRAME;
  self->reference_address = g_strdup (DEFAULT_PROP_REFERENCE_ADDRESS);
  self->reference_port = DEFAULT_PROP_REFERENCE_PORT;
  self->pacing_window = DEFAULT_PROP_PACING_WINDOW;
  self->pacing_windows = DEFAULT_PROP_PACING_WINDOWS;
  self->underrun = DEFAULT_PROP_UNDERRUN;
  self->tx_cpu = DEFAULT_PROP_TX_CPU;
  self->shared_engine = g_strdup (DEFAULT_PROP_SHARED_ENGINE);
  self->zerocopy = DEFAULT_PROP_ZEROCOPY;
  self->psf = DEFAULT_PROP_PSF;

  /* sync stays TRUE: it selects clock-driven pacing (see render) */
  gst_base_sink_set_sync (GST_BASE_SINK (self), TRUE);
  /* A frame must be rastered and queued before its launch time. The base
   * class' 20 ms leave too little on a loaded machine (the pacing bench
   * showed frames starting 10-20 ms late, their datagrams then bursting);
   * 60 ms adds two frames of latency and keeps the stream even. */
  gst_base_sink_set_processing_deadline (GST_BASE_SINK (self),
      DEFAULT_PROCESSING_DEADLINE);
}

static void
gst_st2022_sink_finalize (GObject * object)
{
  GstSt2022Sink *self = GST_ST2022_SINK (object);

  g_free (self->host);
  g_free (self->multicast_iface);
  g_free (self->bind_address);
  g_free (self->destination_mac);
  g_free (self->reference_address);
  g_free (self->shared_engine);
  gst_st2022_common_settings_clear (&self->common);
  gst_st2022_sdp_settings_clear (&self->sdp);
  gst_st2022_legs_settings_clear (&self->legs_settings);

  gst_st2022_anc_tx_free (self->anc);
  gst_st2022_nmos_free (self->nmos);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* pa-controlled on the pipeline clock: the reference's time, read by the
 * transmit thread. Before there is a clock, the host's own time. */
static guint64
gst_st2022_sink_reference_clock (gpointer user_data)
{
  GstSt2022Sink *self = user_data;
  GstClock *clock;
  GstClockTime now;

  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self) ? gst_object_ref (GST_ELEMENT_CLOCK (self))
      : NULL;
  GST_OBJECT_UNLOCK (self);
  if (clock == NULL)
    return vmi_tx_mono_now ();
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  return now;
}

/* shared-engine=@name: what a shared transmit thread cannot serve */
static gboolean
gst_st2022_sink_check_shared (GstSt2022Sink * self, const gchar * name,
    GstSt2022Transport transport, GstSt2022Pacing pacing, gboolean two_paths)
{
  if (transport != GST_ST2022_TRANSPORT_DPDK) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("shared-engine needs "
            "transport=dpdk (transport=%s sends on a thread per element): "
            "set transport=dpdk or clear shared-engine",
            gst_st2022_transport_nick (transport)), (NULL));
    return FALSE;
  }
  if (pacing == GST_ST2022_PACING_PA_FREE_RUNNING
      || pacing == GST_ST2022_PACING_PA_CONTROLLED) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("pacing=%s cannot use "
            "shared-engine '%s': the Pacing-Assistant fills the port's "
            "transmit queue with this stream's datagrams and gap frames, so "
            "it needs the port and a thread to itself. Clear shared-engine, "
            "or set pacing=software to share the thread",
            pacing == GST_ST2022_PACING_PA_FREE_RUNNING ? "pa-free-running" :
            "pa-controlled", name), (NULL));
    return FALSE;
  }
  if (two_paths) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("shared-engine '%s' "
            "sends one path per sink: clear secondary-host (ST 2022-7) or "
            "shared-engine", name), (NULL));
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_st2022_sink_start (GstBaseSink * bsink)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);
  g_auto (VmiTransportConfig) cfg = { 0 };
  g_auto (VmiTransportConfig) rcfg = { 0 };
  g_auto (VmiTransportConfig) cfg2 = { 0 };
  VmiTxEngineConfig ecfg;
  GstSt2022Transport transport;
  GstSt2022Pacing pacing;
  VmiTransport *ref_rx = NULL;
  GError *err = NULL;
  gboolean pa, two_paths;
  guint payload_type, need_caps;
  const gchar *need_by;
  g_autofree gchar *shared = NULL;

  vmi_tx_engine_config_init (&ecfg);
  GST_OBJECT_LOCK (self);
  transport = self->common.transport;
  payload_type = self->payload_type;
  pacing = self->pacing;
  cfg.direction = VMI_TRANSPORT_DIR_SEND;
  cfg.address = self->host;
  cfg.port = self->port;
  cfg.multicast_iface = self->multicast_iface;
  cfg.ttl_mc = self->ttl_mc;
  cfg.buffer_size = self->buffer_size;
  cfg.iface = self->common.iface;
  cfg.dpdk_eal_args = self->common.dpdk_eal_args;
  cfg.dpdk_port = self->common.dpdk_port;
  cfg.bind_address = self->bind_address;
  cfg.destination_mac = self->destination_mac;
  cfg.gap_kind = (VmiTransportGapKind) self->gap_frame;
  cfg.zerocopy = self->zerocopy;
  self->zc_checks = 0;
  self->zc_warned = FALSE;
  ecfg.pacing = (VmiTxPacing) pacing;
  ecfg.underrun = self->underrun == GST_ST2022_UNDERRUN_GAP ?
      VMI_TX_UNDERRUN_GAP : VMI_TX_UNDERRUN_REPEAT;
  ecfg.line_rate = self->line_rate;
  ecfg.tx_cpu = self->tx_cpu;
  ecfg.window_ns = self->pacing_window;
  ecfg.n_windows = self->pacing_windows;
  rcfg.direction = VMI_TRANSPORT_DIR_RECEIVE;
  rcfg.address = self->reference_address;
  rcfg.port = self->reference_port;
  rcfg.multicast_iface = self->multicast_iface;
  gst_st2022_transport_config_own_strings (&cfg);
  gst_st2022_transport_config_own_strings (&rcfg);
  two_paths = gst_st2022_legs_config (&self->legs_settings, &cfg, &cfg2);
  self->cur_ssrc = self->ssrc == DEFAULT_PROP_SSRC ? g_random_int () :
      self->ssrc;
  memset (&self->stats, 0, sizeof (self->stats));
  ecfg.epoch = self->timing.source != GST_ST2022_CLOCK_SOURCE_PIPELINE;
  if (self->shared_engine && *self->shared_engine)
    shared = g_strdup (self->shared_engine);
  GST_OBJECT_UNLOCK (self);
  if (shared && !gst_st2022_sink_check_shared (self, shared, transport,
          pacing, two_paths))
    return FALSE;
  cfg.shared_engine = ecfg.shared_engine = shared;
  ecfg.port_index = cfg.dpdk_port;
  ecfg.port_name = cfg.iface;
  ecfg.epoch_clock = gst_st2022_clock_epoch_now;
  ecfg.epoch_clock_data = &self->timing;
  /* on PTP: locked before anything is sent or described */
  if (!gst_st2022_clock_start (GST_ELEMENT (self), &self->timing))
    return FALSE;
  pa = pacing == GST_ST2022_PACING_PA_FREE_RUNNING
      || pacing == GST_ST2022_PACING_PA_CONTROLLED;

  /* pa-controlled follows the auxiliary stream when there is one, else the
   * pipeline clock when the sink syncs, else nothing: with sync=false the
   * wire is the only clock */
  if (pacing == GST_ST2022_PACING_PA_CONTROLLED) {
    if (rcfg.address && *rcfg.address) {
      if (rcfg.port == 0)
        goto no_reference_port;
      ecfg.reference = VMI_TX_REFERENCE_STREAM;
      ref_rx = gst_st2022_transport_open (GST_ELEMENT (self),
          GST_ST2022_TRANSPORT_SOCKET, &rcfg, 0, NULL);
      if (ref_rx == NULL)
        goto clock_stop;
    } else if (gst_base_sink_get_sync (bsink)) {
      ecfg.reference = VMI_TX_REFERENCE_CLOCK;
      ecfg.ref_clock = gst_st2022_sink_reference_clock;
      ecfg.ref_clock_data = self;
    }
  }

  need_caps = (pa ? VMI_TRANSPORT_CAP_GAP_FRAMES : 0) | (cfg.zerocopy ?
      VMI_TRANSPORT_CAP_ZEROCOPY_TX : 0);
  need_by = pa ? (pacing == GST_ST2022_PACING_PA_FREE_RUNNING ?
      "pacing=pa-free-running" : "pacing=pa-controlled") : "zerocopy=true";
  self->t = gst_st2022_transport_open (GST_ELEMENT (self), transport, &cfg,
      need_caps, need_by);
  /* ST 2022-7: the engine sends every burst on both paths */
  self->path_up[0] = self->path_up[1] = TRUE;
  if (self->t && two_paths)
    self->t = gst_st2022_legs_sink_open (GST_ELEMENT (self), self->t,
        transport, &cfg, &cfg2, need_caps, need_by, self->path_up);
  if (self->t == NULL) {
    vmi_transport_close (ref_rx);
    goto clock_stop;
  }
  GST_OBJECT_LOCK (self);
  g_free (self->sdp.ts_refclk);
  self->sdp.ts_refclk = gst_st2022_clock_ts_refclk (&self->timing);
  GST_OBJECT_UNLOCK (self);
  if (!gst_st2022_sdp_sink_start (GST_ELEMENT (self), &self->sdp, &cfg,
          two_paths ? &cfg2 : NULL, payload_type, pacing)) {
    vmi_transport_close (ref_rx);
    g_clear_pointer (&self->t, vmi_transport_close);
    goto clock_stop;
  }
  self->engine = vmi_tx_engine_new (self->t, &ecfg, &err);
  if (self->engine == NULL)
    goto engine_failed;
  if (vmi_tx_engine_get_warning (self->engine))
    GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("%s",
            vmi_tx_engine_get_warning (self->engine)), ("shared-engine %s",
            shared));
  if (ref_rx)
    vmi_tx_engine_receive_reference (self->engine, ref_rx);

  self->rtp_offset = g_random_int ();
  self->have_last_rtp = FALSE;
  self->next_free_mono = 0;
  self->last_post = GST_CLOCK_TIME_NONE;
  self->late_unwarned = 0;
  self->late_worst = 0;
  self->late_warned_mono = 0;
  if (!gst_st2022_nmos_start (self->nmos)) {
    gst_st2022_sink_stop (bsink);
    return FALSE;
  }
  return TRUE;

  /* ERRORS */
no_reference_port:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("reference-address=%s needs reference-port: set the UDP port of the "
            "auxiliary reference stream", rcfg.address), (NULL));
    goto clock_stop;
  }
engine_failed:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message),
        (NULL));
    g_clear_error (&err);
    vmi_transport_close (ref_rx);
    g_clear_pointer (&self->t, vmi_transport_close);
    goto clock_stop;
  }
clock_stop:
  {
    gst_st2022_clock_stop (GST_ELEMENT (self), &self->timing);
    return FALSE;
  }
}

static gboolean
gst_st2022_sink_stop (GstBaseSink * bsink)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);

  gst_st2022_nmos_stop (self->nmos);
  /* the frame being sent is abandoned, not finished; the transport drops
   * its frame references at close, before the rasters go */
  vmi_tx_engine_stop (self->engine);
  g_clear_pointer (&self->t, vmi_transport_close);
  g_clear_pointer (&self->engine, vmi_tx_engine_free);
  g_clear_pointer (&self->writer, st2022_raster_writer_free);
  g_clear_pointer (&self->tail_writer, st2022_raster_writer_free);
  self->fmt = NULL;
  gst_st2022_anc_tx_reset (self->anc);
  gst_st2022_clock_stop (GST_ELEMENT (self), &self->timing);
  return TRUE;
}

guint16
gst_st2022_sink_get_source_port (GstSt2022Sink * sink, guint leg)
{
  if (sink->t && vmi_transport_is_dual (sink->t))
    return vmi_transport_dual_get_local_port (sink->t, leg);
  return leg == 0 ? vmi_transport_get_local_port (sink->t) : 0;
}

static gboolean
gst_st2022_sink_unlock (GstBaseSink * bsink)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);

  /* queued frames are dropped: nothing stale leaves after a flush */
  if (self->engine)
    vmi_tx_engine_set_flushing (self->engine, TRUE);
  gst_st2022_anc_tx_set_flushing (self->anc, TRUE);
  return TRUE;
}

static gboolean
gst_st2022_sink_unlock_stop (GstBaseSink * bsink)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);

  if (self->engine)
    vmi_tx_engine_set_flushing (self->engine, FALSE);
  gst_st2022_anc_tx_set_flushing (self->anc, FALSE);
  return TRUE;
}

/* Upstream is offered the rasters the format table has first, so
 * auto-negotiation (videotestsrc ! st2022sink) picks one we can send; then
 * any raster, so that caps we cannot send still link and negotiate and
 * set_caps() can say what we can send instead of a bare "could not link" or
 * "not-negotiated" upstream. */
static GstCaps *
gst_st2022_sink_get_caps (GstBaseSink * bsink, GstCaps * filter)
{
  GstCaps *caps = gst_st2022_supported_caps ();

  caps = gst_caps_make_writable (caps);
  gst_caps_append (caps, gst_static_caps_get (&any_raster_caps));
  /* a link check asks without a filter: any raw video links, so that an
   * 8-bit format gets set_caps()'s error, not a bare "could not link" */
  if (filter == NULL)
    gst_caps_append (caps, gst_static_caps_get (&any_video_caps));
  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, caps,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = tmp;
    /* only a format we cannot send is on offer (8-bit, say): let it
     * through too, so set_caps() can name the fix; a converter upstream
     * still sees our formats and picks one of them */
    if (gst_caps_is_empty (caps)) {
      GstCaps *raw = gst_static_caps_get (&any_video_caps);

      gst_caps_unref (caps);
      caps = gst_caps_intersect (filter, raw);
      gst_caps_unref (raw);
    }
  }
  return caps;
}

static gboolean
gst_st2022_sink_set_caps (GstBaseSink * bsink, GstCaps * caps)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);
  GstCaps *supported;
  GstVideoInfo info;
  const St2022Format *fmt;
  St2022PacketizerConfig cfg;
  GError *err = NULL;
  gchar *list;

  supported = gst_st2022_supported_caps ();
  if (!gst_caps_can_intersect (caps, supported)) {
    gst_caps_unref (supported);
    goto unsupported;
  }
  gst_caps_unref (supported);
  if (!gst_video_info_from_caps (&info, caps))
    goto unsupported;
  fmt = st2022_format_from_video (GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info),
      GST_VIDEO_INFO_INTERLACE_MODE (&info) !=
      GST_VIDEO_INTERLACE_MODE_PROGRESSIVE, GST_VIDEO_INFO_FPS_N (&info),
      GST_VIDEO_INFO_FPS_D (&info));
  if (fmt == NULL)
    goto unsupported;
  /* the PsF entries carry no field-order, so they match any: a raster's
   * field order is its standard's (525 bottom first, the rest top) */
  if (GST_VIDEO_INFO_FIELD_ORDER (&info) == (fmt->bottom_field_first ?
          GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST :
          GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST))
    goto unsupported;
  /* the caps of 1080PsF25/29.97/30 are those of 1080p or of 1080i without
   * a field order: only the user knows which the picture is */
  if (self->psf && (GST_VIDEO_INFO_INTERLACE_MODE (&info) ==
          GST_VIDEO_INTERLACE_MODE_PROGRESSIVE ||
          GST_VIDEO_INFO_FIELD_ORDER (&info) ==
          GST_VIDEO_FIELD_ORDER_UNKNOWN) && st2022_format_psf_of (fmt))
    fmt = st2022_format_psf_of (fmt);

  GST_DEBUG_OBJECT (self, "sending %" GST_PTR_FORMAT " as %s", caps,
      fmt->name);

  /* the engine sends the old format's frames first; a format change
   * mid-stream keeps the RTP sequence, FRCount and video timestamp running,
   * as one sender would */
  st2022_packetizer_config_init (&cfg);
  cfg.payload_type = self->payload_type;
  cfg.ssrc = self->cur_ssrc;
  cfg.initial_seq = g_random_int () & 0xffff;
  if (!vmi_tx_engine_configure (self->engine, fmt,
          GST_VIDEO_INFO_FPS_N (&info), GST_VIDEO_INFO_FPS_D (&info), &cfg,
          &err))
    goto engine_failed;

  g_clear_pointer (&self->writer, st2022_raster_writer_free);
  g_clear_pointer (&self->tail_writer, st2022_raster_writer_free);
  self->vinfo = info;
  self->fmt = fmt;
  self->pixfmt = GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_v210 ?
      ST2022_PIXEL_V210 : ST2022_PIXEL_UYVP;
  self->writer = st2022_raster_writer_new (fmt);
  if (self->writer == NULL)
    goto core_failed;
  self->slice_head = gst_st2022_slice_head_lines (fmt);
  if (self->slice_head)
    self->tail_writer = st2022_raster_writer_new (fmt);
  gst_st2022_anc_tx_set_format (self->anc, fmt);
  gst_st2022_nmos_sink_caps (self->nmos, GST_VIDEO_INFO_FPS_N (&info),
      GST_VIDEO_INFO_FPS_D (&info));
  self->period = gst_util_uint64_scale_int (GST_SECOND,
      GST_VIDEO_INFO_FPS_D (&info), GST_VIDEO_INFO_FPS_N (&info));
  self->rtp_per_frame = (guint32) gst_util_uint64_scale_int_round (27000000,
      GST_VIDEO_INFO_FPS_D (&info), GST_VIDEO_INFO_FPS_N (&info));
  gst_st2022_clock_set_rate (&self->timing, GST_VIDEO_INFO_FPS_N (&info),
      GST_VIDEO_INFO_FPS_D (&info));
  return TRUE;

  /* ERRORS */
engine_failed:
  {
    /* the pacer's preconditions: the message names line-rate, the format
     * and the fix */
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message),
        ("caps %" GST_PTR_FORMAT, caps));
    g_clear_error (&err);
    self->fmt = NULL;
    return FALSE;
  }
core_failed:
  {
    GST_ELEMENT_ERROR (self, LIBRARY, INIT, (NULL),
        ("could not set up the ST 2022-6 raster writer for %s", fmt->name));
    self->fmt = NULL;
    return FALSE;
  }
unsupported:
  {
    supported = gst_static_caps_get (&any_raster_caps);
    if (!gst_caps_can_intersect (caps, supported)) {
      gst_caps_unref (supported);
      goto not_10bit;
    }
    gst_caps_unref (supported);
    list = gst_st2022_supported_formats_string ();
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("st2022sink cannot send %" GST_PTR_FORMAT "; it takes UYVP or v210 "
            "in one of the SDI formats: %s", caps, list),
        ("caps %" GST_PTR_FORMAT, caps));
    g_free (list);
    return FALSE;
  }
not_10bit:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("st2022sink needs 10-bit 4:2:2 video (format UYVP or v210) and was "
            "offered %" GST_PTR_FORMAT ": put videoconvert before st2022sink "
            "(vmi10to8 converts the other way, 10-bit to 8-bit, after "
            "st2022src)", caps), (NULL));
    return FALSE;
  }
}

/* The sink paces itself (render); the base class must not wait. */
static void
gst_st2022_sink_get_times (GstBaseSink * bsink, GstBuffer * buf,
    GstClockTime * start, GstClockTime * end)
{
  *start = GST_CLOCK_TIME_NONE;
  *end = GST_CLOCK_TIME_NONE;
}

/* Upstream renders straight into shareable frames (vmisink can pass them on
 * without a copy); the sink itself only reads them. */
static gboolean
gst_st2022_sink_propose_allocation (GstBaseSink * bsink, GstQuery * query)
{
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return FALSE;

  if (need_pool) {
    pool = gst_vmi_buffer_pool_new ();
    config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_set_params (config, caps, info.size, 2, 0);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      gst_object_unref (pool);
      return FALSE;
    }
    gst_query_add_allocation_pool (query, pool, info.size, 2, 0);
    gst_object_unref (pool);
  } else {
    gst_query_add_allocation_pool (query, NULL, info.size, 2, 0);
  }
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static gboolean
gst_st2022_sink_event (GstBaseSink * bsink, GstEvent * event)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);

  /* before the base class posts EOS, so applications see the final
   * counters first */
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    if (self->engine)
      vmi_tx_engine_drain (self->engine);
    gst_st2022_sink_post_stats (self);
  }

  return GST_BASE_SINK_CLASS (parent_class)->event (bsink, event);
}

/* Accept-caps against any raw video, not the exact list: caps without
 * field-order or colorimetry (rawvideoparse) must pass, and a size or format
 * we cannot send must reach set_caps() to get an error naming the fix. */
static gboolean
gst_st2022_sink_query (GstBaseSink * bsink, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    GstCaps *caps, *templ;

    gst_query_parse_accept_caps (query, &caps);
    templ = gst_static_caps_get (&any_video_caps);
    gst_query_set_accept_caps_result (query,
        gst_caps_is_subset (caps, templ));
    gst_caps_unref (templ);
    return TRUE;
  }
  return GST_BASE_SINK_CLASS (parent_class)->query (bsink, query);
}

static GstFlowReturn
gst_st2022_sink_render (GstBaseSink * bsink, GstBuffer * buffer)
{
  GstSt2022Sink *self = GST_ST2022_SINK (bsink);
  gboolean mapped;
  GstClockTime rt = GST_CLOCK_TIME_NONE, period;
  VmiTxBuffer *job;
  GstSt2022Meta *meta;
  GstClock *clock;
  GstFlowReturn ret = GST_FLOW_OK;
  GError *err = NULL;
  gint64 start_mono, now;
  guint32 rtp;
  gboolean paced;
  int rc;

  if (G_UNLIKELY (self->fmt == NULL))
    goto not_negotiated;
  /* IS-05 master_enable=false: the pipeline runs, nothing is sent */
  if (G_UNLIKELY (!gst_st2022_nmos_sink_enabled (self->nmos)))
    return GST_FLOW_OK;

  /* a free raster: the transmit thread frees one per frame period (the
   * wire's back-pressure when the Pacing-Assistant sends) */
  job = vmi_tx_engine_acquire (self->engine, &err);
  if (err)
    goto send_failed;
  if (job == NULL)
    return GST_FLOW_FLUSHING;

  /* the raster first: it costs the same whether we then wait or not
   * (sliced: the lines the ancillary data goes into; the transmit thread
   * writes the rest as it sends; embedded audio fills every line) */
  rc = gst_st2022_slice_write (self->engine, job, self->writer,
      self->tail_writer, GST_ELEMENT (self)->numsinkpads > 1 ? 0 :
      self->slice_head, self->pixfmt, &self->vinfo, buffer, &mapped);
  if (!mapped) {
    vmi_tx_engine_release (self->engine, job);
    goto map_failed;
  }
  if (rc != ST2022_OK) {
    vmi_tx_engine_release (self->engine, job);
    goto raster_failed;
  }
  /* payload ID, timecode, captions, audio: before the frame is queued */
  if (!gst_st2022_anc_tx_frame (self->anc, buffer, &bsink->segment,
          job->raster, job->size)) {
    vmi_tx_engine_release (self->engine, job);
    return GST_FLOW_FLUSHING;
  }
  /* 720p23.98/24: the lines' bits back to back, as they are sent */
  st2022_raster_to_wire (self->fmt, job->raster);

  period = self->period;
  if (GST_BUFFER_PTS_IS_VALID (buffer))
    rt = gst_segment_to_running_time (&bsink->segment, GST_FORMAT_TIME,
        GST_BUFFER_PTS (buffer));

  /* RTP timestamp: 27 MHz running time, or the one we received when
   * relaying an st2022src stream; never backwards */
  meta = gst_buffer_get_st2022_meta (buffer);
  if (meta)
    rtp = meta->rtp_timestamp;
  else if (GST_CLOCK_TIME_IS_VALID (rt))
    rtp = self->rtp_offset + (guint32) gst_util_uint64_scale_round (rt,
        27000000, GST_SECOND);
  else
    rtp = self->last_rtp + self->rtp_per_frame;
  if (self->have_last_rtp && meta == NULL
      && (gint32) (rtp - self->last_rtp) <= 0)
    rtp = self->last_rtp + self->rtp_per_frame;
  self->last_rtp = rtp;
  self->have_last_rtp = TRUE;

  paced = self->pacing == GST_ST2022_PACING_SOFTWARE;
  start_mono = vmi_tx_mono_now ();
  GST_OBJECT_LOCK (self);
  clock = GST_ELEMENT_CLOCK (self) ? gst_object_ref (GST_ELEMENT_CLOCK (self))
      : NULL;
  GST_OBJECT_UNLOCK (self);
  if (gst_st2022_clock_on_epoch (&self->timing)) {
    guint64 k;
    gint64 late;

    /* ST 2059: on the frame's alignment point, whatever the pacing */
    vmi_tx_engine_set_ref (self->engine, gst_st2022_clock_check (GST_ELEMENT
            (self), &self->timing) ? 2 : 0);
    ret = gst_st2022_clock_schedule (bsink, &self->timing, clock, rt, period,
        &k, &start_mono, &late);
    if (ret != GST_FLOW_OK) {
      vmi_tx_engine_release (self->engine, job);
      goto out;
    }
    if (late > 0) {
      GST_OBJECT_LOCK (self);
      self->stats.frames_late++;
      GST_OBJECT_UNLOCK (self);
      gst_st2022_sink_report_late (self, rt, GST_BUFFER_PTS (buffer), period,
          late, vmi_tx_mono_now ());
    }
    vmi_tx_engine_submit_epoch (self->engine, job, k, start_mono);
    gst_st2022_sink_check_zerocopy (self);
    goto queued;
  }
  if (paced && clock && gst_base_sink_get_sync (bsink)
      && GST_CLOCK_TIME_IS_VALID (rt)) {
    GstClockTime target, margin = period;
    GstClockTimeDiff jitter;
    GstClockTime base, clock_now;

    /* coarse wait in the base class (handles PAUSED and flushing) up to a
     * frame ahead, then the rest in the transmit thread: a frame queued
     * early survives this thread being descheduled for a while */
    ret = gst_base_sink_wait (bsink, rt > margin ? rt - margin : 0, &jitter);
    if (ret != GST_FLOW_OK) {
      vmi_tx_engine_release (self->engine, job);
      goto out;
    }

    target = rt + gst_base_sink_get_latency (bsink);
    if (gst_base_sink_get_ts_offset (bsink) < 0)
      target -= MIN (target, (GstClockTime) - gst_base_sink_get_ts_offset
          (bsink));
    else
      target += gst_base_sink_get_ts_offset (bsink);
    target -= MIN (target, gst_base_sink_get_render_delay (bsink));
    base = gst_element_get_base_time (GST_ELEMENT (self));
    clock_now = gst_clock_get_time (clock);
    now = vmi_tx_mono_now ();
    start_mono = now + (GstClockTimeDiff) (base + target - clock_now);
  } else if (paced) {
    /* no clock to follow: back to back frames at the frame rate */
    start_mono = MAX (start_mono, self->next_free_mono);
  }

  now = vmi_tx_mono_now ();
  if (paced && now - start_mono > (gint64) period) {
    GST_DEBUG_OBJECT (self, "late by %" G_GINT64_FORMAT " ns, sending at once",
        now - start_mono);
    GST_OBJECT_LOCK (self);
    self->stats.frames_late++;
    GST_OBJECT_UNLOCK (self);
    gst_st2022_sink_report_late (self, rt, GST_BUFFER_PTS (buffer), period,
        now - start_mono, now);
    start_mono = MAX (now, self->next_free_mono);
  }
  self->next_free_mono = start_mono + period;

  GST_LOG_OBJECT (self, "queueing frame starting %" G_GINT64_FORMAT
      " ns from now", start_mono - vmi_tx_mono_now ());
  vmi_tx_engine_submit (self->engine, job, rtp, start_mono);
  gst_st2022_sink_check_zerocopy (self);

queued:
  gst_st2022_legs_sink_check (GST_ELEMENT (self), self->t, self->path_up);
  if (clock && gst_st2022_common_stats_due (GST_ELEMENT (self), &self->common,
          &self->last_post, gst_clock_get_time (clock)))
    gst_st2022_sink_post_stats (self);

out:
  if (clock)
    gst_object_unref (clock);
  return ret;

  /* ERRORS */
not_negotiated:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
raster_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, (NULL),
        ("ST 2022-6 framing failed: %s", st2022_result_to_string (rc)));
    return GST_FLOW_ERROR;
  }
map_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, (NULL),
        ("could not map the video frame"));
    return GST_FLOW_ERROR;
  }
send_failed:
  {
    /* the transport's message names what failed and, where it knows, the
     * fix (a route, the link, the NIC) */
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Could not send the stream: "
            "%s", err->message), (NULL));
    g_clear_error (&err);
    return GST_FLOW_ERROR;
  }
}
