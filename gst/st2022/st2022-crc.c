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
 *
 * Vector CRC + check (st2022_crc_legal_packed()).  Where the CPU has
 * AVX2 and VPCLMULQDQ (or at least SSE4.1 and PCLMULQDQ) both run in one
 * pass with no dependency chain at all.  A 10-byte block is shuffled into
 * eight 16-bit lanes, one word each, which give the check (running minimum
 * and maximum) and, combined by one multiply-add and a shift, each
 * channel's four words as one 40-bit chunk, word 0 in bits 0..9.  That is
 * the chunk's 40 message bits in transmission order from bit 0, i.e. the
 * chunk polynomial D_k in "reflected" form (bit i = coefficient of
 * x^(39-i)) with no bit reversal.  The channel's CRC is
 *   M(x)·x^18 mod G = sum over k of D_k · (x^(40(m-1-k)+18) mod G)  mod G,
 * so each chunk is carry-less multiplied by its own 18-bit constant (a
 * table indexed by the distance from the end of the run) and the 57-bit
 * products are XORed: every block is independent.  One reduction per run,
 * by the 10-bit tables, ends it.  The AVX2 path does the same with 15-byte
 * groups and 60-bit chunks (a third fewer multiplies, see there).  Where
 * the CPU has AVX-512 VBMI and GFNI, the chunks are cut straight from the
 * packed bytes with no 16-bit lanes at all (1.5x the AVX2 path, see
 * there); that is the path picked first.
 *
 * Clip.  A row that holds a reserved value is copied with every word
 * clamped to 4..1019 and re-packed, CRC as above (st2022_packed_clip_crc()
 * and st2022_v210_pack_crc(): AVX2 or AVX-512 only, the scalar code
 * finishes what they leave).  Such rows hold few reserved words (smpte
 * bars converted from 8 bits: 160 in a 3840-word row, in one span), so the
 * packed clip paths check each step first and treat a step with none as
 * the legal path does (AVX-512: the same instructions; AVX2: the bytes
 * stored as they came, no repacking); only the other steps are clamped and
 * packed back.  A smpte bars row then costs 1.2x a legal one instead of
 * 1.9x (bench_st2022_crc).
 */

#include <string.h>
#include "st2022-crc.h"
#include "st2022-private.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_SSSE3_PATH 1
#define HAVE_CLMUL_PATH 1
#include <immintrin.h>
#endif

#define BLOCK 10

static guint64 crc_tbl[BLOCK][256];

static gboolean legal_scalar (const guint8 * p, gsize bytes);
static gboolean (*legal_impl) (const guint8 * p, gsize bytes) = legal_scalar;
static gboolean crc_legal_scalar (guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y);
static gboolean (*crc_legal_impl) (guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y) = crc_legal_scalar;
static const char *crc_legal_name = "scalar";
#ifdef HAVE_CLMUL_PATH
static void clmul_init (void);
static void clmul60_init (void);
static gboolean crc_legal_clmul128 (guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y);
static gboolean crc_legal_clmul256 (guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y);
static gboolean crc_legal_vbmi (guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y);
static gboolean have_vbmi_path (void);
static void vbmi_init (void);
static guint v210_pack_crc_vbmi (guint8 * dst, const guint8 * src,
    gsize src_bytes, guint n_words, guint32 * crc_c, guint32 * crc_y);
#endif
/* whether this CPU runs the AVX2 + VPCLMULQDQ clip and v210 paths, and
 * the AVX-512 VBMI + GFNI ones (set once, by st2022_crc_packed_init()) */
static gboolean use_avx2_clip = FALSE;
static gboolean use_vbmi = FALSE;

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
#ifdef HAVE_CLMUL_PATH
    clmul_init ();
    clmul60_init ();
    vbmi_init ();
    use_avx2_clip = __builtin_cpu_supports ("avx2") &&
        __builtin_cpu_supports ("vpclmulqdq");
    use_vbmi = have_vbmi_path ();
    if (use_vbmi) {
      crc_legal_impl = crc_legal_vbmi;
      crc_legal_name = "avx512vbmi+gfni+vpclmulqdq";
    } else if (use_avx2_clip) {
      crc_legal_impl = crc_legal_clmul256;
      crc_legal_name = "avx2+vpclmulqdq";
    } else if (__builtin_cpu_supports ("sse4.1") &&
        __builtin_cpu_supports ("pclmul")) {
      crc_legal_impl = crc_legal_clmul128;
      crc_legal_name = "sse4.1+pclmulqdq";
    }
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

/* ---- CRC and check in one pass ---- */

static gboolean
crc_legal_scalar (guint8 * dst, const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  if (dst) {
    /* the check and CRC then read the copy, in cache */
    memcpy (dst, p, bytes);
    p = dst;
  }
  st2022_crc_packed (p, bytes, crc_c, crc_y);
  return legal_scalar (p, bytes);
}

#ifdef HAVE_CLMUL_PATH
/* runs of up to this many 10-byte blocks take the vector path: 2048
 * pixels, more than any line of the format table */
#define MAX_CHUNKS 512

/* pair i = x^(40 (MAX_CHUNKS - 1 - i) + 18) mod G, reflected (bit b =
 * coefficient of x^(17-b)), twice (one per channel): the constant of
 * chunk k of an m-chunk run is pair MAX_CHUNKS - m + k */
static guint64 clmul_k[MAX_CHUNKS][2] __attribute__ ((aligned (32)));
/* the same with the second of each pair times x^40, for the AVX-512 path
 * (its Y chunks sit 24 bits up, so their products land at bit 64) */
static guint64 clmul_k40[MAX_CHUNKS][2] __attribute__ ((aligned (64)));

static void
clmul_init (void)
{
  guint32 k = 0x23000;          /* x^18 mod G = x^5 + x^4 + 1, reflected */
  gint i;

  for (i = MAX_CHUNKS - 1; i >= 0; i--) {
    clmul_k[i][0] = clmul_k[i][1] = k;
    clmul_k40[i][0] = k;
    clmul_k40[i][1] = (guint64) k << 40;
    /* times x^40: 40 zero bits through the register */
    k = crc_serial_word (crc_serial_word (crc_serial_word (crc_serial_word
                (k, 0), 0), 0), 0);
  }
}

/* The 57-bit sum of products Q (bit n = coefficient of x^(56-n)) mod G,
 * as a register: bits 0..38 hold Q's part above x^18, whose remainder is
 * the CRC of those 39 bits as a message (a leading 0 bit makes 4 words);
 * bits 39..56 are already below x^18. */
static inline guint32
clmul_reduce (guint64 q)
{
  guint64 v = q << 1;
  /* from state 0: four independent lookups, no chain (once per row, both
   * channels: the chain of four cost about 1.5 % of a legal row) */
  guint32 crc = ST2022_CRC_4WORDS (0, v & 0x3ff, (v >> 10) & 0x3ff,
      (v >> 20) & 0x3ff, (v >> 30) & 0x3ff);

  return crc ^ (guint32) ((q >> 39) & 0x3ffff);
}

/* one or two 10-byte blocks per 128-bit lane → per lane [C chunk, Y chunk]
 * (40 bits each) in @chunks and the 8 words in @words */
#define SHUF_BLOCK 1, 0, 3, 2, 6, 5, 8, 7, 2, 1, 4, 3, 7, 6, 9, 8
#define MUL_BLOCK 1, 16, 1, 16, 4, 64, 4, 64
#define MADD_BLOCK 1, 1024, 1, 1024, 1, 1024, 1, 1024

__attribute__ ((target ("sse4.1,pclmul")))
static inline __m128i
block_128 (__m128i v, __m128i * words)
{
  const __m128i shuf = _mm_setr_epi8 (SHUF_BLOCK);
  const __m128i mul = _mm_setr_epi16 (MUL_BLOCK);
  const __m128i madd = _mm_setr_epi16 (MADD_BLOCK);
  const __m128i lo = _mm_set1_epi64x (0xfffff);
  const __m128i hi = _mm_set1_epi64x (G_GUINT64_CONSTANT (0xfffff00000));
  /* each word to the top of its lane (dropping the previous word's bits),
   * then down: a per-lane shift */
  __m128i w = _mm_srli_epi16 (_mm_mullo_epi16 (_mm_shuffle_epi8 (v, shuf),
          mul), 6);
  __m128i d = _mm_madd_epi16 (w, madd);

  *words = w;
  return _mm_or_si128 (_mm_and_si128 (d, lo),
      _mm_and_si128 (_mm_srli_epi64 (d, 12), hi));
}

/* the blocks from @p to @end (a multiple of 10 bytes), copied to @dst
 * unless NULL, @k the constant of the first; loads and stores stay inside
 * [p, end) and the same span of @dst */
__attribute__ ((target ("sse4.1,pclmul")))
static inline void
blocks_128 (guint8 * dst, const guint8 * p, const guint8 * end,
    const guint64 (*k)[2], __m128i * acc_c, __m128i * acc_y, __m128i * wmin,
    __m128i * wmax)
{
  for (; p < end; p += BLOCK, k++) {
    __m128i v, w, d, kk = _mm_load_si128 ((const __m128i *) k);

    if (end - p >= 16) {
      v = _mm_loadu_si128 ((const __m128i *) p);
      if (dst)
        _mm_storeu_si128 ((__m128i *) dst, v);
    } else {
      guint8 tmp[16] = { 0 };
      memcpy (tmp, p, BLOCK);
      v = _mm_loadu_si128 ((const __m128i *) tmp);
      if (dst)
        memcpy (dst, p, BLOCK);
    }
    if (dst)
      dst += BLOCK;
    d = block_128 (v, &w);
    *wmin = _mm_min_epu16 (*wmin, w);
    *wmax = _mm_max_epu16 (*wmax, w);
    *acc_c = _mm_xor_si128 (*acc_c, _mm_clmulepi64_si128 (d, kk, 0x00));
    *acc_y = _mm_xor_si128 (*acc_y, _mm_clmulepi64_si128 (d, kk, 0x11));
  }
}

/* the scalar CRC and check (and copy) of a trailing 4-word group, the
 * totals */
__attribute__ ((target ("sse4.1,pclmul")))
static inline gboolean
crc_legal_finish (guint8 * dst, const guint8 * p, gsize rest, __m128i acc_c,
    __m128i acc_y, __m128i wmin, __m128i wmax, guint32 * crc_c,
    guint32 * crc_y)
{
  guint32 c = clmul_reduce ((guint64) _mm_cvtsi128_si64 (acc_c));
  guint32 y = clmul_reduce ((guint64) _mm_cvtsi128_si64 (acc_y));
  guint lo = (guint) _mm_cvtsi128_si32 (_mm_minpos_epu16 (wmin)) & 0xffff;
  guint hi = 0xffff - ((guint) _mm_cvtsi128_si32 (_mm_minpos_epu16
          (_mm_xor_si128 (wmax, _mm_set1_epi32 (-1)))) & 0xffff);
  gboolean ok = lo >= ST2022_SAMPLE_MIN && hi <= ST2022_SAMPLE_MAX;

  if (rest >= 5) {
    guint16 w[4];

    if (dst)
      memcpy (dst, p, 5);
    st2022_unpack_words (p, w, 4);
    c = ST2022_CRC_2WORDS (c, w[0], w[2]);
    y = ST2022_CRC_2WORDS (y, w[1], w[3]);
    ok = ok && legal_groups (p, p + 5);
  }
  *crc_c = c;
  *crc_y = y;
  return ok;
}

__attribute__ ((target ("sse4.1,pclmul")))
static gboolean
crc_legal_clmul128 (guint8 * dst, const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  gsize m = bytes / BLOCK;
  const guint8 *end = p + m * BLOCK;
  __m128i acc_c = _mm_setzero_si128 (), acc_y = acc_c;
  __m128i wmin = _mm_set1_epi16 (-1), wmax = _mm_setzero_si128 ();

  if (m > MAX_CHUNKS)
    return crc_legal_scalar (dst, p, bytes, crc_c, crc_y);
  blocks_128 (dst, p, end, clmul_k + MAX_CHUNKS - m, &acc_c, &acc_y, &wmin,
      &wmax);
  return crc_legal_finish (dst ? dst + m * BLOCK : NULL, end, bytes % BLOCK,
      acc_c, acc_y, wmin, wmax, crc_c, crc_y);
}

/* ---- AVX2 + VPCLMULQDQ: 60-bit chunks ----
 *
 * A carry-less multiply takes 64 message bits at most, and it is the
 * costly step (2 cycles per 256-bit one here), so this path feeds it six
 * words of a channel (60 bits) instead of four: a 15-byte group (12
 * words, 6 per channel) per 128-bit lane, two groups per iteration.  A
 * group's words go to 16-bit lanes in two shuffles, A = c0 c1 c2 c3 y0 y1
 * y2 y3 and B = c4 c5 c4 c5 y4 y5 y4 y5 (repeats keep the check's minimum
 * and maximum right; the multiply-add gives them weight 0); A makes the
 * 40-bit chunks as the 10-byte blocks do, B's pairs go on top at bit 40.
 * The second group of a pair is loaded from one byte early (its lane's
 * shuffle reads one byte further), so no load or store passes the pair.
 * Chunk k of m (the first transmitted bit at bit 0) is multiplied by
 * x^(60 (m-1-k) + 18) mod G; the 77-bit products are summed and reduced
 * once.  A row's bytes % 15 (0, 5 or 10) go first, as a group whose
 * leading words are 0, which leading zeros do not change. */

/* runs of up to this many 15-byte groups: 4096 words, a 2048-pixel line */
#define MAX_GROUPS 342

static guint64 clmul60_k[MAX_GROUPS][2] __attribute__ ((aligned (32)));

static void
clmul60_init (void)
{
  guint32 k = 0x23000;          /* x^18 mod G, reflected */
  gint i;

  for (i = MAX_GROUPS - 1; i >= 0; i--) {
    clmul60_k[i][0] = clmul60_k[i][1] = k;
    k = crc_serial_word (crc_serial_word (crc_serial_word (crc_serial_word
                (crc_serial_word (crc_serial_word (k, 0), 0), 0), 0), 0), 0);
  }
}

/* The 77-bit sum Q (bit n = coefficient of x^(76-n)) mod G, as a
 * register: bits 0..58 of Q are the part above x^18, reduced as a 60-bit
 * message with a leading 0; bits 59..76 are already below x^18. */
static inline guint32
clmul60_reduce (guint64 lo, guint64 hi)
{
  guint64 v = lo << 1;
  guint32 crc = ST2022_CRC_4WORDS (0, v & 0x3ff, (v >> 10) & 0x3ff,
      (v >> 20) & 0x3ff, (v >> 30) & 0x3ff);

  crc = ST2022_CRC_2WORDS (crc, (v >> 40) & 0x3ff, (v >> 50) & 0x3ff);
  return crc ^ (guint32) (((lo >> 59) | (hi << 5)) & 0x3ffff);
}

/* word k of a group sits in bytes 5 (k / 4) + k % 4 and the next one, at
 * shift 6 - 2 (k % 4) of that big-endian pair */
#define SHUF60_A(o) 1 + o, 0 + o, 3 + o, 2 + o, 6 + o, 5 + o, 8 + o, 7 + o, \
    2 + o, 1 + o, 4 + o, 3 + o, 7 + o, 6 + o, 9 + o, 8 + o
#define SHUF60_B(o) 11 + o, 10 + o, 13 + o, 12 + o, 11 + o, 10 + o, 13 + o, \
    12 + o, 12 + o, 11 + o, 14 + o, 13 + o, 12 + o, 11 + o, 14 + o, 13 + o
#define MADD60_B 1, 1024, 0, 0, 1, 1024, 0, 0

/* one or two groups (per lane, as @sa / @sb place them) → per lane [C
 * chunk, Y chunk] (60 bits each); the words' minimum and maximum folded
 * into @wmin / @wmax unless @check is FALSE */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline __m256i
groups60 (__m256i v, __m256i sa, __m256i sb, __m256i * wmin, __m256i * wmax,
    const gboolean check)
{
  const __m256i mul = _mm256_setr_epi16 (MUL_BLOCK, MUL_BLOCK);
  const __m256i madd_a = _mm256_setr_epi16 (MADD_BLOCK, MADD_BLOCK);
  const __m256i madd_b = _mm256_setr_epi16 (MADD60_B, MADD60_B);
  const __m256i lo = _mm256_set1_epi64x (0xfffff);
  const __m256i hi = _mm256_set1_epi64x (G_GUINT64_CONSTANT (0xfffff00000));
  __m256i a = _mm256_srli_epi16 (_mm256_mullo_epi16 (_mm256_shuffle_epi8 (v,
              sa), mul), 6);
  __m256i b = _mm256_srli_epi16 (_mm256_mullo_epi16 (_mm256_shuffle_epi8 (v,
              sb), mul), 6);
  __m256i da = _mm256_madd_epi16 (a, madd_a);
  __m256i db = _mm256_madd_epi16 (b, madd_b);

  if (check) {
    *wmin = _mm256_min_epu16 (*wmin, _mm256_min_epu16 (a, b));
    *wmax = _mm256_max_epu16 (*wmax, _mm256_max_epu16 (a, b));
  }
  da = _mm256_or_si256 (_mm256_and_si256 (da, lo),
      _mm256_and_si256 (_mm256_srli_epi64 (da, 12), hi));
  return _mm256_or_si256 (da, _mm256_slli_epi64 (db, 40));
}

__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline gboolean
crc_legal_avx2_body (guint8 * dst, const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y, const gboolean copy)
{
  const guint8 *start = p, *end = p + bytes;
  gsize head = bytes % 15, groups = bytes / 15;
  const guint64 (*k)[2] = clmul60_k + MAX_GROUPS - 1 - groups;
  /* lane 0 reads its group from 0, lane 1 from 1 (loaded a byte early) */
  const __m256i sa = _mm256_setr_epi8 (SHUF60_A (0), SHUF60_A (1));
  const __m256i sb = _mm256_setr_epi8 (SHUF60_B (0), SHUF60_B (1));
  __m256i acc_c = _mm256_setzero_si256 (), acc_y = acc_c;
  __m256i wmin = _mm256_set1_epi16 (-1), wmax = _mm256_setzero_si256 ();
  __m128i c128, y128, min128, max128;
  gboolean ok = TRUE;

  if (head > 0) {
    /* the leading words as the tail of a group of zeros */
    guint8 tmp[16] = { 0 };
    __m256i d, kk = _mm256_zextsi128_si256 (_mm_load_si128 ((const __m128i *)
            k));

    memcpy (tmp + 15 - head, p, head);
    if (copy) {
      memcpy (dst, p, head);
      dst += head;
    }
    ok = legal_groups (p, p + head);
    d = groups60 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const __m128i *)
                tmp)), sa, sb, NULL, NULL, FALSE);
    acc_c = _mm256_clmulepi64_epi128 (d, kk, 0x00);
    acc_y = _mm256_clmulepi64_epi128 (d, kk, 0x11);
    p += head;
  }
  k++;
  for (; end - p >= 30; p += 30, k += 2) {
    __m128i v0 = _mm_loadu_si128 ((const __m128i *) p);
    __m128i v1 = _mm_loadu_si128 ((const __m128i *) (p + 14));
    __m256i v = _mm256_inserti128_si256 (_mm256_castsi128_si256 (v0), v1, 1);
    __m256i kk = _mm256_loadu_si256 ((const __m256i *) k);
    __m256i d = groups60 (v, sa, sb, &wmin, &wmax, TRUE);

    if (copy) {
      _mm_storeu_si128 ((__m128i *) dst, v0);
      _mm_storeu_si128 ((__m128i *) (dst + 14), v1);
      dst += 30;
    }
    acc_c = _mm256_xor_si256 (acc_c, _mm256_clmulepi64_epi128 (d, kk, 0x00));
    acc_y = _mm256_xor_si256 (acc_y, _mm256_clmulepi64_epi128 (d, kk, 0x11));
  }
  if (p < end) {
    /* one group left: loaded a byte early (as lane 1 does) where there is
     * a byte before it, else through a buffer */
    guint8 tmp[16];
    const guint8 *q = p - 1;
    __m256i v, d, kk;

    if (p == start) {
      memcpy (tmp + 1, p, 15);
      q = tmp;
    }
    /* in both lanes with lane 1's shuffles, so that both lanes' words are
     * the group's; lane 1's constant is 0 */
    v = _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) q));
    d = groups60 (v, _mm256_permute2x128_si256 (sa, sa, 0x11),
        _mm256_permute2x128_si256 (sb, sb, 0x11), &wmin, &wmax, TRUE);
    kk = _mm256_zextsi128_si256 (_mm_load_si128 ((const __m128i *) k));
    if (copy)
      memcpy (dst, p, 15);
    acc_c = _mm256_xor_si256 (acc_c, _mm256_clmulepi64_epi128 (d, kk, 0x00));
    acc_y = _mm256_xor_si256 (acc_y, _mm256_clmulepi64_epi128 (d, kk, 0x11));
  }
  c128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_c),
      _mm256_extracti128_si256 (acc_c, 1));
  y128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_y),
      _mm256_extracti128_si256 (acc_y, 1));
  min128 = _mm_min_epu16 (_mm256_castsi256_si128 (wmin),
      _mm256_extracti128_si256 (wmin, 1));
  max128 = _mm_max_epu16 (_mm256_castsi256_si128 (wmax),
      _mm256_extracti128_si256 (wmax, 1));
  *crc_c = clmul60_reduce ((guint64) _mm_cvtsi128_si64 (c128),
      (guint64) _mm_extract_epi64 (c128, 1));
  *crc_y = clmul60_reduce ((guint64) _mm_cvtsi128_si64 (y128),
      (guint64) _mm_extract_epi64 (y128, 1));
  if (groups > 0) {
    guint lo_w = (guint) _mm_cvtsi128_si32 (_mm_minpos_epu16 (min128)) & 0xffff;
    guint hi_w = 0xffff - ((guint) _mm_cvtsi128_si32 (_mm_minpos_epu16
            (_mm_xor_si128 (max128, _mm_set1_epi32 (-1)))) & 0xffff);
    ok = ok && lo_w >= ST2022_SAMPLE_MIN && hi_w <= ST2022_SAMPLE_MAX;
  }
  return ok;
}

__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq")))
static gboolean
crc_legal_clmul256 (guint8 * dst, const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  if (bytes / 15 > MAX_GROUPS - 1)
    return crc_legal_scalar (dst, p, bytes, crc_c, crc_y);
  if (dst)
    return crc_legal_avx2_body (dst, p, bytes, crc_c, crc_y, TRUE);
  return crc_legal_avx2_body (NULL, p, bytes, crc_c, crc_y, FALSE);
}

/* ---- AVX-512 VBMI + GFNI + VPCLMULQDQ: chunks straight from the bytes ----
 *
 * The paths above spend most of their time moving each word to a 16-bit
 * lane and back into a chunk.  VPMULTISHIFTQB takes any 8 consecutive bits
 * of a qword into each byte, so the 40-bit chunks are cut straight out of
 * the packed bytes: VPERMB puts, per 10-byte block, the 8 bytes that hold
 * the C words (bytes 0-3, 5-8) in one qword and the 8 that hold the Y
 * words (1-4, 6-9) in the next, both reversed, so that each qword is a
 * big-endian number in which every word's 10 bits lie together, highest
 * bit first (C words at bits 54, 34, 22, 2; Y at 52, 32, 20, 0).  A chunk
 * byte that straddles two words takes its low bits from one multishift and
 * its high bits from a second (a bit select joins them); bytes outside the
 * chunk are zeroed by the multishifts' masks.  The Y chunk is cut 24 bits
 * up and its constant is shifted by 40, so that its product lands at bit
 * 64 and one accumulator holds both channels (C in the low qword, Y in the
 * high).  The check takes each word's top 8 bits to a byte (a third
 * multishift): a word is reserved exactly when those are all equal, i.e.
 * when b ^ rotl (b, 1) is 0, one GF2P8AFFINEQB; a running unsigned minimum
 * keeps any 0.  Four blocks (40 bytes, 32 words) per 512-bit step, masked
 * loads and stores at the end of the row, so nothing outside it is read
 * or written. */

#define VBMI_TARGET "avx512f,avx512bw,avx512vl,avx512vbmi,gfni,vpclmulqdq," \
  "avx2,sse4.1,pclmul"

static gboolean
have_vbmi_path (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx512f") &&
      __builtin_cpu_supports ("avx512bw") &&
      __builtin_cpu_supports ("avx512vl") &&
      __builtin_cpu_supports ("avx512vbmi") &&
      __builtin_cpu_supports ("gfni") &&
      __builtin_cpu_supports ("vpclmulqdq");
}

/* per 16-byte lane (block b at byte 10 b of the step): the C qword, then
 * the Y qword, each from its last byte to its first */
#define VBMI_PERM(b) 10 * b + 8, 10 * b + 7, 10 * b + 6, 10 * b + 5, \
  10 * b + 3, 10 * b + 2, 10 * b + 1, 10 * b + 0, \
  10 * b + 9, 10 * b + 8, 10 * b + 7, 10 * b + 6, \
  10 * b + 4, 10 * b + 3, 10 * b + 2, 10 * b + 1
/* chunk bytes: A gives each byte's low part (the word it starts in), B the
 * high part of the bytes that straddle two words; Y's are 3 bytes up */
#define VBMI_CTL_A 54, 62, 40, 26, 4, 0, 0, 0, 0, 0, 0, 52, 60, 38, 24, 2
#define VBMI_CTL_B 0, 32, 18, 60, 0, 0, 0, 0, 0, 0, 0, 0, 30, 16, 58, 0
/* each word's top 8 bits */
#define VBMI_CTL_TOP 56, 36, 24, 4, 56, 36, 24, 4, 54, 34, 22, 2, 54, 34, 22, 2

/* VPERMB indices: the chunk qwords from packed bytes (VBMI_PERM); and,
 * built by vbmi_init(), the same from the clip path's 40-bit numbers (one
 * per 4 words, low 40 bits of a qword), those numbers to packed bytes, and
 * packed bytes to big-endian 16-bit word lanes with each lane's right
 * shift */
static const guint8 vbmi_perm[64] __attribute__ ((aligned (64))) = {
  VBMI_PERM (0), VBMI_PERM (1), VBMI_PERM (2), VBMI_PERM (3)
};
static guint8 vbmi_perm_num[64] __attribute__ ((aligned (64)));
static guint8 vbmi_pack[64] __attribute__ ((aligned (64)));
static guint8 vbmi_unpack_b[64] __attribute__ ((aligned (64)));
static guint16 vbmi_unshift[32] __attribute__ ((aligned (64)));

/* v210 on AVX-512: 96 words (128 v210 bytes, 32 dwords of 3 words) in
 * three steps of 32, each from its own 64-byte load (at 0, 40 and 84) with
 * its own VPERMB indices and lane shifts (word j sits at bit 32 (j / 3) +
 * 10 (j % 3) of the little-endian row); the rest as the clip path.  Whole
 * 96-word groups only (the caller goes on in 6-pixel blocks). */
static const guint v210_step_off[3] = { 0, 40, 84 };
static guint8 vbmi_v210_b[3][64] __attribute__ ((aligned (64)));
static guint16 vbmi_v210_shift[3][32] __attribute__ ((aligned (64)));

static void
vbmi_init (void)
{
  guint i, t;

  /* packed byte s is byte 4 - s % 5 of number s / 5 */
  for (i = 0; i < 64; i++)
    vbmi_pack[i] = i < 40 ? 8 * (i / 5) + 4 - i % 5 : 0;
  for (i = 0; i < 64; i++)
    vbmi_perm_num[i] = vbmi_pack[vbmi_perm[i]];
  for (i = 0; i < 32; i++) {
    guint a = 10 * i / 8;

    /* the word's two bytes, big-endian in the lane */
    vbmi_unpack_b[2 * i] = a + 1;
    vbmi_unpack_b[2 * i + 1] = a;
    vbmi_unshift[i] = 6 - (10 * i - 8 * a);
  }
  /* v210: each step's bytes to word lanes, and the lanes' shifts */
  for (t = 0; t < 3; t++) {
    for (i = 0; i < 32; i++) {
      guint j = 32 * t + i, bit = 32 * (j / 3) + 10 * (j % 3);
      guint a = bit / 8 - v210_step_off[t];

      vbmi_v210_b[t][2 * i] = a;
      vbmi_v210_b[t][2 * i + 1] = a + 1;
      vbmi_v210_shift[t][i] = bit % 8;
    }
  }
}

/* the CRC chunks of chunk-source qwords @x (VBMI_PERM's layout) times
 * their constants @kk, into @acc */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline void
vbmi_chunks (__m512i x, __m512i kk, __m512i * acc)
{
  static const guint8 ctl_a[64] __attribute__ ((aligned (64))) = {
    VBMI_CTL_A, VBMI_CTL_A, VBMI_CTL_A, VBMI_CTL_A
  };
  static const guint8 ctl_b[64] __attribute__ ((aligned (64))) = {
    VBMI_CTL_B, VBMI_CTL_B, VBMI_CTL_B, VBMI_CTL_B
  };
  /* per lane: C bytes 0-4, Y bytes 11-15 (A); C 1-3, Y 12-14 (B) */
  const __mmask64 mask_a = 0xf81ff81ff81ff81full;
  const __mmask64 mask_b = 0x700e700e700e700eull;
  /* the bits A gives (1) and B gives (0): C qword, Y qword */
  const __m512i sel = _mm512_set_epi64 ((gint64) 0xff3f0f03ff000000ull,
      0xff3f0f03ffll, (gint64) 0xff3f0f03ff000000ull, 0xff3f0f03ffll,
      (gint64) 0xff3f0f03ff000000ull, 0xff3f0f03ffll,
      (gint64) 0xff3f0f03ff000000ull, 0xff3f0f03ffll);
  /* select: (sel ? A : B) */
  __m512i d = _mm512_ternarylogic_epi64 (_mm512_maskz_multishift_epi64_epi8
      (mask_a, _mm512_load_si512 ((const void *) ctl_a), x),
      _mm512_maskz_multishift_epi64_epi8 (mask_b,
          _mm512_load_si512 ((const void *) ctl_b), x), sel, 0xe4);

  /* acc ^= C products ^ Y products */
  *acc = _mm512_ternarylogic_epi64 (*acc, _mm512_clmulepi64_epi128 (d, kk,
          0x00), _mm512_clmulepi64_epi128 (d, kk, 0x11), 0x96);
}

/* packed bytes @v → the chunk-source qwords (returned) and the check
 * bytes @top (16 per block, 0 exactly for a reserved word) */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline __m512i
vbmi_source (__m512i v, __m512i * top)
{
  static const guint8 ctl_top[64] __attribute__ ((aligned (64))) = {
    VBMI_CTL_TOP, VBMI_CTL_TOP, VBMI_CTL_TOP, VBMI_CTL_TOP
  };
  /* GF2P8AFFINEQB matrix of b ^ rotl (b, 1): byte 7 - i is the row of
   * result bit i, bits i and i - 1 (mod 8) */
  const __m512i rot_xor = _mm512_set1_epi64 ((gint64) 0x8103060c183060c0ull);
  __m512i x = _mm512_permutexvar_epi8 (_mm512_load_si512 ((const void *)
          vbmi_perm), v);

  *top = _mm512_gf2p8affine_epi64_epi8 (_mm512_multishift_epi64_epi8
      (_mm512_load_si512 ((const void *) ctl_top), x), rot_xor, 0);
  return x;
}

/* one step: up to 4 blocks in @v (the bytes past them 0), @kk their
 * constants; @lanes: which lanes' check bytes count */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline void
vbmi_step (__m512i v, __m512i kk, __mmask64 lanes, __m512i * acc,
    __m512i * lowest)
{
  __m512i top, x = vbmi_source (v, &top);

  *lowest = _mm512_mask_min_epu8 (*lowest, lanes, *lowest, top);
  vbmi_chunks (x, kk, acc);
}

/* the accumulator's C and Y registers */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline void
vbmi_fold (__m512i acc, guint32 * c, guint32 * y)
{
  __m128i a = _mm_xor_si128 (_mm_xor_si128 (_mm512_castsi512_si128 (acc),
          _mm512_extracti32x4_epi32 (acc, 1)),
      _mm_xor_si128 (_mm512_extracti32x4_epi32 (acc, 2),
          _mm512_extracti32x4_epi32 (acc, 3)));

  *c = clmul_reduce ((guint64) _mm_cvtsi128_si64 (a));
  *y = clmul_reduce ((guint64) _mm_extract_epi64 (a, 1));
}

__attribute__ ((target (VBMI_TARGET)))
static gboolean
crc_legal_vbmi (guint8 * dst, const guint8 * p, gsize bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  gsize m = bytes / BLOCK, i = 0, n;
  const guint64 (*k)[2];
  __m512i acc = _mm512_setzero_si512 ();
  __m512i lowest = _mm512_set1_epi8 (-1);
  guint32 c, y;
  gboolean ok;

  if (m > MAX_CHUNKS)
    return crc_legal_scalar (dst, p, bytes, crc_c, crc_y);
  /* past the guard: the table holds MAX_CHUNKS pairs */
  k = clmul_k40 + MAX_CHUNKS - m;
  /* whole steps whose 64-byte load stays inside the row; the copy's
   * 64-byte stores rewrite the next step's bytes with the same values */
  for (; m - i >= 4 && bytes - i * BLOCK >= 64; i += 4) {
    __m512i v = _mm512_loadu_si512 ((const void *) (p + i * BLOCK));

    if (dst)
      _mm512_storeu_si512 ((void *) (dst + i * BLOCK), v);
    vbmi_step (v, _mm512_loadu_si512 ((const void *) (k + i)), ~0ull, &acc,
        &lowest);
  }
  /* the rest of the blocks, masked: no byte past the row is read or
   * written, missing lanes get constant 0 and no check */
  for (; i < m; i += n) {
    __mmask64 bm;
    __m512i v;

    n = MIN (m - i, 4);
    bm = (1ull << (n * BLOCK)) - 1;
    v = _mm512_maskz_loadu_epi8 (bm, (const void *) (p + i * BLOCK));
    if (dst)
      _mm512_mask_storeu_epi8 ((void *) (dst + i * BLOCK), bm, v);
    vbmi_step (v, _mm512_maskz_loadu_epi64 ((__mmask8) ((1u << (2 * n)) - 1),
            (const void *) (k + i)), n == 4 ? ~0ull : (1ull << (16 * n)) - 1,
        &acc, &lowest);
  }
  vbmi_fold (acc, &c, &y);
  ok = _mm512_cmpeq_epi8_mask (lowest, _mm512_setzero_si512 ()) == 0;
  if (bytes % BLOCK >= 5) {
    /* a trailing 4-word group */
    const guint8 *q = p + m * BLOCK;
    guint16 w[4];

    if (dst)
      memcpy (dst + m * BLOCK, q, 5);
    st2022_unpack_words (q, w, 4);
    c = ST2022_CRC_2WORDS (c, w[0], w[2]);
    y = ST2022_CRC_2WORDS (y, w[1], w[3]);
    ok = ok && legal_groups (q, q + 5);
  }
  *crc_c = c;
  *crc_y = y;
  return ok;
}

/* The clip paths on AVX-512: 32 words in 16-bit lanes (@w, stream order)
 * clamped, packed back as 40-bit numbers (a multiply-add and a bit
 * select) and to bytes (VPERMB, returned); the CRC chunks come from the
 * numbers by one more VPERMB, as in the legal path.  @changed: the lanes
 * (of @lanes) the clamp changed. */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline __m512i
vbmi_pack_step (__m512i w, __m512i kk, __mmask32 lanes, __m512i * acc,
    __mmask32 * changed)
{
  const __m512i pack_madd = _mm512_set1_epi32 (1 << 10 | 1 << 16);
  const __m512i sel = _mm512_set1_epi64 (G_GUINT64_CONSTANT (0xfffff00000));
  __m512i wc = _mm512_min_epu16 (_mm512_max_epu16 (w,
          _mm512_set1_epi16 (ST2022_SAMPLE_MIN)),
      _mm512_set1_epi16 (ST2022_SAMPLE_MAX));
  /* word pairs: first * 1024 + second; then pairs' 20 bits side by side */
  __m512i e = _mm512_madd_epi16 (wc, pack_madd);

  if (changed)
    *changed |= _mm512_mask_cmpneq_epi16_mask (lanes, w, wc);
  e = _mm512_ternarylogic_epi64 (_mm512_slli_epi64 (e, 20),
      _mm512_srli_epi64 (e, 32), sel, 0xe4);
  vbmi_chunks (_mm512_permutexvar_epi8 (_mm512_load_si512 ((const void *)
              vbmi_perm_num), e), kk, acc);
  return _mm512_permutexvar_epi8 (_mm512_load_si512 ((const void *)
          vbmi_pack), e);
}

/* packed bytes → their 32 words in 16-bit lanes (VPERMB, a per-lane
 * shift) */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline __m512i
vbmi_unpack (__m512i v)
{
  return _mm512_and_si512 (_mm512_srlv_epi16 (_mm512_permutexvar_epi8
          (_mm512_load_si512 ((const void *) vbmi_unpack_b), v),
          _mm512_load_si512 ((const void *) vbmi_unshift)),
      _mm512_set1_epi16 (0x3ff));
}

/* One step of the clip path: @n (1..4) blocks in @v (the bytes past them
 * 0), @kk their constants.
 * A step with no reserved word (nearly all of them, even in the rows that
 * hold one: smpte bars have 160 reserved words in a 3840-word row) costs
 * what the legal path's does: the check of vbmi_step() decides, and the
 * chunks come straight from the bytes, which are stored unchanged.  Only a
 * step that holds one is unpacked, clamped and packed back. */
__attribute__ ((target (VBMI_TARGET), always_inline))
static inline __m512i
vbmi_clip_step (__m512i v, __m512i kk, guint n, __m512i * acc,
    __mmask32 * changed)
{
  /* the blocks' check bytes (16 per block) and words (8 per block) */
  __mmask64 check = n == 4 ? ~0ull : (1ull << (16 * n)) - 1;
  __mmask32 lanes = n == 4 ? ~0u : (__mmask32) ((1u << (8 * n)) - 1);
  __m512i top, x = vbmi_source (v, &top);

  if (G_LIKELY (_mm512_mask_testn_epi8_mask (check, top, top) == 0)) {
    vbmi_chunks (x, kk, acc);
    return v;
  }
  return vbmi_pack_step (vbmi_unpack (v), kk, lanes, acc, changed);
}

__attribute__ ((target (VBMI_TARGET)))
static gsize
packed_clip_crc_vbmi (guint8 * dst, const guint8 * src, gsize bytes,
    guint32 * crc_c, guint32 * crc_y, gboolean * clipped)
{
  gsize m = bytes / BLOCK, i = 0, n;
  const guint64 (*k)[2];
  __m512i acc = _mm512_setzero_si512 ();
  __mmask32 changed = 0;

  if (m == 0 || m > MAX_CHUNKS)
    return 0;
  /* past the guard: the table holds MAX_CHUNKS pairs */
  k = clmul_k40 + MAX_CHUNKS - m;
  for (; m - i >= 4 && bytes - i * BLOCK >= 64; i += 4) {
    __m512i out = vbmi_clip_step (_mm512_loadu_si512 ((const void *) (src +
                i * BLOCK)), _mm512_loadu_si512 ((const void *) (k + i)), 4,
        &acc, &changed);

    /* the 24 bytes past the step are the next step's to write */
    _mm512_storeu_si512 ((void *) (dst + i * BLOCK), out);
  }
  for (; i < m; i += n) {
    __mmask64 bm;
    __m512i out;

    n = MIN (m - i, 4);
    bm = (1ull << (n * BLOCK)) - 1;
    out = vbmi_clip_step (_mm512_maskz_loadu_epi8 (bm, (const void *) (src +
                i * BLOCK)), _mm512_maskz_loadu_epi64 ((__mmask8) ((1u <<
                    (2 * n)) - 1), (const void *) (k + i)), n, &acc,
        &changed);
    _mm512_mask_storeu_epi8 ((void *) (dst + i * BLOCK), bm, out);
  }
  vbmi_fold (acc, crc_c, crc_y);
  *clipped = changed != 0;
  return m * BLOCK;
}

__attribute__ ((target (VBMI_TARGET)))
static guint
v210_pack_crc_vbmi (guint8 * dst, const guint8 * src, gsize src_bytes,
    guint n_words, guint32 * crc_c, guint32 * crc_y)
{
  guint groups = MIN (n_words / 96, src_bytes / 128), g, t;
  gsize m = (gsize) groups * 12;
  const guint64 (*k)[2];
  __m512i acc = _mm512_setzero_si512 ();

  if (m == 0 || m > MAX_CHUNKS)
    return 0;
  /* past the guard: the table holds MAX_CHUNKS pairs */
  k = clmul_k40 + MAX_CHUNKS - m;
  for (g = 0; g < groups; g++, src += 128) {
    for (t = 0; t < 3; t++, dst += 40, k += 4) {
      /* the last group's last load would pass the row: masked */
      gsize left = src_bytes - (gsize) g * 128 - v210_step_off[t];
      __m512i v = left >= 64 ?
          _mm512_loadu_si512 ((const void *) (src + v210_step_off[t])) :
          _mm512_maskz_loadu_epi8 ((1ull << left) - 1,
          (const void *) (src + v210_step_off[t]));
      __m512i w = _mm512_and_si512 (_mm512_srlv_epi16
          (_mm512_permutexvar_epi8 (_mm512_load_si512 ((const void *)
                      vbmi_v210_b[t]), v),
              _mm512_load_si512 ((const void *) vbmi_v210_shift[t])),
          _mm512_set1_epi16 (0x3ff));
      __m512i out = vbmi_pack_step (w, _mm512_loadu_si512 ((const void *) k),
          ~0u, &acc, NULL);

      if (g + 1 < groups || t < 2)
        _mm512_storeu_si512 ((void *) dst, out);
      else
        _mm512_mask_storeu_epi8 ((void *) dst, (1ull << 40) - 1, out);
    }
  }
  vbmi_fold (acc, crc_c, crc_y);
  return groups * 96;
}

/* ---- v210 → packed words, clipped, with the CRC ---- */

/* Words of 8-word units of a v210 row into 16-bit lanes: unit u starts at
 * word 8u, i.e. at word 8u mod 3 (0, 2, 1 for u mod 3 = 0, 1, 2) of dword
 * 8u / 3; each lane takes the two little-endian bytes that hold its word
 * and a multiply lifts the word to the lane's top (dropping the bits of
 * the word below it) for a shift down by 6. */
#define V210_SHUF0 0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10
#define V210_MUL0 64, 16, 4, 64, 16, 4, 64, 16
#define V210_SHUF2 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11, 12, 13
#define V210_MUL2 4, 64, 16, 4, 64, 16, 4, 64
#define V210_SHUF1 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9, 9, 10, 10, 11
#define V210_MUL1 16, 4, 64, 16, 4, 64, 16, 4
/* 6 units = 48 words = 64 v210 bytes: the units' byte offsets */
static const guint8 v210_unit_off[6] = { 0, 8, 20, 32, 40, 52 };

/* two units (one per lane) of clipped words in stream order → their
 * packed bytes (10 per lane, at the lane's start) */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline __m256i
pair_pack (__m256i w)
{
  const __m256i pack_madd = _mm256_setr_epi16 (1024, 1, 1024, 1, 1024, 1,
      1024, 1, 1024, 1, 1024, 1, 1024, 1, 1024, 1);
  /* 40-bit big-endian groups to bytes in stream order */
  const __m256i be = _mm256_setr_epi8 (4, 3, 2, 1, 0, 12, 11, 10, 9, 8, -1,
      -1, -1, -1, -1, -1, 4, 3, 2, 1, 0, 12, 11, 10, 9, 8, -1, -1, -1, -1, -1,
      -1);
  const __m256i hi = _mm256_set1_epi64x (G_GUINT64_CONSTANT (0xfffff00000));
  /* packed: w0 w1 w2 w3 as 40 bits, most significant first */
  __m256i e = _mm256_madd_epi16 (w, pack_madd);

  e = _mm256_or_si256 (_mm256_and_si256 (_mm256_slli_epi64 (e, 20), hi),
      _mm256_srli_epi64 (e, 32));
  return _mm256_shuffle_epi8 (e, be);
}

/* the same words' CRC chunks times their constants @kk, into the
 * accumulators (as in the packed path) */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline void
pair_crc (__m256i w, __m256i kk, __m256i * acc_c, __m256i * acc_y)
{
  const __m256i crc_madd = _mm256_setr_epi16 (MADD_BLOCK, MADD_BLOCK);
  /* C words to lanes 0..3, Y words to 4..7 */
  const __m256i split = _mm256_setr_epi8 (0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6,
      7, 10, 11, 14, 15, 0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
  const __m256i lo = _mm256_set1_epi64x (0xfffff);
  const __m256i hi = _mm256_set1_epi64x (G_GUINT64_CONSTANT (0xfffff00000));
  __m256i d = _mm256_madd_epi16 (_mm256_shuffle_epi8 (w, split), crc_madd);

  d = _mm256_or_si256 (_mm256_and_si256 (d, lo),
      _mm256_and_si256 (_mm256_srli_epi64 (d, 12), hi));
  *acc_c = _mm256_xor_si256 (*acc_c, _mm256_clmulepi64_epi128 (d, kk, 0x00));
  *acc_y = _mm256_xor_si256 (*acc_y, _mm256_clmulepi64_epi128 (d, kk, 0x11));
}

/* words of two units (one per lane, lifted by @shuf / @mul) clipped */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline __m256i
pair_words (__m256i v, __m256i shuf, __m256i mul)
{
  return _mm256_srli_epi16 (_mm256_mullo_epi16 (_mm256_shuffle_epi8 (v,
              shuf), mul), 6);
}

__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline __m256i
clip_words (__m256i w)
{
  return _mm256_min_epu16 (_mm256_max_epu16 (w,
          _mm256_set1_epi16 (ST2022_SAMPLE_MIN)),
      _mm256_set1_epi16 (ST2022_SAMPLE_MAX));
}

/* two units: their clipped words' packed bytes and CRC chunks */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq"), always_inline))
static inline void
v210_pair (__m256i v, __m256i shuf, __m256i mul, __m256i kk, __m256i * out,
    __m256i * acc_c, __m256i * acc_y)
{
  __m256i w = clip_words (pair_words (v, shuf, mul));

  *out = pair_pack (w);
  pair_crc (w, kk, acc_c, acc_y);
}

__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq")))
static guint
v210_pack_crc_avx2 (guint8 * dst, const guint8 * src, gsize src_bytes,
    guint n_words, guint32 * crc_c, guint32 * crc_y)
{
  const __m256i shuf01 = _mm256_setr_epi8 (V210_SHUF0, V210_SHUF2);
  const __m256i mul01 = _mm256_setr_epi16 (V210_MUL0, V210_MUL2);
  const __m256i shuf23 = _mm256_setr_epi8 (V210_SHUF1, V210_SHUF0);
  const __m256i mul23 = _mm256_setr_epi16 (V210_MUL1, V210_MUL0);
  const __m256i shuf45 = _mm256_setr_epi8 (V210_SHUF2, V210_SHUF1);
  const __m256i mul45 = _mm256_setr_epi16 (V210_MUL2, V210_MUL1);
  __m256i acc_c = _mm256_setzero_si256 (), acc_y = acc_c;
  /* whole 48-word groups whose last 16-byte load (at 52) stays inside */
  guint groups = MIN (n_words / 48, src_bytes >= 68 ?
      (guint) ((src_bytes - 68) / 64 + 1) : 0), g, m = groups * 6, i;
  const guint64 (*k)[2];
  __m128i c128, y128;

  if (m == 0 || m > MAX_CHUNKS)
    return 0;
  /* past the guard: the table holds MAX_CHUNKS pairs */
  k = clmul_k + MAX_CHUNKS - m;
  for (g = 0; g < groups; g++, src += 64, k += 6) {
    __m256i v[3], out[3];

    for (i = 0; i < 3; i++)
      v[i] = _mm256_inserti128_si256 (_mm256_castsi128_si256
          (_mm_loadu_si128 ((const __m128i *) (src + v210_unit_off[2 * i]))),
          _mm_loadu_si128 ((const __m128i *) (src + v210_unit_off[2 * i +
                      1])), 1);
    v210_pair (v[0], shuf01, mul01, _mm256_loadu_si256 ((const __m256i *) k),
        &out[0], &acc_c, &acc_y);
    v210_pair (v[1], shuf23, mul23, _mm256_loadu_si256 ((const __m256i *)
            (k + 2)), &out[1], &acc_c, &acc_y);
    v210_pair (v[2], shuf45, mul45, _mm256_loadu_si256 ((const __m256i *)
            (k + 4)), &out[2], &acc_c, &acc_y);
    /* 16-byte stores, each rewriting the 6 bytes past the previous unit;
     * the very last unit's goes through a buffer, so that nothing past
     * the converted part is written */
    for (i = 0; i < 3; i++) {
      _mm_storeu_si128 ((__m128i *) (dst + 20 * i),
          _mm256_castsi256_si128 (out[i]));
      if (i < 2 || g + 1 < groups) {
        _mm_storeu_si128 ((__m128i *) (dst + 20 * i + 10),
            _mm256_extracti128_si256 (out[i], 1));
      } else {
        guint8 tmp[16];
        _mm_storeu_si128 ((__m128i *) tmp, _mm256_extracti128_si256 (out[i],
                1));
        memcpy (dst + 20 * i + 10, tmp, 10);
      }
    }
    dst += 60;
  }
  c128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_c),
      _mm256_extracti128_si256 (acc_c, 1));
  y128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_y),
      _mm256_extracti128_si256 (acc_y, 1));
  *crc_c = clmul_reduce ((guint64) _mm_cvtsi128_si64 (c128));
  *crc_y = clmul_reduce ((guint64) _mm_cvtsi128_si64 (y128));
  return m * 8;
}

/* ---- packed → packed, clipped, with the CRC ---- */

/* a 10-byte block's words in stream order, lifted as for v210 */
#define PACKED_SHUF 1, 0, 2, 1, 3, 2, 4, 3, 6, 5, 7, 6, 8, 7, 9, 8
#define PACKED_MUL 1, 4, 16, 64, 1, 4, 16, 64

/* Two blocks at a time, their words in 16-bit lanes, clipped.  A pair
 * that the clip does not change (nearly every pair, even in rows that hold
 * a reserved value) is stored as it came; only the others are packed
 * back. */
__attribute__ ((target ("avx2,sse4.1,pclmul,vpclmulqdq")))
static gsize
packed_clip_crc_avx2 (guint8 * dst, const guint8 * src, gsize bytes,
    guint32 * crc_c, guint32 * crc_y, gboolean * clipped)
{
  const __m256i shuf = _mm256_setr_epi8 (PACKED_SHUF, PACKED_SHUF);
  const __m256i mul = _mm256_setr_epi16 (PACKED_MUL, PACKED_MUL);
  __m256i acc_c = _mm256_setzero_si256 (), acc_y = acc_c;
  /* pairs of blocks whose second 16-byte load and store end inside */
  gsize pairs = bytes >= 26 ? (bytes - 26) / 20 + 1 : 0, i;
  const guint64 (*k)[2];
  __m128i c128, y128;
  gboolean changed = FALSE;

  if (pairs == 0 || 2 * pairs > MAX_CHUNKS)
    return 0;
  /* past the guard: the table holds MAX_CHUNKS pairs */
  k = clmul_k + MAX_CHUNKS - 2 * pairs;
  for (i = 0; i < pairs; i++, src += 20, dst += 20, k += 2) {
    __m256i v = _mm256_inserti128_si256 (_mm256_castsi128_si256
        (_mm_loadu_si128 ((const __m128i *) src)),
        _mm_loadu_si128 ((const __m128i *) (src + 10)), 1);
    __m256i w = pair_words (v, shuf, mul), wc = clip_words (w);

    if (G_UNLIKELY (_mm256_movemask_epi8 (_mm256_cmpeq_epi16 (w, wc)) != -1)) {
      v = pair_pack (wc);
      changed = TRUE;
    }
    pair_crc (wc, _mm256_loadu_si256 ((const __m256i *) k), &acc_c, &acc_y);
    /* the first store's 6 bytes past its block are the second's to write */
    _mm_storeu_si128 ((__m128i *) dst, _mm256_castsi256_si128 (v));
    _mm_storeu_si128 ((__m128i *) (dst + 10), _mm256_extracti128_si256 (v,
            1));
  }
  c128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_c),
      _mm256_extracti128_si256 (acc_c, 1));
  y128 = _mm_xor_si128 (_mm256_castsi256_si128 (acc_y),
      _mm256_extracti128_si256 (acc_y, 1));
  *crc_c = clmul_reduce ((guint64) _mm_cvtsi128_si64 (c128));
  *crc_y = clmul_reduce ((guint64) _mm_cvtsi128_si64 (y128));
  *clipped = changed;
  return 20 * pairs;
}
#endif

gsize
st2022_packed_clip_crc (guint8 * dst, const guint8 * src, gsize bytes,
    guint32 * crc_c, guint32 * crc_y, gboolean * clipped)
{
  *clipped = FALSE;
#ifdef HAVE_CLMUL_PATH
  if (use_vbmi)
    return packed_clip_crc_vbmi (dst, src, bytes, crc_c, crc_y, clipped);
  if (use_avx2_clip)
    return packed_clip_crc_avx2 (dst, src, bytes, crc_c, crc_y, clipped);
#endif
  return 0;
}


gint
st2022_v210_pack_crc_impl (guint impl, guint8 * dst, const guint8 * src,
    gsize src_bytes, guint n_words, guint32 * crc_c, guint32 * crc_y)
{
  switch (impl) {
#ifdef HAVE_CLMUL_PATH
    case 2:
      if (!use_avx2_clip)
        return -1;
      return v210_pack_crc_avx2 (dst, src, src_bytes, n_words, crc_c, crc_y);
    case 3:
      if (!use_vbmi)
        return -1;
      return v210_pack_crc_vbmi (dst, src, src_bytes, n_words, crc_c, crc_y);
#endif
    default:
      return -1;
  }
}

gssize
st2022_packed_clip_crc_impl (guint impl, guint8 * dst, const guint8 * src,
    gsize bytes, guint32 * crc_c, guint32 * crc_y, gboolean * clipped)
{
  *clipped = FALSE;
  switch (impl) {
#ifdef HAVE_CLMUL_PATH
    case 2:
      if (!use_avx2_clip)
        return -1;
      return packed_clip_crc_avx2 (dst, src, bytes, crc_c, crc_y, clipped);
    case 3:
      if (!use_vbmi)
        return -1;
      return packed_clip_crc_vbmi (dst, src, bytes, crc_c, crc_y, clipped);
#endif
    default:
      return -1;
  }
}

gboolean
st2022_crc_legal_packed (const guint8 * p, gsize bytes, guint32 * crc_c,
    guint32 * crc_y)
{
  return crc_legal_impl (NULL, p, bytes, crc_c, crc_y);
}

gboolean
st2022_crc_legal_copy_packed (guint8 * dst, const guint8 * src, gsize bytes,
    guint32 * crc_c, guint32 * crc_y)
{
  return crc_legal_impl (dst, src, bytes, crc_c, crc_y);
}

gint
st2022_crc_legal_packed_impl (guint impl, guint8 * dst, const guint8 * p,
    gsize bytes, guint32 * crc_c, guint32 * crc_y)
{
  switch (impl) {
#ifdef HAVE_CLMUL_PATH
    case 1:
      if (!__builtin_cpu_supports ("pclmul") ||
          !__builtin_cpu_supports ("sse4.1"))
        return -1;
      return crc_legal_clmul128 (dst, p, bytes, crc_c, crc_y);
    case 2:
      if (!__builtin_cpu_supports ("vpclmulqdq") ||
          !__builtin_cpu_supports ("avx2"))
        return -1;
      return crc_legal_clmul256 (dst, p, bytes, crc_c, crc_y);
    case 3:
      if (!use_vbmi)
        return -1;
      return crc_legal_vbmi (dst, p, bytes, crc_c, crc_y);
#endif
    case 0:
      return crc_legal_scalar (dst, p, bytes, crc_c, crc_y);
    default:
      return -1;
  }
}

gboolean
st2022_crc_legal_packed_is_vector (void)
{
  return crc_legal_impl != crc_legal_scalar;
}

guint
st2022_v210_pack_crc (guint8 * dst, const guint8 * src, gsize src_bytes,
    guint n_words, guint32 * crc_c, guint32 * crc_y)
{
#ifdef HAVE_CLMUL_PATH
  if (use_vbmi)
    return v210_pack_crc_vbmi (dst, src, src_bytes, n_words, crc_c, crc_y);
  if (use_avx2_clip)
    return v210_pack_crc_avx2 (dst, src, src_bytes, n_words, crc_c, crc_y);
#endif
  return 0;
}

const char *
st2022_crc_impl_name (void)
{
  return crc_legal_name;
}
