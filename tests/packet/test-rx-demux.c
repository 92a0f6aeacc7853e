/* gst-vmi tests: the demultiplexing table of a shared receive engine
 * (gst/transport/vmi-rx-demux.h), pure C: exact lookups, the any-address
 * fallback, duplicates refused, removal that keeps the other streams'
 * probe chains, a full table. */

#include <glib.h>
#include <arpa/inet.h>

#include "transport/vmi-rx-demux.h"

static guint32
ip (const gchar * s)
{
  struct in_addr a;

  g_assert_cmpint (inet_pton (AF_INET, s, &a), ==, 1);
  return a.s_addr;
}

static void
test_lookup (void)
{
  VmiRxDemux d;

  vmi_rx_demux_init (&d);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.1"), 5004), ==,
      VMI_RX_DEMUX_NONE);
  g_assert_true (vmi_rx_demux_add (&d, ip ("239.1.2.1"), 5004, 0));
  g_assert_true (vmi_rx_demux_add (&d, ip ("239.1.2.2"), 5004, 1));
  g_assert_true (vmi_rx_demux_add (&d, ip ("239.1.2.1"), 5006, 2));
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.1"), 5004), ==, 0);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.2"), 5004), ==, 1);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.1"), 5006), ==, 2);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.2"), 5006), ==,
      VMI_RX_DEMUX_NONE);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.3"), 5004), ==,
      VMI_RX_DEMUX_NONE);
  /* an address and port is one stream's */
  g_assert_false (vmi_rx_demux_add (&d, ip ("239.1.2.2"), 5004, 7));
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.1.2.2"), 5004), ==, 1);
  g_assert_false (vmi_rx_demux_add (&d, ip ("239.1.2.9"), 5004,
          VMI_RX_DEMUX_NONE));
  g_assert_cmpuint (d.n, ==, 3);
}

/* a unicast receiver bound to 0.0.0.0 takes its port on any address,
 * unless a stream has that exact address */
static void
test_any_address (void)
{
  VmiRxDemux d;

  vmi_rx_demux_init (&d);
  g_assert_true (vmi_rx_demux_add (&d, 0, 6000, 4));
  g_assert_true (vmi_rx_demux_add (&d, ip ("10.0.0.5"), 6000, 5));
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("10.0.0.9"), 6000), ==, 4);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("10.0.0.5"), 6000), ==, 5);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("10.0.0.9"), 6002), ==,
      VMI_RX_DEMUX_NONE);
  g_assert_true (vmi_rx_demux_remove (&d, 4));
  g_assert_cmpuint (d.n_any, ==, 0);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("10.0.0.9"), 6000), ==,
      VMI_RX_DEMUX_NONE);
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("10.0.0.5"), 6000), ==, 5);
}

/* streams join and leave in any order: every other one is still found
 * (a removed entry must not cut the probe chain of one behind it) */
static void
test_join_leave (void)
{
  VmiRxDemux d;
  gboolean in[VMI_RX_DEMUX_MAX] = { FALSE };
  GRand *r = g_rand_new_with_seed (7);
  guint round, i;

  vmi_rx_demux_init (&d);
  for (round = 0; round < 20000; round++) {
    guint id = g_rand_int_range (r, 0, VMI_RX_DEMUX_MAX);
    /* few distinct ports, so that keys collide and chains form */
    guint32 addr = GUINT32_TO_BE (0xef000000u + id * 0x10000u);
    guint16 port = 5000 + (id % 3);

    if (in[id]) {
      g_assert_true (vmi_rx_demux_remove (&d, id));
      in[id] = FALSE;
    } else {
      g_assert_true (vmi_rx_demux_add (&d, addr, port, id));
      in[id] = TRUE;
    }
    for (i = 0; i < VMI_RX_DEMUX_MAX; i++) {
      guint want = in[i] ? i : VMI_RX_DEMUX_NONE;
      g_assert_cmpuint (vmi_rx_demux_lookup (&d, GUINT32_TO_BE (0xef000000u +
                  i * 0x10000u), 5000 + (i % 3)), ==, want);
    }
  }
  g_assert_false (vmi_rx_demux_remove (&d, VMI_RX_DEMUX_MAX + 1));
  g_rand_free (r);
}

static void
test_full (void)
{
  VmiRxDemux d;
  guint i;

  vmi_rx_demux_init (&d);
  for (i = 0; i < VMI_RX_DEMUX_MAX; i++)
    g_assert_true (vmi_rx_demux_add (&d, GUINT32_TO_BE (0xef010100u + i),
            5004, i));
  g_assert_false (vmi_rx_demux_add (&d, ip ("239.9.9.9"), 5004, 99));
  for (i = 0; i < VMI_RX_DEMUX_MAX; i++)
    g_assert_cmpuint (vmi_rx_demux_lookup (&d, GUINT32_TO_BE (0xef010100u +
                i), 5004), ==, i);
  g_assert_true (vmi_rx_demux_remove (&d, 10));
  g_assert_true (vmi_rx_demux_add (&d, ip ("239.9.9.9"), 5004, 99));
  g_assert_cmpuint (vmi_rx_demux_lookup (&d, ip ("239.9.9.9"), 5004), ==, 99);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rx-demux/lookup", test_lookup);
  g_test_add_func ("/rx-demux/any-address", test_any_address);
  g_test_add_func ("/rx-demux/join-leave", test_join_leave);
  g_test_add_func ("/rx-demux/full", test_full);
  return g_test_run ();
}
