/* gst-vmi: test-only reference CRC-18 for the st2022 unit tests
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Deliberately independent of the core's table-driven CRC (and of its bit
 * packing): a bit-serial polynomial long division written from the
 * definition, shared by test-st2022-core.c and test-st2022-raster.c.
 */

#ifndef __ST2022_CRC_REF_H__
#define __ST2022_CRC_REF_H__

#include <glib.h>

/* Independent reference: CRC as the remainder of a polynomial division.
 * The message is the bit stream in transmission order (each word LSB
 * first), the first bit being the highest power; the CRC register bit i
 * (as used by CR0/CR1) is the coefficient of x^(17-i) of
 * M(x)·x^18 mod (x^18+x^5+x^4+1). */
static guint32
reference_crc (const guint16 * words, guint n)
{
  guint nbits = n * 10, i, j;
  guint8 *m = g_malloc0 (nbits + 18);
  guint32 crc = 0;

  for (i = 0; i < n; i++)
    for (j = 0; j < 10; j++)
      m[i * 10 + j] = (words[i] >> j) & 1;
  /* long division: for every leading 1, subtract the generator */
  for (i = 0; i < nbits; i++) {
    if (m[i]) {
      m[i] ^= 1;                /* x^18 */
      m[i + 18 - 5] ^= 1;       /* x^5 */
      m[i + 18 - 4] ^= 1;       /* x^4 */
      m[i + 18] ^= 1;           /* 1 */
    }
  }
  /* remainder: m[nbits + t] is the coefficient of x^(17 - t) */
  for (i = 0; i < 18; i++)
    crc |= (guint32) m[nbits + i] << i;
  g_free (m);
  return crc;
}

#endif /* __ST2022_CRC_REF_H__ */
