/* gst-vmi: ST 2022-6 core, payload copies into a cold frame
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The depacketizer copies each datagram's payload once into an output
 * frame (5-6 MB) that it does not read again and that is not in any cache.
 * An ordinary store to such a line first reads it from memory (read for
 * ownership), so the copy moves twice the bytes it writes. Non-temporal
 * (streaming) stores write whole lines without reading them.
 *
 * st2022_copy_stream() writes the 64-byte lines that [dst, dst + len)
 * covers whole with streaming stores, and the partial lines at either end
 * with ordinary ones (a line is never part streamed, part cached, which
 * would make the write-combining buffer flush a partial line). Streaming
 * stores are weakly ordered: call st2022_copy_stream_fence() before the
 * memory is handed to another thread. The copying thread itself always
 * reads what it wrote.
 */

#ifndef __ST2022_COPY_H__
#define __ST2022_COPY_H__

#include <glib.h>

G_BEGIN_DECLS

/* implementations, for st2022_copy_stream_select() */
typedef enum
{
  ST2022_COPY_AUTO = 0,         /* the best this CPU has (VMI_RX_COPY overrides) */
  ST2022_COPY_MEMCPY,           /* ordinary stores (memcpy) */
  ST2022_COPY_SSE2,             /* 16-byte streaming stores */
  ST2022_COPY_AVX2,             /* 32-byte streaming stores */
} St2022CopyImpl;

void st2022_copy_stream (guint8 * dst, const guint8 * src, gsize len);
void st2022_copy_stream_fence (void);

/**
 * St2022CopyHold:
 * The destination line a held streaming copy has written only part of:
 * its bytes [lo, hi) wait in @buf. Zero it before first use.
 *
 * st2022_copy_stream() writes a copy's partial first and last lines with
 * ordinary stores. On a cold frame each of those stores first reads its
 * line from memory (read for ownership), and the streaming stores queued
 * behind it wait for that read: one memory latency per datagram boundary.
 * Payloads arrive in order, so the line a datagram's end leaves partial is
 * almost always completed by the next datagram's start:
 * st2022_copy_stream_held() keeps such a line's bytes in @buf until the
 * next copy completes it, then streams the whole line. A copy that does
 * not continue the held bytes (a loss, a reorder, another row) first
 * writes them out with ordinary stores, as st2022_copy_stream() would.
 */
typedef struct
{
  guint8 *line;                 /* NULL: nothing held */
  guint lo, hi;
  guint8 buf[64];
} St2022CopyHold;

/* st2022_copy_stream(), holding back a partial last line in @h. The held
 * bytes reach the destination only on a later copy or on
 * st2022_copy_stream_release(): call it before the fence that hands the
 * destination on. With VMI_RX_HOLD=0 in the environment (benchmarks' A/B
 * runs) or the memcpy implementation nothing is held. */
void st2022_copy_stream_held (St2022CopyHold * h, guint8 * dst,
    const guint8 * src, gsize len);
void st2022_copy_stream_release (St2022CopyHold * h);

/* Asks for the lines of @len bytes at @src, a payload about to be copied
 * by st2022_copy_stream() (each datagram is in a buffer of its own, so the
 * hardware's stream prefetchers start again on every one) */
static inline void
st2022_copy_prefetch (const guint8 * src, gsize len)
{
#ifdef __GNUC__
  const guint8 *p = (const guint8 *) ((guintptr) src & ~(guintptr) 63);

  for (; p < src + len; p += 64)
    __builtin_prefetch (p, 0, 3);
#endif
}

/* Picks the implementation for the whole process (benchmarks, tests).
 * ST2022_COPY_AUTO: the environment variable VMI_RX_COPY (memcpy, sse2,
 * avx2) if set, else the widest the CPU runs. Returns FALSE, changing
 * nothing, for one this CPU or build cannot run. Not thread-safe against
 * copies running at the same time. */
gboolean st2022_copy_stream_select (St2022CopyImpl impl);
/* the implementation in use: "memcpy", "sse2" or "avx2" */
const char *st2022_copy_stream_name (void);

G_END_DECLS

#endif
