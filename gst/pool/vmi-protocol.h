/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The vmisink <-> vmisrc wire protocol: a pure-C core (GLib types only,
 * no GObject, no GStreamer) so that it can be unit-tested and fuzzed alone.
 *
 * Transport: one AF_UNIX SOCK_SEQPACKET connection per consumer. SEQPACKET
 * keeps message boundaries (one sendmsg = one message, never split or
 * merged) and reports truncation, so every message can be checked for its
 * exact length. Host byte order: both ends are on the same host.
 *
 * Every message starts with VmiMsgHeader; docs/zerocopy.md has the layouts.
 */

#ifndef __VMI_PROTOCOL_H__
#define __VMI_PROTOCOL_H__

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

#define VMI_PROTO_MAGIC       0x31494d56u       /* "VMI1" little-endian */
#define VMI_PROTO_VERSION     1
#define VMI_PROTO_HEADER_SIZE 16
/* biggest message: a CAPS string; receivers use a buffer this big */
#define VMI_PROTO_MAX_MSG     65536
#define VMI_PROTO_MAX_CAPS    (VMI_PROTO_MAX_MSG - VMI_PROTO_HEADER_SIZE - 8)
#define VMI_PROTO_MAX_MEMS    8
#define VMI_PROTO_MAX_PLANES  4
#define VMI_PROTO_NONE        G_MAXUINT64       /* == GST_CLOCK_TIME_NONE */

typedef enum
{
  VMI_MSG_HELLO = 1,            /* producer -> consumer, first message */
  VMI_MSG_CAPS = 2,             /* producer -> consumer, before a frame */
  VMI_MSG_MEMORY = 3,           /* producer -> consumer, carries one fd */
  VMI_MSG_FORGET = 4,           /* producer -> consumer: memory id freed */
  VMI_MSG_FRAME = 5,            /* producer -> consumer */
  VMI_MSG_EOS = 6,              /* producer -> consumer */
  VMI_MSG_RELEASE = 7,          /* consumer -> producer: frame returned */
} VmiMsgType;

typedef struct
{
  guint64 id;                   /* memory id from a VMI_MSG_MEMORY */
  guint64 offset;               /* from the start of that memory's file */
  guint64 size;
} VmiMemRef;

typedef struct
{
  guint64 seq;                  /* frame number, echoed by VMI_MSG_RELEASE */
  guint64 pts, dts, duration;   /* as in the producer's buffer */
  guint64 abs_pts;              /* pts + base time on the producer's
                                 * CLOCK_MONOTONIC system clock, or NONE */
  guint64 offset, offset_end;   /* GstBuffer offset fields */
  guint32 flags;                /* GstBufferFlags */
  guint32 n_mems;               /* 1 .. VMI_PROTO_MAX_MEMS */
  guint32 n_planes;             /* 0: no video meta */
  guint32 reserved;
  guint64 plane_offset[VMI_PROTO_MAX_PLANES];
  gint32 plane_stride[VMI_PROTO_MAX_PLANES];
  VmiMemRef mems[VMI_PROTO_MAX_MEMS];
} VmiFrameInfo;

typedef struct
{
  VmiMsgType type;
  union
  {
    struct
    {
      guint32 version;
      guint32 pid;
    } hello;
    struct
    {
      const char *str;          /* points into the parsed buffer, NUL-terminated */
      guint32 len;              /* strlen (str) */
    } caps;
    struct
    {
      guint64 id;
      guint64 size;             /* the whole file; == fstat st_size */
    } memory;
    struct
    {
      guint64 id;
    } forget;
    VmiFrameInfo frame;
    struct
    {
      guint64 seq;
    } release;
  } u;
} VmiMsg;

gsize     vmi_msg_pack          (const VmiMsg * msg, guint8 * buf, gsize bufsize);

gboolean  vmi_msg_parse         (const guint8 * buf, gsize len, VmiMsg * msg,
                                 const char ** why);

gboolean  vmi_range_ok          (guint64 offset, guint64 size, guint64 limit);

gboolean  vmi_check_memfd       (int fd, guint64 claimed_size, const char ** why);

int       vmi_socket_listen     (const char * path, mode_t mode);

int       vmi_socket_connect    (const char * path);

gssize    vmi_socket_send       (int sock, const guint8 * buf, gsize len,
                                 int fd, gboolean nonblocking);

gssize    vmi_socket_recv       (int sock, guint8 * buf, gsize bufsize,
                                 int * fd, gboolean nonblocking);

G_END_DECLS

#endif /* __VMI_PROTOCOL_H__ */
