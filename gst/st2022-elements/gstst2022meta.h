/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_ST2022_META_H__
#define __GST_ST2022_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_ST2022_META_API_TYPE (gst_st2022_meta_api_get_type ())
#define GST_ST2022_META_INFO (gst_st2022_meta_get_info ())

typedef struct _GstSt2022Meta GstSt2022Meta;

/**
 * GstSt2022Meta:
 * @meta: parent #GstMeta
 * @rtp_timestamp: the frame's RTP timestamp (27 MHz clock)
 * @ssrc: RTP SSRC of the stream
 * @first_seq: RTP sequence number of the frame's first datagram
 * @last_seq: RTP sequence number of the frame's last (marker) datagram
 * @frcount: HBRMT FRCount of the frame (mod 256)
 * @video_timestamp: HBRMT video timestamp of the frame's first datagram
 *   (0 when the stream carries none, CF = 0)
 * @packets: datagrams the frame has
 * @packets_missing: datagrams of the frame that did not arrive (concealed)
 *
 * The ST 2022-6 transport facts of one frame, attached by `st2022src` (the
 * thesis' vMI frame: sampling time = PTS, plus these) and read by
 * `st2022sink` when present (it then reuses @rtp_timestamp).
 */
struct _GstSt2022Meta
{
  GstMeta meta;

  guint32 rtp_timestamp;
  guint32 ssrc;
  guint16 first_seq;
  guint16 last_seq;
  guint8 frcount;
  guint32 video_timestamp;
  guint32 packets;
  guint32 packets_missing;
};

GType gst_st2022_meta_api_get_type (void);
const GstMetaInfo *gst_st2022_meta_get_info (void);

#define gst_buffer_get_st2022_meta(b) \
  ((GstSt2022Meta *) gst_buffer_get_meta ((b), GST_ST2022_META_API_TYPE))

GstSt2022Meta *gst_buffer_add_st2022_meta (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_ST2022_META_H__ */
