/* gst-vmi benchmark: N live 1080p59.94 st2022sink on one shared transmit
 * engine (`shared-engine`, `tx-cpu`) on DPDK net_null, in real time.
 *
 *   bench-tx-shared <streams> <seconds> <tx-cpu> <eal-args> [pacing]
 *
 * Each sink has a pipeline of its own: videotestsrc num-buffers=1 !
 * imagefreeze is-live=true ! queue ! st2022sink, the pipelines sharing one
 * clock, stopped after the measurement. After one second of warm-up the sinks' statistics
 * and the shared thread's scheduling figures (/proc/self/task/<tid>:
 * schedstat, status) are taken, and again after <seconds>; the difference
 * is printed as one line:
 *
 *   tx-shared streams=<n> frames=<f> late=<l> behind=<b> element_late=<e>
 *     late_max_ms=<m> thread_cpu=<%> thread_wait_ms=<w> thread_preempted=<p>
 *     writers_on_tx_cpu_ms=<c> thread_wakeups_per_s=<v> steal_ms=<s>
 *     cpu_stalls=<k> cpu_stall_max_ms=<x> late_cpu_away=<a>
 *     late_run_queue=<q> late_behind=<h> late_engine=<o> caps=<negotiated
 *     caps of the first sink>
 *
 * late: frames the shared thread sent a run of more than 5 % of a frame
 * period after its instant (engine-frames-late); behind: frames that
 * reached the engine after their launch time (engine-frames-behind);
 * element_late: the element's frames-late; late_max_ms: the latest run
 * (engine-late-max, over the whole run); thread_cpu: the shared thread's
 * CPU time per wall time; thread_wait_ms: time it was runnable but another
 * thread had its CPU; thread_preempted: its involuntary context switches;
 * writers_on_tx_cpu_ms: CPU time the process's other threads ran while
 * last seen on tx-cpu (a sample, from /proc <tid>/stat "processor");
 * thread_wakeups_per_s: its voluntary context switches (sleeps) per
 * second; steal_ms: /proc/stat steal of tx-cpu (10 ms ticks).
 *
 * Whose lateness: a probe thread on tx-cpu at a real-time priority above
 * the engine's wakes every millisecond; the engine cannot delay it, so
 * when it wakes late the CPU itself was away (the hypervisor ran another
 * guest, or the kernel its interrupts). The run is cut in 50 ms slices;
 * for each slice in which engine-frames-late grew a line
 *
 *   tx-shared-late t=<s> frames=<n> probe_late_ms=<x> steal_ms=<s>
 *     runq_wait_ms=<w> behind=<n> cause=cpu-away|run-queue|behind|engine
 *
 * says what the slice and the one before saw, and its late frames go to
 * late_cpu_away (the probe 0.3 ms or more late: a stall of the CPU),
 * late_run_queue (else the thread waited 834 us or more for its CPU in
 * the guest, the probe's own turns taken out), late_behind (else frames
 * reached the engine late, engine-frames-behind grew: their backlog goes
 * at once and their runs due after it wait for it) or late_engine (none
 * of these: the engine's own). cpu_stalls: slices with such a stall, and the
 * probe's latest wake-up. Late keeps its meaning: the causes only sort
 * it. The probe costs the engine a preemption a millisecond.
 *
 * Not a test: timings on a shared machine are noise (the caller prints
 * the load next to each line). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <gst/gst.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_STREAMS 64

typedef struct
{
  guint64 frames, late, behind, element_late;
  gint64 late_max;
} SinkFigures;

typedef struct
{
  guint64 run_ns, wait_ns, nonvol, vol;
} ThreadFigures;

/* the measurement is cut in slices of this; a late frame is put down to
 * what happened to the engine's CPU in its slice or the one before (a
 * frame is counted late when its last run leaves, up to a frame period
 * after the run that was late) */
#define SLICE_US 50000

static guint64
stat_u64 (const GstStructure * st, const gchar * name)
{
  guint64 v = 0;

  gst_structure_get_uint64 (st, name, &v);
  return v;
}

static void
sink_figures (GstElement ** sinks, guint n, SinkFigures * f)
{
  guint i;

  memset (f, 0, sizeof (*f));
  for (i = 0; i < n; i++) {
    GstStructure *st = NULL;
    gint64 worst = 0;

    g_object_get (sinks[i], "stats", &st, NULL);
    if (st == NULL)
      continue;
    f->frames += stat_u64 (st, "frames");
    f->late += stat_u64 (st, "engine-frames-late");
    f->behind += stat_u64 (st, "engine-frames-behind");
    f->element_late += stat_u64 (st, "frames-late");
    gst_structure_get_int64 (st, "engine-late-max", &worst);
    f->late_max = MAX (f->late_max, worst);
    gst_structure_free (st);
  }
}

/* not inlined: GCC 12 then takes the returned text for a dangling
 * pointer to the local it was read into */
G_GNUC_NO_INLINE static gchar *
task_file (const gchar * tid, const gchar * name)
{
  gchar *path = g_strdup_printf ("/proc/self/task/%s/%s", tid, name);
  gchar *s = NULL;

  g_file_get_contents (path, &s, NULL, NULL);
  g_free (path);
  return s;
}

/* The number after @key in /proc/self/task/@tid/status */
static guint64
status_field (const gchar * tid, const gchar * key)
{
  gchar *status = task_file (tid, "status");
  const gchar *at = status ? strstr (status, key) : NULL;
  guint64 v = at ? g_ascii_strtoull (at + strlen (key), NULL, 10) : 0;

  g_free (status);
  return v;
}

/* CPU time (ns) of thread @tid when it was last seen on @cpu, else 0 */
static guint64
cpu_ns_if_on (const gchar * tid, gint cpu)
{
  gchar *st = task_file (tid, "stat");
  const gchar *after = st ? strrchr (st, ')') : NULL;
  gchar **v = g_strsplit (after ? after + 2 : "", " ", 0);
  guint64 ns = 0;

  /* after ")": utime is the 12th field, stime the 13th, processor 37th */
  if (g_strv_length (v) > 36 && atoi (v[36]) == cpu)
    ns = (g_ascii_strtoull (v[11], NULL, 10) +
        g_ascii_strtoull (v[12], NULL, 10)) * (1000000000 / sysconf
        (_SC_CLK_TCK));
  g_strfreev (v);
  g_free (st);
  return ns;
}

/* The shared thread's figures (comm vmi-tx-*), and the CPU time (ns) of
 * every other thread last seen on @cpu into *@others */
static gboolean
thread_figures (gint cpu, ThreadFigures * f, guint64 * others)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *tid;
  gboolean found = FALSE;

  memset (f, 0, sizeof (*f));
  *others = 0;
  while (dir && (tid = g_dir_read_name (dir))) {
    gchar *comm = task_file (tid, "comm");

    if (comm && g_str_has_prefix (comm, "vmi-tx-")) {
      gchar *ss = task_file (tid, "schedstat");

      if (ss)
        sscanf (ss, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &f->run_ns,
            &f->wait_ns);
      f->nonvol = status_field (tid, "nonvoluntary_ctxt_switches:");
      f->vol = status_field (tid, "\nvoluntary_ctxt_switches:");
      found = TRUE;
      g_free (ss);
    } else if (comm) {
      *others += cpu_ns_if_on (tid, cpu);
    }
    g_free (comm);
  }
  if (dir)
    g_dir_close (dir);
  return found;
}

/* The CPU probe: a thread on the engine's CPU at a real-time priority
 * above the engine's (vmi-tx-engine.c: SCHED_FIFO 10) waking every
 * PROBE_NS; the engine cannot delay it, so when it wakes late the CPU
 * itself was away: the hypervisor ran something else (steal, counted by
 * /proc/stat only in 10 ms ticks) or the kernel ran interrupts. Its
 * lateness, sampled per slice, is what tells a VM stall from the
 * engine's own. Costs the engine a wake-up of the probe per PROBE_NS. */
#define PROBE_NS 1000000
/* a probe this late saw a stall of the CPU: every stall of 1.3 ms or
 * more is seen, one of the 834 us a run may be late at least half the
 * time (a stall of L covers a probe instant by L - 1 ms to L) */
#define PROBE_STALL_NS 300000

typedef struct
{
  gint cpu;
  gint quit;                    /* atomic */
  gint64 late_max;              /* atomic: since the watcher last took it */
  gboolean rt;
  gint tid;                     /* atomic, 0 until it runs */
} Probe;

/* CPU time (ns) of thread @tid (its schedstat) */
static guint64
thread_run_ns (gint tid)
{
  gchar *name = g_strdup_printf ("%d", tid);
  gchar *ss = tid ? task_file (name, "schedstat") : NULL;
  guint64 ns = ss ? g_ascii_strtoull (ss, NULL, 10) : 0;

  g_free (ss);
  g_free (name);
  return ns;
}

static gint64
mono_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static gpointer
probe_thread (gpointer data)
{
  Probe *p = data;
  struct sched_param sp = {.sched_priority = 11 };
  cpu_set_t set;
  gint64 next;

  g_atomic_int_set (&p->tid, (gint) gettid ());
  prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  CPU_ZERO (&set);
  CPU_SET (p->cpu, &set);
  pthread_setaffinity_np (pthread_self (), sizeof (set), &set);
  p->rt = pthread_setschedparam (pthread_self (), SCHED_FIFO, &sp) == 0;
  next = mono_ns () + PROBE_NS;
  while (!g_atomic_int_get (&p->quit)) {
    struct timespec ts = { next / 1000000000, next % 1000000000 };
    gint64 late, old;

    clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    late = mono_ns () - next;
    old = __atomic_load_n (&p->late_max, __ATOMIC_RELAXED);
    while (late > old && !__atomic_compare_exchange_n (&p->late_max, &old,
            late, FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    next += PROBE_NS;
    /* after a stall: the next instant from now, not a burst of them */
    if (next < mono_ns ())
      next = mono_ns () + PROBE_NS;
  }
  return NULL;
}

/* Steal time (ns) of @cpu so far: the hypervisor ran another guest
 * while this vCPU had work (/proc/stat "cpuN", 8th value, USER_HZ ticks) */
static guint64
steal_ns (gint cpu)
{
  gchar *stat = NULL, *key = g_strdup_printf ("\ncpu%d ", cpu);
  const gchar *at;
  guint64 v[8] = { 0 };

  g_file_get_contents ("/proc/stat", &stat, NULL, NULL);
  at = stat ? strstr (stat, key) : NULL;
  if (at)
    sscanf (at + strlen (key), "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
        " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
        " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
        &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  g_free (key);
  g_free (stat);
  return v[7] * (1000000000 / sysconf (_SC_CLK_TCK));
}

typedef struct
{
  /* engine-frames-late put down to: the engine's CPU away (the probe
   * late), the thread waiting for its CPU in the guest (run queue), or
   * neither: the engine's own */
  guint64 late_cpu, late_runq, late_behind, late_own;
  guint64 steal;                /* ns over the measurement */
  guint stalls;                 /* slices in which the probe saw a stall */
  gint64 stall_max;             /* the probe's latest wake-up */
} Blame;

/* Watches @secs seconds in slices: each slice whose engine-frames-late
 * grew is printed (when, how many, what the probe, steal and run-queue
 * wait saw in that slice and the one before) and its late frames
 * blamed */
static void
watch (GstElement ** sinks, guint n, gint cpu, guint secs, Probe * p,
    Blame * b)
{
  guint slices = secs * (G_USEC_PER_SEC / SLICE_US), k;
  guint64 prev_steal_d = 0, prev_wait_d = 0, steal0, steal, last_late;
  guint64 probe_run, probe_run0, last_behind, prev_behind_d = 0;
  gint64 prev_probe = 0;
  ThreadFigures t, tw;
  SinkFigures f;
  guint64 others;
  gint64 t0 = g_get_monotonic_time ();

  memset (b, 0, sizeof (*b));
  steal0 = steal = steal_ns (cpu);
  thread_figures (cpu, &tw, &others);
  sink_figures (sinks, n, &f);
  last_late = f.late;
  last_behind = f.behind;
  __atomic_store_n (&p->late_max, 0, __ATOMIC_RELAXED);
  probe_run0 = thread_run_ns (g_atomic_int_get (&p->tid));
  for (k = 1; k <= slices; k++) {
    gint64 wake = t0 + (gint64) k * SLICE_US - g_get_monotonic_time ();
    guint64 st, sd, wd, late, bd;
    gint64 probe;

    if (wake > 0)
      g_usleep (wake);
    probe = __atomic_exchange_n (&p->late_max, 0, __ATOMIC_RELAXED);
    st = steal_ns (cpu);
    thread_figures (cpu, &t, &others);
    sink_figures (sinks, n, &f);
    sd = st - steal;
    /* less the probe's own turns on the CPU */
    probe_run = thread_run_ns (g_atomic_int_get (&p->tid));
    wd = t.wait_ns - tw.wait_ns;
    wd -= MIN (wd, probe_run - probe_run0);
    probe_run0 = probe_run;
    late = f.late - last_late;
    bd = f.behind - last_behind;
    b->stall_max = MAX (b->stall_max, probe);
    if (probe >= PROBE_STALL_NS)
      b->stalls++;
    if (late) {
      const gchar *why;

      /* the CPU away: nothing the engine did; a run-queue wait as long
       * as the 5 % a run may be late (834 us at 59.94 Hz): the guest
       * ran another thread of at least the engine's priority */
      if (MAX (probe, prev_probe) >= PROBE_STALL_NS) {
        why = "cpu-away";
        b->late_cpu += late;
      } else if (wd + prev_wait_d >= 834000) {
        why = "run-queue";
        b->late_runq += late;
      } else if (bd + prev_behind_d > 0) {
        /* frames queued late: their backlog leaves at once, and the
         * runs due after it wait for it (vmi-tx-sched.h) */
        why = "behind";
        b->late_behind += late;
      } else {
        why = "engine";
        b->late_own += late;
      }
      printf ("tx-shared-late t=%.2fs frames=%" G_GUINT64_FORMAT
          " probe_late_ms=%.2f steal_ms=%.0f runq_wait_ms=%.2f behind=%"
          G_GUINT64_FORMAT " cause=%s\n",
          (g_get_monotonic_time () - t0) / 1e6, late,
          MAX (probe, prev_probe) / 1e6, (sd + prev_steal_d) / 1e6,
          (wd + prev_wait_d) / 1e6, bd + prev_behind_d, why);
    }
    prev_steal_d = sd;
    prev_wait_d = wd;
    prev_probe = probe;
    steal = st;
    tw = t;
    last_late = f.late;
    prev_behind_d = bd;
    last_behind = f.behind;
  }
  b->steal = steal - steal0;
}

int
main (int argc, char **argv)
{
  GstElement *pipes[MAX_STREAMS], *sinks[MAX_STREAMS];
  GstClock *clock;
  GstCaps *caps = NULL;
  GstPad *pad;
  SinkFigures s0, s1;
  ThreadFigures t0, t1;
  Blame blame;
  Probe probe = { 0 };
  GThread *probe_th;
  guint64 o0, o1;
  gint64 w0, w1;
  guint n, i, secs;
  gint cpu;
  gboolean ok = TRUE;
  gchar *engine, *caps_s;
  const gchar *pacing;

  gst_init (&argc, &argv);
  if (argc < 5) {
    g_printerr ("usage: %s <streams> <seconds> <tx-cpu> <eal-args> "
        "[pacing]\n", argv[0]);
    return 2;
  }
  n = CLAMP (atoi (argv[1]), 1, MAX_STREAMS);
  secs = MAX (1, atoi (argv[2]));
  cpu = atoi (argv[3]);
  pacing = argc > 5 ? argv[5] : "software";
  engine = g_strdup_printf ("b%d", (int) getpid ());

  clock = gst_system_clock_obtain ();
  for (i = 0; i < n; i++) {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=%u ! "
        "video/x-raw,format=UYVP,width=1920,height=1080 ! "
        "imagefreeze is-live=true ! "
        "video/x-raw,framerate=60000/1001,interlace-mode=progressive ! "
        "queue ! st2022sink name=sink transport=dpdk host=239.1.3.%u "
        "port=5004 bind-address=10.1.3.1 pacing=%s shared-engine=%s "
        "tx-cpu=%d stats-interval=0 dpdk-eal-args=\"%s\"", i % 20, i + 1, pacing, engine, cpu, argv[4]);

    pipes[i] = gst_parse_launch (desc, &err);
    if (pipes[i] == NULL) {
      g_printerr ("pipeline: %s\n", err->message);
      return 1;
    }
    g_free (desc);
    gst_pipeline_use_clock (GST_PIPELINE (pipes[i]), clock);
    sinks[i] = gst_bin_get_by_name (GST_BIN (pipes[i]), "sink");
  }
  for (i = 0; i < n; i++)
    if (gst_element_set_state (pipes[i], GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE) {
      g_printerr ("stream %u does not start\n", i);
      return 1;
    }

  g_usleep (G_USEC_PER_SEC);
  sink_figures (sinks, n, &s0);
  if (!thread_figures (cpu, &t0, &o0)) {
    g_printerr ("no shared transmit thread (vmi-tx-*)\n");
    return 1;
  }
  probe.cpu = cpu;
  probe_th = g_thread_new ("probe", probe_thread, &probe);
  while (!g_atomic_int_get (&probe.tid))
    g_usleep (1000);
  w0 = g_get_monotonic_time ();
  watch (sinks, n, cpu, secs, &probe, &blame);
  sink_figures (sinks, n, &s1);
  thread_figures (cpu, &t1, &o1);
  w1 = g_get_monotonic_time ();
  g_atomic_int_set (&probe.quit, 1);
  g_thread_join (probe_th);

  /* the streams run on until stopped: an error is all there is to see */
  for (i = 0; i < n; i++) {
    GstMessage *m = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipes[i]),
        GST_MESSAGE_ERROR);

    if (m) {
      GError *e = NULL;

      gst_message_parse_error (m, &e, NULL);
      g_printerr ("stream %u: %s\n", i, e->message);
      g_error_free (e);
      gst_message_unref (m);
      ok = FALSE;
    }
  }
  pad = gst_element_get_static_pad (sinks[0], "sink");
  caps = gst_pad_get_current_caps (pad);
  caps_s = caps ? gst_caps_to_string (caps) : g_strdup ("(none)");
  for (i = 0; i < n; i++) {
    gst_element_set_state (pipes[i], GST_STATE_NULL);
    gst_object_unref (sinks[i]);
    gst_object_unref (pipes[i]);
  }
  if (ok)
    printf ("tx-shared streams=%u frames=%" G_GUINT64_FORMAT " late=%"
        G_GUINT64_FORMAT " behind=%" G_GUINT64_FORMAT " element_late=%"
        G_GUINT64_FORMAT " late_max_ms=%.2f thread_cpu=%.0f%% "
        "thread_wait_ms=%.1f thread_preempted=%" G_GUINT64_FORMAT
        " writers_on_tx_cpu_ms=%.0f thread_wakeups_per_s=%.0f steal_ms=%.0f"
        " cpu_stalls=%u cpu_stall_max_ms=%.2f late_cpu_away=%"
        G_GUINT64_FORMAT " late_run_queue=%" G_GUINT64_FORMAT
        " late_behind=%" G_GUINT64_FORMAT " late_engine=%" G_GUINT64_FORMAT
        "%s caps=%s\n", n,
        s1.frames - s0.frames,
        s1.late - s0.late, s1.behind - s0.behind,
        s1.element_late - s0.element_late, s1.late_max / 1e6,
        100.0 * (t1.run_ns - t0.run_ns) / ((w1 - w0) * 1e3),
        (t1.wait_ns - t0.wait_ns) / 1e6, t1.nonvol - t0.nonvol,
        (o1 > o0 ? o1 - o0 : 0) / 1e6,
        (t1.vol - t0.vol) / ((w1 - w0) / 1e6), blame.steal / 1e6,
        blame.stalls, blame.stall_max / 1e6, blame.late_cpu,
        blame.late_runq, blame.late_behind, blame.late_own,
        probe.rt ? "" : " probe=not-real-time", caps_s);
  g_free (caps_s);
  if (caps)
    gst_caps_unref (caps);
  gst_object_unref (pad);
  gst_object_unref (clock);
  g_free (engine);
  return ok ? 0 : 1;
}
