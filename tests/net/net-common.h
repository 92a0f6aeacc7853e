/* gst-vmi tests: helpers shared by the net tests (pipelines, bus, frames). */

#ifndef __NET_COMMON_H__
#define __NET_COMMON_H__

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "st2022-ref.h"

G_BEGIN_DECLS

/* A distinct port per test case (tests of one binary run one by one) */
guint16 net_test_port (void);

/* Runs the shell-free command line @fmt (printf-style; ip, tc, ...), its
 * output swallowed; FALSE (logged) when it failed */
gboolean net_sh (const gchar * fmt, ...) G_GNUC_PRINTF (1, 2);

/* Moves the calling thread into the network namespace @name (made with
 * `ip netns add`); net_leave_netns() brings it back to the one it was in
 * at the first call. Sockets are created by the thread that changes an
 * element's state: entering a namespace on it puts the element's socket
 * there. */
void net_enter_netns (const gchar * name);
void net_leave_netns (void);
/* Two network namespaces @ns_a and @ns_b joined by a veth pair: @dev_a in
 * A, address @subnet.1/24 (@subnet "10.77.0") and MAC @mac_a (NULL: the
 * kernel's), @dev_b in B, @subnet.2/24; both ends and both loopbacks up.
 * Whatever stood under those names is removed first. FALSE when a step
 * failed (net_sh() logged it). */
gboolean net_netns_pair_add (const gchar * ns_a, const gchar * ns_b,
    const gchar * dev_a, const gchar * dev_b, const gchar * mac_a,
    const gchar * subnet);
/* Removes both (the veth goes with them); no matter if they do not exist */
void net_netns_pair_del (const gchar * ns_a, const gchar * ns_b);

/* video/x-raw caps of @f in @format (UYVP or v210); @bare leaves out
 * field-order and colorimetry, as rawvideoparse does */
GstCaps *net_format_caps (const RefFormat * f, const gchar * format,
    gboolean bare);

/* A buffer of @info holding the UYVP picture @uyvp (converted to v210 when
 * @info is v210) */
GstBuffer *net_make_buffer (const GstVideoInfo * info, const RefFormat * f,
    const guint8 * uyvp);

/* The UYVP picture (stride width*5/2) of a received buffer (UYVP or v210) */
guint8 *net_buffer_to_uyvp (GstBuffer * buf, GstCaps * caps,
    const RefFormat * f);

/* Runs the bus of @pipeline until EOS or error (fails on error or after
 * @timeout_s), collecting the last st2022-stats structure posted by the
 * element named @stats_from (may be NULL). */
GstStructure *net_run_until_eos (GstElement * pipeline,
    const gchar * stats_from, guint timeout_s);

guint64 net_stat (const GstStructure * s, const gchar * field);

/* @n random legal UYVP pictures of @f (stride width*5/2) */
guint8 **net_make_pictures (const RefFormat * f, guint n, guint32 seed);
/* Pushes @n UYVP pictures of @f, timestamped at the frame rate, through
 * "appsrc name=src format=time ! @sink_desc" (whose sink is named "sink")
 * to EOS; returns the sink's final statistics. */
/* Pushes @n frames of @f into @appsrc (pics[k % n_pics], timestamped at
 * the format's rate from 0), then EOS */
void net_push_pictures (GstElement * appsrc, const GstVideoInfo * info,
    const RefFormat * f, guint8 ** pics, guint n_pics, guint n);
GstStructure *net_send_pictures (const RefFormat * f, guint8 ** pics,
    guint n, const gchar * sink_desc);
void net_free_pictures (guint8 ** p, guint n);

/* The GstSt2022Meta of @buf, found by its API name as an application that
 * does not link the plugin would (fails the test when the API is not
 * registered) */
struct _GstSt2022Meta *net_get_meta (GstBuffer * buf);

/* A sending pipeline, "appsrc name=src format=time ! st2022sink
 * name=sink stats-interval=0 <props>", fed frames of one format */
typedef struct
{
  GstElement *pipeline, *appsrc, *sink;
  GstVideoInfo info;
  const RefFormat *f;
} NetSender;

/* Builds it for @f's frames in @format (a GstVideoFormat name) with the
 * sink properties @props, and sets it to @state: PAUSED (the sink has
 * started: bound, its SDP written) or PLAYING */
void net_sender_start (NetSender * s, const RefFormat * f,
    const gchar * format, const gchar * props, GstState state);
/* Pushes UYVP picture @uyvp as frame @k (timestamped at the format's
 * rate from 0) */
void net_sender_push (NetSender * s, guint k, const guint8 * uyvp);
/* EOS, runs until it is out, frees the pipeline; the sink's final
 * st2022-stats */
GstStructure *net_sender_finish (NetSender * s);

/* A receiving pipeline (gst-launch description @desc with elements named
 * "src" and "sink", the latter an appsink) whose samples are collected */
typedef struct
{
  GstElement *pipeline, *src, *sink;
  GMutex lock;
  GPtrArray *samples;
} NetReceiver;

/* Builds @desc and sets it PLAYING (live: sockets are bound on return) */
void net_receiver_start (NetReceiver * r, const gchar * desc);
/* Runs until EOS; the final st2022-stats of "src" */
GstStructure *net_receiver_finish (NetReceiver * r, guint timeout_s);
void net_receiver_clear (NetReceiver * r);
/* Fails unless @r has exactly @n frames, frame k not flagged CORRUPTED
 * and bit-exact with the UYVP picture pics[k % @n_pics] of @f (names the
 * first row that differs) */
void net_check_frames (NetReceiver * r, const RefFormat * f, guint8 ** pics,
    guint n_pics, guint n);

G_END_DECLS

#endif
