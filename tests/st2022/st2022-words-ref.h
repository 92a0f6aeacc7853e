/* gst-vmi: test-only 10-bit word access for the st2022 unit tests
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Word i of a packed SDI byte stream (10-bit words MSB first, as the
 * wire and UYVP carry them), written from the definition and
 * deliberately independent of the core's packers
 * (st2022_pack_words(), st2022_unpack_words()), which the tests check
 * against it. Both read or write two bytes: a buffer needs one byte
 * beyond the last whole word.
 */

#ifndef __ST2022_WORDS_REF_H__
#define __ST2022_WORDS_REF_H__

#include <glib.h>

static inline guint
get_word (const guint8 * b, gsize word_index)
{
  gsize bit = word_index * 10;
  guint v = (guint) b[bit / 8] << 8 | b[bit / 8 + 1];

  return (v >> (6 - bit % 8)) & 0x3ff;
}

static inline void
set_word (guint8 * b, gsize word_index, guint w)
{
  gsize bit = word_index * 10;
  guint shift = 6 - bit % 8;
  guint v = (guint) b[bit / 8] << 8 | b[bit / 8 + 1];

  v = (v & ~(0x3ffu << shift)) | (w & 0x3ff) << shift;
  b[bit / 8] = v >> 8;
  b[bit / 8 + 1] = v & 0xff;
}

#endif
