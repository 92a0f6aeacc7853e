/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* ST 2022-7 for st2022sink and st2022src: the `secondary-*` properties,
 * the second path's transport, and on the receiving side the per-path
 * stream locks and the merge (gst/st2022/st2022-seamless.h) between the
 * transports and the depacketizer.  See docs/seamless.md.
 * gst/st2022-elements/gstst2022legs.c has the properties and the sink's
 * side, gst/st2022-elements/gstst2022srclegs.c the receiver's. */

#ifndef __GST_ST2022_LEGS_H__
#define __GST_ST2022_LEGS_H__

#include <gst/gst.h>

#include "gstst2022common.h"
#include "st2022/st2022.h"
#include "st2022/st2022-lock.h"

G_BEGIN_DECLS

typedef enum
{
  GST_ST2022_LEGS_PROP_ADDRESS, /* sink: secondary-host, src: secondary-address */
  GST_ST2022_LEGS_PROP_PORT,
  GST_ST2022_LEGS_PROP_MULTICAST_IFACE,
  GST_ST2022_LEGS_PROP_IFACE,
  GST_ST2022_LEGS_PROP_DPDK_PORT,
  GST_ST2022_LEGS_PROP_BIND_ADDRESS,    /* sink */
  GST_ST2022_LEGS_PROP_DESTINATION_MAC, /* sink */
  GST_ST2022_LEGS_PROP_SOURCE_ADDRESS,  /* src */
  GST_ST2022_LEGS_PROP_SEAMLESS_WINDOW, /* src */
  GST_ST2022_LEGS_N_PROPS,
} GstSt2022LegsProp;

/* under the element's object lock, like its other properties */
typedef struct
{
  gboolean is_sink;
  gchar *address;               /* NULL or "": one path only */
  gint port;                    /* -1: the primary's */
  gchar *multicast_iface;
  gchar *iface;
  gint dpdk_port;               /* -1: the primary's + 1 */
  gchar *bind_address;
  gchar *destination_mac;
  gchar *source_address;
  guint window_ms;
} GstSt2022LegsSettings;

void gst_st2022_legs_install_properties (GObjectClass * klass,
    guint first_id, gboolean is_sink);
void gst_st2022_legs_settings_init (GstSt2022LegsSettings * s,
    gboolean is_sink);
void gst_st2022_legs_settings_clear (GstSt2022LegsSettings * s);
gboolean gst_st2022_legs_set_property (GstSt2022LegsSettings * s,
    guint first_id, guint prop_id, const GValue * value);
gboolean gst_st2022_legs_get_property (const GstSt2022LegsSettings * s,
    guint first_id, guint prop_id, GValue * value);

/* Under the object lock: TRUE when a second path is set; then @out (a
 * copy of @primary with the secondary's address, port, interfaces; strings
 * its own) opens it. */
gboolean gst_st2022_legs_config (const GstSt2022LegsSettings * s,
    const VmiTransportConfig * primary, VmiTransportConfig * out);

/* --- st2022sink ---------------------------------------------------------- */

/* Opens the secondary path of @cfg2 (from gst_st2022_legs_config()) like
 * the primary @t was (from @cfg), and returns the transport that sends on
 * both (taking @t); NULL (after a GST_ELEMENT_ERROR, @t closed) on
 * failure.  A second path whose link is not there (its interface missing
 * or down, its address not on the host) does not fail: it is posted down
 * and opened in the background.  @path_up (two) gets the paths' states as
 * posted. */
VmiTransport *gst_st2022_legs_sink_open (GstElement * sink, VmiTransport * t,
    GstSt2022Transport kind, const VmiTransportConfig * cfg,
    const VmiTransportConfig * cfg2, guint required_caps,
    const gchar * required_by, gboolean * path_up);

/* Posts `st2022-path` and a warning when a path went down, `st2022-path`
 * when it came back (streaming thread, now and then). */
void gst_st2022_legs_sink_check (GstElement * sink, VmiTransport * t,
    gboolean * was_up);

/* Adds the per-path counters of @t (when it sends on two paths). */
void gst_st2022_legs_sink_add_stats (VmiTransport * t, GstStructure * s);

/* --- both sides ----------------------------------------------------------- */

/* "primary" (0) or "secondary" (1) */
const gchar *gst_st2022_legs_path_name (guint path);

/* FALSE after a GST_ELEMENT_ERROR when @kind needs an interface for the
 * second path (@cfg2) and none is set */
gboolean gst_st2022_legs_check_iface (GstElement * element,
    GstSt2022Transport kind, const VmiTransportConfig * cfg2);

/* Posts `st2022-path` (@path up or down), with a warning naming @why when
 * it went down or an info message when it came back. */
void gst_st2022_legs_post_path (GstElement * element, guint path,
    gboolean up, const gchar * why);

/* --- st2022src ----------------------------------------------------------- */

typedef struct _GstSt2022SrcLegs GstSt2022SrcLegs;

/* Opens the secondary path (@cfg2 from gst_st2022_legs_config(); port 0
 * binds an ephemeral one and sets `secondary-port` to it) and sets up the
 * merge in front of @depay; @primary (opened from @cfg1) and @primary_lock
 * stay the element's.  NULL after a GST_ELEMENT_ERROR. */
GstSt2022SrcLegs *gst_st2022_src_legs_new (GstElement * src,
    GstSt2022Transport kind, const VmiTransportConfig * cfg1,
    const VmiTransportConfig * cfg2, guint window_ms, VmiTransport * primary,
    St2022StreamLock * primary_lock, St2022Depacketizer * depay,
    guint confirm, gint payload_type, gboolean filter_ssrc, guint32 ssrc);
/* Receive thread joined: accounts everything the merge tracks (nothing
 * more goes to the depacketizer), closes the second path; the counters stay
 * for add_stats() until free */
void gst_st2022_src_legs_stop (GstSt2022SrcLegs * l);
void gst_st2022_src_legs_free (GstSt2022SrcLegs * l);

/* Receives from both paths, waiting at most @timeout_us for either; the
 * number of datagrams read, -1 with @error. */
gint gst_st2022_src_legs_recv (GstSt2022SrcLegs * l, gint64 timeout_us,
    GError ** error);
/* Judges what recv() read (arrival @now, ns), merges it into the
 * depacketizer, and tells the application about paths going silent for
 * @timeout ns and coming back.  TRUE when a datagram of the stream came. */
gboolean gst_st2022_src_legs_dispatch (GstSt2022SrcLegs * l, guint64 now,
    guint64 timeout);
/* Receive thread: the element's primary transport is now @t (an IS-05
 * retarget): both paths start over */
void gst_st2022_src_legs_set_primary (GstSt2022SrcLegs * l, VmiTransport * t);
/* Receive thread: the second path's transport is now @t (an IS-05
 * retarget of the second leg; the old one is closed): both paths start
 * over */
void gst_st2022_src_legs_set_secondary (GstSt2022SrcLegs * l,
    VmiTransport * t);
/* Receive thread: the primary's transport as the legs use it.  NULL while
 * it is lost (a receive error while the secondary carried the stream: the
 * element then lets its transport go with release_primary()), the one
 * opened again once it is back.  The element follows it. */
VmiTransport *gst_st2022_src_legs_primary (GstSt2022SrcLegs * l);
/* TRUE while the primary is lost and opened again (NULL-safe) */
gboolean gst_st2022_src_legs_primary_lost (GstSt2022SrcLegs * l);
/* Receive thread: the element no longer holds @t, the lost primary's
 * transport: closed on the opener's thread */
void gst_st2022_src_legs_release_primary (GstSt2022SrcLegs * l,
    VmiTransport * t);
/* Interrupts the second path's wait in recv() (any thread; the element
 * wakes its primary itself) */
void gst_st2022_src_legs_wakeup (GstSt2022SrcLegs * l);
/* Both paths silent while a frame waits for its end: what the merge holds
 * goes to the depacketizer, the merged stream starts over */
void gst_st2022_src_legs_drain (GstSt2022SrcLegs * l);
/* The signal is lost on both paths: forget both streams (what is held goes
 * to the depacketizer first) */
void gst_st2022_src_legs_reset (GstSt2022SrcLegs * l);
/* Receive thread: a snapshot of the counters for add_stats() */
void gst_st2022_src_legs_update_stats (GstSt2022SrcLegs * l);
/* Under the object lock: the per-path fields of `stats` */
void gst_st2022_src_legs_add_stats (GstSt2022SrcLegs * l, GstStructure * s);

G_END_DECLS

#endif /* __GST_ST2022_LEGS_H__ */
