/* gst-vmi: LD_PRELOAD shim for the zero-copy tests.
 *
 * Interposes memcpy/memmove/mempcpy (and their _chk variants) and counts the
 * calls that copy at least VMI_COPY_MIN bytes (default 2048: more than one
 * ST 2022-6 datagram payload of 1376 bytes, less than one 1080p line), and
 * their bytes. At exit it writes "<calls> <bytes>\n" to the file named by
 * VMI_COPY_REPORT. GStreamer and plugins call these through the PLT, so
 * every large copy they make is seen; copies inside glibc itself (which
 * bypass the PLT) are not, and GStreamer does not route frame copies that
 * way. The copy itself is done here (rep movsb), never through dlsym, so
 * the shim works from the first call of the dynamic loader on.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long big_calls, big_bytes;
static size_t threshold = 2048;

static inline void
count (size_t n)
{
  if (n >= threshold) {
    __atomic_add_fetch (&big_calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch (&big_bytes, n, __ATOMIC_RELAXED);
  }
}

static inline void *
copy_fwd (void *d, const void *s, size_t n)
{
  void *ret = d;
#if defined(__x86_64__)
  __asm__ volatile ("rep movsb":"+D" (d), "+S" (s), "+c" (n)::"memory");
#else
  volatile unsigned char *dd = d;
  const unsigned char *ss = s;
  while (n--)
    *dd++ = *ss++;
#endif
  return ret;
}

static inline void *
copy_bwd (void *d, const void *s, size_t n)
{
  volatile unsigned char *dd = (unsigned char *) d + n;
  const unsigned char *ss = (const unsigned char *) s + n;
  while (n--)
    *--dd = *--ss;
  return d;
}

void *
memcpy (void *d, const void *s, size_t n)
{
  count (n);
  return copy_fwd (d, s, n);
}

void *
memmove (void *d, const void *s, size_t n)
{
  count (n);
  if ((uintptr_t) d - (uintptr_t) s >= n)       /* no harmful overlap */
    return copy_fwd (d, s, n);
  return copy_bwd (d, s, n);
}

void *
mempcpy (void *d, const void *s, size_t n)
{
  return (char *) memcpy (d, s, n) + n;
}

void *__memcpy_chk (void *d, const void *s, size_t n, size_t dlen);
void *
__memcpy_chk (void *d, const void *s, size_t n, size_t dlen)
{
  if (n > dlen)
    abort ();
  return memcpy (d, s, n);
}

void *__memmove_chk (void *d, const void *s, size_t n, size_t dlen);
void *
__memmove_chk (void *d, const void *s, size_t n, size_t dlen)
{
  if (n > dlen)
    abort ();
  return memmove (d, s, n);
}

__attribute__((constructor))
static void
copycount_init (void)
{
  const char *t = getenv ("VMI_COPY_MIN");
  if (t)
    threshold = strtoul (t, NULL, 10);
}

__attribute__((destructor))
static void
copycount_report (void)
{
  const char *path = getenv ("VMI_COPY_REPORT");
  FILE *f;

  if (!path || !(f = fopen (path, "w")))
    return;
  fprintf (f, "%llu %llu\n", big_calls, big_bytes);
  fclose (f);
}
