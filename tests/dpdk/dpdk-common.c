/* gst-vmi tests: helpers of the DPDK tests. */

#include "dpdk-common.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* The test binary's own process (Check's runner; each test runs in a
 * child it forks): it names every EAL prefix of the run and, at exit,
 * removes the runtime directories those EALs left (rte_eal_cleanup keeps
 * them), including those of a child that failed or timed out. */
static int runner_pid;

/* where the EAL puts /<prefix>: /var/run/dpdk for root, else
 * $XDG_RUNTIME_DIR/dpdk or /tmp/dpdk */
static gchar *
runtime_base (void)
{
  const gchar *xdg = g_getenv ("XDG_RUNTIME_DIR");

  if (getuid () == 0)
    return g_strdup ("/var/run/dpdk");
  return g_build_filename (xdg ? xdg : "/tmp", "dpdk", NULL);
}

static void
remove_runtime_dirs (void)
{
  gchar *base, *mine;
  GDir *d;
  const gchar *name;

  if (getpid () != runner_pid)
    return;
  base = runtime_base ();
  mine = g_strdup_printf ("vmitest-%d-", runner_pid);
  d = g_dir_open (base, 0, NULL);
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, mine))
      dpdk_test_rmdir (g_build_filename (base, name, NULL));
  if (d)
    g_dir_close (d);
  g_free (mine);
  g_free (base);
}

__attribute__ ((constructor))
static void
record_runner (void)
{
  runner_pid = getpid ();
  atexit (remove_runtime_dirs);
}

gchar *
dpdk_test_eal_args (const gchar * vdevs)
{
  static guint n = 0;

  /* the runner's pid names the run (its exit removes what the prefix
   * left), the process's and a counter make it unique within the run (one
   * EAL per process, but the prefix names its files) */
  return g_strdup_printf ("--no-huge --no-pci -m 512 -l 0 "
      "--log-level=lib.eal:warning --file-prefix vmitest-%d-%d-%u %s",
      runner_pid, (int) getpid (), n++, vdevs);
}

void
dpdk_test_rxgen_load (const gchar * pcap, const gchar * pace)
{
  const gchar *lib = g_getenv ("VMI_RXGEN_LIB");

  fail_unless (lib != NULL, "VMI_RXGEN_LIB names no generator library");
  /* read by the library's constructor */
  g_setenv ("VMI_RXGEN_PCAP", pcap, TRUE);
  if (pace)
    g_setenv ("VMI_RXGEN_PACE", pace, TRUE);
  else
    g_unsetenv ("VMI_RXGEN_PACE");
  fail_unless (dlopen (lib, RTLD_NOW | RTLD_LOCAL) != NULL, "%s", dlerror ());
}

gchar *
dpdk_test_mkdtemp (void)
{
  gchar *dir = g_dir_make_tmp ("vmi-dpdk-XXXXXX", NULL);

  fail_unless (dir != NULL);
  return dir;
}

void
dpdk_test_rmdir (gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *p = g_build_filename (dir, name, NULL);
    g_unlink (p);
    g_free (p);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (dir);
  g_free (dir);
}

static guint32
le32 (const guint8 * p)
{
  return (guint32) p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
}

static guint32
be32 (const guint8 * p)
{
  return (guint32) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

GPtrArray *
dpdk_pcap_read (const gchar * path)
{
  return dpdk_pcap_read_times (path, NULL);
}

GPtrArray *
dpdk_pcap_read_times (const gchar * path, GArray * times)
{
  gchar *data = NULL;
  gsize len = 0, off = 24;
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  guint32 magic;

  fail_unless (g_file_get_contents (path, &data, &len, NULL), "no %s", path);
  fail_unless (len >= 24, "%s is not a pcap file", path);
  magic = le32 ((guint8 *) data);
  fail_unless (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d,
      "%s: pcap magic 0x%08x", path, magic);
  fail_unless_equals_int (le32 ((guint8 *) data + 20), 1);     /* Ethernet */
  while (off + 16 <= len) {
    guint32 cap = le32 ((guint8 *) data + off + 8);
    fail_unless (off + 16 + cap <= len, "%s: truncated record", path);
    g_ptr_array_add (frames, g_bytes_new (data + off + 16, cap));
    if (times) {
      /* the second fraction: µs, or ns in a nanosecond file */
      guint64 t = le32 ((guint8 *) data + off) * G_GUINT64_CONSTANT
          (1000000000) + le32 ((guint8 *) data + off + 4) *
          (magic == 0xa1b2c3d4 ? 1000 : 1);
      g_array_append_val (times, t);
    }
    off += 16 + cap;
  }
  g_free (data);
  return frames;
}

static void
put_le32 (GByteArray * a, guint32 v)
{
  guint8 b[4] = { v, v >> 8, v >> 16, v >> 24 };
  g_byte_array_append (a, b, 4);
}

void
dpdk_pcap_write (const gchar * path, GPtrArray * frames)
{
  GByteArray *a = g_byte_array_new ();
  guint i;

  put_le32 (a, 0xa1b2c3d4);
  put_le32 (a, 2 | 4 << 16);    /* version 2.4 */
  put_le32 (a, 0);
  put_le32 (a, 0);
  put_le32 (a, 65535);
  put_le32 (a, 1);
  for (i = 0; i < frames->len; i++) {
    gsize len;
    const guint8 *d = g_bytes_get_data (frames->pdata[i], &len);
    put_le32 (a, 1);
    put_le32 (a, i);
    put_le32 (a, len);
    put_le32 (a, len);
    g_byte_array_append (a, d, len);
  }
  fail_unless (g_file_set_contents (path, (gchar *) a->data, a->len, NULL));
  g_byte_array_unref (a);
}

GPtrArray *
dpdk_encode_stream (const RefFormat * f, guint8 ** pics, guint n_frames,
    guint32 group, guint16 port)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  gsize fb = ref_frame_bytes (f);
  guint8 *raster = g_malloc (fb), dgram[REF_DATAGRAM], frame[2048];
  guint n = ref_datagrams (f), k, i;
  RefUdpFrame h = { {0}, {0x02, 0x11, 0x22, 0x33, 0x44, 0x55},
  0x0a000001, group, 5004, port, 16
  };
  guint16 seq = 40000;
  guint32 vts = 123456;

  ref_multicast_mac (group, h.dst_mac);
  for (k = 0; k < n_frames; k++) {
    ref_build_raster (f, pics[k], f->width * 5 / 2, raster);
    for (i = 0; i < n; i++) {
      gsize len;
      ref_pack_datagram (f, raster, i, seq++, 1000 + k *
          ref_rtp_per_frame (f), 0x5eed, k, vts, 98, dgram);
      len = ref_build_udp_frame (&h, dgram, REF_DATAGRAM, frame);
      g_ptr_array_add (out, g_bytes_new (frame, len));
    }
    vts += f->lines * f->samples * 2;
  }
  g_free (raster);
  return out;
}

GError *
dpdk_expect_error (GstElement * pipeline, guint timeout_s, gchar ** warnings)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GError *err = NULL;
  GString *w = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while (err == NULL && g_get_monotonic_time () < deadline) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 100 * GST_MSECOND,
        GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (msg == NULL)
      continue;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, NULL);
    } else {
      GError *e = NULL;
      gst_message_parse_warning (msg, &e, NULL);
      g_string_append_printf (w, "%s\n", e->message);
      g_error_free (e);
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  if (warnings)
    *warnings = g_string_free (w, FALSE);
  else
    g_string_free (w, TRUE);
  return err;
}

/* Decodes a sink's capture frame by frame: Ethernet/IPv4/UDP (checksums,
 * group MAC), RTP/HBRMT continuity, the raster checked line by line and
 * the active picture compared with what was sent. */
void
dpdk_check_capture (const RefFormat * f, GPtrArray * frames,
    guint8 ** pics, guint n_frames, guint32 group, guint16 port)
{
  gsize fb = ref_frame_bytes (f), ustride = f->width * 5 / 2;
  guint n = ref_datagrams (f), k, i;
  guint8 *raster = g_malloc (fb), *prev = g_malloc (fb), *pic =
      g_malloc (ustride * f->height), gmac[6];
  guint16 seq0 = 0;
  guint32 ssrc = 0, vts0 = 0;
  RefUdpFrame h0 = { {0} };

  ref_multicast_mac (group, gmac);
  fail_unless_equals_int (frames->len, n_frames * n);
  for (k = 0; k < n_frames; k++) {
    gchar *err = NULL;
    guint errors;

    for (i = 0; i < n; i++) {
      gsize len, plen;
      const guint8 *fr = g_bytes_get_data (frames->pdata[k * n + i], &len);
      RefUdpFrame h;
      const guint8 *d = ref_parse_udp_frame (fr, len, &h, &plen, &err);

      fail_unless (d != NULL, "%s frame %u datagram %u: %s", f->name, k, i,
          err);
      fail_unless_equals_int (len, REF_NET_HEADER + REF_DATAGRAM);
      fail_unless_equals_int (plen, REF_DATAGRAM);
      fail_unless (memcmp (h.dst_mac, gmac, 6) == 0, "not the group MAC");
      fail_unless (!(h.src_mac[0] & 1), "multicast source MAC");
      fail_unless_equals_uint64 (h.dst_ip, group);
      fail_unless_equals_int (h.dst_port, port);
      if (k == 0 && i == 0) {
        h0 = h;
        seq0 = d[2] << 8 | d[3];
        ssrc = be32 (d + 8);
        vts0 = be32 (d + 20);
      }
      fail_unless (memcmp (&h, &h0, sizeof (h)) == 0, "flow changed");
      fail_unless_equals_int (d[0], 0x80);
      fail_unless_equals_int (!!(d[1] & 0x80), i == n - 1);
      fail_unless_equals_int ((guint16) (d[2] << 8 | d[3]),
          (guint16) (seq0 + k * n + i));
      fail_unless_equals_uint64 (be32 (d + 8), ssrc);
      fail_unless_equals_int ((d[16] & 0xf) << 4 | d[17] >> 4, f->frame_code);
      fail_unless_equals_int ((d[17] & 0xf) << 4 | d[18] >> 4, f->frate_code);
      fail_unless_equals_uint64 (be32 (d + 20), (guint32) (vts0 + k *
              f->lines * f->samples * 2 + ref_vts_offset (i)));
      memcpy (raster + (gsize) i * REF_PAYLOAD, d + REF_HEADER,
          MIN (REF_PAYLOAD, fb - (gsize) i * REF_PAYLOAD));
      if (i == n - 1) {
        gsize j;
        for (j = fb - (gsize) i * REF_PAYLOAD; j < REF_PAYLOAD; j++)
          fail_unless_equals_int (d[REF_HEADER + j], 0);
      }
    }
    errors = ref_check_raster (f, raster, k ? prev : NULL, pic, &err);
    fail_unless (errors == 0, "%s frame %u: %u raster errors, first: %s",
        f->name, k, errors, err);
    for (i = 0; i < f->height; i++)
      fail_unless (memcmp (pic + i * ustride, pics[k] + i * ustride,
              ustride) == 0, "%s frame %u: row %u differs", f->name, k, i);
    memcpy (prev, raster, fb);
  }
  g_free (raster);
  g_free (prev);
  g_free (pic);
}

void
dpdk_set_state (GstElement * pipeline, GstState state)
{
  fail_if (gst_element_set_state (pipeline, state) ==
      GST_STATE_CHANGE_FAILURE);
  if (state == GST_STATE_NULL)
    return;
  fail_unless (gst_element_get_state (pipeline, NULL, NULL, 30 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS);
}

guint
dpdk_count_threads_on (const gchar * prefix, gint cpu, cpu_set_t * cpus,
    gint * policy)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *tid;
  guint n = 0;

  while (dir && (tid = g_dir_read_name (dir))) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
    gchar *comm = NULL;
    cpu_set_t set;

    if (g_file_get_contents (path, &comm, NULL, NULL)
        && g_str_has_prefix (comm, prefix)) {
      CPU_ZERO (&set);
      if (cpu >= 0 || cpus)
        fail_unless (sched_getaffinity (atoi (tid), sizeof (set), &set)
            == 0);
      if (cpu < 0 || CPU_ISSET (cpu, &set))
        n++;
      if (cpus)
        *cpus = set;
      if (policy)
        *policy = sched_getscheduler (atoi (tid));
    }
    g_free (comm);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  return n;
}

guint
dpdk_count_threads (const gchar * prefix, cpu_set_t * cpus)
{
  return dpdk_count_threads_on (prefix, -1, cpus, NULL);
}

void
dpdk_wait_counts (GMutex * lock, GCond * cond, DpdkCountFunc count,
    guint n, guint mask, const guint * base, guint want)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint i;

  g_mutex_lock (lock);
  for (;;) {
    gboolean all = TRUE;

    for (i = 0; i < n; i++)
      if ((mask & (1u << i)) && count (i) < base[i] + want)
        all = FALSE;
    if (all)
      break;
    if (!g_cond_wait_until (cond, lock, end)) {
      GString *s = g_string_new (NULL);

      for (i = 0; i < n; i++)
        if (mask & (1u << i))
          g_string_append_printf (s, " %u:%u/%u", i, count (i),
              base[i] + want);
      g_mutex_unlock (lock);
      fail ("frames within 60 s:%s", s->str);
    }
  }
  g_mutex_unlock (lock);
}

void
dpdk_snapshot_counts (GMutex * lock, DpdkCountFunc count, guint n,
    guint * counts)
{
  guint i;

  g_mutex_lock (lock);
  for (i = 0; i < n; i++)
    counts[i] = count (i);
  g_mutex_unlock (lock);
}
