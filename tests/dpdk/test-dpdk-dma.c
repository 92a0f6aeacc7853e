/* gst-vmi tests: frame memory registered for DMA when the DPDK transport
 * runs (gst/pool/vmi-dma.h, hooks installed by gst/transport/dpdk/vmi-dpdk-context.c),
 * with real pipelines on a net_pcap virtual device:
 *  - before DPDK runs nothing is registered; once it does, every frame the
 *    vmi pool hands st2022sink's upstream and every raster the sink sends
 *    from is DPDK external memory, and all of it is unregistered when the
 *    pipeline is gone;
 *  - when registration fails (DPDK's memory lists used up, a real limit:
 *    RTE_MAX_MEMSEG_LISTS), frames stay plain memory, the sink says so in a
 *    warning on the bus, and every datagram still goes out.
 * (The copy a NIC then gets cannot be shown here: virtual devices read
 * frame memory in place, registered or not.) One EAL per test process:
 * Check forks each test case. */

#include "dpdk-common.h"
#include "pool/vmi-dma.h"
#include "pool/gstvmiallocator.h"

#include <string.h>

#define GROUP_S "239.1.2.4"
#define FRAMES 3
#define DG_1080P 4497

typedef struct
{
  guint buffers, registered, vmi;
} Seen;

static GstPadProbeReturn
on_frame (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Seen *seen = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  seen->buffers++;
  if (gst_is_vmi_memory (gst_buffer_peek_memory (buf, 0)))
    seen->vmi++;
  if (vmi_dma_contains (map.data, map.size))
    seen->registered++;
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

/* One EAL per process, so one port and one capture file for all the
 * pipelines of a test (the port writes it anew each time it starts) */
static gchar *dir, *pcap, *eal;

static void
setup (void)
{
  gchar *vdev;

  dir = dpdk_test_mkdtemp ();
  pcap = g_build_filename (dir, "tx.pcap", NULL);
  vdev = g_strdup_printf ("--vdev net_pcap0,tx_pcap=%s", pcap);
  eal = dpdk_test_eal_args (vdev);
  g_free (vdev);
}

static void
teardown (void)
{
  g_free (eal);
  g_free (pcap);
  dpdk_test_rmdir (dir);
}

/* Sends FRAMES 1080p59.94 frames through st2022sink on net_pcap; returns
 * the warnings posted (joined), fills @seen and *@packets, checks the
 * capture holds every datagram. */
static gchar *
send_frames (Seen * seen, guint64 * packets, VmiDmaStats * during)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=%d "
      "pattern=smpte ! video/x-raw,format=UYVP,width=1920,height=1080,"
      "framerate=60000/1001 ! st2022sink name=sink transport=dpdk host="
      GROUP_S " port=5006 pacing=none sync=false stats-interval=0 "
      "dpdk-eal-args=\"%s\"", FRAMES, eal);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  GString *warnings = g_string_new (NULL);
  GPtrArray *frames;
  GstMessage *m;
  gboolean done = FALSE;

  memset (seen, 0, sizeof (*seen));
  *packets = 0;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_frame, seen, NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (!done) {
    m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
        GST_MESSAGE_ERROR | GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT);
    fail_unless (m != NULL, "no EOS within 60 s");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e;
      gst_message_parse_error (m, &e, NULL);
      fail ("error: %s", e->message);
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      GError *e;
      gst_message_parse_warning (m, &e, NULL);
      g_string_append_printf (warnings, "%s\n", e->message);
      g_error_free (e);
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT) {
      const GstStructure *s = gst_message_get_structure (m);
      if (gst_structure_has_name (s, "st2022-stats"))
        gst_structure_get_uint64 (s, "packets", packets);
    } else {
      /* rasters and pool frames are all allocated and still held */
      vmi_dma_get_stats (during);
      done = TRUE;
    }
    gst_message_unref (m);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);

  /* the pcap file is complete once the port is closed: at NULL */
  frames = dpdk_pcap_read (pcap);
  fail_unless_equals_int (frames->len, FRAMES * DG_1080P);
  g_ptr_array_unref (frames);
  g_free (desc);
  return g_string_free (warnings, FALSE);
}

GST_START_TEST (test_frames_registered)
{
  GstAllocator *alloc = gst_vmi_allocator_get ();
  GstMemory *mem;
  GstMapInfo map;
  VmiDmaStats st, during;
  guint64 packets;
  Seen seen;
  gchar *warnings;

  /* no DPDK yet: no hooks, plain memory */
  fail_if (vmi_dma_has_hooks ());
  mem = gst_allocator_alloc (alloc, 1 << 20, NULL);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_if (vmi_dma_contains (map.data, map.size));
  gst_memory_unmap (mem, &map);
  gst_memory_unref (mem);

  warnings = send_frames (&seen, &packets, &during);
  fail_unless (vmi_dma_has_hooks ());
  fail_unless_equals_int (seen.buffers, FRAMES);
  /* upstream rendered into the vmi pool the sink proposed... */
  fail_unless_equals_int (seen.vmi, FRAMES);
  /* ...and every frame of it is DPDK memory */
  fail_unless_equals_int (seen.registered, FRAMES);
  fail_unless_equals_uint64 (packets, FRAMES * DG_1080P);
  fail_unless (strstr (warnings, "registered for DMA") == NULL, "%s",
      warnings);
  /* the pool's frames and the sink's 4 rasters */
  fail_unless (during.regions >= 4 + 1, "%u regions", during.regions);
  fail_unless_equals_uint64 (during.failures, 0);
  /* gone with the pipeline: nothing stays registered */
  vmi_dma_get_stats (&st);
  fail_unless_equals_int (st.regions, 0);
  fail_unless_equals_uint64 (st.bytes, 0);
  fail_unless_equals_uint64 (st.registrations, during.registrations);

  /* allocator memory made while DPDK runs is registered, and a free
   * unregisters it */
  mem = gst_allocator_alloc (alloc, 1 << 20, NULL);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless (vmi_dma_contains (map.data, map.size));
  fail_unless (vmi_dma_contains (map.data + map.size - 1, 1));
  fail_if (vmi_dma_contains (map.data + map.size - 1, 4096 * 1024));
  /* a shared part going away leaves the frame registered */
  gst_memory_unref (gst_memory_share (mem, 4096, 4096));
  fail_unless (vmi_dma_contains (map.data, map.size));
  gst_memory_unmap (mem, &map);
  gst_memory_unref (mem);
  vmi_dma_get_stats (&st);
  fail_unless_equals_int (st.regions, 0);

  g_free (warnings);
  gst_object_unref (alloc);
}

GST_END_TEST;

GST_START_TEST (test_registration_fails_copy_fallback_warns)
{
  GPtrArray *held = g_ptr_array_new ();
  VmiDmaStats st, during;
  guint64 packets;
  Seen seen;
  gchar *warnings;
  gboolean reg = TRUE;
  guint i;

  /* starts the EAL (hooks installed), all well */
  warnings = send_frames (&seen, &packets, &during);
  fail_unless_equals_int (seen.registered, FRAMES);
  g_free (warnings);

  /* use up DPDK's memory lists: each registration takes one */
  for (i = 0; i < 256 && reg; i++)
    g_ptr_array_add (held, vmi_dma_alloc (4096, &reg));
  fail_if (reg, "256 registrations and none refused");
  fail_unless (vmi_dma_get_failure () != NULL);
  fail_unless (strstr (vmi_dma_get_failure (), "rte_extmem_register") !=
      NULL, "%s", vmi_dma_get_failure ());
  vmi_dma_get_stats (&st);
  fail_unless_equals_uint64 (st.failures, 1);

  /* the sink runs on, says why, and sends every datagram */
  warnings = send_frames (&seen, &packets, &during);
  fail_unless (strstr (warnings, "frame memory could not be registered for "
          "DMA (rte_extmem_register") != NULL, "warnings: %s", warnings);
  fail_unless_equals_int (seen.buffers, FRAMES);
  fail_unless_equals_int (seen.vmi, FRAMES);
  fail_unless_equals_int (seen.registered, 0);
  fail_unless_equals_uint64 (packets, FRAMES * DG_1080P);
  fail_unless (during.failures > st.failures);
  g_free (warnings);

  for (i = 0; i < held->len; i++)
    vmi_dma_free (g_ptr_array_index (held, i), 4096);
  g_ptr_array_unref (held);
  vmi_dma_get_stats (&st);
  fail_unless_equals_int (st.regions, 0);
}

GST_END_TEST;

static Suite *
dpdk_dma_suite (void)
{
  Suite *s = suite_create ("dpdk-dma");
  TCase *tc = tcase_create ("dma");

  tcase_set_timeout (tc, 120);
  tcase_add_checked_fixture (tc, setup, teardown);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_frames_registered);
  tcase_add_test (tc, test_registration_fails_copy_fallback_warns);
  return s;
}

GST_CHECK_MAIN (dpdk_dma);
