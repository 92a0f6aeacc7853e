/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Double-mapped ring memory (see vmi-tx-ring.h). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "vmi-tx-ring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

guint8 *
vmi_tx_ring_map (gsize size, GError ** error)
{
  guint8 *base = MAP_FAILED;
  int fd;

  if (size == 0 || size % (gsize) sysconf (_SC_PAGESIZE) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "ring of %" G_GSIZE_FORMAT " bytes: not a multiple of the page size",
        size);
    return NULL;
  }
  fd = memfd_create ("vmi-tx-ring", MFD_CLOEXEC);
  if (fd < 0)
    goto failed;
  if (ftruncate (fd, (off_t) size) < 0)
    goto failed;
  /* reserve both copies' address space, then put the file in each half */
  base = mmap (NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    goto failed;
  if (mmap (base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
          0) == MAP_FAILED
      || mmap (base + size, size, PROT_READ | PROT_WRITE,
          MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
    goto failed;
  close (fd);
  return base;

failed:
  {
    int e = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "cannot map a ring of %" G_GSIZE_FORMAT " bytes twice: %s", size,
        g_strerror (e));
    if (base != MAP_FAILED)
      munmap (base, 2 * size);
    if (fd >= 0)
      close (fd);
    return NULL;
  }
}

void
vmi_tx_ring_unmap (guint8 * base, gsize size)
{
  if (base)
    munmap (base, 2 * size);
}
