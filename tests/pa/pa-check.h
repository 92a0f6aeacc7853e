/* gst-vmi tests: the issue-13 acceptance check of a Pacing-Assistant wire,
 * shared by the AF_PACKET (tests/pa/test-pa-packet.c) and DPDK net_pcap
 * (tests/dpdk/test-dpdk-pa.c) tests. */

#ifndef __PA_CHECK_H__
#define __PA_CHECK_H__

#include "net-common.h"

G_BEGIN_DECLS

/* The number of Ethernet frames the pacer (pa-free-running at @line_rate,
 * gap frames of 84...1538 wire bytes) puts on the wire for @n_frames
 * frames of @f: every command before the first SEND of the next frame */
guint pa_expected_wire_frames (const RefFormat * f, guint64 line_rate,
    guint n_frames);

/* Checks @wire (GBytes Ethernet frames in wire order, without FCS) that
 * st2022sink pacing=pa-free-running line-rate=@line_rate sync=false
 * underrun=gap sent for the @n_frames UYVP pictures @pics to UDP @port,
 * @stats being the sink's final st2022-stats:
 * - the i-th media frame (i from 0) starts at wire byte ⌊i·τ⌋ of a virtual
 *   wire on which each frame occupies its length + 24 bytes (preamble, SFD,
 *   FCS, inter-frame gap), counted from the first frame, which is media;
 * - every other frame is an 802.3 MAC-control frame to 01:80:C2:00:00:01
 *   of 84...1538 wire bytes, and the sink counted exactly those;
 * - RTP sequence, timestamps and markers run on, and the media decodes
 *   bit-exactly with the tests' independent decoder (st2022-ref.c).
 * A loaded machine may deliver EOS after the last frame's slot: the wire
 * then carries more gap frames (underrun=gap), allowed only when the sink
 * counted underruns. */
void pa_check_wire (const RefFormat * f, guint64 line_rate, GPtrArray * wire,
    guint8 ** pics, guint n_frames, guint16 port, const GstStructure * stats);

G_END_DECLS

#endif
