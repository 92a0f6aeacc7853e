/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The transmit engine of st2022sink: plain C (GLib, no GObject), so the
 * element stays glue and the tests can drive it on any VmiTransport.
 *
 * The engine owns the rasters (VmiTxFrame, see vmi-transport.h), the
 * ST 2022-6 packetizer and one transmit thread. The element acquires a free
 * raster, writes a frame into it and submits it with its RTP timestamp (and,
 * for software pacing, its launch time); the transmit thread sends it:
 *
 *  - NONE: every datagram at once;
 *  - SOFTWARE: spread evenly over the frame period from the launch time
 *    (sleep, then spin);
 *  - PA_FREE_RUNNING / PA_CONTROLLED: the Pacing-Assistant (thesis ch. 4,
 *    gst/pacing/vmi-pacer.h): the thread busy-polls the transport's TX queue
 *    and keeps it full with media datagrams and gap entries, one burst
 *    carrying the pacer's SEND/WAIT stream in order. The wire is the clock:
 *    back-pressure from the queue holds the element (acquire() blocks).
 *
 * With `shared_engine` set (pacing none or software) the engine has no
 * thread of its own: it joins the shared transmit engine of that name
 * (vmi-tx-shared.h), whose one thread sends the frames of every engine
 * that joined it, each still paced on its own frame period.
 *
 * Threading: acquire/submit/drain/configure come from the element's
 * streaming thread; flush/set_flushing from any thread (unlock()); the
 * reference push from one receiving thread. */

#ifndef __VMI_TX_ENGINE_H__
#define __VMI_TX_ENGINE_H__

#include <glib.h>

#include "vmi-transport.h"
#include "st2022/st2022.h"

G_BEGIN_DECLS

typedef enum
{
  VMI_TX_PACING_NONE,
  VMI_TX_PACING_SOFTWARE,
  VMI_TX_PACING_PA_FREE_RUNNING,
  VMI_TX_PACING_PA_CONTROLLED,
} VmiTxPacing;

typedef enum
{
  VMI_TX_UNDERRUN_REPEAT,       /* the last frame again, next RTP ts/seq */
  VMI_TX_UNDERRUN_GAP,          /* gap entries in place of its datagrams */
} VmiTxUnderrun;

/* The reference pa-controlled follows. */
typedef enum
{
  /* none: the wire runs at the nominal packet rate (as free-running) */
  VMI_TX_REFERENCE_NONE,
  /* a clock (the pipeline clock): the nominal packet instants on it are the
   * reference arrivals; see VmiTxEngineConfig.ref_clock */
  VMI_TX_REFERENCE_CLOCK,
  /* an auxiliary copy of the source stream, its arrivals pushed with
   * vmi_tx_engine_push_reference() */
  VMI_TX_REFERENCE_STREAM,
} VmiTxReference;

/* Software pacing: one deadline per run of about this much wire time of
 * a stream; the thread sleeps until SPIN_NS before it and spins the rest */
#define VMI_TX_PACING_BATCH_NS 100000
#define VMI_TX_PACING_SPIN_NS 10000

/* Wire bytes of one ST 2022-6 datagram on a raw transport: 14 Ethernet +
 * 20 IPv4 + 8 UDP + 1400 payload, + FCS, preamble and inter-frame gap. */
#define VMI_TX_MEDIA_WIRE_BYTES (14 + 20 + 8 + 1400 + 24)

typedef struct
{
  VmiTxPacing pacing;
  VmiTxUnderrun underrun;
  guint64 line_rate;            /* bit/s, PA */
  gint tx_cpu;                  /* -1: not pinned */
  /* PA_CONTROLLED */
  VmiTxReference reference;
  guint64 window_ns;            /* W, wire time */
  guint n_windows;              /* N_W */
  /* REFERENCE_CLOCK: the reference clock's time now, ns (any thread; called
   * by the transmit thread about every 20 µs) */
  guint64 (*ref_clock) (gpointer user_data);
  gpointer ref_clock_data;
  /* PA: frames queued before the first media packet leaves (B1); 0 = 3 */
  guint prefill_frames;
  /* ST 2059: frames on the SMPTE epoch, submitted with
   * vmi_tx_engine_submit_epoch(). NONE waits for each frame's launch time
   * too; a PA stream starts on an alignment point of epoch_clock (its time
   * now, ns since the epoch, minus the element's tx-offset) and stamps its
   * wire frames with consecutive frame indices from there. */
  gboolean epoch;
  guint64 (*epoch_clock) (gpointer user_data);
  gpointer epoch_clock_data;
  /* Called by the transmit thread, no engine lock held, each time it has
   * added to the counters (once per frame period on PA, once per frame on
   * software pacing): a wake-up for a thread waiting for a count, which
   * vmi_tx_engine_get_stats() then reads. Must not block. NULL: none. */
  void (*stats_changed) (gpointer user_data);
  gpointer stats_changed_data;
  /* non-empty: join the shared transmit engine of this name (pacing none
   * or software; tx_cpu pins it when this engine starts it) */
  const gchar *shared_engine;
  /* shared_engine: which port @t sends on (an engine has one) */
  gint port_index;
  const gchar *port_name;
} VmiTxEngineConfig;

void vmi_tx_engine_config_init (VmiTxEngineConfig * cfg);

/* Counters, cumulative. */
typedef struct
{
  guint64 packets;              /* media datagrams sent (repeats included) */
  guint64 bytes;                /* their UDP payload bytes */
  guint64 frames;               /* submitted frames sent completely */
  guint64 underruns;            /* frame periods without a submitted frame */
  guint64 frames_repeated;
  guint64 gap_frames;
  guint64 gap_bytes;            /* wire bytes */
  guint64 tx_queue_full;        /* short counts from the transport (PA) */
  guint64 reference_packets;    /* reference arrivals fed to the controller */
  guint64 reference_late;       /* arrivals too late for the controller */
  guint64 tau_updates;          /* controller estimates taken */
  guint64 tau_num, tau_den;     /* current tau, byte-times per packet */
  /* shared engine (vmi-tx-sched.h): frames the shared thread sent late
   * (a run of datagrams more than 5 % of a frame period behind its pacing
   * instant), frames queued after their launch time (upstream late), and
   * the latest lateness of a run, ns */
  guint64 frames_late;
  guint64 frames_behind;
  gint64 late_max;
} VmiTxEngineStats;

typedef struct _VmiTxEngine VmiTxEngine;

/* A raster handed out by acquire(): write the frame into @raster, then
 * submit it. */
typedef struct
{
  guint8 *raster;
  gsize size;
} VmiTxBuffer;

/* @t is borrowed and must outlive the engine. NULL with @error on a bad
 * configuration (PA on a transport without gap frames, ...). Starts the
 * transmit thread. */
VmiTxEngine *vmi_tx_engine_new (VmiTransport * t,
    const VmiTxEngineConfig * cfg, GError ** error);
/* Stops the transmit thread (the frame being sent is abandoned); the
 * transport is not used any more afterwards. */
void vmi_tx_engine_stop (VmiTxEngine * e);
/* Stops and frees. Close the transport between stop and free: a zero-copy
 * transport drops its frame references at close, and the rasters live
 * until then. */
void vmi_tx_engine_free (VmiTxEngine * e);

/* Sets the stream format (drains the previous one first: a format change
 * mid-stream keeps sequence, FRCount and video timestamp running). For PA
 * checks the pacer's preconditions for @fmt at the line rate; FALSE with
 * @error (VMI_TRANSPORT_ERROR_UNSUPPORTED) naming the line rate, the format
 * and the fix. @pcfg: payload type, SSRC, initial sequence (used only for
 * the first format). */
gboolean vmi_tx_engine_configure (VmiTxEngine * e, const St2022Format * fmt,
    gint fps_n, gint fps_d, const St2022PacketizerConfig * pcfg,
    GError ** error);

/* Blocks until a raster is free (the wire's back-pressure). NULL when
 * flushing, or on a transmit error (then *@error is set). */
VmiTxBuffer *vmi_tx_engine_acquire (VmiTxEngine * e, GError ** error);
/* Queues @buf for sending. @start_mono: SOFTWARE pacing launch time of its
 * first datagram (CLOCK_MONOTONIC ns). The RTP timestamp on the wire never
 * goes backwards: one at or before the previous frame's (a repeated frame's
 * included) becomes previous + one frame. */
void vmi_tx_engine_submit (VmiTxEngine * e, VmiTxBuffer * buf, guint32 rtp,
    gint64 start_mono);
/* ST 2059 (cfg.epoch): queues @buf as frame @k since the SMPTE epoch; its
 * RTP and video timestamps are those of k's alignment point
 * (gst/pacing/vmi-epoch.h). @start_mono as for submit(). */
void vmi_tx_engine_submit_epoch (VmiTxEngine * e, VmiTxBuffer * buf,
    guint64 k, gint64 start_mono);
/* HBRMT R bits of the frames packetized from now on (any thread) */
void vmi_tx_engine_set_ref (VmiTxEngine * e, guint8 ref);
/* Sliced writing (pacing none or software, HD formats): the element wrote
 * the first lines of the frame into @buf (up to cur->line - 1, ancillary
 * data included) and leaves the rest to the transmit thread, which writes
 * them with @w from @cur's picture into a ring (2 MiB, cut in slices that
 * stay referenced while the transport reads them) a few lines ahead of the
 * datagrams it sends, so the raster is still in cache when they leave.
 * @done(@done_data) runs once the picture is not needed any more (sent,
 * dropped or released). Call before submit. FALSE (nothing taken) when
 * this engine cannot: PA, SD, no ring, or a head of more than half the
 * ring; then write the rest of the raster into @buf as usual. */
gboolean vmi_tx_engine_set_lines (VmiTxEngine * e, VmiTxBuffer * buf,
    St2022RasterWriter * w, const St2022RasterCursor * cur,
    GDestroyNotify done, gpointer done_data);
/* Gives back an acquired raster unsent. */
void vmi_tx_engine_release (VmiTxEngine * e, VmiTxBuffer * buf);

/* Sends everything queued and waits for it (EOS): a PA stream then ends
 * (no underrun is counted for the time after it) and the next frame starts
 * a new one. Returns at once when flushing. */
void vmi_tx_engine_drain (VmiTxEngine * e);

/* Flushing on: queued frames are dropped, the frame on the wire is cut, a
 * PA stream ends, acquire() returns NULL until flushing is off again. No
 * frame queued before the flush is ever sent after it. */
void vmi_tx_engine_set_flushing (VmiTxEngine * e, gboolean flushing);

/* REFERENCE_STREAM: one reference arrival at @mono_ns (CLOCK_MONOTONIC),
 * in order; from one thread. Lock-free. */
void vmi_tx_engine_push_reference (VmiTxEngine * e, guint64 mono_ns);

/* REFERENCE_STREAM: receives the reference stream from @rx (a RECEIVE
 * transport, owned by the engine from now on) on a thread of its own and
 * pushes every datagram's arrival. */
void vmi_tx_engine_receive_reference (VmiTxEngine * e, VmiTransport * rx);

void vmi_tx_engine_get_stats (VmiTxEngine * e, VmiTxEngineStats * stats);

/* SOFTWARE pacing: frame period, ns (0 before configure) */
guint64 vmi_tx_engine_get_period (VmiTxEngine * e);

/* CLOCK_MONOTONIC now, ns */
gint64 vmi_tx_mono_now (void);

/* Advice from vmi_tx_engine_new() for the user (another tx_cpu than the
 * shared engine's, ...), or NULL */
const gchar *vmi_tx_engine_get_warning (VmiTxEngine * e);

/* Sets up the calling transmit thread: fine timer slack, pinned to @cpu
 * when >= 0 (a warning when it cannot be), SCHED_FIFO where allowed.
 * TRUE when pinned. */
gboolean vmi_tx_thread_setup (gint cpu);

/* ---- for the shared transmit engine's thread (vmi-tx-shared.c) ---- */

/* The shared thread never waits for an element's thread: the engine lock
 * is only tried (a thread of the element holding it may be preempted
 * for milliseconds, and the shared thread runs at real-time priority).
 *
 * The next queued frame, packetized: its first datagram's launch time
 * and when it was queued (CLOCK_MONOTONIC ns), period, datagrams and
 * whether it is paced. 1: a frame; 0: nothing queued; -1: the lock is
 * taken, ask again. */
gint vmi_tx_engine_shared_next (VmiTxEngine * e, gint64 * start,
    gint64 * ready, guint64 * period, guint * n, gboolean * paced);
/* Sends datagrams [first, first + count) of the frame: how many left
 * (0: the queue is full), or -1 when the frame is over (flushed, or the
 * transport failed: the engine holds the error for the element) */
gint vmi_tx_engine_shared_send (VmiTxEngine * e, guint first, guint count);
/* The frame is done (@complete: every datagram left; @late: the thread
 * sent it late; @behind: it was queued late) or abandoned; gives back its
 * raster. FALSE (nothing done) when the lock is taken and not @wait. */
gboolean vmi_tx_engine_shared_end (VmiTxEngine * e, gboolean complete,
    gboolean late, gboolean behind, gint64 late_ns, gboolean wait);

G_END_DECLS

#endif /* __VMI_TX_ENGINE_H__ */
