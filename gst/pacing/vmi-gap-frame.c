/* gst-vmi: gap frames for a Pacing-Assistant
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-gap-frame.h"

#include <string.h>

const guint8 vmi_gap_dst_mac[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

guint
vmi_gap_frame_len (guint wire_bytes)
{
  if (wire_bytes < VMI_GAP_MIN_WIRE_BYTES
      || wire_bytes > VMI_GAP_MAX_WIRE_BYTES)
    return 0;
  return wire_bytes - 24;
}

guint
vmi_gap_frame_build (guint8 * buf, gsize buf_len, guint wire_bytes,
    const guint8 src_mac[6], VmiGapOpcode opcode)
{
  guint len = vmi_gap_frame_len (wire_bytes);

  if (!len || buf_len < len)
    return 0;
  memset (buf, 0, len);
  memcpy (buf, vmi_gap_dst_mac, 6);
  memcpy (buf + 6, src_mac, 6);
  buf[12] = VMI_GAP_ETHERTYPE >> 8;
  buf[13] = VMI_GAP_ETHERTYPE & 0xff;
  buf[14] = (guint) opcode >> 8;
  buf[15] = (guint) opcode & 0xff;
  /* bytes 16-17: pause quanta 0 for PAUSE; reserved opcode: all zero */
  return len;
}
