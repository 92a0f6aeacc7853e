/* gst-vmi tests: the DMA hook table of the pool (gst/pool/vmi-dma.h) alone,
 * pure C: what is registered through which hooks, the lookups a transport
 * makes per frame, refusals and their reason, and unregistration through
 * the hooks that registered (the DPDK hooks themselves run in
 * tests/dpdk/test-dpdk-dma.c). */

#include <gst/check/gstcheck.h>
#include <string.h>
#include <unistd.h>

#include "vmi-dma.h"

typedef struct
{
  guint registered, unregistered;
  gboolean refuse;
  gpointer last_mem;
  gsize last_size, last_page;
} Hook;

static gboolean
reg (gpointer mem, gsize size, gsize page, gpointer user_data, gchar ** why)
{
  Hook *h = user_data;

  if (h->refuse) {
    *why = g_strdup_printf ("refused %" G_GSIZE_FORMAT, size);
    return FALSE;
  }
  h->registered++;
  h->last_mem = mem;
  h->last_size = size;
  h->last_page = page;
  return TRUE;
}

static void
unreg (gpointer mem, gsize size, gpointer user_data)
{
  Hook *h = user_data;

  h->unregistered++;
  fail_unless (mem == h->last_mem || h->last_mem == NULL);
}

static const VmiDmaHooks hooks = { reg, unreg };

GST_START_TEST (test_hooks)
{
  gsize pg = sysconf (_SC_PAGESIZE);
  Hook a = { 0 }, b = { 0 };
  VmiDmaStats st;
  gboolean r = TRUE;
  guint8 *m, *n;

  /* no hooks: plain memory, nothing counted */
  fail_if (vmi_dma_has_hooks ());
  m = vmi_dma_alloc (10, &r);
  fail_unless (m != NULL);
  fail_if (r);
  fail_if (vmi_dma_contains (m, 1));
  vmi_dma_free (m, 10);
  vmi_dma_get_stats (&st);
  fail_unless_equals_uint64 (st.registrations + st.failures + st.regions, 0);

  vmi_dma_set_hooks (&hooks, &a);
  fail_unless (vmi_dma_has_hooks ());
  /* whole pages, zeroed, registered with the page size */
  m = vmi_dma_alloc (pg + 1, &r);
  fail_unless (r);
  fail_unless (a.last_mem == m);
  fail_unless_equals_uint64 (a.last_size, 2 * pg);
  fail_unless_equals_uint64 (a.last_page, pg);
  fail_unless_equals_int (m[2 * pg - 1], 0);
  fail_unless (vmi_dma_contains (m, 2 * pg));
  fail_unless (vmi_dma_contains (m + 2 * pg - 1, 1));
  fail_if (vmi_dma_contains (m + 2 * pg - 1, 2));
  fail_if (vmi_dma_contains (m - 1, 1));
  fail_if (vmi_dma_contains (m + 2 * pg, 1));
  vmi_dma_get_stats (&st);
  fail_unless_equals_int (st.regions, 1);
  fail_unless_equals_uint64 (st.bytes, 2 * pg);

  /* refused: counted, the first reason kept, the memory still usable */
  a.refuse = TRUE;
  n = vmi_dma_alloc (3 * pg, &r);
  fail_unless (n != NULL);
  fail_if (r);
  fail_if (vmi_dma_contains (n, 1));
  {
    gchar *want = g_strdup_printf ("refused %" G_GSIZE_FORMAT, 3 * pg);
    fail_unless_equals_string (vmi_dma_get_failure (), want);
    g_free (want);
  }
  a.refuse = FALSE;
  vmi_dma_free (n, 3 * pg);
  fail_unless_equals_int (a.unregistered, 0);
  vmi_dma_get_stats (&st);
  fail_unless_equals_uint64 (st.failures, 1);

  /* new hooks: the old memory goes back through the hooks that took it */
  vmi_dma_set_hooks (&hooks, &b);
  vmi_dma_free (m, pg + 1);
  fail_unless_equals_int (a.unregistered, 1);
  fail_unless_equals_int (b.unregistered, 0);
  /* unknown memory: nothing happens */
  vmi_dma_unregister (&b);
  fail_unless_equals_int (b.unregistered, 0);
  vmi_dma_set_hooks (NULL, NULL);
  fail_if (vmi_dma_has_hooks ());
  vmi_dma_get_stats (&st);
  fail_unless_equals_int (st.regions, 0);
  fail_unless_equals_uint64 (st.bytes, 0);
  fail_unless_equals_uint64 (st.registrations, 1);
}

GST_END_TEST;

static Suite *
pool_dma_suite (void)
{
  Suite *s = suite_create ("pool-dma");
  TCase *tc = tcase_create ("dma");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hooks);
  return s;
}

GST_CHECK_MAIN (pool_dma);
