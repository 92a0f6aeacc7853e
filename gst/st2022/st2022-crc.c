/* gst-vmi: fast CRC-18 and legality check over packed 10-bit SDI words
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The raster writer spends its time on the per-line CRC of each channel
 * and on finding reserved sample values.  Unpacking every 10-bit word,
 * checking it and looking it up cost ~12 instructions per word, so both
 * are done on the packed bytes instead (~4 per word):
 *
 * CRC.  The CRC is linear, and a 10-byte block (8 words, 4 per channel)
 * is longer than the 18-bit register, so the register can be XORed into
 * the block's first words (C into w0 and the low 8 bits of w2, Y into w1
 * and w3) and the block then taken from state 0.  Its result is the XOR of
 * one table entry per byte: crc_tbl[k][b] is the register pair after a
 * block whose only nonzero byte is byte k = b.  Entries hold the pair
 * "placed", at the bit positions those words have in a little-endian load
 * of the next block, so the register feeds back with a single XOR.  Ten
 * lookups per eight words, no unpacking; the 20 KiB of tables stay in L1
 * (20-byte blocks need 40 KiB and were slower).  Only bytes 0..4 depend on
 * the register, but one line is still latency-bound, so the writer runs two
 * lines' chains interleaved (st2022_crc_packed2(): 1.6x one line's speed).
 *
 * Check.  A word is reserved (0..3, 1020..1023) exactly when its top 8 bits
 * are all equal, i.e. when bits 2..8 of w ^ (w >> 1) are all 0: a shift,
 * XOR and mask over the words of a 64-bit load, then a carry into bit 9 of
 * every word that has a nonzero field (SWAR, no carry crosses a word); or
 * the same test on 16-bit lanes after one SSSE3 shuffle.  Run over the
 * copied row before the CRC: reserved values are rare in real video, so
 * the writer clips (and recomputes the CRC of) only rows that have one.
 */

#include <string.h>
#include "st2022-crc.h"
#include "st2022-private.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_SSSE3_PATH 1
#include <tmmintrin.h>
#endif

#define BLOCK 10

static guint64 crc_tbl[BLOCK][256];

static gboolean legal_scalar (const guint8 * p, gsize bytes);
static gboolean (*legal_impl) (const guint8 * p, gsize bytes) = legal_scalar;

/* 5 bytes, big-endian number <-> little-endian (byte k at bits 8k..8k+7) */
static inline guint64
swap40 (guint64 v)
{
  return GUINT64_SWAP_LE_BE (v) >> 24;
}

/* the pair placed where w0/w2 (C) and w1/w3 (Y) sit in a block's first 5
 * bytes, as a little-endian load sees them */
static inline guint64
place (guint32 c, guint32 y)
{
  return swap40 ((guint64) (c & 0x3ff) << 30 | (guint64) (c >> 10) << 10 |
      (guint64) (y & 0x3ff) << 20 | (guint64) (y >> 10));
}

static inline void
unplace (guint64 s, guint32 * c, guint32 * y)
{
  s = swap40 (s);
  *c = (guint32) ((s >> 30) & 0x3ff) | (guint32) ((s >> 10) & 0xff) << 10;
  *y = (guint32) ((s >> 20) & 0x3ff) | (guint32) (s & 0xff) << 10;
}

/* bit-serial, from the definition: the tables must not inherit a bug of
 * the code they replace */
static guint32
crc_serial_word (guint32 crc, guint w)
{
  guint i;

  for (i = 0; i < 10; i++) {
    guint bit = (crc ^ (w >> i)) & 1;
    crc >>= 1;
    if (bit)
      crc ^= 0x23000;
  }
  return crc;
}

/* ---- legality check ---- */

/* the words of 5-byte groups from @p, until @end */
static gboolean
legal_groups (const guint8 * p, const guint8 * end)
{
  guint bad = 0;

  for (; end - p >= 5; p += 5) {
    guint16 w[4];
    guint i;

    st2022_unpack_words (p, w, 4);
    for (i = 0; i < 4; i++)
      bad |= ((w[i] + 4) & 0x3ff) < 8;
  }
  return !bad;
}

static inline guint64
load_be64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_BE (v);
}

/* per 10-bit word with its lowest bit at @base: the 7-bit field at
 * base + 2 .. base + 8, and the carry bit above it */
#define FIELD(base) (G_GUINT64_CONSTANT (0x7f) << ((base) + 2))
#define CARRY(base) (G_GUINT64_CONSTANT (1) << ((base) + 9))
/* words 0..5 of a block in a load at byte 0; words 6, 7 in one at byte 2 */
#define FIELDS_A (FIELD (54) | FIELD (44) | FIELD (34) | FIELD (24) | \
    FIELD (14) | FIELD (4))
#define CARRY_A (CARRY (54) | CARRY (44) | CARRY (34) | CARRY (24) | \
    CARRY (14) | CARRY (4))
#define FIELDS_B (FIELD (10) | FIELD (0))
#define CARRY_B (CARRY (10) | CARRY (0))

/* portable: SWAR over 64-bit loads; a field + FIELDS carries into the
 * word's bit 9 unless the field is 0, and no carry leaves the word */
static gboolean
legal_scalar (const guint8 * p, gsize bytes)
{
  const guint8 *end = p + bytes - bytes % BLOCK;
  guint64 acc_a = ~G_GUINT64_CONSTANT (0), acc_b = acc_a;

  for (; p < end; p += BLOCK) {
    guint64 a = load_be64 (p), b = load_be64 (p + 2);

    acc_a &= ((a ^ (a >> 1)) & FIELDS_A) + FIELDS_A;
    acc_b &= ((b ^ (b >> 1)) & FIELDS_B) + FIELDS_B;
  }
  if ((acc_a & CARRY_A) != CARRY_A || (acc_b & CARRY_B) != CARRY_B)
    return FALSE;
  return legal_groups (p, p + bytes % BLOCK);
}

#ifdef HAVE_SSSE3_PATH
/* SSSE3: one shuffle puts each of a block's 8 words, with the byte after
 * it, big-endian into a 16-bit lane (word i of a group at bits 6 - 2i ..
 * 15 - 2i); the same field test then runs on 8 lanes at once. */
__attribute__ ((target ("ssse3")))
static gboolean
legal_ssse3 (const guint8 * p, gsize bytes)
{
  const guint8 *end = p + bytes;
  const __m128i shuf = _mm_setr_epi8 (1, 0, 2, 1, 3, 2, 4, 3,
      6, 5, 7, 6, 8, 7, 9, 8);
  const __m128i fields = _mm_setr_epi16 (0x7f00, 0x1fc0, 0x07f0, 0x01fc,
      0x7f00, 0x1fc0, 0x07f0, 0x01fc);
  const __m128i zero = _mm_setzero_si128 ();
  __m128i bad = zero;

  /* 16-byte loads of 10-byte blocks: stop while 16 bytes remain */
  for (; end - p >= 16; p += BLOCK) {
    __m128i v = _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) p),
        shuf);
    __m128i d = _mm_and_si128 (_mm_xor_si128 (v, _mm_srli_epi16 (v, 1)),
        fields);

    bad = _mm_or_si128 (bad, _mm_cmpeq_epi16 (d, zero));
  }
  if (_mm_movemask_epi8 (bad))
    return FALSE;
  return legal_groups (p, end);
}
#endif

gboolean
st2022_packed_legal (const guint8 * p, gsize bytes)
{
  return legal_impl (p, bytes);
}

gboolean
st2022_packed_legal_portable (const guint8 * p, gsize bytes)
{
  return legal_scalar (p, bytes);
}

void
st2022_crc_packed_init (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    guint k, b, i;

    st2022_crc_init_tables ();
    for (k = 0; k < BLOCK; k++) {
      for (b = 0; b < 256; b++) {
        guint8 blk[BLOCK] = { 0 };
        guint16 w[8];
        guint32 c = 0, y = 0;

        blk[k] = (guint8) b;
        st2022_unpack_words (blk, w, 8);
        for (i = 0; i < 8; i += 2) {
          c = crc_serial_word (c, w[i]);
          y = crc_serial_word (y, w[i + 1]);
        }
        crc_tbl[k][b] = place (c, y);
      }
    }
#ifdef HAVE_SSSE3_PATH
    __builtin_cpu_init ();
    if (__builtin_cpu_supports ("ssse3"))
      legal_impl = legal_ssse3;
#endif
    g_once_init_leave (&once, 1);
  }
}

/* keeps the compiler from turning the XOR tree of a block's lookups into
 * one serial chain (it reassociates XORs freely), which would put all five
 * register-dependent lookups one after the other on the critical path */
#ifdef __GNUC__
#define OPAQUE(v) __asm__ ("" : "+r" (v))
#else
#define OPAQUE(v) ((void) 0)
#endif

static inline guint64
load_le64 (const guint8 * p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

/* One block at @p into the placed register @s.  Bytes 5..9 do not meet
 * the register: their lookups are off the dependency chain, with byte loads
 * to keep the ALUs free; bytes 0..4 come from one little-endian load, so
 * that XORing the register in and taking bytes out is a few register ops. */
#define CRC_BLOCK(p, s) G_STMT_START { \
  guint64 _x = load_le64 (p) ^ (s), _u, _v; \
  guint64 _t = crc_tbl[5][(p)[5]] ^ crc_tbl[6][(p)[6]] ^ \
      crc_tbl[7][(p)[7]] ^ crc_tbl[8][(p)[8]] ^ crc_tbl[9][(p)[9]]; \
  OPAQUE (_t); \
  _u = crc_tbl[0][_x & 0xff] ^ crc_tbl[1][(_x >> 8) & 0xff]; \
  _x >>= 16; \
  _v = crc_tbl[2][_x & 0xff] ^ crc_tbl[3][(_x >> 8) & 0xff]; \
  OPAQUE (_u); \
  OPAQUE (_v); \
  (s) = (_t ^ crc_tbl[4][(_x >> 16) & 0xff]) ^ (_u ^ _v); \
} G_STMT_END

/* the register pair after the blocks, then a trailing 4-word group */
static void
crc_finish (const guint8 * p, gsize rest, guint64 s, guint32 * crc_c,
    guint32 * crc_y)
{
  guint32 c, y;

  unplace (s, &c, &y);
  for (; rest >= 5; rest -= 5, p += 5) {
    guint16 w[4];

    st2022_unpack_words (p, w, 4);
    c = ST2022_CRC_2WORDS (c, w[0], w[2]);
    y = ST2022_CRC_2WORDS (y, w[1], w[3]);
  }
  *crc_c = c;
  *crc_y = y;
}

void
st2022_crc_packed (const guint8 * p, gsize bytes, guint32 * crc_c,
    guint32 * crc_y)
{
  const guint8 *end = p + bytes - bytes % BLOCK;
  guint64 s = 0;

  for (; p < end; p += BLOCK)
    CRC_BLOCK (p, s);
  crc_finish (p, bytes % BLOCK, s, crc_c, crc_y);
}

void
st2022_crc_packed2 (const guint8 * p0, const guint8 * p1, gsize bytes,
    guint32 crc[4])
{
  const guint8 *end = p0 + bytes - bytes % BLOCK;
  guint64 s0 = 0, s1 = 0;

  /* two independent chains: one line's lookups wait on its register, the
   * other line's fill the gap */
  for (; p0 < end; p0 += BLOCK, p1 += BLOCK) {
    CRC_BLOCK (p0, s0);
    CRC_BLOCK (p1, s1);
  }
  crc_finish (p0, bytes % BLOCK, s0, &crc[0], &crc[1]);
  crc_finish (p1, bytes % BLOCK, s1, &crc[2], &crc[3]);
}
