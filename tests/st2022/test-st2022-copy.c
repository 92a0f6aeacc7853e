/* gst-vmi: unit tests of the streaming-store payload copy
 * (gst/st2022/st2022-copy.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include "st2022-copy.h"

static const St2022CopyImpl impls[] = {
  ST2022_COPY_MEMCPY, ST2022_COPY_SSE2, ST2022_COPY_AVX2
};
static const char *const impl_names[] = { "memcpy", "sse2", "avx2" };

/* lengths around the kernels' edges (under two lines: memcpy; whole
 * lines; a line and a byte) and the depacketizer's real ones (a payload,
 * a UYVP row, the pieces a line boundary cuts) */
static const gsize lens[] = {
  0, 1, 15, 16, 31, 32, 63, 64, 65, 127, 128, 129, 130, 191, 192, 193,
  255, 256, 257, 700, 1000, 1375, 1376, 4800
};

#define GUARD 128
#define MAXLEN 4800

/* every length at every destination and source alignment within a line:
 * exactly the bytes asked for are written, with the source's values */
GST_START_TEST (test_copy_exact)
{
  guint8 *src = g_malloc (MAXLEN + 2 * GUARD);
  guint8 *buf = g_malloc (MAXLEN + 4 * GUARD);
  /* line-aligned base, so dst alignment is exactly da */
  guint8 *base = (guint8 *) (((guintptr) buf + 63) & ~(guintptr) 63) + GUARD;
  guint8 guard[GUARD + 64];
  guint i, ii, da, sa, li, tested = 0;

  memset (guard, 0xa5, sizeof (guard));

  for (i = 0; i < MAXLEN + 2 * GUARD; i++)
    src[i] = (guint8) (i * 131 + 7);
  for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
    if (!st2022_copy_stream_select (impls[ii])) {
      g_print ("st2022-copy: %s not run here (this CPU or build has no "
          "such path)\n", impl_names[ii]);
      continue;
    }
    fail_unless_equals_string (st2022_copy_stream_name (), impl_names[ii]);
    tested++;
    for (li = 0; li < G_N_ELEMENTS (lens); li++)
      for (da = 0; da < 64; da++)
        for (sa = 0; sa < 64; sa += 7) {
          gsize len = lens[li];
          guint8 *dst = base + da;

          memset (base - GUARD, 0xa5, MAXLEN + 64 + 2 * GUARD);
          st2022_copy_stream (dst, src + sa, len);
          st2022_copy_stream_fence ();
          fail_unless (memcmp (dst, src + sa, len) == 0,
              "%s: len %" G_GSIZE_FORMAT " dst+%u src+%u", impl_names[ii],
              len, da, sa);
          fail_unless (memcmp (base - GUARD, guard, GUARD + da) == 0 &&
              memcmp (dst + len, guard, GUARD) == 0,
              "%s: len %" G_GSIZE_FORMAT " dst+%u: wrote outside",
              impl_names[ii], len, da);
        }
  }
  /* memcpy always runs, and x86-64 always has SSE2 */
#if defined(__x86_64__)
  fail_unless (tested >= 2);
#else
  fail_unless (tested >= 1);
#endif
  fail_unless (st2022_copy_stream_select (ST2022_COPY_AUTO));
  g_free (src);
  g_free (buf);
}

GST_END_TEST;

/* The held copy (st2022_copy_stream_held()) against plain memcpy: pieces
 * of a region written mostly in order, some swapped (reordered), some
 * left out (lost), some of them shorter than a line or crossing none,
 * into two destinations in turn with one hold each and with one hold
 * shared: after the release, exactly the written bytes hold the source's
 * values, every other byte is untouched, for every implementation with
 * and without holding (VMI_RX_HOLD=0) */
#define REGION 24000
#define PIECES 64

GST_START_TEST (test_copy_held)
{
  guint8 *src = g_malloc (REGION);
  guint8 *buf[2], *base[2], *want[2];
  GRand *rand = g_rand_new_with_seed (20261126);
  guint i, ii, trial, hv, tested = 0;

  for (i = 0; i < REGION; i++)
    src[i] = (guint8) (i * 151 + 3);
  for (i = 0; i < 2; i++) {
    buf[i] = g_malloc (REGION + 4 * GUARD);
    base[i] = (guint8 *) (((guintptr) buf[i] + 63) & ~(guintptr) 63) + GUARD;
    want[i] = g_malloc (REGION + 2 * GUARD);
  }
  for (hv = 0; hv < 2; hv++) {
    g_setenv ("VMI_RX_HOLD", hv ? "1" : "0", TRUE);
    for (ii = 0; ii < G_N_ELEMENTS (impls); ii++) {
      if (!st2022_copy_stream_select (impls[ii]))
        continue;
      tested++;
      for (trial = 0; trial < 400; trial++) {
        St2022CopyHold hold[2] = { {0}, {0} };
        gsize off[2][PIECES + 1];
        guint order[2][PIECES], n[2], b, k, shared = trial % 3 == 0;
        guint da = g_rand_int_range (rand, 0, 64);

        for (b = 0; b < 2; b++) {
          gsize pos = 0;

          /* pieces: payload-sized, tiny, or anything up to 3 lines */
          for (k = 0, off[b][0] = 0; k < PIECES && pos < REGION - 2 * 64; k++) {
            guint r = g_rand_int_range (rand, 0, 8);
            gsize len = r < 4 ? 1376 : r < 6 ? g_rand_int_range (rand, 0,
                64) : g_rand_int_range (rand, 1, 200);

            pos = MIN (pos + len, (gsize) REGION - 2 * 64);
            off[b][k + 1] = pos;
            order[b][k] = k;
          }
          n[b] = k;
          /* a few neighbours swapped */
          for (k = 0; k + 1 < n[b]; k++)
            if (g_rand_int_range (rand, 0, 10) == 0) {
              guint t = order[b][k];

              order[b][k] = order[b][k + 1];
              order[b][k + 1] = t;
            }
          memset (base[b] - GUARD, 0xa5, REGION + 2 * GUARD);
          memset (want[b], 0xa5, REGION + 2 * GUARD);
        }
        for (k = 0; k < MAX (n[0], n[1]); k++)
          for (b = 0; b < 2; b++) {
            guint p;
            gsize o, len;

            if (k >= n[b] || g_rand_int_range (rand, 0, 12) == 0)
              continue;         /* lost */
            p = order[b][k];
            o = off[b][p] + da;
            len = off[b][p + 1] - off[b][p];
            st2022_copy_stream_held (&hold[shared ? 0 : b], base[b] + o,
                src + off[b][p], len);
            memcpy (want[b] + GUARD + o, src + off[b][p], len);
          }
        st2022_copy_stream_release (&hold[0]);
        st2022_copy_stream_release (&hold[1]);
        st2022_copy_stream_fence ();
        for (b = 0; b < 2; b++)
          fail_unless (memcmp (base[b] - GUARD, want[b], REGION + 2 * GUARD)
              == 0, "%s hold=%u trial %u: destination %u differs",
              impl_names[ii], hv, trial, b);
      }
    }
  }
  g_unsetenv ("VMI_RX_HOLD");
  fail_unless (tested >= 2);
  fail_unless (st2022_copy_stream_select (ST2022_COPY_AUTO));
  for (i = 0; i < 2; i++) {
    g_free (buf[i]);
    g_free (want[i]);
  }
  g_free (src);
  g_rand_free (rand);
}

GST_END_TEST;

/* VMI_RX_COPY names the choice of ST2022_COPY_AUTO (for the A/B runs of
 * the benchmarks); unset, the widest path the CPU runs */
GST_START_TEST (test_copy_env)
{
  g_setenv ("VMI_RX_COPY", "memcpy", TRUE);
  fail_unless (st2022_copy_stream_select (ST2022_COPY_AUTO));
  fail_unless_equals_string (st2022_copy_stream_name (), "memcpy");
  g_unsetenv ("VMI_RX_COPY");
  fail_unless (st2022_copy_stream_select (ST2022_COPY_AUTO));
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  fail_unless_equals_string (st2022_copy_stream_name (),
      __builtin_cpu_supports ("avx2") ? "avx2" : "sse2");
#else
  fail_unless_equals_string (st2022_copy_stream_name (), "memcpy");
#endif
}

GST_END_TEST;

static Suite *
st2022_copy_suite (void)
{
  Suite *s = suite_create ("st2022-copy");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_copy_exact);
  tcase_add_test (tc, test_copy_held);
  tcase_add_test (tc, test_copy_env);
  return s;
}

GST_CHECK_MAIN (st2022_copy);
