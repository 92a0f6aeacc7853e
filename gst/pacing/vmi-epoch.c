/* gst-vmi: frames on the SMPTE epoch (ST 2059-1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-epoch.h"
#include "vmi-pacer.h"

#define NS_PER_S G_GUINT64_CONSTANT (1000000000)

/* Frame counts since 1970 reach ~2^37 at 60 Hz, and k * d * 1e9 or
 * k * d * 297 MHz * 1001 does not fit 64 bits: the products are 128-bit. */
typedef unsigned __int128 u128;

gboolean
vmi_epoch_init (VmiEpoch * ep, gint fps_n, gint fps_d)
{
  guint64 g;

  if (ep == NULL || fps_n <= 0 || fps_d <= 0)
    return FALSE;
  g = vmi_pace_gcd ((guint64) fps_n, (guint64) fps_d);
  ep->fps_n = (guint64) fps_n / g;
  ep->fps_d = (guint64) fps_d / g;
  return TRUE;
}

guint64
vmi_epoch_frame_time_ns (const VmiEpoch * ep, guint64 k)
{
  u128 num = (u128) k * ep->fps_d * NS_PER_S;

  return (guint64) ((num + ep->fps_n - 1) / ep->fps_n);
}

guint64
vmi_epoch_frame_at_or_after (const VmiEpoch * ep, guint64 t_ns)
{
  /* ceil (k d 1e9 / n) >= t  <=>  k d 1e9 / n > t - 1 */
  if (t_ns == 0)
    return 0;
  return (guint64) ((u128) (t_ns - 1) * ep->fps_n / (ep->fps_d * NS_PER_S))
      + 1;
}

guint32
vmi_epoch_ticks (const VmiEpoch * ep, guint64 k, guint64 rate_num,
    guint64 rate_den)
{
  /* k * d * rate_num can pass 2^128 only past any real date; split k into
   * whole cycles of n frames (d s exactly) and the rest to stay exact */
  u128 den = (u128) ep->fps_n * rate_den;
  u128 cycle_ticks_num = (u128) ep->fps_d * rate_num;
  guint64 cycles = k / ep->fps_n, rest = k % ep->fps_n;
  /* floor ((cycles * n + rest) * d * r / (n * rd))
   *   = cycles * d * r / rd + rest * d * r / (n * rd), carried exactly */
  u128 whole = (u128) cycles * cycle_ticks_num;
  u128 q1 = whole / rate_den, r1 = whole % rate_den;
  u128 part = (u128) rest * cycle_ticks_num + r1 * ep->fps_n;

  return (guint32) (q1 + part / den);
}

gint64
vmi_epoch_rtp_to_ns (guint32 rtp, guint64 ref_ns)
{
  /* the reference instant's own 27 MHz count, then the signed 32-bit
   * distance back to @rtp */
  guint64 ref_ticks = (guint64) ((u128) ref_ns * VMI_EPOCH_RTP_RATE /
      NS_PER_S);
  gint32 back = (gint32) ((guint32) ref_ticks - rtp);
  gint64 ticks = (gint64) ref_ticks - back;

  if (ticks < 0)                /* only within 159 s of 1970 */
    return -(gint64) (((u128) (-ticks) * NS_PER_S + VMI_EPOCH_RTP_RATE - 1)
        / VMI_EPOCH_RTP_RATE);
  return (gint64) ((u128) ticks * NS_PER_S / VMI_EPOCH_RTP_RATE);
}
