/* gst-vmi tests: a veth pair between two network namespaces for the packet
 * transport, and an Ethernet/IPv4/UDP writer of the tests' own (written
 * from RFC 791/768, sharing no code with gst/transport/vmi-rawnet.c). */

#ifndef __PACKET_COMMON_H__
#define __PACKET_COMMON_H__

#include <gst/check/gstcheck.h>

G_BEGIN_DECLS

#define PKT_IF_A "vpka"         /* in the test process' namespace */
#define PKT_IF_B "vpkb"         /* the peer, in namespace "vmipkt-<pid>" */
#define PKT_IP_A "10.77.0.1"
#define PKT_IP_B "10.77.0.2"

extern guint8 pkt_mac_a[6], pkt_mac_b[6];

/* Exits 77 (meson SKIP), saying why, unless the test runs as root with
 * `ip`; otherwise moves the process into a network namespace of its own
 * holding PKT_IF_A, whose veth peer PKT_IF_B is in a second namespace;
 * both up, IPv4 addressed, IPv6 off (so nothing but the test talks). */
void pkt_env_setup (void);
void pkt_env_teardown (void);

/* main() of a test binary: the namespaces around the check suite */
int pkt_test_main (int argc, char **argv, Suite * (*make) (void),
    const gchar * name, const gchar * file);

/* Runs a shell command (printf format); fails the test when it fails.
 * "@PEER@" in the command is replaced by the peer namespace's name. */
void pkt_run (const gchar * fmt, ...) G_GNUC_PRINTF (1, 2);

/* A socket created in the peer namespace */
int pkt_peer_socket (int domain, int type, int protocol);

/* An AF_PACKET socket on PKT_IF_B (peer) seeing every frame that arrives
 * from PKT_IF_A, with a large receive buffer; also used to send. */
int pkt_capture_open (void);

/* Appends arriving frames (GBytes) to @out until it holds @want, failing
 * when @idle_s seconds pass without one; then takes whatever else is
 * already queued. Frames the peer itself sends are skipped. */
void pkt_capture_read (int fd, GPtrArray * out, guint want, guint idle_s);

/* RFC 1071 checksum, and a whole Ethernet/IPv4/UDP frame (DF, ID 0, UDP
 * checksum 0) */
guint16 pkt_csum (const guint8 * p, gsize n);
gsize pkt_build_udp (guint8 * buf, const guint8 dst_mac[6],
    const guint8 src_mac[6], const gchar * src_ip, const gchar * dst_ip,
    guint16 sport, guint16 dport, guint8 ttl, const guint8 * payload,
    gsize len);

/* 01:00:5e + the low 23 bits of @group */
void pkt_group_mac (const gchar * group, guint8 mac[6]);

G_END_DECLS

#endif
