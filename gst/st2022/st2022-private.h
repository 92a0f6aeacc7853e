/* gst-vmi: ST 2022-6 core, internal helpers shared by its .c files
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __ST2022_PRIVATE_H__
#define __ST2022_PRIVATE_H__

#include "st2022.h"

G_BEGIN_DECLS

extern guint32 st2022_crc_t0[1024];
extern guint32 st2022_crc_t1[1024];
extern guint32 st2022_crc_t2[1024];
extern guint32 st2022_crc_t3[1024];
void st2022_crc_init_tables (void);

/* st2022_datagram_spans() plus, for each span, the byte offset of its
 * first byte within the datagram's 1376-byte payload (@src_offset may be
 * NULL): the depacketizer copies UYVP targets with it, so the two cannot
 * disagree on which bytes a datagram carries. */
int st2022_datagram_spans_full (const St2022Format * fmt, guint index,
    St2022Span spans[2], guint src_offset[2]);
/* The same, for a valid @index whose first byte lies in SDI line @line
 * (1-based), which starts at raster byte @line_start: the depacketizer
 * follows the line from datagram to datagram instead of dividing. */
int st2022_datagram_spans_at (const St2022Format * fmt, guint index,
    guint line, gsize line_start, St2022Span spans[2], guint src_offset[2]);

/* half_byte_lines (st2022-wire.c): the picture spans of datagram @index,
 * each widened to whole bytes of the row (a span may start or end on a
 * half byte); @src_offset: the payload byte holding its first nibble */
int st2022_wire_spans (const St2022Format * fmt, guint index,
    St2022Span spans[2], guint src_offset[2]);
/* half_byte_lines: the bytes of a raster in memory layout that datagram
 * @index carries (widened to whole bytes) from @prev_raster, or from the
 * 5-byte pattern @black at the memory phase when it is %NULL */
void st2022_wire_conceal_datagram (const St2022Format * fmt, guint index,
    guint8 * raster, const guint8 * prev_raster, const guint8 black[5]);

/* Whole 6-pixel blocks of packed words (15 bytes each, from @src) to
 * v210 (16 bytes each, at @dst): vector code where the CPU has it unless
 * @portable.  Reads only [src, src + 15 * nblocks). */
void st2022_v210_from_packed_blocks (guint8 * dst, const guint8 * src,
    guint nblocks, gboolean portable);
/* A row's last, partial block (@bytes < 15, a multiple of 5) to v210,
 * zero-filled to @dst_bytes (its 16 bytes plus the row's padding). */
void st2022_v210_from_packed_partial (guint8 * dst, const guint8 * src,
    guint bytes, gsize dst_bytes);

/* The reverse for one block: its first @bytes (15, or less for a row's
 * last block) packed bytes from v210 @src */
void st2022_v210_to_packed_block (guint8 * dst, const guint8 * src,
    guint bytes);

/* one 10-bit word into an 18-bit reflected CRC register */
#define ST2022_CRC_WORD(crc, w) \
  (((crc) >> 10) ^ st2022_crc_t0[((crc) ^ (w)) & 0x3ff])
/* two consecutive words of one channel (w0 first) */
#define ST2022_CRC_2WORDS(crc, w0, w1) \
  ({ guint32 _x = (crc) ^ (w0) ^ ((guint32) (w1) << 10); \
     st2022_crc_t1[_x & 0x3ff] ^ st2022_crc_t0[_x >> 10]; })

/* four consecutive words of one channel: only the first two depend on the
 * register, so the dependency chain is one lookup per four words */
#define ST2022_CRC_4WORDS(crc, w0, w1, w2, w3) \
  (st2022_crc_t3[((crc) ^ (w0)) & 0x3ff] ^ \
   st2022_crc_t2[(((crc) >> 10) ^ (w1)) & 0x3ff] ^ \
   st2022_crc_t1[(w2)] ^ st2022_crc_t0[(w3)])

G_END_DECLS

#endif /* __ST2022_PRIVATE_H__ */
