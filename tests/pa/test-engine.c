/* gst-vmi tests: the transmit engine's Pacing-Assistant on a line-rate wire
 * (pa-wire.c): media positions on the virtual wire, gap sizes, bit-exact
 * datagrams against the independent encoder (tests/net/st2022-ref.c),
 * underrun (repeat, gap), flush, preconditions, and pa-controlled following
 * a reference (a clock, an auxiliary stream) 100 ppm off nominal.
 *
 * VMI_PA_FIGURES=DIR: the controlled-mode runs use the element defaults
 * (W = 1 s, N_W = 2), last 10 s, print the figures of docs/benchmarks.md
 * and write DIR/<name>.pcap for tools/vmi-analyze. */

#include <gst/check/gstcheck.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "net/vmi-tx-engine.h"
#include "vmipacer.h"
#include "vmitiming.h"
#include "pa-wire.h"
#include "st2022-ref.h"

static const St2022Format *
core_format (const RefFormat * f)
{
  const St2022Format *fmt = st2022_format_from_video (f->width, f->height,
      f->interlaced, f->fps_n, f->fps_d);
  fail_unless (fmt != NULL);
  return fmt;
}

static St2022PacketizerConfig
pkt_config (void)
{
  St2022PacketizerConfig c;

  st2022_packetizer_config_init (&c);
  c.payload_type = 98;
  c.ssrc = 0x12345678;
  c.initial_seq = 65000;        /* wraps during the test */
  return c;
}

static gint64
mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* tau = num / den byte-times */
static void
tau_of (const RefFormat * f, guint64 line_rate, guint64 * num, guint64 * den)
{
  fail_unless (vmi_pace_tau_for_rate (line_rate, ref_datagrams (f),
          f->fps_n, f->fps_d, num, den));
}

static VmiTxEngine *
new_engine (PaWire * w, VmiTxPacing pacing, guint64 line_rate,
    VmiTxUnderrun underrun, guint prefill)
{
  VmiTxEngineConfig cfg;
  GError *err = NULL;
  VmiTxEngine *e;

  vmi_tx_engine_config_init (&cfg);
  cfg.pacing = pacing;
  cfg.line_rate = line_rate;
  cfg.underrun = underrun;
  cfg.prefill_frames = prefill;
  e = vmi_tx_engine_new (pa_wire_transport (w), &cfg, &err);
  fail_unless (e != NULL, "%s", err ? err->message : "");
  return e;
}

static void
submit_raster (VmiTxEngine * e, const guint8 * raster, gsize size,
    guint32 rtp)
{
  VmiTxBuffer *b = vmi_tx_engine_acquire (e, NULL);

  fail_unless (b != NULL);
  fail_unless_equals_uint64 (b->size, size);
  memcpy (b->raster, raster, size);
  vmi_tx_engine_submit (e, b, rtp, 0);
}

/* Every media datagram on the wire, in order, is the independent encoder's
 * datagram for (raster of its RTP timestamp, index in frame, seq) bit for
 * bit; @rasters[k] goes with @rtps[k]. Returns the media count. */
static guint
check_datagrams (PaWire * w, const RefFormat * f, guint8 ** rasters,
    const guint32 * rtps, guint n_rasters)
{
  const St2022PacketizerConfig pc = pkt_config ();
  guint n = ref_datagrams (f), i, m = 0, k;
  const PaRecord *rec;
  guint n_rec;
  guint8 want[REF_DATAGRAM];
  guint32 frame_vts = 0;
  guint8 frcount = 0;

  rec = pa_wire_records (w, &n_rec);
  for (i = 0; i < n_rec; i++) {
    const guint8 *got;
    guint idx;

    if (rec[i].kind != PA_REC_MEDIA)
      continue;
    idx = m % n;
    for (k = 0; k < n_rasters; k++)
      if (rtps[k] == rec[i].rtp)
        break;
    fail_unless (k < n_rasters, "unexpected RTP timestamp %u", rec[i].rtp);
    got = pa_wire_datagram (w, m);
    fail_unless (got != NULL, "datagram %u not captured", m);
    ref_pack_datagram (f, rasters[k], idx, (guint16) (pc.initial_seq + m),
        rec[i].rtp, pc.ssrc, frcount, frame_vts, pc.payload_type, want);
    fail_unless (memcmp (got, want, REF_DATAGRAM) == 0,
        "media datagram %u (frame %u, index %u) differs from the reference",
        m, m / n, idx);
    fail_unless_equals_int (rec[i].wire, VMI_TX_MEDIA_WIRE_BYTES);
    m++;
    if (idx == n - 1) {
      frcount++;
      frame_vts += f->lines * f->samples * 2;
    }
  }
  return m;
}

/* The i-th media frame sits at byte ⌊i·τ⌋ (from 0) of the virtual wire,
 * measured from the first frame on the wire; every gap is 84...1538;
 * @skip_slots: media slots filled with gaps (underrun=gap) before media
 * frame @skip_at. */
static void
check_positions (PaWire * w, guint64 num, guint64 den, guint skip_at,
    guint skip_slots)
{
  const PaRecord *rec;
  guint n_rec, i, m = 0;
  guint64 pos = 0;

  rec = pa_wire_records (w, &n_rec);
  fail_unless (n_rec > 0);
  fail_unless (rec[0].kind == PA_REC_MEDIA,
      "the wire starts with a media frame");
  for (i = 0; i < n_rec; i++) {
    if (rec[i].kind == PA_REC_MEDIA) {
      guint64 slot = m + (m >= skip_at ? skip_slots : 0);
      guint64 want = (guint64) ((unsigned __int128) slot * num / den);

      fail_unless (pos == want, "media frame %u at byte %" G_GUINT64_FORMAT
          ", want %" G_GUINT64_FORMAT, m, pos, want);
      m++;
    } else {
      fail_unless (rec[i].wire >= 84 && rec[i].wire <= 1538,
          "gap frame %u of %u wire bytes", i, rec[i].wire);
    }
    pos += rec[i].wire;
  }
}

static guint8 **
make_rasters (const RefFormat * f, guint n, guint32 seed)
{
  guint8 **r = g_new0 (guint8 *, n);
  gsize stride = f->width * 5 / 2;
  guint8 *pic = g_malloc (stride * f->height);
  GRand *rand = g_rand_new_with_seed (seed);
  guint k;

  for (k = 0; k < n; k++) {
    ref_random_uyvp (f, rand, pic, stride);
    r[k] = g_malloc (ref_frame_bytes (f));
    ref_build_raster (f, pic, stride, r[k]);
  }
  g_rand_free (rand);
  g_free (pic);
  return r;
}

static void
free_rasters (guint8 ** r, guint n)
{
  guint k;
  for (k = 0; k < n; k++)
    g_free (r[k]);
  g_free (r);
}

#define N_FRAMES 3

static void
check_free_running (const RefFormat * f, guint64 line_rate)
{
  const St2022PacketizerConfig pc = pkt_config ();
  guint n = ref_datagrams (f), k, n_rec, i;
  PaWire *w = pa_wire_new (line_rate, 2000000, N_FRAMES * n);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, line_rate,
      VMI_TX_UNDERRUN_REPEAT, 0);
  guint8 **rasters = make_rasters (f, N_FRAMES, n);
  guint32 rtps[N_FRAMES];
  VmiTxEngineStats st;
  guint64 num, den, gaps = 0, gap_bytes = 0;
  const PaRecord *rec;
  GError *err = NULL;

  fail_unless (vmi_tx_engine_configure (e, core_format (f), f->fps_n,
          f->fps_d, &pc, &err));
  for (k = 0; k < N_FRAMES; k++) {
    rtps[k] = 1000 + k * ref_rtp_per_frame (f);
    submit_raster (e, rasters[k], ref_frame_bytes (f), rtps[k]);
  }
  vmi_tx_engine_drain (e);
  vmi_tx_engine_get_stats (e, &st);
  vmi_tx_engine_stop (e);
  pa_wire_finish (w);
  vmi_tx_engine_free (e);

  tau_of (f, line_rate, &num, &den);
  check_positions (w, num, den, G_MAXUINT, 0);
  fail_unless_equals_int (check_datagrams (w, f, rasters, rtps, N_FRAMES),
      N_FRAMES * n);
  rec = pa_wire_records (w, &n_rec);
  for (i = 0; i < n_rec; i++)
    if (rec[i].kind == PA_REC_GAP) {
      gaps++;
      gap_bytes += rec[i].wire;
    }
  fail_unless_equals_uint64 (st.packets, N_FRAMES * n);
  fail_unless_equals_uint64 (st.frames, N_FRAMES);
  fail_unless_equals_uint64 (st.underruns, 0);
  fail_unless_equals_uint64 (st.gap_frames, gaps);
  fail_unless_equals_uint64 (st.gap_bytes, gap_bytes);
  fail_unless (gaps > 0);
  free_rasters (rasters, N_FRAMES);
  pa_wire_free (w);
}

GST_START_TEST (test_free_running_1080i5994_2g5)
{
  check_free_running (&ref_1080i5994, G_GUINT64_CONSTANT (2500000000));
}

GST_END_TEST;

GST_START_TEST (test_free_running_720p50_10g)
{
  check_free_running (&ref_720p50, G_GUINT64_CONSTANT (10000000000));
}

GST_END_TEST;

/* waits (polling the counters, no timing assumed) until @field >= @v */
#define WAIT_STAT(e, field, v) G_STMT_START {                 \
    VmiTxEngineStats _s;                                        \
    for (;;) {                                                  \
      vmi_tx_engine_get_stats (e, &_s);                         \
      if (_s.field >= (v)) break;                               \
      g_usleep (1000);                                          \
    } } G_STMT_END

static void
check_underrun (VmiTxUnderrun mode)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pkt_config ();
  guint64 rate = G_GUINT64_CONSTANT (2500000000), num, den;
  guint n = ref_datagrams (f);
  PaWire *w = pa_wire_new (rate, 2000000, 5 * n);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, rate,
      mode, 1);
  guint8 **rasters = make_rasters (f, 2, 7);
  guint32 rtps[2] = { 5000, 5000 + ref_rtp_per_frame (f) };
  VmiTxEngineStats st;
  const PaRecord *rec;
  guint n_rec, i, m = 0, gaps_in_slots = 0;

  fail_unless (vmi_tx_engine_configure (e, core_format (f), f->fps_n,
          f->fps_d, &pc, NULL));
  submit_raster (e, rasters[0], ref_frame_bytes (f), rtps[0]);
  /* upstream late by two frame periods */
  WAIT_STAT (e, underruns, 2);
  submit_raster (e, rasters[1], ref_frame_bytes (f), rtps[1]);
  vmi_tx_engine_drain (e);
  vmi_tx_engine_get_stats (e, &st);
  vmi_tx_engine_stop (e);
  pa_wire_finish (w);
  vmi_tx_engine_free (e);

  fail_unless_equals_uint64 (st.frames, 2);
  tau_of (f, rate, &num, &den);
  rec = pa_wire_records (w, &n_rec);
  if (mode == VMI_TX_UNDERRUN_REPEAT) {
    guint32 last_rtp = 0;

    fail_unless_equals_uint64 (st.frames_repeated, st.underruns);
    fail_unless_equals_uint64 (st.packets, (2 + st.underruns) * n);
    /* the repeats: frame 0's raster under the next timestamps, one frame
     * apart, sequence running on; frame 1 after them, later still */
    for (i = 0; i < n_rec; i++) {
      if (rec[i].kind != PA_REC_MEDIA)
        continue;
      if (m % n == 0) {
        if (m)
          fail_unless_equals_int (rec[i].rtp - last_rtp,
              ref_rtp_per_frame (f));
        last_rtp = rec[i].rtp;
      } else {
        fail_unless_equals_int (rec[i].rtp, last_rtp);
      }
      m++;
    }
    fail_unless_equals_int (m, (2 + st.underruns) * n);
    {
      guint32 all[8];
      guint8 *rs[8];
      guint k, nf = 2 + st.underruns;
      fail_unless (nf <= 8);
      for (k = 0; k < nf; k++) {
        all[k] = rtps[0] + k * ref_rtp_per_frame (f);
        rs[k] = k == nf - 1 ? rasters[1] : rasters[0];
      }
      fail_unless_equals_int (check_datagrams (w, f, rs, all, nf), m);
    }
    check_positions (w, num, den, G_MAXUINT, 0);
  } else {
    fail_unless_equals_uint64 (st.frames_repeated, 0);
    fail_unless_equals_uint64 (st.packets, 2 * n);
    /* the missing frames' datagram slots are gap frames of the datagram's
     * size; the media grid runs on through them */
    check_positions (w, num, den, n, st.underruns * n);
    for (i = 0; i < n_rec; i++)
      if (rec[i].kind == PA_REC_GAP
          && rec[i].wire == VMI_TX_MEDIA_WIRE_BYTES)
        gaps_in_slots++;
    fail_unless (gaps_in_slots >= st.underruns * n);
    fail_unless_equals_int (check_datagrams (w, f, rasters, rtps, 2), 2 * n);
  }
  free_rasters (rasters, 2);
  pa_wire_free (w);
}

GST_START_TEST (test_underrun_repeat)
{
  check_underrun (VMI_TX_UNDERRUN_REPEAT);
}

GST_END_TEST;

GST_START_TEST (test_underrun_gap)
{
  check_underrun (VMI_TX_UNDERRUN_GAP);
}

GST_END_TEST;

/* Frames queued when a flush comes never reach the wire, not even after
 * it; the frame on the wire is cut; the next frame is whole. */
GST_START_TEST (test_flush_drops_queued)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pkt_config ();
  guint64 rate = G_GUINT64_CONSTANT (2500000000);
  guint n = ref_datagrams (f), n_rec, i, count_d = 0;
  PaWire *w = pa_wire_new (rate, 2000000, 0);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, rate,
      VMI_TX_UNDERRUN_REPEAT, 1);
  guint8 **rasters = make_rasters (f, 1, 3);
  const PaRecord *rec;
  VmiTxEngineStats st;

  fail_unless (vmi_tx_engine_configure (e, core_format (f), f->fps_n,
          f->fps_d, &pc, NULL));
  submit_raster (e, rasters[0], ref_frame_bytes (f), 100000);
  submit_raster (e, rasters[0], ref_frame_bytes (f), 200000);
  submit_raster (e, rasters[0], ref_frame_bytes (f), 300000);
  /* the first frame takes 20 ms on the wire: B and C are still queued */
  vmi_tx_engine_set_flushing (e, TRUE);
  fail_unless (vmi_tx_engine_acquire (e, NULL) == NULL);
  vmi_tx_engine_set_flushing (e, FALSE);
  submit_raster (e, rasters[0], ref_frame_bytes (f), 900000);
  vmi_tx_engine_drain (e);
  vmi_tx_engine_get_stats (e, &st);
  vmi_tx_engine_stop (e);
  pa_wire_finish (w);
  vmi_tx_engine_free (e);

  rec = pa_wire_records (w, &n_rec);
  for (i = 0; i < n_rec; i++) {
    if (rec[i].kind != PA_REC_MEDIA)
      continue;
    fail_if (rec[i].rtp == 200000 || rec[i].rtp == 300000,
        "a frame queued before the flush was sent");
    if (rec[i].rtp == 900000)
      count_d++;
    else
      fail_unless_equals_int (count_d, 0);
  }
  fail_unless_equals_int (count_d, n);
  fail_unless_equals_uint64 (st.frames_repeated, 0);
  free_rasters (rasters, 1);
  pa_wire_free (w);
}

GST_END_TEST;

GST_START_TEST (test_preconditions)
{
  const St2022PacketizerConfig pc = pkt_config ();
  PaWire *w = pa_wire_new (1000000000, 2000000, 0);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, 1000000000,
      VMI_TX_UNDERRUN_REPEAT, 0);
  GError *err = NULL;

  /* 1080i59.94 needs 1.47 Gbit/s of datagrams plus a gap after each */
  fail_if (vmi_tx_engine_configure (e, core_format (&ref_1080i5994), 30000,
          1001, &pc, &err));
  fail_unless (err != NULL);
  fail_unless (strstr (err->message, "line-rate=1000000000") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "1080i59.94") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "at least 1671") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  vmi_tx_engine_free (e);
  pa_wire_free (w);
}

GST_END_TEST;

/* ---- controlled mode ---- */

typedef struct
{
  gdouble ppm;
  gint64 t0;
} RefClock;

static guint64
ref_clock_now (gpointer data)
{
  RefClock *c = data;
  gint64 t = mono_ns () - c->t0;

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
  gdouble pending[64];
  guint np = 0, i;

  while (!g_atomic_int_get (&fd->stop)) {
    gint64 now = mono_ns ();
    struct timespec ts = { 0, 20000 };

    /* arrivals of the packets sent up to now */
    while (fd->t0 + (gdouble) k * 1e9 / fd->rate_hz <= now && np < 64) {
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
  gdouble span, rate_err_ppm, rate_hz;
  guint64 idle_events, packets;
} Figures;

static void
run_controlled (const gchar * name, VmiTxPacing pacing,
    VmiTxReference reference, gdouble ppm, Figures * fig)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pkt_config ();
  const gchar *figdir = g_getenv ("VMI_PA_FIGURES");
  guint64 rate = G_GUINT64_CONSTANT (2500000000);
  gdouble nominal = (gdouble) ref_datagrams (f) * f->fps_n / f->fps_d;
  gdouble f_ref = nominal * (1 + ppm * 1e-6);
  gdouble run_s = figdir ? 10 : 3.5, settle_s = figdir ? 3 : 1.5;
  PaWire *w = pa_wire_new (rate, 4000000, 0);
  VmiTxEngineConfig cfg;
  VmiTxEngine *e;
  RefClock clk = { ppm, mono_ns () };
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
  e = vmi_tx_engine_new (pa_wire_transport (w), &cfg, NULL);
  fail_unless (e != NULL);
  fail_unless (vmi_tx_engine_configure (e, core_format (f), f->fps_n,
          f->fps_d, &pc, NULL));
  fd.e = e;
  fd.rate_hz = f_ref;
  fd.jitter_ns = 10000;
  fd.t0 = mono_ns ();
  if (reference == VMI_TX_REFERENCE_STREAM)
    rt = g_thread_new ("ref", feed_reference, &fd);
  ft = g_thread_new ("feed", feed_frames, &fd);
  t_end = mono_ns () + (gint64) ((run_s + cfg.window_ns / 1e9 + 0.1) * 1e9);
  while (mono_ns () < t_end)
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
  t = g_new (gdouble, n_rec);
  for (i = 0; i < n_rec; i++) {
    gdouble ts = (gdouble) rec[i].start * 8e9 / rate;
    if (rec[i].kind != PA_REC_MEDIA)
      continue;
    if (first == G_MAXUINT)
      first = i;
    if (ts - (gdouble) rec[first].start * 8e9 / rate >= settle_s * 1e9)
      t[nt++] = ts;
    m++;
  }
  fail_unless (nt > 100000, "only %u packets after settling", (guint) nt);
  for (i = 0; i < nt; i++) {
    gdouble v = i - f_ref * (t[i] - t[0]) / 1e9;
    vmin = MIN (vmin, v);
    vmax = MAX (vmax, v);
  }
  fig->span = vmax - vmin;
  fig->rate_hz = vmi_timing_rate_ls (t, nt);
  fig->rate_err_ppm = (fig->rate_hz / f_ref - 1) * 1e6;
  fig->idle_events = pa_wire_idle_events (w);
  fig->packets = m;
  if (figdir) {
    gchar *path = g_strdup_printf ("%s/%s.pcap", figdir, name);
    fail_unless (pa_wire_write_pcap (w, path, first, 5004));
    g_print ("| %s | %+.0f | %.3f | %+.3f | %" G_GUINT64_FORMAT " | %s |\n",
        name, ppm, fig->span, fig->rate_err_ppm, fig->idle_events, path);
    g_free (path);
  }
  g_free (t);
  pa_wire_free (w);
}

static void
check_controlled (const gchar * name, VmiTxReference reference, gdouble ppm)
{
  Figures fig;

  run_controlled (name, VMI_TX_PACING_PA_CONTROLLED, reference, ppm, &fig);
  GST_INFO ("%s: span %.3f packets, rate error %+.3f ppm, idle %"
      G_GUINT64_FORMAT, name, fig.span, fig.rate_err_ppm, fig.idle_events);
  fail_unless (fabs (fig.rate_err_ppm) <= 1.0, "%s: rate error %.3f ppm",
      name, fig.rate_err_ppm);
  fail_unless (fig.span <= 2.0, "%s: occupancy span %.3f packets", name,
      fig.span);
}

GST_START_TEST (test_controlled_clock_plus100)
{
  check_controlled ("controlled-clock+100ppm", VMI_TX_REFERENCE_CLOCK, 100);
}

GST_END_TEST;

GST_START_TEST (test_controlled_clock_minus100)
{
  check_controlled ("controlled-clock-100ppm", VMI_TX_REFERENCE_CLOCK, -100);
}

GST_END_TEST;

GST_START_TEST (test_controlled_stream_plus100)
{
  check_controlled ("controlled-stream+100ppm", VMI_TX_REFERENCE_STREAM, 100);
}

GST_END_TEST;

GST_START_TEST (test_controlled_stream_minus100)
{
  check_controlled ("controlled-stream-100ppm", VMI_TX_REFERENCE_STREAM,
      -100);
}

GST_END_TEST;

/* free-running against a receiver 100 ppm fast: the wire keeps the
 * nominal rate, so the receiver drains 100 ppm faster than it fills (the
 * thesis' periodic failures) */
GST_START_TEST (test_free_running_drifts)
{
  Figures fig;

  run_controlled ("free-running+100ppm", VMI_TX_PACING_PA_FREE_RUNNING,
      VMI_TX_REFERENCE_NONE, 100, &fig);
  fail_unless (fabs (fig.rate_err_ppm - (1 / (1 + 100e-6) - 1) * 1e6) <= 1.0,
      "rate error %.3f ppm", fig.rate_err_ppm);
  /* 13.5 packets per second of drift */
  fail_unless (fig.span >= 10, "span %.3f", fig.span);
}

GST_END_TEST;

static Suite *
pa_engine_suite (void)
{
  Suite *s = suite_create ("pa-engine");
  TCase *tc = tcase_create ("wire");
  TCase *ctl = tcase_create ("controlled");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_free_running_1080i5994_2g5);
  tcase_add_test (tc, test_free_running_720p50_10g);
  tcase_add_test (tc, test_underrun_repeat);
  tcase_add_test (tc, test_underrun_gap);
  tcase_add_test (tc, test_flush_drops_queued);
  tcase_add_test (tc, test_preconditions);
  suite_add_tcase (s, ctl);
  tcase_add_test (ctl, test_controlled_clock_plus100);
  tcase_add_test (ctl, test_controlled_clock_minus100);
  tcase_add_test (ctl, test_controlled_stream_plus100);
  tcase_add_test (ctl, test_controlled_stream_minus100);
  tcase_add_test (ctl, test_free_running_drifts);
  return s;
}

GST_CHECK_MAIN (pa_engine);
