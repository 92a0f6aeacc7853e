/* gst-vmi: link layer -> IPv4/IPv6 -> UDP payload of one captured packet,
 * for vmi-analyze (and its libFuzzer target tests/fuzz/fuzz-pcap.c): every
 * byte comes from a capture file, so nothing is read that was not captured.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_CAPTURE_H__
#define __VMI_CAPTURE_H__

#include <glib.h>

G_BEGIN_DECLS

gboolean vmi_capture_udp (int dlt, const guint8 * p, guint caplen,
    guint16 * dport, const guint8 ** payload, guint * payload_len);

G_END_DECLS

#endif /* __VMI_CAPTURE_H__ */
