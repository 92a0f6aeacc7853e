/* gst-vmi: fast CRC-18 and legality check over packed 10-bit SDI words
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __ST2022_CRC_H__
#define __ST2022_CRC_H__

#include <glib.h>

G_BEGIN_DECLS

/* Builds the tables and picks the code the functions below use;
 * thread-safe, idempotent.  Call it before any of them. */
void st2022_crc_packed_init (void);

/* The functions below take @bytes bytes of packed interleaved words (4
 * words in 5 bytes, MSB first, C Y C Y ...), @bytes a multiple of 5, and
 * read no byte outside [p, p + bytes). */

/* TRUE if every word is a legal sample value (4..1019).  Vector code
 * where the CPU has it (picked at run time), else the portable code, which
 * st2022_packed_legal_portable() always runs (for the tests). */
gboolean st2022_packed_legal (const guint8 * p, gsize bytes);
gboolean st2022_packed_legal_portable (const guint8 * p, gsize bytes);

/* Both channels' CRC-18 (initial state 0) over the words */
void st2022_crc_packed (const guint8 * p, gsize bytes, guint32 * crc_c,
    guint32 * crc_y);

/* The same for two runs of @bytes bytes each, interleaved so that one's
 * table lookups overlap the other's: crc[] gets C, Y of @p0 then C, Y of
 * @p1. */
void st2022_crc_packed2 (const guint8 * p0, const guint8 * p1, gsize bytes,
    guint32 crc[4]);

/* Both channels' CRC-18 (initial state 0) and the legality check in one
 * pass: returns what st2022_packed_legal() would, the CRCs are set either
 * way.  Vector code (carry-less multiply) where the CPU has it, picked at
 * run time; st2022_crc_impl_name() says which. */
gboolean st2022_crc_legal_packed (const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y);
const char *st2022_crc_impl_name (void);
/* TRUE if that is vector code (else the two-run st2022_crc_packed2() is
 * faster on rows side by side) */
gboolean st2022_crc_legal_packed_is_vector (void);

/* The same while copying the bytes from @src to @dst (which must not
 * overlap): one read of the source does both.  Writes no byte outside
 * [dst, dst + bytes). */
gboolean st2022_crc_legal_copy_packed (guint8 * dst, const guint8 * src,
    gsize bytes, guint32 * crc_c, guint32 * crc_y);

/* Either of the above (copying unless @dst is NULL) with one
 * implementation forced, for the tests and benchmarks: 0 scalar (tables +
 * SWAR check, the reference), 1 SSE4.1 + PCLMULQDQ, 2 AVX2 + VPCLMULQDQ,
 * 3 AVX-512 VBMI + GFNI + VPCLMULQDQ.
 * Returns TRUE/FALSE as above, or -1 if this CPU or build lacks @impl. */
gint st2022_crc_legal_packed_impl (guint impl, guint8 * dst,
    const guint8 * p, gsize bytes, guint32 * crc_c, guint32 * crc_y);

/* The start of a v210 row (@src_bytes readable bytes, @n_words words in
 * all) as packed words at @dst, each clipped to 4..1019, and both
 * channels' CRC-18 of them (initial state 0).  Converts the longest
 * prefix of whole 48-word (64-byte) groups that vector code can, without
 * reading or writing outside the buffers, and returns its length in words
 * (a multiple of 48; 0 without AVX2 + VPCLMULQDQ): the caller converts the
 * rest, continuing from the CRCs. */
guint st2022_v210_pack_crc (guint8 * dst, const guint8 * src,
    gsize src_bytes, guint n_words, guint32 * crc_c, guint32 * crc_y);
/* The same with one implementation forced, for the tests and benchmarks:
 * 2 AVX2 + VPCLMULQDQ (48-word groups), 3 AVX-512 VBMI + GFNI +
 * VPCLMULQDQ (96-word groups); -1 if this CPU or build lacks it. */
gint st2022_v210_pack_crc_impl (guint impl, guint8 * dst,
    const guint8 * src, gsize src_bytes, guint n_words, guint32 * crc_c,
    guint32 * crc_y);

/* The same for packed words: the start of a row of @bytes packed bytes
 * (a multiple of 5) copied to @dst with each word clipped to 4..1019, and
 * both channels' CRC-18 of the clipped words (initial state 0).  Returns
 * how many bytes it did (a multiple of 10; 0 without AVX2 + VPCLMULQDQ),
 * reading and writing only inside the row; the caller does the rest,
 * continuing from the CRCs.  The raster writer's path for rows that hold
 * a reserved value (test patterns made from 8-bit video often do).
 * @clipped: set to whether any word it did was reserved. */
gsize st2022_packed_clip_crc (guint8 * dst, const guint8 * src,
    gsize bytes, guint32 * crc_c, guint32 * crc_y, gboolean * clipped);
/* The same with one implementation forced, for the tests and benchmarks:
 * 2 AVX2 + VPCLMULQDQ, 3 AVX-512 VBMI + GFNI + VPCLMULQDQ; -1 if this CPU
 * or build lacks it. */
gssize st2022_packed_clip_crc_impl (guint impl, guint8 * dst,
    const guint8 * src, gsize bytes, guint32 * crc_c, guint32 * crc_y,
    gboolean * clipped);

G_END_DECLS

#endif /* __ST2022_CRC_H__ */
