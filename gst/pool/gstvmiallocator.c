/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:gstvmiallocator
 * @title: GstVmiAllocator
 * @short_description: frame memory every process on the host can map
 *
 * A #GstFdAllocator whose memories are anonymous memfd files (hugetlb ones
 * when the system has free huge pages), kept mapped for the life of the
 * memory. Each file is sealed against resizing (F_SEAL_SHRINK,
 * F_SEAL_GROW) as soon as it has its size, so a process that receives its
 * fd can map it without fearing SIGBUS from a later truncate; once our own
 * writable mapping exists it is also sealed against any other writer
 * (F_SEAL_FUTURE_WRITE) and the seals are frozen (F_SEAL_SEAL).
 *
 * Every memory carries a process-unique 64-bit id (gst_vmi_memory_get_id())
 * that `vmisink` uses to send each fd to a consumer only once.
 *
 * GStreamer 1.24 has #GstShmAllocator for the plain case; we are on 1.22 and
 * also want huge pages and full sealing, so this is our own subclass of
 * #GstFdAllocator.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "pool/gstvmiallocator.h"
#include "pool/vmi-dma.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MFD_HUGETLB
#define MFD_HUGETLB 0x0004U
#endif

GST_DEBUG_CATEGORY_STATIC (gst_vmi_allocator_debug);
#define GST_CAT_DEFAULT gst_vmi_allocator_debug

struct _GstVmiAllocator
{
  GstFdAllocator parent;

  gsize page_size;
  gsize huge_page_size;         /* 0 when huge pages are not usable */
};

G_DEFINE_TYPE_WITH_CODE (GstVmiAllocator, gst_vmi_allocator,
    GST_TYPE_FD_ALLOCATOR,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_allocator_debug, "vmiallocator", 0,
        "vMI memfd allocator"));

static GQuark vmi_id_quark;
static GQuark vmi_huge_quark;
static guint64 vmi_next_id = 1;

/* Huge pages are worth it for 5 MB frames (fewer TLB misses, fewer page
 * faults on first touch), but only when the administrator reserved some. */
static gsize
vmi_probe_huge_page_size (void)
{
  FILE *f = fopen ("/proc/meminfo", "r");
  char line[128];
  gsize total = 0, size_kb = 0;

  if (!f)
    return 0;
  while (fgets (line, sizeof (line), f)) {
    unsigned long v;
    if (sscanf (line, "HugePages_Total: %lu", &v) == 1)
      total = v;
    else if (sscanf (line, "Hugepagesize: %lu kB", &v) == 1)
      size_kb = v;
  }
  fclose (f);
  return total > 0 ? size_kb * 1024 : 0;
}

static int
vmi_memfd_sized (GstVmiAllocator * self, gsize * maxsize, gboolean * huge)
{
  int fd = -1;
  gsize size;

  /* a small allocation would waste most of a huge page */
  if (self->huge_page_size && *maxsize >= self->huge_page_size / 2) {
    size = GST_ROUND_UP_N (*maxsize, self->huge_page_size);
    fd = memfd_create ("gst-vmi-huge",
        MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB);
    if (fd >= 0 && ftruncate (fd, size) == 0) {
      /* hugetlbfs reserves pages at mmap time, not at ftruncate: probe
       * with a shared mapping (the reservation stays with the file) so
       * that a lack of free huge pages shows here, not as a failed map. */
      void *p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (p != MAP_FAILED) {
        munmap (p, size);
        *maxsize = size;
        *huge = TRUE;
        return fd;
      }
    }
    GST_DEBUG_OBJECT (self, "no huge page memory for %" G_GSIZE_FORMAT
        " bytes (%s), using normal pages", size, g_strerror (errno));
    if (fd >= 0)
      close (fd);
  }

  size = GST_ROUND_UP_N (*maxsize, self->page_size);
  fd = memfd_create ("gst-vmi", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    GST_ERROR_OBJECT (self, "memfd_create failed: %s", g_strerror (errno));
    return -1;
  }
  if (ftruncate (fd, size) < 0) {
    GST_ERROR_OBJECT (self, "ftruncate %" G_GSIZE_FORMAT " failed: %s", size,
        g_strerror (errno));
    close (fd);
    return -1;
  }
  *maxsize = size;
  *huge = FALSE;
  return fd;
}

static GstMemory *
gst_vmi_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstVmiAllocator *self = GST_VMI_ALLOCATOR (allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = size + params->prefix + params->padding + align;
  gsize aoffset;
  gboolean huge = FALSE;
  GstMemory *mem;
  GstMapInfo info;
  int fd;

  fd = vmi_memfd_sized (self, &maxsize, &huge);
  if (fd < 0)
    return NULL;

  if (fcntl (fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) < 0)
    GST_WARNING_OBJECT (self, "could not seal memfd: %s", g_strerror (errno));

  mem = gst_fd_allocator_alloc (allocator, fd, maxsize,
      GST_FD_MEMORY_FLAG_KEEP_MAPPED);
  if (!mem) {
    close (fd);
    return NULL;
  }

  /* KEEP_MAPPED keeps the first mapping's protection: make it read-write */
  if (!gst_memory_map (mem, &info, GST_MAP_READWRITE)) {
    GST_ERROR_OBJECT (self, "mapping a fresh memfd failed");
    gst_memory_unref (mem);
    return NULL;
  }
  /* a transport that sends straight out of frame memory (DPDK on a PCI
   * NIC) has installed DMA hooks: the whole mapping is registered once
   * here, for the life of the memory (vmi-dma.h) */
  if (vmi_dma_has_hooks ())
    vmi_dma_register (info.data, maxsize, huge ? self->huge_page_size :
        self->page_size);
  aoffset = ((guintptr) info.data) & align;
  if (aoffset)
    aoffset = align + 1 - aoffset;
  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (info.data + aoffset, 0, params->prefix);
  /* memfd pages are zero already; nothing to do for ZERO_PADDED */
  gst_memory_unmap (mem, &info);

  /* Our writable mapping exists now and stays (KEEP_MAPPED). From here on
   * nobody else holding the fd — a consumer process included, even one
   * that reopens it through /proc — can map it writable or write() to it:
   * consumers cannot scribble on frames other consumers read. Then freeze
   * the seals. */
  if (fcntl (fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
    GST_DEBUG_OBJECT (self, "no F_SEAL_FUTURE_WRITE (%s); consumers could "
        "map this memory writable", g_strerror (errno));
    fcntl (fd, F_ADD_SEALS, F_SEAL_SEAL);
  }

  mem->align = align;
  mem->offset = aoffset + params->prefix;
  mem->size = size;

  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), vmi_id_quark,
      GSIZE_TO_POINTER ((gsize) __atomic_fetch_add (&vmi_next_id, 1,
              __ATOMIC_RELAXED)), NULL);
  if (huge)
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), vmi_huge_quark,
        GINT_TO_POINTER (1), NULL);

  GST_LOG_OBJECT (self, "memory %p fd %d size %" G_GSIZE_FORMAT " maxsize %"
      G_GSIZE_FORMAT "%s", mem, fd, size, maxsize, huge ? " (hugetlb)" : "");
  return mem;
}

/* A DMA registration ends before the mapping goes (GstFdAllocator's free
 * unmaps it). A shared sub-memory comes here too, with its parent alive:
 * the registration is the parent's. */
static void
gst_vmi_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstMapInfo info;

  if (mem->parent == NULL && vmi_dma_has_hooks ()
      && gst_memory_map (mem, &info, GST_MAP_READ)) {
    vmi_dma_unregister (info.data - mem->offset);
    gst_memory_unmap (mem, &info);
  }
  GST_ALLOCATOR_CLASS (gst_vmi_allocator_parent_class)->free (allocator, mem);
}

static void
gst_vmi_allocator_class_init (GstVmiAllocatorClass * klass)
{
  GstAllocatorClass *alloc_class = GST_ALLOCATOR_CLASS (klass);

  alloc_class->alloc = GST_DEBUG_FUNCPTR (gst_vmi_allocator_alloc);
  alloc_class->free = GST_DEBUG_FUNCPTR (gst_vmi_allocator_free);

  vmi_id_quark = g_quark_from_static_string ("GstVmiMemoryId");
  vmi_huge_quark = g_quark_from_static_string ("GstVmiMemoryHugetlb");
}

static void
gst_vmi_allocator_init (GstVmiAllocator * self)
{
  self->page_size = sysconf (_SC_PAGESIZE);
  self->huge_page_size = vmi_probe_huge_page_size ();
  GST_DEBUG_OBJECT (self, "huge pages: %s (%" G_GSIZE_FORMAT " bytes)",
      self->huge_page_size ? "available" : "none", self->huge_page_size);
}

/**
 * gst_vmi_allocator_get:
 *
 * The process-wide #GstVmiAllocator, registered on first use as
 * %GST_VMI_ALLOCATOR_NAME.
 *
 * Returns: (transfer full): the allocator; unref it when done.
 */
GstAllocator *
gst_vmi_allocator_get (void)
{
  static gsize init = 0;

  if (g_once_init_enter (&init)) {
    GstAllocator *alloc = g_object_new (GST_TYPE_VMI_ALLOCATOR, NULL);
    gst_object_ref_sink (alloc);
    /* gst_allocator_register takes the reference we hold */
    gst_allocator_register (GST_VMI_ALLOCATOR_NAME, alloc);
    g_once_init_leave (&init, 1);
  }
  return gst_allocator_find (GST_VMI_ALLOCATOR_NAME);
}

/**
 * gst_is_vmi_memory:
 * @mem: a #GstMemory
 *
 * Returns: %TRUE when @mem was allocated by a #GstVmiAllocator (a sealed
 * memfd that can be passed to another process).
 */
gboolean
gst_is_vmi_memory (GstMemory * mem)
{
  g_return_val_if_fail (mem != NULL, FALSE);
  return mem->allocator != NULL && GST_IS_VMI_ALLOCATOR (mem->allocator);
}

/**
 * gst_vmi_memory_get_id:
 * @mem: a vMI #GstMemory
 *
 * Returns: the process-unique id of the memfd behind @mem (shared memories,
 * gst_memory_share(), report their parent's id), or 0 if @mem is not vMI
 * memory.
 */
guint64
gst_vmi_memory_get_id (GstMemory * mem)
{
  GstMemory *m = mem;

  if (!gst_is_vmi_memory (mem))
    return 0;
  while (m->parent)
    m = m->parent;
  return (guint64) GPOINTER_TO_SIZE (gst_mini_object_get_qdata
      (GST_MINI_OBJECT_CAST (m), vmi_id_quark));
}

/**
 * gst_vmi_memory_is_hugetlb:
 * @mem: a vMI #GstMemory
 *
 * Returns: %TRUE when @mem lives in huge pages.
 */
gboolean
gst_vmi_memory_is_hugetlb (GstMemory * mem)
{
  GstMemory *m = mem;

  if (!gst_is_vmi_memory (mem))
    return FALSE;
  while (m->parent)
    m = m->parent;
  return gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (m),
      vmi_huge_quark) != NULL;
}
