/* gst-vmi: vmisink/vmisrc across processes, and hostile peers
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <gst/check/gstcheck.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vmi-test-client.h"
#include "pool-test-util.h"

#define CAPS_SMALL "video/x-raw,format=UYVY,width=320,height=240"
#define FRAME_SMALL (320 * 240 * 2)

/* ------------------------------------------------------------------
 * producer in this process: videotestsrc pattern=ball (every frame
 * differs) ! vmisink, hashing each frame as it enters vmisink
 */

typedef struct
{
  GstElement *pipeline;
  GstElement *sink;
  GMutex lock;
  GCond cond;
  guint n_frames;               /* frames that entered vmisink, lock */
  GHashTable *hashes;           /* offset -> md5 */
} Producer;

static GstPadProbeReturn
producer_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Producer *p = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;

  /* a streaming thread: check's fail_unless is not thread-safe */
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    g_error ("cannot map a produced frame");
  g_mutex_lock (&p->lock);
  g_hash_table_insert (p->hashes, g_strdup_printf ("%" G_GUINT64_FORMAT,
          GST_BUFFER_OFFSET (buf)),
      g_compute_checksum_for_data (G_CHECKSUM_MD5, map.data, map.size));
  p->n_frames++;
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

static Producer *
producer_new (const gchar * path, gint n, gint fps, const gchar * sink_props)
{
  Producer *p = g_new0 (Producer, 1);
  /* release-timeout: a consumer process starved of CPU on a loaded CI
   * machine must not be cut off (and reconnect) in tests that count frames;
   * the tests of the timeout itself override it */
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true pattern=ball "
      "num-buffers=%d ! " CAPS_SMALL ",framerate=%d/1 ! vmisink name=s "
      "socket-path=%s release-timeout=10000 %s", n, fps, path,
      sink_props ? sink_props : "");
  GstPad *pad;

  p->pipeline = gst_parse_launch (desc, NULL);
  fail_unless (p->pipeline != NULL);
  g_free (desc);
  p->sink = gst_bin_get_by_name (GST_BIN (p->pipeline), "s");
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  p->hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  pad = gst_element_get_static_pad (p->sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, producer_probe, p, NULL);
  gst_object_unref (pad);
  return p;
}

static void
producer_free (Producer * p)
{
  gst_element_set_state (p->pipeline, GST_STATE_NULL);
  gst_object_unref (p->sink);
  gst_object_unref (p->pipeline);
  g_hash_table_destroy (p->hashes);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  g_free (p);
}

static guint64
producer_stat (Producer * p, const gchar * field)
{
  GstStructure *s;
  guint64 v = 0;
  guint u;

  g_object_get (p->sink, "stats", &s, NULL);
  if (!gst_structure_get_uint64 (s, field, &v) &&
      gst_structure_get_uint (s, field, &u))
    v = u;
  gst_structure_free (s);
  return v;
}

/* Waits until @n frames in all have entered vmisink. */
static gboolean
producer_wait_frames (Producer * p, guint n, GstClockTime timeout)
{
  gint64 end = g_get_monotonic_time () + timeout / 1000;
  gboolean ok = TRUE;

  g_mutex_lock (&p->lock);
  while (ok && p->n_frames < n)
    ok = g_cond_wait_until (&p->cond, &p->lock, end);
  ok = p->n_frames >= n;
  g_mutex_unlock (&p->lock);
  return ok;
}

static guint
producer_frames (Producer * p)
{
  guint n;

  g_mutex_lock (&p->lock);
  n = p->n_frames;
  g_mutex_unlock (&p->lock);
  return n;
}

/* Waits for @n vmisink-client messages with @event (and @reason, unless
 * NULL); other messages are discarded. */
static gboolean
producer_wait_client (Producer * p, const gchar * event, const gchar * reason,
    guint n, GstClockTime timeout)
{
  gint64 end = g_get_monotonic_time () + timeout / 1000;
  guint seen = 0;

  while (seen < n) {
    gint64 left = end - g_get_monotonic_time ();
    GstMessage *m;
    const GstStructure *s;

    if (left <= 0)
      return FALSE;
    m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p->pipeline),
        left * GST_USECOND, GST_MESSAGE_ELEMENT);
    if (!m)
      return FALSE;
    s = gst_message_get_structure (m);
    if (gst_structure_has_name (s, "vmisink-client") &&
        !g_strcmp0 (gst_structure_get_string (s, "event"), event) &&
        (!reason || !g_strcmp0 (gst_structure_get_string (s, "reason"),
                reason)))
      seen++;
    gst_message_unref (m);
  }
  return TRUE;
}

static gboolean
producer_wait_eos (Producer * p, GstClockTime timeout)
{
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p->pipeline),
      timeout, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean eos = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;

  if (m && !eos) {
    GError *err;
    gst_message_parse_error (m, &err, NULL);
    GST_ERROR ("producer error: %s", err->message);
    g_error_free (err);
  }
  if (m)
    gst_message_unref (m);
  return eos;
}

/* ------------------------------------------------------------------
 * consumer in another process: vmi-pool-peer
 */

typedef struct
{
  GPid pid;
  GAsyncQueue *lines;
  GThread *reader;
  int out;
  gint status;
  gboolean exited;
  GPtrArray *frames;            /* "offset md5" */
  guint connects, disconnects;
  gboolean eos, error;
} Consumer;

static gpointer
consumer_reader (gpointer data)
{
  Consumer *c = data;
  FILE *f = fdopen (c->out, "r");
  char line[512];

  while (fgets (line, sizeof (line), f))
    g_async_queue_push (c->lines, g_strdup (g_strchomp (line)));
  fclose (f);
  g_async_queue_push (c->lines, g_strdup ("<closed>"));
  return NULL;
}

static Consumer *
consumer_spawn (const gchar * path, guint n, guint delay_ms)
{
  Consumer *c = g_new0 (Consumer, 1);
  gchar *peer = g_build_filename (g_getenv ("VMI_BUILD_ROOT"), "tests", "pool",
      "vmi-pool-peer", NULL);
  gchar *ns = g_strdup_printf ("%u", n), *ds = g_strdup_printf ("%u", delay_ms);
  gchar *argv[] = { peer, (gchar *) "consume", (gchar *) path, ns, ds, NULL };
  GError *err = NULL;

  fail_unless (g_spawn_async_with_pipes (NULL, argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &c->pid, NULL, &c->out, NULL,
          &err), "cannot run %s: %s", peer, err ? err->message : "");
  c->lines = g_async_queue_new_full (g_free);
  c->frames = g_ptr_array_new_with_free_func (g_free);
  c->reader = g_thread_new ("consumer-reader", consumer_reader, c);
  g_free (peer);
  g_free (ns);
  g_free (ds);
  return c;
}

/* Reads lines until one starts with @prefix (or the process is gone).
 * Returns FALSE on timeout/closed. */
static gboolean
consumer_wait (Consumer * c, const gchar * prefix, guint count,
    GstClockTime timeout)
{
  gint64 end = g_get_monotonic_time () + timeout / 1000;
  guint seen = 0;

  for (;;) {
    gint64 left = end - g_get_monotonic_time ();
    gchar *l;

    if (left <= 0)
      return FALSE;
    l = g_async_queue_timeout_pop (c->lines, left);
    if (!l)
      return FALSE;
    if (g_str_has_prefix (l, "frame "))
      g_ptr_array_add (c->frames, g_strdup (l + 6));
    else if (g_str_equal (l, "event connected"))
      c->connects++;
    else if (g_str_equal (l, "event disconnected"))
      c->disconnects++;
    else if (g_str_equal (l, "eos"))
      c->eos = TRUE;
    else if (g_str_has_prefix (l, "error")) {
      GST_WARNING ("consumer: %s", l);
      c->error = TRUE;
    }
    if (g_str_equal (l, "<closed>")) {
      g_free (l);
      return prefix == NULL;
    }
    if (prefix && g_str_has_prefix (l, prefix) && ++seen >= count) {
      g_free (l);
      return TRUE;
    }
    g_free (l);
  }
}

static gint
consumer_finish (Consumer * c, GstClockTime timeout)
{
  gint rc = pool_test_wait_child (c->pid, timeout / GST_MSECOND);

  fail_unless (rc >= 0, "consumer did not exit in time");
  consumer_wait (c, NULL, 0, 5 * GST_SECOND);   /* drain to <closed> */
  g_thread_join (c->reader);
  g_spawn_close_pid (c->pid);
  return rc;
}

static void
consumer_free (Consumer * c)
{
  g_async_queue_unref (c->lines);
  g_ptr_array_unref (c->frames);
  g_free (c);
}

/* Every frame the consumer saw is bit-exact the producer's frame. */
static void
assert_frames_match (Consumer * c, Producer * a, Producer * b)
{
  guint i;

  for (i = 0; i < c->frames->len; i++) {
    gchar **f = g_strsplit (g_ptr_array_index (c->frames, i), " ", 2);
    const gchar *ha, *hb = NULL;

    g_mutex_lock (&a->lock);
    ha = g_hash_table_lookup (a->hashes, f[0]);
    g_mutex_unlock (&a->lock);
    if (b) {
      g_mutex_lock (&b->lock);
      hb = g_hash_table_lookup (b->hashes, f[0]);
      g_mutex_unlock (&b->lock);
    }
    fail_unless (g_strcmp0 (ha, f[1]) == 0 || g_strcmp0 (hb, f[1]) == 0,
        "frame %s differs: consumer %s producer %s", f[0], f[1], ha);
    g_strfreev (f);
  }
}

static gchar *
tmp_socket_path (void)
{
  return g_strdup_printf ("%s/vmi-ipc-%d-%d.sock", g_get_tmp_dir (), getpid (),
      g_random_int_range (0, 1 << 30));
}

static void
assert_frames_differ (Producer * p)
{
  GHashTableIter it;
  gpointer v;
  GHashTable *distinct = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_iter_init (&it, p->hashes);
  while (g_hash_table_iter_next (&it, NULL, &v))
    g_hash_table_add (distinct, v);
  /* the ball moves: a comparison of equal frames would prove nothing */
  fail_unless (g_hash_table_size (distinct) > 1);
  g_hash_table_destroy (distinct);
}

/* Runs @p (@n frames) to EOS with one consumer taking @delay_ms per frame;
 * checks what holds for any consumer speed: it saw exactly the frames sent
 * to it, bit-exact, and every frame was either sent or skipped for it. */
static Consumer *
run_with_one_consumer (Producer * p, const gchar * path, guint n,
    guint delay_ms)
{
  Consumer *c;

  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  c = consumer_spawn (path, 0, delay_ms);
  fail_unless (producer_wait_eos (p, 20 * GST_SECOND));
  fail_unless (consumer_wait (c, "eos", 1, 20 * GST_SECOND));
  fail_unless_equals_int (consumer_finish (c, 10 * GST_SECOND), 0);

  fail_unless_equals_uint64 (producer_stat (p, "frames"), n);
  fail_unless (c->frames->len > 0);
  fail_unless_equals_uint64 (producer_stat (p, "frames-sent"), c->frames->len);
  fail_unless_equals_uint64 (producer_stat (p, "frames-sent") +
      producer_stat (p, "frames-skipped"), n);
  fail_unless_equals_uint64 (producer_stat (p, "clients-timed-out"), 0);
  assert_frames_match (c, p, NULL);
  return c;
}

GST_START_TEST (test_bit_exact_across_processes)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, 100, 100, NULL);
  Consumer *c = run_with_one_consumer (p, path, 100, 0);

  fail_unless_equals_uint64 (producer_stat (p, "copies"), 0);
  assert_frames_differ (p);
  GST_INFO ("consumer got %u of 100 frames", c->frames->len);

  consumer_free (c);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_slow_consumer_never_sees_torn_frames)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, 100, 100, "max-outstanding=3");
  /* 30 ms per frame against 10 ms per produced frame */
  Consumer *c = run_with_one_consumer (p, path, 100, 30);

  /* it cannot have kept up: the lag became counted skips, not a stall */
  fail_unless (producer_stat (p, "frames-skipped") > 0);

  consumer_free (c);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_killed_consumer)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, 200, 100, NULL);
  Consumer *c;
  GstMessage *m;
  gboolean disconnected = FALSE;

  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  c = consumer_spawn (path, 0, 0);
  fail_unless (consumer_wait (c, "frame", 10, 20 * GST_SECOND));
  kill (c->pid, SIGKILL);
  fail_unless_equals_int (consumer_finish (c, 10 * GST_SECOND), 128 + SIGKILL);

  /* the producer keeps going to the end, telling about the loss */
  while ((m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p->pipeline),
              20 * GST_SECOND, GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS |
              GST_MESSAGE_ERROR))) {
    const GstStructure *s = gst_message_get_structure (m);
    GstMessageType t = GST_MESSAGE_TYPE (m);

    if (t == GST_MESSAGE_ELEMENT && gst_structure_has_name (s,
            "vmisink-client") &&
        g_str_equal (gst_structure_get_string (s, "event"), "disconnected"))
      disconnected = TRUE;
    gst_message_unref (m);
    if (t != GST_MESSAGE_ELEMENT) {
      fail_unless (t == GST_MESSAGE_EOS);
      break;
    }
  }
  fail_unless (m != NULL, "producer stalled");
  fail_unless (disconnected);
  fail_unless_equals_uint64 (producer_stat (p, "frames"), 200);
  fail_unless_equals_uint64 (producer_stat (p, "clients"), 0);
  assert_frames_match (c, p, NULL);

  consumer_free (c);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_producer_restart)
{
  gchar *path = tmp_socket_path ();
  Producer *a = producer_new (path, -1, 100, NULL), *b;
  Consumer *c;

  fail_unless (gst_element_set_state (a->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  c = consumer_spawn (path, 60, 0);
  fail_unless (consumer_wait (c, "frame", 20, 20 * GST_SECOND));
  /* producer goes away without EOS (crash, restart) */
  gst_element_set_state (a->pipeline, GST_STATE_NULL);
  fail_unless (consumer_wait (c, "event disconnected", 1, 10 * GST_SECOND));

  b = producer_new (path, -1, 100, NULL);
  fail_unless (gst_element_set_state (b->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  fail_unless (consumer_wait (c, NULL, 0, 20 * GST_SECOND));
  fail_unless_equals_int (consumer_finish (c, 10 * GST_SECOND), 0);

  fail_unless_equals_int (c->frames->len, 60);
  fail_unless (!c->error);
  /* Each connection the consumer counts (a HELLO) is one client a producer
   * accepted, and both producers served it. The consumer may legitimately
   * have been dropped and come back more than once (a producer stopping
   * while it reconnects, a cut-off on a starved machine), never for a
   * protocol violation. */
  GST_INFO ("connects %u: A accepted %" G_GUINT64_FORMAT ", B %"
      G_GUINT64_FORMAT, c->connects, producer_stat (a, "clients-total"),
      producer_stat (b, "clients-total"));
  fail_unless_equals_uint64 (c->connects, producer_stat (a, "clients-total") +
      producer_stat (b, "clients-total"));
  fail_unless (producer_stat (a, "clients-total") >= 1);
  fail_unless (producer_stat (b, "clients-total") >= 1);
  fail_unless_equals_uint64 (producer_stat (a, "clients-rejected"), 0);
  fail_unless_equals_uint64 (producer_stat (b, "clients-rejected"), 0);
  fail_unless (producer_stat (b, "frames-sent") > 0);
  assert_frames_match (c, a, b);

  consumer_free (c);
  producer_free (a);
  producer_free (b);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_two_consumers_share_frames)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, 60, 100, NULL);
  Consumer *c1, *c2;

  /* live: PAUSED opens the socket without producing */
  fail_unless_equals_int (gst_element_set_state (p->pipeline,
          GST_STATE_PAUSED), GST_STATE_CHANGE_NO_PREROLL);
  c1 = consumer_spawn (path, 0, 0);
  c2 = consumer_spawn (path, 0, 0);
  fail_unless (producer_wait_client (p, "connected", NULL, 2,
          20 * GST_SECOND));
  fail_unless_equals_uint64 (producer_stat (p, "clients"), 2);
  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);

  fail_unless (producer_wait_eos (p, 20 * GST_SECOND));
  fail_unless (consumer_wait (c1, "eos", 1, 20 * GST_SECOND));
  fail_unless (consumer_wait (c2, "eos", 1, 20 * GST_SECOND));
  fail_unless_equals_int (consumer_finish (c1, 10 * GST_SECOND), 0);
  fail_unless_equals_int (consumer_finish (c2, 10 * GST_SECOND), 0);

  fail_unless (c1->frames->len > 0);
  fail_unless (c2->frames->len > 0);
  fail_unless_equals_uint64 (producer_stat (p, "frames-sent"),
      c1->frames->len + c2->frames->len);
  fail_unless_equals_uint64 (producer_stat (p, "frames-sent") +
      producer_stat (p, "frames-skipped"), 2 * 60);
  fail_unless_equals_uint64 (producer_stat (p, "copies"), 0);
  assert_frames_match (c1, p, NULL);
  assert_frames_match (c2, p, NULL);

  consumer_free (c1);
  consumer_free (c2);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

/* ------------------------------------------------------------------
 * hostile producer: this test plays a producer that breaks the rules
 */

typedef enum
{
  HOSTILE_NONE,                 /* control: a correct producer */
  HOSTILE_PIPE_FD,
  HOSTILE_UNSEALED_MEMFD,
  HOSTILE_SIZE_LIE,
  HOSTILE_OFFSET_OUT_OF_BOUNDS,
  HOSTILE_SIZE_OVERFLOW,
  HOSTILE_FRAME_SMALLER_THAN_CAPS,
  HOSTILE_UNKNOWN_MEMORY,
  HOSTILE_BAD_MAGIC,
  HOSTILE_FD_ON_CAPS,
  HOSTILE_PLANE_OUTSIDE,
  HOSTILE_FRAME_BEFORE_CAPS,
  HOSTILE_BAD_VIDEO_CAPS,       /* raw video no GstVideoInfo can describe */
  HOSTILE_DUPLICATE_MEMORY_ID,
  HOSTILE_FORGET_UNKNOWN,
  HOSTILE_STRIDE_TOO_SMALL,
  HOSTILE_PLANE_COUNT,
  HOSTILE_META_NOT_VIDEO,       /* video meta on caps that are not raw video */
  HOSTILE_LAST
} Hostility;

static gboolean
send_msg (int fd, VmiMsg * m, int pass_fd)
{
  guint8 buf[VMI_PROTO_MAX_MSG];
  gsize len = vmi_msg_pack (m, buf, sizeof (buf));

  fail_unless (len > 0);
  /* may fail once vmisrc has (rightly) hung up on us */
  return vmi_socket_send (fd, buf, len, pass_fd, FALSE) == (gssize) len;
}

/* counts the buffers leaving vmisrc; count_wait() waits on it */
static GMutex count_lock;
static GCond count_cond;

static GstPadProbeReturn
count_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  g_mutex_lock (&count_lock);
  g_atomic_int_inc ((gint *) data);
  g_cond_broadcast (&count_cond);
  g_mutex_unlock (&count_lock);
  return GST_PAD_PROBE_OK;
}

/* Waits until *@count reaches @n or @timeout_s pass; returns *@count */
static gint
count_wait (gint * count, gint n, guint timeout_s)
{
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gint v;

  g_mutex_lock (&count_lock);
  while (g_atomic_int_get (count) < n
      && g_cond_wait_until (&count_cond, &count_lock, end));
  v = g_atomic_int_get (count);
  g_mutex_unlock (&count_lock);
  return v;
}

static void
run_hostile_producer (Hostility h)
{
  gchar *path = tmp_socket_path ();
  gchar *desc = g_strdup_printf ("vmisrc name=src socket-path=%s ! "
      "fakesink name=sink sync=false", path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  int l = vmi_socket_listen (path, 0600), c, memfd, p[2];
  struct pollfd pfd;
  VmiMsg m;
  GstMessage *msg;
  gint n_buffers = 0;
  /* HOSTILE_META_NOT_VIDEO is the exact sequence that once crashed vmisrc:
   * a 4 KiB memory and a one-plane meta over all of it */
  const gsize msize = h == HOSTILE_META_NOT_VIDEO ? 4096 : 2 * 1024 * 1024;

  fail_unless (l >= 0);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &n_buffers,
      NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  pfd.fd = l;
  pfd.events = POLLIN;
  fail_unless (poll (&pfd, 1, 5000) == 1);
  c = accept4 (l, NULL, NULL, SOCK_CLOEXEC);
  fail_unless (c >= 0);

  memfd = memfd_create ("hostile", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  fail_unless (ftruncate (memfd, msize) == 0);
  if (h != HOSTILE_UNSEALED_MEMFD)
    fail_unless (fcntl (memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0);

  m = (VmiMsg) {.type = VMI_MSG_HELLO };
  m.u.hello.version = VMI_PROTO_VERSION;
  fail_unless (send_msg (c, &m, -1));

  if (h != HOSTILE_FRAME_BEFORE_CAPS) {
    m = (VmiMsg) {.type = VMI_MSG_CAPS };
    m.u.caps.str = h == HOSTILE_BAD_VIDEO_CAPS ?
        "video/x-raw,format=UYVY,width=2000000000,height=2000000000,"
        "framerate=(fraction)30/1" : CAPS_SMALL ",framerate=(fraction)30/1";
    if (h == HOSTILE_META_NOT_VIDEO)
      m.u.caps.str = "application/x-foo";
    m.u.caps.len = strlen (m.u.caps.str);
    if (h == HOSTILE_FD_ON_CAPS) {
      send_msg (c, &m, memfd);
      goto wait;
    }
    send_msg (c, &m, -1);
  }

  if (h == HOSTILE_BAD_MAGIC) {
    guint8 junk[64];
    memset (junk, 0x5a, sizeof (junk));
    fail_unless (vmi_socket_send (c, junk, sizeof (junk), -1, FALSE) == 64);
    goto wait;
  }

  m = (VmiMsg) {.type = VMI_MSG_MEMORY };
  m.u.memory.id = 1;
  m.u.memory.size = h == HOSTILE_SIZE_LIE ? msize * 2 : msize;
  if (h == HOSTILE_PIPE_FD) {
    fail_unless (pipe (p) == 0);
    send_msg (c, &m, p[0]);
    close (p[0]);
    close (p[1]);
    goto wait;
  }
  send_msg (c, &m, memfd);
  if (h == HOSTILE_DUPLICATE_MEMORY_ID) {
    send_msg (c, &m, memfd);
    goto wait;
  }
  if (h == HOSTILE_FORGET_UNKNOWN) {
    m = (VmiMsg) {.type = VMI_MSG_FORGET };
    m.u.forget.id = 5;
    send_msg (c, &m, -1);
    goto wait;
  }

  m = (VmiMsg) {.type = VMI_MSG_FRAME };
  m.u.frame.seq = 1;
  m.u.frame.pts = 0;
  m.u.frame.dts = m.u.frame.duration = m.u.frame.abs_pts = VMI_PROTO_NONE;
  m.u.frame.n_mems = 1;
  m.u.frame.mems[0].id = h == HOSTILE_UNKNOWN_MEMORY ? 99 : 1;
  m.u.frame.mems[0].offset = 4096;
  m.u.frame.mems[0].size = FRAME_SMALL;
  if (h == HOSTILE_OFFSET_OUT_OF_BOUNDS)
    m.u.frame.mems[0].offset = msize - FRAME_SMALL + 1;
  if (h == HOSTILE_SIZE_OVERFLOW) {
    m.u.frame.mems[0].offset = 8;
    m.u.frame.mems[0].size = G_MAXUINT64 - 4;
  }
  if (h == HOSTILE_FRAME_SMALLER_THAN_CAPS)
    m.u.frame.mems[0].size = 1000;
  if (h == HOSTILE_PLANE_OUTSIDE) {
    m.u.frame.n_planes = 1;
    m.u.frame.plane_offset[0] = 640;
    m.u.frame.plane_stride[0] = 640;
  }
  if (h == HOSTILE_STRIDE_TOO_SMALL) {
    m.u.frame.n_planes = 1;
    m.u.frame.plane_stride[0] = 100;    /* a UYVY line is 640 bytes */
  }
  if (h == HOSTILE_PLANE_COUNT) {
    m.u.frame.n_planes = 2;             /* UYVY has one plane */
    m.u.frame.plane_stride[0] = m.u.frame.plane_stride[1] = 640;
  }
  if (h == HOSTILE_META_NOT_VIDEO) {
    m.u.frame.mems[0].offset = 0;
    m.u.frame.mems[0].size = 4096;
    m.u.frame.n_planes = 1;
    m.u.frame.plane_offset[0] = 0;
    m.u.frame.plane_stride[0] = 64;
  }
  send_msg (c, &m, -1);

wait:
  if (h == HOSTILE_NONE) {
    /* a correct producer: the frame arrives, no error */
    fail_unless_equals_int (count_wait (&n_buffers, 1, 5), 1);
    msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_MESSAGE_ERROR);
    fail_unless (msg == NULL);
  } else {
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), 5 * GST_SECOND,
        GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "no error for hostility %d", h);
    {
      GError *err;
      gchar *dbg;
      gst_message_parse_error (msg, &err, &dbg);
      GST_INFO ("hostility %d -> %s (%s)", h, err->message, dbg);
      fail_unless (err->domain == GST_STREAM_ERROR);
      g_error_free (err);
      g_free (dbg);
    }
    gst_message_unref (msg);
    fail_unless_equals_int (g_atomic_int_get (&n_buffers), 0);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  close (c);
  close (l);
  close (memfd);
  unlink (path);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
}

GST_START_TEST (test_hostile_producer)
{
  run_hostile_producer (__i__);
}

GST_END_TEST;

/* Sets @pipeline to NULL on another thread; FALSE when that has not
 * returned within @timeout_s (the stopper is then left behind: a hang is
 * the failure being reported). */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  GstElement *pipeline;
} Stopper;

static gpointer
stopper_thread (gpointer data)
{
  Stopper *st = data;

  gst_element_set_state (st->pipeline, GST_STATE_NULL);
  g_mutex_lock (&st->lock);
  st->done = TRUE;
  g_cond_signal (&st->cond);
  g_mutex_unlock (&st->lock);
  return NULL;
}

static gboolean
stop_within (GstElement * pipeline, guint timeout_s)
{
  static Stopper st;            /* outlives a hung stopper thread */
  gint64 end = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  GThread *t;
  gboolean done;

  g_mutex_init (&st.lock);
  g_cond_init (&st.cond);
  st.done = FALSE;
  st.pipeline = pipeline;
  t = g_thread_new ("stop", stopper_thread, &st);
  g_mutex_lock (&st.lock);
  while (!st.done && g_cond_wait_until (&st.cond, &st.lock, end));
  done = st.done;
  g_mutex_unlock (&st.lock);
  if (done)
    g_thread_join (t);
  return done;
}

/* A producer that sends frames and never reads the releases (hung or
 * hostile): the consumer's release queue fills. Freeing a buffer must not
 * block the consumer's streaming thread on it: vmisrc hangs up instead, and
 * the consumer pipeline can still be stopped. */
GST_START_TEST (test_producer_never_reads_releases)
{
  gchar *path = tmp_socket_path ();
  gchar *desc = g_strdup_printf ("vmisrc name=src socket-path=%s ! "
      "fakesink name=sink sync=false enable-last-sample=false", path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  int l = vmi_socket_listen (path, 0600), c, memfd;
  const gsize msize = 2 * 1024 * 1024;
  gboolean hung_up = FALSE;
  gint n_buffers = 0;
  gint64 end;
  guint64 seq;
  GstMessage *msg;
  struct pollfd pfd = { l, POLLIN, 0 };
  VmiMsg m;

  fail_unless (l >= 0);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_probe, &n_buffers,
      NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (poll (&pfd, 1, 5000) == 1);
  c = accept4 (l, NULL, NULL, SOCK_CLOEXEC);
  fail_unless (c >= 0);

  memfd = memfd_create ("slow", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  fail_unless (ftruncate (memfd, msize) == 0);
  fail_unless (fcntl (memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0);
  m = (VmiMsg) {.type = VMI_MSG_HELLO };
  m.u.hello.version = VMI_PROTO_VERSION;
  fail_unless (send_msg (c, &m, -1));
  m = (VmiMsg) {.type = VMI_MSG_CAPS };
  m.u.caps.str = CAPS_SMALL ",framerate=(fraction)30/1";
  m.u.caps.len = strlen (m.u.caps.str);
  fail_unless (send_msg (c, &m, -1));
  m = (VmiMsg) {.type = VMI_MSG_MEMORY };
  m.u.memory.id = 1;
  m.u.memory.size = msize;
  fail_unless (send_msg (c, &m, memfd));

  /* frames until vmisrc hangs up on us; its releases pile up unread */
  end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  for (seq = 1; !hung_up && g_get_monotonic_time () < end; seq++) {
    guint8 buf[VMI_PROTO_MAX_MSG];
    gsize len;
    gssize r;

    m = (VmiMsg) {.type = VMI_MSG_FRAME };
    m.u.frame.seq = seq;
    m.u.frame.pts = m.u.frame.dts = m.u.frame.duration = VMI_PROTO_NONE;
    m.u.frame.abs_pts = VMI_PROTO_NONE;
    m.u.frame.n_mems = 1;
    m.u.frame.mems[0].id = 1;
    m.u.frame.mems[0].offset = 0;
    m.u.frame.mems[0].size = FRAME_SMALL;
    len = vmi_msg_pack (&m, buf, sizeof (buf));
    while ((r = vmi_socket_send (c, buf, len, -1, TRUE)) == -EAGAIN &&
        g_get_monotonic_time () < end) {
      pfd = (struct pollfd) {c, POLLOUT, 0};
      poll (&pfd, 1, 100);
    }
    hung_up = r == -EPIPE || r == -ECONNRESET;
  }
  fail_unless (hung_up, "vmisrc never hung up (sent %" G_GUINT64_FORMAT
      " frames)", seq);
  /* more frames went through than a release queue holds */
  fail_unless (g_atomic_int_get (&n_buffers) > 100);
  msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_MESSAGE_ERROR);
  fail_unless (msg == NULL);

  /* and the consumer still stops */
  fail_unless (stop_within (pipeline, 10), "vmisrc pipeline hangs in stop");

  close (c);
  close (l);
  close (memfd);
  unlink (path);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (path);
}

GST_END_TEST;

/* ------------------------------------------------------------------
 * hostile and hung consumers, played by this test against vmisink
 */

static gboolean
bus_has (GstElement * pipe, GstMessageType type, GstClockTime timeout)
{
  GstMessage *m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), timeout,
      type);
  if (m)
    gst_message_unref (m);
  return m != NULL;
}

static gboolean
client_is_closed (TestClient * c, gint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * 1000;

  /* drain what was queued before the producer closed us */
  while (g_get_monotonic_time () < end) {
    struct pollfd p = { c->fd, POLLIN, 0 };
    gssize r;
    int fd = -1;

    if (poll (&p, 1, 100) <= 0)
      continue;
    r = vmi_socket_recv (c->fd, c->buf, sizeof (c->buf), &fd, TRUE);
    if (fd >= 0)
      close (fd);
    if (r == 0 || r == -ECONNRESET)
      return TRUE;
  }
  return FALSE;
}

typedef enum
{
  BAD_RELEASE_UNKNOWN,
  BAD_RELEASE_TWICE,
  BAD_SENDS_FD,
  BAD_GARBAGE,
  BAD_WRONG_TYPE,
  BAD_LAST
} BadConsumer;

GST_START_TEST (test_hostile_consumer)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, -1, 100, NULL);
  TestClient *bad, *good;
  VmiFrameInfo f;
  guint8 junk[40];
  guint i;

  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  bad = test_client_connect (path);
  fail_unless (bad != NULL);
  fail_unless (test_client_next_frame (bad, &f, 5000));

  switch (__i__) {
    case BAD_RELEASE_UNKNOWN:
      fail_unless (test_client_release (bad, f.seq + 100000));
      break;
    case BAD_RELEASE_TWICE:
      fail_unless (test_client_release (bad, f.seq));
      fail_unless (test_client_release (bad, f.seq));
      break;
    case BAD_SENDS_FD:{
      VmiMsg m = {.type = VMI_MSG_RELEASE };
      guint8 b[64];
      gsize len;
      m.u.release.seq = f.seq;
      len = vmi_msg_pack (&m, b, sizeof (b));
      fail_unless (vmi_socket_send (bad->fd, b, len, 0, FALSE) > 0);
      break;
    }
    case BAD_GARBAGE:
      memset (junk, 0xee, sizeof (junk));
      fail_unless (vmi_socket_send (bad->fd, junk, sizeof (junk), -1,
              FALSE) > 0);
      break;
    case BAD_WRONG_TYPE:{
      VmiMsg m = {.type = VMI_MSG_EOS };
      guint8 b[64];
      gsize len = vmi_msg_pack (&m, b, sizeof (b));
      fail_unless (vmi_socket_send (bad->fd, b, len, -1, FALSE) > 0);
      break;
    }
  }

  fail_unless (bus_has (p->pipeline, GST_MESSAGE_WARNING, 5 * GST_SECOND));
  fail_unless (client_is_closed (bad, 5000));
  fail_unless_equals_uint64 (producer_stat (p, "clients-rejected"), 1);
  fail_unless (bus_has (p->pipeline, GST_MESSAGE_ERROR, 0) == FALSE);

  /* the producer carries on for the others */
  good = test_client_connect (path);
  fail_unless (good != NULL);
  for (i = 0; i < 5; i++) {
    fail_unless (test_client_next_frame (good, &f, 5000));
    fail_unless_equals_uint64 (f.mems[0].size, FRAME_SMALL);
    fail_unless (test_client_release (good, f.seq));
  }

  test_client_free (bad);
  test_client_free (good);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_hung_consumer_is_cut_off)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, -1, 100,
      "release-timeout=300 max-outstanding=2");
  TestClient *hung;
  VmiFrameInfo f;
  guint n;

  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  hung = test_client_connect (path);
  fail_unless (test_client_next_frame (hung, &f, 5000));
  /* ... and never releases anything */
  fail_unless (bus_has (p->pipeline, GST_MESSAGE_WARNING, 5 * GST_SECOND));
  fail_unless (client_is_closed (hung, 5000));
  fail_unless_equals_uint64 (producer_stat (p, "clients-timed-out"), 1);
  fail_unless (producer_wait_client (p, "disconnected",
          "release-timeout expired", 1, 5 * GST_SECOND));
  /* the producer did not stall meanwhile: it went on past the 2 frames the
   * hung consumer held (skipping it) ... */
  fail_unless (producer_stat (p, "frames-skipped") > 0);
  /* ... and goes on after the cut-off */
  n = producer_frames (p);
  fail_unless (producer_wait_frames (p, n + 10, 10 * GST_SECOND));

  test_client_free (hung);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_max_clients)
{
  gchar *path = tmp_socket_path ();
  Producer *p = producer_new (path, -1, 100, "max-clients=1");
  TestClient *a, *b;
  VmiFrameInfo f;

  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  a = test_client_connect (path);
  fail_unless (test_client_next_frame (a, &f, 5000));
  b = test_client_connect (path);
  fail_unless (b != NULL);
  fail_unless (client_is_closed (b, 5000));
  fail_unless_equals_uint64 (producer_stat (p, "clients"), 1);
  fail_unless_equals_uint64 (producer_stat (p, "clients-rejected"), 1);

  test_client_free (a);
  test_client_free (b);
  producer_free (p);
  g_free (path);
}

GST_END_TEST;

static Suite *
vmi_ipc_suite (void)
{
  Suite *s = suite_create ("vmi-ipc");
  TCase *tc = tcase_create ("processes");
  TCase *th = tcase_create ("hostile");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_bit_exact_across_processes);
  tcase_add_test (tc, test_slow_consumer_never_sees_torn_frames);
  tcase_add_test (tc, test_killed_consumer);
  tcase_add_test (tc, test_producer_restart);
  tcase_add_test (tc, test_two_consumers_share_frames);

  suite_add_tcase (s, th);
  tcase_add_loop_test (th, test_hostile_producer, HOSTILE_NONE, HOSTILE_LAST);
  tcase_add_test (th, test_producer_never_reads_releases);
  tcase_add_loop_test (th, test_hostile_consumer, 0, BAD_LAST);
  tcase_add_test (th, test_hung_consumer_is_cut_off);
  tcase_add_test (th, test_max_clients);
  return s;
}

GST_CHECK_MAIN (vmi_ipc);
