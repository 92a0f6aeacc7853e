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

G_END_DECLS

#endif /* __ST2022_CRC_H__ */
