/* gst-vmi: gap frames for a Pacing-Assistant
 *
 * A wait(n) of the pacing algorithms is a frame that occupies n wire bytes
 * and that the first hop drops: an IEEE 802.3 MAC Control frame
 * (EtherType 0x8808) to 01:80:C2:00:00:01, an address IEEE 802.1Q bridges
 * never forward. Sizes:
 *
 *   wire bytes n = preamble+SFD (8) + frame with FCS + inter-frame gap (12)
 *   frame with FCS    = n - 20   (64 ... 1518)
 *   frame without FCS = n - 24   (60 ... 1514)  <- what the builder writes
 *                                                  and what a NIC is given
 *                                                  (the NIC appends the FCS)
 *
 * so the admissible n is 84 ... 1538.
 *
 * Opcode: the default is VMI_GAP_OPCODE_RESERVED (0x0000), a MAC Control
 * opcode no station implements, which 802.3 (clause 31) requires the
 * receiving MAC Control sublayer to discard without acting on it. A PAUSE
 * (0x0001) with quanta 0 is also inert on its own, but it is an XON: when
 * the sending NIC itself runs 802.3x flow control, every gap frame would
 * cancel the pause its receive path asked for. VMI_GAP_OPCODE_PAUSE is there
 * for NICs or switches that refuse unknown opcodes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_GAP_FRAME_H__
#define __VMI_GAP_FRAME_H__

#include <glib.h>

G_BEGIN_DECLS

#define VMI_GAP_ETHERTYPE 0x8808
#define VMI_GAP_MIN_WIRE_BYTES 84
#define VMI_GAP_MAX_WIRE_BYTES 1538
#define VMI_GAP_MAX_FRAME_BYTES (VMI_GAP_MAX_WIRE_BYTES - 24)

typedef enum
{
  VMI_GAP_OPCODE_RESERVED = 0x0000,
  VMI_GAP_OPCODE_PAUSE = 0x0001,        /* with pause quanta 0 */
} VmiGapOpcode;

extern const guint8 vmi_gap_dst_mac[6];

/* Frame length (without FCS) for n wire bytes, 0 if n is out of range. */
guint vmi_gap_frame_len (guint wire_bytes);

/* Writes the gap frame for n wire bytes into buf (buf_len >= n - 24):
 * dst 01:80:C2:00:00:01, src, EtherType 0x8808, opcode, zero padding.
 * Returns the frame length without FCS, 0 when n is outside 84...1538 or
 * buf is too small. */
guint vmi_gap_frame_build (guint8 * buf, gsize buf_len, guint wire_bytes,
    const guint8 src_mac[6], VmiGapOpcode opcode);

G_END_DECLS

#endif /* __VMI_GAP_FRAME_H__ */
