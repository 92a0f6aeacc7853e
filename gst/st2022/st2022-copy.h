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
