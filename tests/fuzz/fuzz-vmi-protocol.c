/* gst-vmi: libFuzzer target for the vmisink <-> vmisrc wire protocol core
 * (gst/pool/vmi-protocol.c), both directions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a conversation: records of
 *   byte 0    bit 0: direction (0 producer -> consumer, 1 consumer ->
 *             producer), bit 1: attach a memfd, bit 2: seal it against
 *             shrink and grow, bits 3-7: its size in 4 KiB pages
 *   bytes 1-2 length L (little endian), then L message bytes.
 * Each message travels through a real AF_UNIX SOCK_SEQPACKET pair
 * (vmi_socket_send / vmi_socket_recv, with SCM_RIGHTS when asked), is parsed
 * by vmi_msg_parse() and then checked the way each end checks it: the
 * consumer validates MEMORY fds with vmi_check_memfd() and frame ranges
 * against the memories it was given with vmi_range_ok(); the producer
 * accepts RELEASE only. Whatever parses must pack back to the same bytes
 * (apart from reserved fields and padding) and parse again to the same
 * message.
 */

#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vmi-protocol.h"

#define MAX_MEMS 16

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static int pair[2] = { -1, -1 };

static guint8 rx[VMI_PROTO_MAX_MSG];
static guint8 packed[VMI_PROTO_MAX_MSG];

static void
check_round_trip (const VmiMsg * m)
{
  VmiMsg again;
  const char *why = NULL;
  gsize len = vmi_msg_pack (m, packed, sizeof (packed));
  guint i;

  if (len == 0 || !vmi_msg_parse (packed, len, &again, &why))
    __builtin_trap ();
  if (again.type != m->type)
    __builtin_trap ();
  switch (m->type) {
    case VMI_MSG_CAPS:
      if (again.u.caps.len != m->u.caps.len ||
          strcmp (again.u.caps.str, m->u.caps.str) != 0)
        __builtin_trap ();
      break;
    case VMI_MSG_FRAME:{
      const VmiFrameInfo *a = &m->u.frame, *b = &again.u.frame;
      if (a->seq != b->seq || a->pts != b->pts || a->n_mems != b->n_mems ||
          a->n_planes != b->n_planes || a->flags != b->flags)
        __builtin_trap ();
      for (i = 0; i < a->n_mems; i++)
        if (memcmp (&a->mems[i], &b->mems[i], sizeof (VmiMemRef)) != 0)
          __builtin_trap ();
      for (i = 0; i < VMI_PROTO_MAX_PLANES; i++)
        if (a->plane_offset[i] != b->plane_offset[i] ||
            a->plane_stride[i] != b->plane_stride[i])
          __builtin_trap ();
      break;
    }
    case VMI_MSG_MEMORY:
      if (again.u.memory.id != m->u.memory.id ||
          again.u.memory.size != m->u.memory.size)
        __builtin_trap ();
      break;
    default:
      /* HELLO, FORGET, RELEASE, EOS: fixed layouts of plain integers */
      if (memcmp (&again.u, &m->u, sizeof (guint64)) != 0)
        __builtin_trap ();
      break;
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  guint64 mem_id[MAX_MEMS], mem_size[MAX_MEMS];
  guint n_mems = 0;
  gsize pos = 0;

  if (pair[0] < 0 && socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0,
          pair) < 0)
    __builtin_trap ();

  while (size - pos >= 3) {
    guint8 ctl = data[pos];
    gsize len = data[pos + 1] | (gsize) data[pos + 2] << 8;
    gboolean to_producer = ctl & 1;
    int memfd = -1, fd = -1;
    const char *why = NULL;
    VmiMsg m;
    gssize r;

    pos += 3;
    if (len > size - pos)
      len = size - pos;
    if (ctl & 2) {
      memfd = memfd_create ("fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
      if (memfd < 0 || ftruncate (memfd, (off_t) (ctl >> 3) * 4096) < 0)
        __builtin_trap ();
      if ((ctl & 4) && fcntl (memfd, F_ADD_SEALS, F_SEAL_SHRINK |
              F_SEAL_GROW) < 0)
        __builtin_trap ();
    }
    /* an empty message cannot be told from a hang-up: not a message */
    r = len ? vmi_socket_send (pair[0], data + pos, len, memfd, TRUE) : 0;
    pos += len;
    if (memfd >= 0)
      close (memfd);
    if (r <= 0)
      continue;
    r = vmi_socket_recv (pair[1], rx, sizeof (rx), &fd, TRUE);
    if (r != (gssize) len)
      __builtin_trap ();
    if (memcmp (rx, data + pos - len, len) != 0)
      __builtin_trap ();
    if ((fd >= 0) != (memfd >= 0))
      __builtin_trap ();

    if (vmi_msg_parse (rx, r, &m, &why)) {
      if (why != NULL)
        __builtin_trap ();
      check_round_trip (&m);
      if (to_producer) {
        /* vmisink takes RELEASE only; the seq is looked up, never used
         * as an index */
      } else if (m.type == VMI_MSG_MEMORY && fd >= 0 &&
          vmi_check_memfd (fd, m.u.memory.size, &why)) {
        /* what vmisrc will map: the file is at least that big and can
         * neither shrink nor grow */
        struct stat st;
        if (fstat (fd, &st) < 0 || (guint64) st.st_size != m.u.memory.size)
          __builtin_trap ();
        if (n_mems < MAX_MEMS) {
          mem_id[n_mems] = m.u.memory.id;
          mem_size[n_mems++] = m.u.memory.size;
        }
      } else if (m.type == VMI_MSG_FRAME) {
        guint i, j;
        for (i = 0; i < m.u.frame.n_mems; i++) {
          const VmiMemRef *ref = &m.u.frame.mems[i];
          for (j = 0; j < n_mems; j++)
            if (mem_id[j] == ref->id &&
                vmi_range_ok (ref->offset, ref->size, mem_size[j]) &&
                (ref->offset > mem_size[j] || ref->size > mem_size[j] -
                    ref->offset || ref->offset + ref->size < ref->offset))
              __builtin_trap ();
        }
      }
    } else if (why == NULL) {
      __builtin_trap ();
    }
    if (fd >= 0)
      close (fd);
  }
  return 0;
}
