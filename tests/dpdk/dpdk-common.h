/* gst-vmi tests: helpers of the DPDK tests (virtual devices only). */

#ifndef __DPDK_COMMON_H__
#define __DPDK_COMMON_H__

#include "../net/net-common.h"

#include <sched.h>

G_BEGIN_DECLS

/* EAL arguments for one test process: no hugepages, no PCI, 512 MB, one
 * lcore, a --file-prefix no other process uses, then @vdevs (e.g.
 * "--vdev net_ring0"). */
gchar *dpdk_test_eal_args (const gchar * vdevs);

/* A fresh temporary directory for pcap files and sockets (removed by
 * dpdk_test_rmdir) */
gchar *dpdk_test_mkdtemp (void);
void dpdk_test_rmdir (gchar * dir);

/* Starts the receive benchmarks' generator (bench/dpdk/rx-gen.c, the
 * library VMI_RXGEN_LIB names) in this process, replaying @pcap on
 * net_ring0 once an EAL brings that port up; @pace: NULL (as fast as the
 * receiver takes them) or frames per second ("60000/1001"). It is
 * dlopen()ed rather than given to the EAL with -d, which refuses a library
 * under a world-writable directory (a build under /tmp). Once per
 * process: the generator stops when the port does. */
void dpdk_test_rxgen_load (const gchar * pcap, const gchar * pace);

/* pcap files: every frame of @path (microsecond or nanosecond format) */
GPtrArray *dpdk_pcap_read (const gchar * path);
/* ... and each frame's time stamp, ns, appended to @times (guint64) */
GPtrArray *dpdk_pcap_read_times (const gchar * path, GArray * times);
/* writes @frames (GBytes) as a microsecond pcap with link type Ethernet */
void dpdk_pcap_write (const gchar * path, GPtrArray * frames);

/* Ethernet frames of @n_frames frames of @f (pictures @pics) as a sender
 * would put them on the wire to @group:@port, built by the tests' own
 * encoder (st2022-ref.c) */
GPtrArray *dpdk_encode_stream (const RefFormat * f, guint8 ** pics,
    guint n_frames, guint32 group, guint16 port);

/* Decodes a sink's capture of @n_frames frames of @f sent to
 * @group:@port: Ethernet/IPv4/UDP (checksums, group MAC), RTP/HBRMT
 * continuity, the raster checked line by line and the active picture
 * compared with @pics. */
void dpdk_check_capture (const RefFormat * f, GPtrArray * frames,
    guint8 ** pics, guint n_frames, guint32 group, guint16 port);

/* Sets @pipeline to @state and waits for it (30 s; not for NULL) */
void dpdk_set_state (GstElement * pipeline, GstState state);

/* Threads of this process named @prefix; the CPUs the last one may use
 * go to *@cpus (may be NULL) */
guint dpdk_count_threads (const gchar * prefix, cpu_set_t * cpus);
/* Threads of this process named @prefix that may run on @cpu (all of
 * them for -1); the CPUs and the scheduling policy of the last one named
 * so (whatever its CPUs) to *@cpus and *@policy (each may be NULL) */
guint dpdk_count_threads_on (const gchar * prefix, gint cpu,
    cpu_set_t * cpus, gint * policy);

/* Counters of @n pipelines (frames each one had), read by @count with
 * @lock held; whoever bumps one does so under @lock and broadcasts @cond */
typedef guint (*DpdkCountFunc) (guint i);

/* Waits until every counter i in @mask reaches @base[i] + @want (fails
 * after 60 s, listing them) */
void dpdk_wait_counts (GMutex * lock, GCond * cond, DpdkCountFunc count,
    guint n, guint mask, const guint * base, guint want);
/* The @n counters now, into @counts */
void dpdk_snapshot_counts (GMutex * lock, DpdkCountFunc count, guint n,
    guint * counts);

/* Runs @pipeline until the bus has an error (returned) or @timeout_s pass
 * (NULL); collects warnings into *@warnings (may be NULL) */
GError *dpdk_expect_error (GstElement * pipeline, guint timeout_s,
    gchar ** warnings);

G_END_DECLS

#endif
