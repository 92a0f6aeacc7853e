/* gst-vmi tests: pa-controlled following a reference running 100 ppm off
 * nominal, on the line-rate wire (pa-wire.c): a clock (what st2022sink
 * sync=true follows: the pipeline clock) and an auxiliary stream with
 * 0-10 µs of arrival jitter; and pa-free-running drifting against the same
 * receiver, as the thesis predicts. On the SMPTE epoch (ST 2059: a sink with
 * clock-source=ptp follows the PTP clock as its pipeline clock) the clock
 * runs as PTP time ±100 ppm off the host, and every frame on the wire must
 * carry an alignment point's RTP timestamp, one frame apart.
 *
 * Judged like docs/pacing.md: a receiver consuming at the reference rate;
 * after settling, the occupancy span (max - min of i - f t_i) must stay
 * within 2 packets and the least-squares rate within 1 ppm of the
 * reference (plus the resolution of the trace: its phase is known to the
 * span, i.e. 2 packets over its length).
 *
 * The check needs the wire never to have run empty (the host keeping the
 * transmit thread running, the thesis' assumption 1): a run where it did is
 * repeated (3 tries), and when every try was starved the program exits 77
 * (skip) saying so. A controlled run that misses the limits is run again
 * once, saying so; two misses in a row fail.
 *
 * VMI_PA_FIGURES=DIR: the element defaults (W = 1 s, N_W = 2), 20 s runs;
 * prints the table of docs/benchmarks.md and writes DIR/<name>.pcap for
 * tools/vmi-analyze. */

#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>

#include "transport/vmi-tx-engine.h"
#include "vmi-pacer.h"
#include "vmi-timing.h"
#include "pa-wire.h"

#define fail_unless(cond, ...) G_STMT_START {                         \
    if (!(cond)) { g_printerr ("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      exit (1); } } G_STMT_END

typedef struct
{
  gdouble ppm;
  gint64 t0;
} RefClock;

static guint64
ref_clock_now (gpointer data)
{
  RefClock *c = data;
  gint64 t = pa_mono_ns () - c->t0;

  return (guint64) (1000000000000ll + t + (gint64) ((gdouble) t * c->ppm *
          1e-6));
}

typedef struct
{
  VmiTxEngine *e;
  gsize size;
  gint stop;
  /* stream reference */
  gboolean stream;
  gdouble rate_hz, jitter_ns;
  gint64 t0;
} Feeder;

static gpointer
feed_frames (gpointer data)
{
  Feeder *fd = data;
  guint32 rtp = 0;

  while (!g_atomic_int_get (&fd->stop)) {
    VmiTxBuffer *b = vmi_tx_engine_acquire (fd->e, NULL);
    if (b == NULL)
      break;
    memset (b->raster, 0x80, 4096);
    vmi_tx_engine_submit (fd->e, b, rtp, 0);
    rtp += 540000;
  }
  return NULL;
}

/* the auxiliary stream: packet k arrives at t0 + k / rate + U(0, jitter),
 * pushed in arrival order as a receiving thread would */
static gpointer
feed_reference (gpointer data)
{
  Feeder *fd = data;
  GRand *rand = g_rand_new_with_seed (42);
  guint64 k = 0;
  gdouble pending[256];
  guint np = 0, i;
  struct sched_param sp = {.sched_priority = 10 };

  /* a NIC's receive path does not wait for the build jobs next door */
  pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp);

  while (!g_atomic_int_get (&fd->stop)) {
    gint64 now = pa_mono_ns ();
    struct timespec ts = { 0, 20000 };

    /* arrivals of the packets sent up to now */
    while (fd->t0 + (gdouble) k * 1e9 / fd->rate_hz <= now && np < 256) {
      pending[np++] = fd->t0 + (gdouble) k * 1e9 / fd->rate_hz +
          g_rand_double (rand) * fd->jitter_ns;
      k++;
    }
    /* those that have arrived, in time order */
    for (;;) {
      guint best = np;
      for (i = 0; i < np; i++)
        if (pending[i] <= now && (best == np || pending[i] < pending[best]))
          best = i;
      if (best == np)
        break;
      vmi_tx_engine_push_reference (fd->e, (guint64) pending[best]);
      pending[best] = pending[--np];
    }
    nanosleep (&ts, NULL);
  }
  g_rand_free (rand);
  return NULL;
}

typedef struct
{
  gdouble span, rate_err_ppm, rate_hz, resolution_ppm;
  guint64 idle_events, idle_settled, packets;
} Figures;

/* ST 2059 (cfg.epoch): the reference clock stands for PTP time, running
 * @ppm off the host's; the PA stream starts on one of its 720p50
 * alignment points and every frame on the wire carries the RTP timestamp
 * of the next one: 540000 k mod 2^32 */
static void
check_epoch (const PaRecord * rec, guint n_rec, guint64 clk_start)
{
  guint i, frames = 0;
  guint32 prev = 0;
  gboolean at_start = TRUE, found = FALSE;
  guint64 k;

  for (i = 0; i < n_rec; i++) {
    if (rec[i].kind != PA_REC_MEDIA)
      continue;
    if (at_start) {
      if (frames == 0) {
        /* the first frame: an alignment point after the stream's start
         * (the controller's lead and margin, under 2 s) */
        for (k = clk_start / 20000000; k < clk_start / 20000000 + 100 &&
            !found; k++)
          found = rec[i].rtp == (guint32) (k * 540000);
        fail_unless (found);
      } else if (rec[i].rtp != prev + 540000) {
        g_printerr ("FAIL: frame %u on the wire: RTP %u after %u\n", frames,
            rec[i].rtp, prev);
        exit (1);
      }
      prev = rec[i].rtp;
      frames++;
    }
    at_start = rec[i].marker;
  }
  g_print ("epoch: %u frames on the wire, RTP steps of exactly 540000 from "
      "an alignment point\n", frames);
  fail_unless (frames > 100);
}

static void
run_controlled (const gchar * name, VmiTxPacing pacing,
    VmiTxReference reference, gdouble ppm, gboolean epoch, Figures * fig)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pa_pkt_config ();
  const gchar *figdir = g_getenv ("VMI_PA_FIGURES");
  guint64 rate = G_GUINT64_CONSTANT (2500000000);
  gdouble nominal = (gdouble) ref_datagrams (f) * f->fps_n / f->fps_d;
  gdouble f_ref = nominal * (1 + ppm * 1e-6);
  gdouble run_s = figdir ? 20 : 3.5, settle_s = figdir ? 4 : 1.5;
  PaWire *w = pa_wire_new (rate, 8000000, 0);
  VmiTxEngineConfig cfg;
  VmiTxEngine *e;
  RefClock clk = { ppm, pa_mono_ns () };
  Feeder fd = { 0 };
  GThread *ft, *rt = NULL;
  const PaRecord *rec;
  guint n_rec, i, m = 0, first = G_MAXUINT;
  gdouble *t, vmin = G_MAXDOUBLE, vmax = -G_MAXDOUBLE;
  gsize nt = 0;
  gint64 t_end;

  vmi_tx_engine_config_init (&cfg);
  cfg.pacing = pacing;
  cfg.line_rate = rate;
  cfg.reference = reference;
  cfg.window_ns = figdir ? 1000000000 : 250000000;
  cfg.n_windows = figdir ? 2 : 4;
  cfg.ref_clock = ref_clock_now;
  cfg.ref_clock_data = &clk;
  cfg.epoch = epoch;
  cfg.epoch_clock = ref_clock_now;
  cfg.epoch_clock_data = &clk;
  e = vmi_tx_engine_new (pa_wire_transport (w), &cfg, NULL);
  fail_unless (e != NULL);
  fail_unless (vmi_tx_engine_configure (e, pa_core_format (f), f->fps_n,
          f->fps_d, &pc, NULL));
  fd.e = e;
  fd.rate_hz = f_ref;
  fd.jitter_ns = 10000;
  fd.t0 = pa_mono_ns ();
  if (reference == VMI_TX_REFERENCE_STREAM)
    rt = g_thread_new ("ref", feed_reference, &fd);
  ft = g_thread_new ("feed", feed_frames, &fd);
  t_end = pa_mono_ns () + (gint64) ((run_s + cfg.window_ns / 1e9 + 0.1) * 1e9);
  while (pa_mono_ns () < t_end)
    g_usleep (50000);
  g_atomic_int_set (&fd.stop, 1);
  vmi_tx_engine_set_flushing (e, TRUE);
  g_thread_join (ft);
  if (rt)
    g_thread_join (rt);
  vmi_tx_engine_stop (e);
  pa_wire_finish (w);
  vmi_tx_engine_free (e);

  /* media start times on the line-rate wire (idle time included), judged
   * by a receiver consuming at the reference rate after settling */
  rec = pa_wire_records (w, &n_rec);
  if (epoch)
    check_epoch (rec, n_rec, 1000000000000ull);
  t = g_new (gdouble, n_rec);
  fig->idle_settled = 0;
  for (i = 0; i < n_rec; i++) {
    gdouble ts = (gdouble) rec[i].start * 8e9 / rate;
    gboolean settled = first != G_MAXUINT
        && ts - (gdouble) rec[first].start * 8e9 / rate >= settle_s * 1e9;

    if (settled && rec[i].start != rec[i - 1].start + rec[i - 1].wire)
      fig->idle_settled++;
    if (rec[i].kind != PA_REC_MEDIA)
      continue;
    if (first == G_MAXUINT)
      first = i;
    if (settled)
      t[nt++] = ts;
    m++;
  }
  g_print ("%s: %u media, %u after settling, wire idle %" G_GUINT64_FORMAT
      " times (%.3f ms)\n", name, m, (guint) nt, pa_wire_idle_events (w),
      pa_wire_idle_bytes (w) * 8e3 / rate);
  fail_unless (nt > 100000);
  for (i = 0; i < nt; i++) {
    gdouble v = i - f_ref * (t[i] - t[0]) / 1e9;
    vmin = MIN (vmin, v);
    vmax = MAX (vmax, v);
  }
  fig->span = vmax - vmin;
  fig->rate_hz = vmi_timing_rate_ls (t, nt);
  fig->rate_err_ppm = (fig->rate_hz / f_ref - 1) * 1e6;
  fig->idle_events = pa_wire_idle_events (w);
  /* the trace's phase is known to within the span: 2 packets over it */
  fig->resolution_ppm = 2.0 / nt * 1e6;
  fig->packets = m;
  if (figdir) {
    gchar *path = g_strdup_printf ("%s/%s.pcap", figdir, name);
    fail_unless (pa_wire_write_pcap (w, path, first, 5004, FALSE));
    g_print ("| %s | %+.0f | %.3f | %+.3f | %.2f | %s |\n", name, ppm,
        fig->span, fig->rate_err_ppm, fig->resolution_ppm, path);
    g_free (path);
  }
  g_free (t);
  pa_wire_free (w);
}


typedef struct
{
  const gchar *name;
  VmiTxPacing pacing;
  VmiTxReference reference;
  gdouble ppm;
  gboolean epoch;
} Case;

static const Case cases[] = {
  {"controlled-clock+100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_CLOCK, 100},
  {"controlled-clock-100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_CLOCK, -100},
  {"controlled-stream+100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_STREAM, 100},
  {"controlled-stream-100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_STREAM, -100},
  {"free-running+100ppm", VMI_TX_PACING_PA_FREE_RUNNING,
      VMI_TX_REFERENCE_NONE, 100},
  /* ST 2059: st2022sink clock-source=ptp pacing=pa-controlled sync=true
   * follows the PTP clock (the pipeline's), here 100 ppm off the host */
  {"controlled-epoch+100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_CLOCK, 100, TRUE},
  {"controlled-epoch-100ppm", VMI_TX_PACING_PA_CONTROLLED,
      VMI_TX_REFERENCE_CLOCK, -100, TRUE},
};

int
main (int argc, char **argv)
{
  guint c, attempt, starved = 0;
  gboolean failed = FALSE;

  if (g_getenv ("VMI_PA_FIGURES"))
    g_print ("| run | reference (ppm) | occupancy span (packets) | rate error "
        "(ppm) | resolution (ppm) | capture |\n|---|---|---|---|---|---|\n");
  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    const Case *k = &cases[c];
    Figures fig;
    gboolean free_run = k->pacing == VMI_TX_PACING_PA_FREE_RUNNING;
    guint misses = 0;

  again:
    for (attempt = 0; attempt < 3; attempt++) {
      run_controlled (k->name, k->pacing, k->reference, k->ppm, k->epoch,
          &fig);
      if (fig.idle_settled == 0)
        break;
      g_print ("%s: the wire ran empty %" G_GUINT64_FORMAT " times after "
          "settling (transmit thread starved by the host); again\n", k->name,
          fig.idle_settled);
    }
    if (fig.idle_settled) {
      g_print ("%s: SKIP, the host starved the transmit thread in every "
          "try\n", k->name);
      starved++;
      continue;
    }
    g_print ("%s: span %.3f packets, rate error %+.3f ppm (resolution "
        "%.2f ppm)\n", k->name, fig.span, fig.rate_err_ppm,
        fig.resolution_ppm);
    if (free_run) {
      /* the wire keeps the nominal rate: 100 ppm slow for this receiver,
       * whose buffer drains by 13.5 packets a second */
      gdouble want = (1 / (1 + k->ppm * 1e-6) - 1) * 1e6;
      if (fabs (fig.rate_err_ppm - want) > 1 + fig.resolution_ppm
          || fig.span < 10) {
        g_print ("FAIL %s: rate error %.3f ppm (want %.3f), span %.3f\n",
            k->name, fig.rate_err_ppm, want, fig.span);
        failed = TRUE;
      }
    } else if (fig.span > 2.0
        || fabs (fig.rate_err_ppm) > 1 + fig.resolution_ppm) {
      /* The loop runs in real time on a shared host: a hiccup that does
       * not empty the wire (a delayed reference or frame feeder) can still
       * disturb one short run. One miss is run again, and said; two in a
       * row fail. */
      if (++misses < 2) {
        g_print ("%s: missed (span %.3f packets, rate error %.3f ppm); "
            "again\n", k->name, fig.span, fig.rate_err_ppm);
        goto again;
      }
      g_print ("FAIL %s: span %.3f packets (limit 2), rate error %.3f ppm "
          "(limit %.2f)\n", k->name, fig.span, fig.rate_err_ppm,
          1 + fig.resolution_ppm);
      failed = TRUE;
    }
  }
  if (failed)
    return 1;
  return starved ? 77 : 0;
}
