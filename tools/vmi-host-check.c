/* gst-vmi: what a Pacing-Assistant host needs, and what this host has.
 *
 * st2022sink pacing=pa-* turns the NIC into the stream's timer: its
 * transmit thread must keep the TX queue full at all times (thesis ch. 4,
 * assumption 1), and the NIC must send the gap frames at line rate and
 * never stop for a PAUSE. Each line below is one requirement: what this
 * host has, and the fix when it falls short.
 *
 *   vmi-host-check [--cpu N] [--iface IFACE] [--measure] [--strict]
 *
 * --cpu: the core for `tx-cpu` (default: the last one); --iface: the NIC
 * (checked: driver, link, flow control, MAC-control frames on TX);
 * --measure: run the dummy loop of vmi-jitter (docs/jitter.md) on that
 * core for 10^5 packet periods and report the jitter it finds, then 1 s
 * of timer sleeps 50 us apart and report what CPU each wake-up costs
 * (what a software-paced or shared transmit engine pays per wake-up);
 * --strict: exit 1 when a requirement is not met (default: report only).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sched.h>

#include "vmi-jitter-stats.h"

static guint n_warn;

/* One report line: [ ok ] / [warn] / [info], the item, what the host has,
 * and the fix. */
static void
report (const gchar * level, const gchar * item, const gchar * have,
    const gchar * fix)
{
  if (g_str_equal (level, "warn"))
    n_warn++;
  g_print ("[%-4s] %-22s %s\n", level, item, have);
  if (fix)
    g_print ("       %-22s fix: %s\n", "", fix);
}

static gchar *
read_line (const gchar * path)
{
  gchar *s = NULL;

  if (!g_file_get_contents (path, &s, NULL, NULL))
    return NULL;
  return g_strstrip (s);
}

/* "0-3,5" contains @cpu */
static gboolean
list_has_cpu (const gchar * list, gint cpu)
{
  gchar **parts;
  gboolean found = FALSE;
  guint i;

  if (list == NULL)
    return FALSE;
  parts = g_strsplit (list, ",", -1);
  for (i = 0; parts[i] && !found; i++) {
    gint a, b;
    if (sscanf (parts[i], "%d-%d", &a, &b) == 2)
      found = cpu >= a && cpu <= b;
    else if (sscanf (parts[i], "%d", &a) == 1)
      found = cpu == a;
  }
  g_strfreev (parts);
  return found;
}

static void
check_cores (gint cpu)
{
  gchar *iso = read_line ("/sys/devices/system/cpu/isolated");
  gchar *nohz = read_line ("/sys/devices/system/cpu/nohz_full");
  gchar *cmdline = read_line ("/proc/cmdline");
  gchar *have, *fix;

  fix = g_strdup_printf ("boot with isolcpus=%d nohz_full=%d rcu_nocbs=%d "
      "(kernel command line) and set tx-cpu=%d", cpu, cpu, cpu, cpu);
  have = g_strdup_printf ("isolated cores: %s; core %d %s",
      iso && *iso ? iso : "none", cpu, list_has_cpu (iso, cpu) ?
      "isolated" : "not isolated: the scheduler puts other work on it");
  report (list_has_cpu (iso, cpu) ? "ok" : "warn", "isolated core", have,
      list_has_cpu (iso, cpu) ? NULL : fix);
  g_free (have);
  have = g_strdup_printf ("nohz_full cores: %s", nohz && *nohz ? nohz :
      "none (the timer tick interrupts the busy-polling thread)");
  report (list_has_cpu (nohz, cpu) ? "ok" : "warn", "nohz_full", have,
      list_has_cpu (nohz, cpu) ? NULL : fix);
  g_free (have);
  g_free (fix);
  if (cmdline && strstr (cmdline, "rcu_nocbs"))
    report ("ok", "rcu_nocbs", "set on the kernel command line", NULL);
  else
    report ("info", "rcu_nocbs", "not set: RCU callbacks may run on the "
        "transmit core", "add rcu_nocbs=<tx-cpu> to the kernel command line");
  g_free (iso);
  g_free (nohz);
  g_free (cmdline);
}

static void
check_rt (void)
{
  gchar *rt = read_line ("/proc/sys/kernel/sched_rt_runtime_us");
  gboolean ok = rt && g_str_equal (rt, "-1");
  gchar *have = g_strdup_printf ("kernel.sched_rt_runtime_us = %s%s",
      rt ? rt : "?", ok ? "" : ": a pinned real-time thread that busy-polls "
      "is stopped for the rest of every second once it used that much");

  report (ok ? "ok" : "warn", "real-time throttling", have, ok ? NULL :
      "sysctl -w kernel.sched_rt_runtime_us=-1 (with an isolated tx-cpu)");
  g_free (have);
  g_free (rt);
}

static void
check_irqs (gint cpu)
{
  GDir *dir = g_dir_open ("/proc/irq", 0, NULL);
  const gchar *name;
  guint on_cpu = 0, total = 0;
  gchar *have, *first = NULL;
  gboolean balancer = FALSE;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *path, *list;

    if (!g_ascii_isdigit (name[0]))
      continue;
    path = g_strdup_printf ("/proc/irq/%s/effective_affinity_list", name);
    list = read_line (path);
    if (list == NULL) {
      g_free (path);
      path = g_strdup_printf ("/proc/irq/%s/smp_affinity_list", name);
      list = read_line (path);
    }
    if (list) {
      total++;
      if (list_has_cpu (list, cpu)) {
        on_cpu++;
        if (first == NULL)
          first = g_strdup (name);
      }
    }
    g_free (list);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  dir = g_dir_open ("/proc", 0, NULL);
  while (dir && (name = g_dir_read_name (dir))) {
    gchar *path, *comm;

    if (!g_ascii_isdigit (name[0]))
      continue;
    path = g_strdup_printf ("/proc/%s/comm", name);
    comm = read_line (path);
    if (comm && g_str_equal (comm, "irqbalance"))
      balancer = TRUE;
    g_free (comm);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);

  have = g_strdup_printf ("%u of %u interrupts may run on core %d%s%s%s",
      on_cpu, total, cpu, first ? " (first: IRQ " : "", first ? first : "",
      first ? ")" : "");
  {
    gchar *fix = g_strdup_printf ("move them off: for i in /proc/irq/*/"
        "smp_affinity_list; do echo <other cores> > $i; done (and "
        "IRQBALANCE_BANNED_CPULIST=%d for irqbalance)", cpu);
    report (on_cpu ? "warn" : "ok", "IRQ affinity", have, on_cpu ? fix :
        NULL);
    g_free (fix);
  }
  g_free (have);
  report ("info", "irqbalance", balancer ? "running: it may move interrupts "
      "back onto the transmit core" : "not running", balancer ?
      "set IRQBALANCE_BANNED_CPULIST=<tx-cpu> in /etc/default/irqbalance" :
      NULL);
  g_free (first);
}

static void
check_memory (void)
{
  gchar *meminfo = NULL, *mounts = NULL, *have;
  guint64 total = 0, free_ = 0, size_kb = 0;
  gchar **lines;
  guint i;
  struct rlimit rl;

  g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL);
  lines = g_strsplit (meminfo ? meminfo : "", "\n", -1);
  for (i = 0; lines[i]; i++) {
    sscanf (lines[i], "HugePages_Total: %" G_GUINT64_FORMAT, &total);
    sscanf (lines[i], "HugePages_Free: %" G_GUINT64_FORMAT, &free_);
    sscanf (lines[i], "Hugepagesize: %" G_GUINT64_FORMAT, &size_kb);
  }
  g_strfreev (lines);
  g_file_get_contents ("/proc/mounts", &mounts, NULL, NULL);
  have = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " pages of %" G_GUINT64_FORMAT " kB free, hugetlbfs %s", free_, total,
      size_kb, mounts && strstr (mounts, "hugetlbfs") ? "mounted" :
      "not mounted");
  report (total >= 512 && mounts && strstr (mounts, "hugetlbfs") ? "ok" :
      "warn", "hugepages", have, total >= 512 && mounts
      && strstr (mounts, "hugetlbfs") ? NULL : "echo 512 > "
      "/proc/sys/vm/nr_hugepages; mkdir -p /dev/hugepages; mount -t "
      "hugetlbfs nodev /dev/hugepages (DPDK, and frame pools without TLB "
      "misses)");
  g_free (have);
  g_free (meminfo);
  g_free (mounts);

  getrlimit (RLIMIT_MEMLOCK, &rl);
  if (rl.rlim_cur == RLIM_INFINITY)
    have = g_strdup ("unlimited");
  else
    have = g_strdup_printf ("%" G_GUINT64_FORMAT " kB (frames and rings "
        "cannot all be locked in memory)", (guint64) rl.rlim_cur / 1024);
  report (rl.rlim_cur == RLIM_INFINITY
      || rl.rlim_cur >= (rlim_t) 1 << 30 ? "ok" : "warn", "memlock", have,
      rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= (rlim_t) 1 << 30 ? NULL :
      "ulimit -l unlimited (or memlock unlimited in "
      "/etc/security/limits.conf, LimitMEMLOCK=infinity for a service)");
  g_free (have);
}

static void
check_governor (gint cpu)
{
  gchar *path = g_strdup_printf
      ("/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
  gchar *gov = read_line (path), *have;

  if (gov == NULL) {
    report ("info", "CPU frequency", "no cpufreq on this core (a VM, or the "
        "frequency is fixed by firmware): nothing to set", NULL);
  } else {
    have = g_strdup_printf ("core %d governor: %s", cpu, gov);
    report (g_str_equal (gov, "performance") ? "ok" : "warn",
        "CPU frequency", have, g_str_equal (gov, "performance") ? NULL :
        "cpupower frequency-set -g performance (and disable deep C-states: "
        "intel_idle.max_cstate=1 or a pm_qos request)");
    g_free (have);
  }
  g_free (gov);
  g_free (path);
}

static gboolean
ethtool (const gchar * iface, gpointer cmd)
{
  struct ifreq ifr;
  int fd = socket (AF_INET, SOCK_DGRAM, 0);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  memset (&ifr, 0, sizeof (ifr));
  g_strlcpy (ifr.ifr_name, iface, sizeof (ifr.ifr_name));
  ifr.ifr_data = cmd;
  ok = ioctl (fd, SIOCETHTOOL, &ifr) == 0;
  close (fd);
  return ok;
}

/* What the driver does with MAC-control frames (EtherType 0x8808) the host
 * sends, from the drivers' sources (docs/pacing.md). */
static const struct
{
  const gchar *driver;
  gboolean drops;
  const gchar *what;
} mac_control_tx[] = {
  {"i40e", TRUE, "the driver installs a TX filter dropping EtherType 0x8808 "
        "from every VSI (i40e_add_filter_to_drop_tx_flow_control_frames), "
        "against VFs sending PAUSE"},
  {"ice", TRUE, "the driver adds a TX switch rule dropping EtherType 0x8808 "
        "for the PF VSI (ice_vsi_setup)"},
  {"iavf", TRUE, "a VF of i40e/ice: the PF's filter drops 0x8808"},
  {"veth", FALSE, "a virtual pair: every frame passes"},
  {"tun", FALSE, "a virtual device: every frame passes"},
  {"mlx5_core", FALSE, "no EtherType filter in the driver; verify with a "
        "capture on the link partner"},
  {"ixgbe", FALSE, "no EtherType filter in the driver; verify with a "
        "capture on the link partner"},
};

static void
check_nic (const gchar * iface)
{
  struct ethtool_drvinfo drv = {.cmd = ETHTOOL_GDRVINFO };
  struct ethtool_pauseparam pp = {.cmd = ETHTOOL_GPAUSEPARAM };
  struct ethtool_cmd ecmd = {.cmd = ETHTOOL_GSET };
  gchar *have, *fix;
  guint i;
  gboolean known = FALSE;

  if (if_nametoindex (iface) == 0) {
    have = g_strdup_printf ("no interface named '%s'", iface);
    report ("warn", "NIC", have, "pass --iface with a name from `ip link`");
    g_free (have);
    return;
  }
  if (!ethtool (iface, &drv))
    g_strlcpy (drv.driver, "unknown", sizeof (drv.driver));
  if (ethtool (iface, &ecmd) && ethtool_cmd_speed (&ecmd) != (guint32) - 1
      && ethtool_cmd_speed (&ecmd) != 0)
    have = g_strdup_printf ("%s: driver %s, link %u Mbit/s (line-rate=%"
        G_GUINT64_FORMAT ")", iface, drv.driver, ethtool_cmd_speed (&ecmd),
        (guint64) ethtool_cmd_speed (&ecmd) * 1000000);
  else
    have = g_strdup_printf ("%s: driver %s, link speed unknown", iface,
        drv.driver);
  report ("info", "NIC", have, "set st2022sink line-rate to the link speed "
      "shown");
  g_free (have);

  if (ethtool (iface, &pp)) {
    gboolean ok = !pp.rx_pause;
    have = g_strdup_printf ("autoneg %s, rx %s, tx %s%s",
        pp.autoneg ? "on" : "off", pp.rx_pause ? "on" : "off",
        pp.tx_pause ? "on" : "off", pp.rx_pause ? ": a PAUSE from the link "
        "partner stops the NIC, and with it the pacing timer" : "");
    fix = g_strdup_printf ("ethtool -A %s autoneg off rx off tx off (and "
        "flow control off on the switch port)", iface);
    report (ok ? "ok" : "warn", "NIC flow control", have, ok ? NULL : fix);
    g_free (fix);
    g_free (have);
  } else {
    report ("info", "NIC flow control", "not reported by the driver (ethtool "
        "-a): nothing to turn off", NULL);
  }

  for (i = 0; i < G_N_ELEMENTS (mac_control_tx); i++) {
    if (!g_str_equal (drv.driver, mac_control_tx[i].driver))
      continue;
    known = TRUE;
    have = g_strdup_printf ("%s: %s", drv.driver, mac_control_tx[i].what);
    report (mac_control_tx[i].drops ? "warn" : "ok", "MAC-control TX", have,
        mac_control_tx[i].drops ? "gap frames never reach the wire and the "
        "pacing collapses: use a NIC whose TX passes 0x8808 (e.g. mlx5, "
        "ixgbe), or a driver built without that filter; gap-frame=pause "
        "does not help (same EtherType)" : NULL);
    g_free (have);
  }
  if (!known) {
    have = g_strdup_printf ("%s: not known here", drv.driver);
    report ("info", "MAC-control TX", have, "send a stream with pacing="
        "pa-free-running and count 0x8808 frames on the link partner "
        "(tcpdump -e ether proto 0x8808); none means the NIC drops them");
    g_free (have);
  }
}

/* Spikes beyond the papers' tuned baseline (~15 µs at T = 7.41 µs) mean
 * the core is not quiet enough for a busy-polling thread. */
#define MEASURE_PERIOD_NS 7410
#define MEASURE_ITERATIONS 100000
#define MEASURE_MAX_EXCESS_NS 20000.0

/* Moves this thread onto @cpu, keeping its CPUs in @old; says so as a
 * warning on @item when it cannot. */
static gboolean
pin_to (gint cpu, cpu_set_t * old, const gchar * item)
{
  cpu_set_t set;

  sched_getaffinity (0, sizeof (*old), old);
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof (set), &set) == 0)
    return TRUE;
  report ("warn", item, "cannot run on that core",
      "pass --cpu with a core this process may use");
  return FALSE;
}

static void
measure (gint cpu)
{
  guint64 *ts = g_new (guint64, MEASURE_ITERATIONS);
  double *t = g_new (double, MEASURE_ITERATIONS);
  cpu_set_t old;
  VmiJitterSummary s;
  gsize n, i;
  gchar *have, *fix;
  gboolean ok;

  if (!pin_to (cpu, &old, "host jitter")) {
    g_free (ts);
    g_free (t);
    return;
  }
  n = vmi_jitter_dummy_loop (ts, MEASURE_ITERATIONS, MEASURE_PERIOD_NS, NULL);
  sched_setaffinity (0, sizeof (old), &old);
  for (i = 0; i < n; i++)
    t[i] = (double) (ts[i] - ts[0]);
  if (!vmi_jitter_summarize (t, n, MEASURE_PERIOD_NS, 0, 0, &s)) {
    report ("warn", "host jitter", "the dummy loop measured nothing", NULL);
    g_free (ts);
    g_free (t);
    return;
  }
  ok = s.max_ns - MEASURE_PERIOD_NS <= MEASURE_MAX_EXCESS_NS;
  have = g_strdup_printf ("dummy loop on core %d, %" G_GSIZE_FORMAT
      " x %.2f us: p99.9 %.1f us, max %.1f us, %" G_GSIZE_FORMAT
      " spikes > %.1f us; a receiver needs %" G_GUINT64_FORMAT
      " datagrams (%.0f us) at this rate", cpu, s.count,
      MEASURE_PERIOD_NS / 1e3, s.p999_ns / 1e3, s.max_ns / 1e3, s.spikes,
      s.spike_threshold_ns / 1e3, s.buffer_packets, s.buffer_us);
  fix = g_strdup_printf ("stalls of up to %.0f us: isolate the core (above), "
      "route IRQs elsewhere, then vmi-jitter dummy --cpu %d --plot "
      "dummy.png (docs/jitter.md)", (s.max_ns - MEASURE_PERIOD_NS) / 1e3, cpu);
  report (ok ? "ok" : "warn", "host jitter", have, ok ? NULL : fix);
  g_free (have);
  g_free (fix);
  g_free (ts);
  g_free (t);
}

/* A software-paced transmit thread and a shared engine sleep until their
 * next instant; at 8 streams of 1080p59.94 a shared engine wakes about
 * 20,000 times a second (its 20 us batching window), so what a wake-up
 * costs the core besides the work is a share of the core the streams do
 * not get. More than 5 us each is 10 % of the core at that rate. */
#define WAKE_PERIOD_NS 50000u
#define WAKE_ITERATIONS 20000
#define WAKE_MAX_CPU_NS 5000.0

static int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
measure_wakeups (gint cpu)
{
  guint64 *late = g_new (guint64, WAKE_ITERATIONS);
  cpu_set_t old;
  double cpu_ns;
  gsize n;
  gchar *have;
  gboolean ok;

  if (!pin_to (cpu, &old, "timer wake-up")) {
    g_free (late);
    return;
  }
  n = vmi_jitter_sleep_loop (late, WAKE_ITERATIONS, WAKE_PERIOD_NS, &cpu_ns);
  sched_setaffinity (0, sizeof (old), &old);
  if (n == 0) {
    report ("warn", "timer wake-up", "clock_nanosleep failed", NULL);
    g_free (late);
    return;
  }
  qsort (late, n, sizeof (guint64), cmp_u64);
  ok = cpu_ns <= WAKE_MAX_CPU_NS;
  have = g_strdup_printf ("%" G_GSIZE_FORMAT " sleeps of %u us on core %d: "
      "%.1f us of CPU each (%.0f %% of the core at %u wake-ups per second, "
      "a shared transmit engine's rate at 8 streams); late p99 %.1f us, "
      "max %.1f us", n, WAKE_PERIOD_NS / 1000, cpu, cpu_ns / 1e3,
      cpu_ns / WAKE_PERIOD_NS * 100, 1000000000u / WAKE_PERIOD_NS,
      late[(n - 1) * 99 / 100] / 1e3, late[n - 1] / 1e3);
  report (ok ? "ok" : "warn", "timer wake-up", have, ok ? NULL :
      "a software-paced sink's transmit thread and a shared engine pay "
      "this on every wake-up on top of their work: give them a core where "
      "a wake-up costs less (bare metal, or a VM with dedicated vCPUs), "
      "or use pacing=pa-* on a NIC of its own (it busy-polls; no timer)");
  g_free (have);
  g_free (late);
}

int
main (int argc, char **argv)
{
  gint cpu = -1;
  gchar *iface = NULL;
  gboolean strict = FALSE, do_measure = FALSE;
  GOptionEntry entries[] = {
    {"cpu", 'c', 0, G_OPTION_ARG_INT, &cpu,
        "Core of the transmit thread (tx-cpu; default: the last one)", "N"},
    {"iface", 'i', 0, G_OPTION_ARG_STRING, &iface, "The NIC to check",
        "IFACE"},
    {"measure", 'm', 0, G_OPTION_ARG_NONE, &do_measure,
        "Run a short dummy loop (vmi-jitter dummy) on the core", NULL},
    {"strict", 0, 0, G_OPTION_ARG_NONE, &strict,
        "Exit 1 when a requirement is not met", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- what a Pacing-Assistant "
      "host needs, and what this host has");
  GError *err = NULL;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr ("vmi-host-check: %s\n", err->message);
    return 2;
  }
  g_option_context_free (ctx);
  if (cpu < 0)
    cpu = (gint) sysconf (_SC_NPROCESSORS_ONLN) - 1;

  g_print ("Pacing-Assistant host check (transmit core %d)\n", cpu);
  check_cores (cpu);
  check_rt ();
  check_irqs (cpu);
  check_memory ();
  check_governor (cpu);
  if (iface)
    check_nic (iface);
  else
    report ("info", "NIC", "not checked", "pass --iface IFACE (driver, link "
        "speed, flow control, MAC-control frames on TX)");
  if (do_measure) {
    measure (cpu);
    measure_wakeups (cpu);
  } else {
    report ("info", "host jitter", "not measured", "pass --measure (a short "
        "dummy loop on the core), or measure with vmi-jitter dummy|sink "
        "(docs/jitter.md)");
    report ("info", "timer wake-up", "not measured", "pass --measure (1 s "
        "of timer sleeps on the core: what each wake-up costs it)");
  }
  g_print ("%u requirement%s not met\n", n_warn, n_warn == 1 ? "" : "s");
  g_free (iface);
  return strict && n_warn ? 1 : 0;
}
