/* gst-vmi: ST 2022-6 core, payload copies into a cold frame
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * See st2022-copy.h for why. The x86 kernels load unaligned (the payload
 * follows a 62- or 66-byte header in the packet) and stream aligned whole
 * lines; other CPUs, and lengths under two lines, use memcpy.
 */

#include <string.h>
#include "st2022-copy.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define HAVE_STREAM_PATH 1
#include <immintrin.h>
#endif

#define LINE 64

typedef void (*CopyFn) (guint8 * dst, const guint8 * src, gsize len);

static void
copy_memcpy (guint8 * dst, const guint8 * src, gsize len)
{
  memcpy (dst, src, len);
}

static CopyFn copy_fn = copy_memcpy;
static const char *copy_name = "memcpy";
static gsize copy_once;

#ifdef HAVE_STREAM_PATH
/* The part of a copy of @len bytes to @dst that is not streamed: the
 * bytes before the first line boundary now, the whole copy when fewer
 * than two lines would stream. Returns how many whole lines to stream
 * from *@dst, *@src on (0: done); the caller then copies the
 * @len - lines * LINE bytes left after them. */
static inline gsize
stream_begin (guint8 ** dst, const guint8 ** src, gsize len)
{
  gsize head = (gsize) (-(guintptr) * dst) & (LINE - 1);

  if (len < head + 2 * LINE) {
    memcpy (*dst, *src, len);
    return 0;
  }
  memcpy (*dst, *src, head);
  *dst += head;
  *src += head;
  return (len - head) / LINE;
}

/* one line, loaded unaligned, streamed to a line-aligned @dst */
__attribute__ ((target ("sse2")))
static inline void
line_sse2 (guint8 * dst, const guint8 * src)
{
  __m128i a = _mm_loadu_si128 ((const __m128i *) src);
  __m128i b = _mm_loadu_si128 ((const __m128i *) (src + 16));
  __m128i c = _mm_loadu_si128 ((const __m128i *) (src + 32));
  __m128i d = _mm_loadu_si128 ((const __m128i *) (src + 48));

  _mm_stream_si128 ((__m128i *) dst, a);
  _mm_stream_si128 ((__m128i *) (dst + 16), b);
  _mm_stream_si128 ((__m128i *) (dst + 32), c);
  _mm_stream_si128 ((__m128i *) (dst + 48), d);
}

__attribute__ ((target ("avx2")))
static inline void
line_avx2 (guint8 * dst, const guint8 * src)
{
  __m256i a = _mm256_loadu_si256 ((const __m256i *) src);
  __m256i b = _mm256_loadu_si256 ((const __m256i *) (src + 32));

  _mm256_stream_si256 ((__m256i *) dst, a);
  _mm256_stream_si256 ((__m256i *) (dst + 32), b);
}

/* a kernel per instruction set, so that its line copy inlines (a target
 * function inlines only into a function of the same target) */
#define STREAM_KERNEL(name, isa, line)                                  \
  __attribute__ ((target (isa)))                                        \
  static void                                                           \
  name (guint8 * dst, const guint8 * src, gsize len)                    \
  {                                                                     \
    const guint8 *s0 = src;                                             \
    gsize lines = stream_begin (&dst, &src, len), i;                    \
                                                                        \
    if (lines == 0)                                                     \
      return;                                                           \
    len -= src - s0;                                                    \
    for (i = 0; i < lines; i++, dst += LINE, src += LINE)               \
      line (dst, src);                                                  \
    memcpy (dst, src, len - lines * LINE);                              \
  }

STREAM_KERNEL (copy_sse2, "sse2", line_sse2);
STREAM_KERNEL (copy_avx2, "avx2", line_avx2);

/* The held copy: bytes of a line that @dst starts inside, or that a copy
 * of less than a line covers, join the held line when they continue it;
 * whole lines stream; a partial last line is held. */
#define HELD_KERNEL(name, isa, put_line)                                    \
  __attribute__ ((target (isa)))                                        \
  static void                                                           \
  name (St2022CopyHold * h, guint8 * dst, const guint8 * src, gsize len) \
  {                                                                     \
    guint8 *l = (guint8 *) ((guintptr) dst & ~(guintptr) (LINE - 1));   \
    guint off = (guint) (dst - l);                                      \
                                                                        \
    if (h->line && (h->line != l || h->hi != off))                      \
      st2022_copy_stream_release (h);                                   \
    if (off || len < LINE || h->line) {                                 \
      gsize head = MIN (len, (gsize) (LINE - off));                     \
                                                                        \
      if (h->line == NULL) {                                            \
        h->line = l;                                                    \
        h->lo = off;                                                    \
      }                                                                 \
      memcpy (h->buf + off, src, head);                                 \
      h->hi = off + (guint) head;                                       \
      if (h->hi < LINE)                                                 \
        return;                                                         \
      if (h->lo == 0) {                                                 \
        put_line (l, h->buf);                                           \
        h->line = NULL;                                                 \
      } else {                                                          \
        st2022_copy_stream_release (h);                                 \
      }                                                                 \
      dst += head;                                                      \
      src += head;                                                      \
      len -= head;                                                      \
    }                                                                   \
    for (; len >= LINE; dst += LINE, src += LINE, len -= LINE)          \
      put_line (dst, src);                                              \
    if (len) {                                                          \
      h->line = dst;                                                    \
      h->lo = 0;                                                        \
      h->hi = (guint) len;                                              \
      memcpy (h->buf, src, len);                                        \
    }                                                                   \
  }

HELD_KERNEL (held_sse2, "sse2", line_sse2);
HELD_KERNEL (held_avx2, "avx2", line_avx2);
#endif

typedef void (*HeldFn) (St2022CopyHold * h, guint8 * dst, const guint8 * src,
    gsize len);

static void
held_none (St2022CopyHold * h, guint8 * dst, const guint8 * src, gsize len)
{
  st2022_copy_stream_release (h);
  copy_fn (dst, src, len);
}

static HeldFn held_fn = held_none;

/* VMI_RX_HOLD=0: the held copy holds nothing (the benchmarks' A/B) */
static gboolean
hold_off (void)
{
  return g_strcmp0 (g_getenv ("VMI_RX_HOLD"), "0") == 0;
}

static gboolean
select_impl (St2022CopyImpl impl)
{
  if (impl == ST2022_COPY_AUTO) {
    const char *env = g_getenv ("VMI_RX_COPY");

    if (g_strcmp0 (env, "memcpy") == 0)
      impl = ST2022_COPY_MEMCPY;
    else if (g_strcmp0 (env, "sse2") == 0)
      impl = ST2022_COPY_SSE2;
    else if (g_strcmp0 (env, "avx2") == 0)
      impl = ST2022_COPY_AVX2;
  }
  switch (impl) {
    case ST2022_COPY_MEMCPY:
      copy_fn = copy_memcpy;
      copy_name = "memcpy";
      held_fn = held_none;
      return TRUE;
#ifdef HAVE_STREAM_PATH
    case ST2022_COPY_AVX2:
      __builtin_cpu_init ();
      if (!__builtin_cpu_supports ("avx2"))
        return FALSE;
      copy_fn = copy_avx2;
      copy_name = "avx2";
      held_fn = hold_off () ? held_none : held_avx2;
      return TRUE;
    case ST2022_COPY_SSE2:
      __builtin_cpu_init ();
      if (!__builtin_cpu_supports ("sse2"))
        return FALSE;
      copy_fn = copy_sse2;
      copy_name = "sse2";
      held_fn = hold_off () ? held_none : held_sse2;
      return TRUE;
    case ST2022_COPY_AUTO:
      return select_impl (ST2022_COPY_AVX2) || select_impl (ST2022_COPY_SSE2)
          || select_impl (ST2022_COPY_MEMCPY);
#else
    case ST2022_COPY_AUTO:
      return select_impl (ST2022_COPY_MEMCPY);
#endif
    default:
      return FALSE;
  }
}

static inline void
copy_init (void)
{
  if (g_once_init_enter (&copy_once)) {
    select_impl (ST2022_COPY_AUTO);
    g_once_init_leave (&copy_once, 1);
  }
}

gboolean
st2022_copy_stream_select (St2022CopyImpl impl)
{
  /* first the default, so that it cannot later replace this choice */
  copy_init ();
  return select_impl (impl);
}

void
st2022_copy_stream (guint8 * dst, const guint8 * src, gsize len)
{
  copy_init ();
  copy_fn (dst, src, len);
}

void
st2022_copy_stream_held (St2022CopyHold * h, guint8 * dst,
    const guint8 * src, gsize len)
{
  copy_init ();
  held_fn (h, dst, src, len);
}

void
st2022_copy_stream_release (St2022CopyHold * h)
{
  if (h->line) {
    memcpy (h->line + h->lo, h->buf + h->lo, h->hi - h->lo);
    h->line = NULL;
  }
}

void
st2022_copy_stream_fence (void)
{
#ifdef HAVE_STREAM_PATH
  _mm_sfence ();
#endif
}

const char *
st2022_copy_stream_name (void)
{
  copy_init ();
  return copy_name;
}
