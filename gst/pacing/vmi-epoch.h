/* gst-vmi: frames on the SMPTE epoch (ST 2059-1)
 *
 * Pure C, exact integer arithmetic. Times are ns since the SMPTE (= PTP)
 * epoch, 1970-01-01 00:00:00 TAI. At a frame rate n/d, frame k's alignment
 * point is the exact rational instant k * d / n s; its media clock
 * timestamps (RTP 27 MHz, the ST 2022-6 video timestamp on its CF clock)
 * are floor (k * d / n * rate) mod 2^32. Nothing is accumulated from frame
 * to frame, so no rate (1000/1001 ones included) drifts however long a
 * stream runs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_EPOCH_H__
#define __VMI_EPOCH_H__

#include <glib.h>

G_BEGIN_DECLS

/* RTP clock of ST 2022-6 (and ST 2110-20/40 video timing) */
#define VMI_EPOCH_RTP_RATE 27000000

typedef struct
{
  guint64 fps_n, fps_d;         /* frame rate, reduced */
} VmiEpoch;

/* FALSE unless fps_n > 0 and fps_d > 0 */
gboolean vmi_epoch_init (VmiEpoch * ep, gint fps_n, gint fps_d);

/* Frame @k's alignment point rounded up to a whole ns: the first ns
 * instant not before it (what a sender can wait for). */
guint64 vmi_epoch_frame_time_ns (const VmiEpoch * ep, guint64 k);

/* The first frame whose vmi_epoch_frame_time_ns() is at or after @t_ns */
guint64 vmi_epoch_frame_at_or_after (const VmiEpoch * ep, guint64 t_ns);

/* floor (k * d / n * rate_num / rate_den) mod 2^32: frame @k's timestamp
 * on a media clock of rate_num / rate_den Hz (rate_den > 0) */
guint32 vmi_epoch_ticks (const VmiEpoch * ep, guint64 k, guint64 rate_num,
    guint64 rate_den);

/* floor (alignment point of frame @k * 27 MHz) mod 2^32 */
static inline guint32
vmi_epoch_rtp (const VmiEpoch * ep, guint64 k)
{
  return vmi_epoch_ticks (ep, k, VMI_EPOCH_RTP_RATE, 1);
}

/* The instant (ns since the epoch, rounded down) a 32-bit 27 MHz RTP
 * timestamp names, unwrapped to the 2^32-tick period (about 159 s) nearest
 * @ref_ns: receivers pass the arrival time. */
gint64 vmi_epoch_rtp_to_ns (guint32 rtp, guint64 ref_ns);

G_END_DECLS

#endif /* __VMI_EPOCH_H__ */
