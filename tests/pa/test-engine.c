/* gst-vmi tests: the transmit engine's Pacing-Assistant on a line-rate wire
 * (pa-wire.c): media positions on the virtual wire, gap sizes, bit-exact
 * datagrams against the independent encoder (tests/net/st2022-ref.c),
 * underrun (repeat, gap), flush, preconditions, and pa-controlled following
 * (pa-controlled following a reference: test-controlled.c). */

#include <gst/check/gstcheck.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>

#include "transport/vmi-tx-engine.h"
#include "vmi-pacer.h"
#include "vmi-timing.h"
#include "pa-wire.h"
#include "st2022-ref.h"

/* tau = num / den byte-times */
static void
tau_of (const RefFormat * f, guint64 line_rate, guint64 * num, guint64 * den)
{
  fail_unless (vmi_pace_tau_for_rate (line_rate, ref_datagrams (f),
          f->fps_n, f->fps_d, num, den));
}

/* the engine's stats_changed event: WAIT_STAT sleeps on it */
static GMutex stats_lock;
static GCond stats_cond;

static void
stats_changed (gpointer user_data)
{
  g_mutex_lock (&stats_lock);
  g_cond_broadcast (&stats_cond);
  g_mutex_unlock (&stats_lock);
}

/* waits (for the engine's stats event, no timing assumed) until @field
 * >= @v; the count is read under stats_lock, so an event cannot come
 * between the read and the wait */
#define WAIT_STAT(e, field, v) G_STMT_START {                 \
    VmiTxEngineStats _s;                                        \
    g_mutex_lock (&stats_lock);                                 \
    for (;;) {                                                  \
      vmi_tx_engine_get_stats (e, &_s);                         \
      if (_s.field >= (v)) break;                               \
      g_cond_wait (&stats_cond, &stats_lock);                   \
    }                                                           \
    g_mutex_unlock (&stats_lock);                               \
  } G_STMT_END

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
  cfg.stats_changed = stats_changed;
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
  const St2022PacketizerConfig pc = pa_pkt_config ();
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
    if (memcmp (got, want, REF_DATAGRAM) != 0) {
      guint b;
      for (b = 0; b < REF_DATAGRAM && got[b] == want[b]; b++);

      fail ("media datagram %u (frame %u, index %u) differs from the "
          "reference at byte %u (%02x, want %02x)", m, m / n, idx, b, got[b],
          want[b]);
    }
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
  const St2022PacketizerConfig pc = pa_pkt_config ();
  guint n = ref_datagrams (f), k, n_rec, i;
  PaWire *w = pa_wire_new (line_rate, 2000000, N_FRAMES * n);
  /* all frames queued before the first leaves (B1 = 3): no underrun, however
   * slow this thread is on a loaded machine */
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, line_rate,
      VMI_TX_UNDERRUN_REPEAT, N_FRAMES);
  guint8 **rasters = make_rasters (f, N_FRAMES, n);
  guint32 rtps[N_FRAMES];
  VmiTxEngineStats st;
  guint64 num, den, gaps = 0, gap_bytes = 0;
  const PaRecord *rec;
  GError *err = NULL;

  fail_unless (vmi_tx_engine_configure (e, pa_core_format (f), f->fps_n,
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

static void
check_underrun (VmiTxUnderrun mode)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pa_pkt_config ();
  guint64 rate = G_GUINT64_CONSTANT (2500000000), num, den;
  guint n = ref_datagrams (f);
  PaWire *w = pa_wire_new (rate, 2000000, 16 * n);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, rate,
      mode, 1);
  guint8 **rasters = make_rasters (f, 2, 7);
  guint32 rtps[2] = { 5000, 5000 + ref_rtp_per_frame (f) };
  VmiTxEngineStats st;
  const PaRecord *rec;
  guint n_rec, i, m = 0, gaps_in_slots = 0;

  fail_unless (vmi_tx_engine_configure (e, pa_core_format (f), f->fps_n,
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
      guint32 all[16];
      guint8 *rs[16];
      guint k, nf = 2 + st.underruns;
      fail_unless (nf <= 16, "%u underruns", (guint) st.underruns);
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
 * it; the frame on the wire is cut (within the burst in flight); the next
 * frame is whole. */
GST_START_TEST (test_flush_drops_queued)
{
  const RefFormat *f = &ref_720p50;
  const St2022PacketizerConfig pc = pa_pkt_config ();
  guint64 rate = G_GUINT64_CONSTANT (2500000000);
  guint n = ref_datagrams (f), n_rec, i, k, count_d = 0, at_flush, after = 0;
  PaWire *w = pa_wire_new (rate, 2000000, 0);
  /* B1 = 3: the stream starts with A, B, C queued, so A is never repeated
   * (which would move the timestamps) however slow this thread is */
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, rate,
      VMI_TX_UNDERRUN_REPEAT, 3);
  guint8 **rasters = make_rasters (f, 1, 3);
  const guint32 rtps[3] = { 100000, 200000, 300000 };
  gboolean started[3] = { FALSE, FALSE, FALSE };
  const PaRecord *rec;
  VmiTxEngineStats st;

  fail_unless (vmi_tx_engine_configure (e, pa_core_format (f), f->fps_n,
          f->fps_d, &pc, NULL));
  for (k = 0; k < 3; k++)
    submit_raster (e, rasters[0], ref_frame_bytes (f), rtps[k]);
  vmi_tx_engine_set_flushing (e, TRUE);
  /* what was on the wire when the flush returned */
  at_flush = pa_wire_n_records (w);
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
    for (k = 0; k < 3; k++)
      if (rec[i].rtp == rtps[k]) {
        if (i < at_flush)
          started[k] = TRUE;
        else {
          fail_unless (started[k], "frame %u, queued at the flush, was sent "
              "after it", k);
          after++;
        }
      }
    if (rec[i].rtp == 900000)
      count_d++;
    else
      fail_unless_equals_int (count_d, 0);
  }
  /* at most the burst that was being handed over */
  fail_unless (after <= 32, "%u datagrams of the cut frame after the flush",
      after);
  fail_unless_equals_int (count_d, n);
  fail_unless_equals_uint64 (st.frames_repeated, 0);
  free_rasters (rasters, 1);
  pa_wire_free (w);
}

GST_END_TEST;

GST_START_TEST (test_preconditions)
{
  const St2022PacketizerConfig pc = pa_pkt_config ();
  PaWire *w = pa_wire_new (1000000000, 2000000, 0);
  VmiTxEngine *e = new_engine (w, VMI_TX_PACING_PA_FREE_RUNNING, 1000000000,
      VMI_TX_UNDERRUN_REPEAT, 0);
  GError *err = NULL;

  /* 1080i59.94 needs 1.47 Gbit/s of datagrams plus a gap after each */
  fail_if (vmi_tx_engine_configure (e, pa_core_format (&ref_1080i5994), 30000,
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

static Suite *
pa_engine_suite (void)
{
  Suite *s = suite_create ("pa-engine");
  TCase *tc = tcase_create ("wire");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_free_running_1080i5994_2g5);
  tcase_add_test (tc, test_free_running_720p50_10g);
  tcase_add_test (tc, test_underrun_repeat);
  tcase_add_test (tc, test_underrun_gap);
  tcase_add_test (tc, test_flush_drops_queued);
  tcase_add_test (tc, test_preconditions);
  return s;
}

GST_CHECK_MAIN (pa_engine);
