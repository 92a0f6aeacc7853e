/* gst-vmi: Pacing-Assistant command generator (thesis ch. 4, algorithms 1 and 2)
 *
 * Pure C (GLib types only). The generator turns "pace packets every tau
 * byte-times" into a sequence of SEND and WAIT(n) commands for a
 * Pacing-Assistant: a NIC transmitting back-to-back at line rate, where a
 * WAIT(n) is a gap frame occupying n wire bytes. Time is counted in
 * byte-times (one byte of wire time at the line rate, preamble, SFD, FCS
 * and inter-frame gap included), so every quantity here is an integer or an
 * exact rational: nothing drifts, however long the stream runs.
 *
 * The generator is incremental: vmi_pacer_next() returns one command per
 * call, allocates nothing and takes no lock, so a transmitter can pull
 * commands from its busy-poll loop.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_PACER_H__
#define __VMI_PACER_H__

#include <glib.h>

G_BEGIN_DECLS

/* Ethernet per-frame overhead outside the frame handed to the NIC:
 * preamble + SFD (8) + FCS (4) + inter-frame gap (12). */
#define VMI_WIRE_OVERHEAD_BYTES 24
/* 64-byte minimum frame (with FCS) -> 84 wire bytes; 1518 -> 1538. */
#define VMI_PACE_DEFAULT_N_MIN 84
#define VMI_PACE_DEFAULT_N_MAX 1538
/* One ST 2022-6 datagram on Ethernet: 1400 B UDP payload + 8 UDP + 20 IPv4
 * + 14 Ethernet = 1442 B frame without FCS, + 24 = 1466 wire bytes. */
#define VMI_ST2022_6_FRAME_BYTES 1442
#define VMI_ST2022_6_WIRE_BYTES (VMI_ST2022_6_FRAME_BYTES + VMI_WIRE_OVERHEAD_BYTES)

typedef enum
{
  VMI_PACE_OK = 0,
  VMI_PACE_ERR_INVALID,         /* zero/absurd parameter */
  VMI_PACE_ERR_N_RANGE,         /* n_max <= 2 * n_min */
  VMI_PACE_ERR_RATE_TOO_HIGH,   /* tau - dur(p) < n_min */
  VMI_PACE_ERR_NO_REFERENCE,    /* controller saw no reference packet in a window */
  VMI_PACE_ERR_OVERFLOW,        /* rational would not fit 63 bits */
} VmiPaceError;

typedef enum
{
  VMI_PACE_CMD_SEND,            /* send one media packet (n = its wire bytes) */
  VMI_PACE_CMD_WAIT,            /* send a gap frame of n wire bytes */
  VMI_PACE_CMD_STALL,           /* controlled mode: feed the controller, call again */
  VMI_PACE_CMD_ERROR,           /* precondition violated: see vmi_pacer_error() */
} VmiPaceCmd;

typedef enum
{
  VMI_PACE_MODE_FREE_RUNNING,
  VMI_PACE_MODE_CONTROLLED,
} VmiPaceMode;

typedef struct _VmiFreqCtl VmiFreqCtl;

/* Caller-allocated; fields are private. */
typedef struct
{
  VmiPaceMode mode;
  guint32 n_min, n_max;         /* admissible wait() range, wire bytes */
  guint32 dur;                  /* dur(p): media packet, wire bytes */
  guint64 num, den;             /* tau (or tau_cur) = num / den byte-times */
  guint64 s;                    /* s = this / den (exact rational) */
  gint64 y_now, y_last;         /* algorithm 2 state, byte-times */
  guint64 sends, waits;
  /* controlled mode */
  VmiFreqCtl *ctl;
  guint64 window;               /* W, byte-times */
  guint64 lead;                 /* F is evaluated at y + lead */
  gboolean primed;              /* first controller sample taken */
  guint64 updates;
  VmiPaceError error;
} VmiPacer;

const gchar *vmi_pace_error_string (VmiPaceError err);

/* greatest common divisor (0 when both are 0) */
guint64 vmi_pace_gcd (guint64 a, guint64 b);

/* tau for a packet rate given as fps_num/fps_den frames/s of
 * packets_per_frame packets each, at line_rate bit/s:
 *   tau = (line_rate / 8) / (packets_per_frame * fps_num / fps_den)
 * returned reduced. FALSE on overflow or zero input. */
gboolean vmi_pace_tau_for_rate (guint64 line_rate_bps, guint64 packets_per_frame,
    guint64 fps_num, guint64 fps_den, guint64 * tau_num, guint64 * tau_den);

/* Algorithm 1. Checks n_max > 2 n_min and n_min <= tau - dur. */
VmiPaceError vmi_pacer_init_free_running (VmiPacer * p, guint32 n_min,
    guint32 n_max, guint32 dur, guint64 tau_num, guint64 tau_den);

/* Algorithm 2. tau_cur is re-estimated every `window` (W) byte-times from
 * ctl, which is evaluated at byte-time y + lead (lead >= W; the thesis uses
 * lead = W, i.e. the controller starts counting one window before the first
 * packet is sent). ctl is borrowed, not owned. */
VmiPaceError vmi_pacer_init_controlled (VmiPacer * p, guint32 n_min,
    guint32 n_max, guint32 dur, VmiFreqCtl * ctl, guint64 window, guint64 lead);

/* Next command. For SEND and WAIT, *n receives the wire bytes. */
VmiPaceCmd vmi_pacer_next (VmiPacer * p, guint32 * n);

static inline VmiPaceError
vmi_pacer_error (const VmiPacer * p)
{
  return p->error;
}

/* Total byte-times of the commands issued so far (y_now). */
static inline gint64
vmi_pacer_position (const VmiPacer * p)
{
  return p->y_now;
}

/* Current tau (free-running: the fixed one; controlled: tau_cur). */
static inline void
vmi_pacer_get_tau (const VmiPacer * p, guint64 * num, guint64 * den)
{
  *num = p->num;
  *den = p->den;
}

/* ---- frequency controller (thesis 4.5.2 F_b, 4.5.3 F_r) ----
 *
 * Fed with the arrival byte-times of a reference stream (an auxiliary copy
 * of the source), in non-decreasing order. F_b(u) is the number of arrivals
 * at byte-times <= u. The pacer samples F_b at each window boundary u_k; the
 * N_W-regularised estimate over the last N_W windows is
 *   tau_cur = (u_k - u_{k-N_W}) / (F_b(u_k) - F_b(u_{k-N_W}))
 * which equals the thesis' W / (F_r(u_k) - F_r(u_{k-1})) when windows are
 * exactly W apart (the sum telescopes), and stays exact when they are not. */
VmiFreqCtl *vmi_freq_ctl_new (guint n_windows, guint pending_capacity);
void vmi_freq_ctl_free (VmiFreqCtl * ctl);
/* FALSE if t goes backwards or the pending queue is full (query first). */
gboolean vmi_freq_ctl_push (VmiFreqCtl * ctl, guint64 t_bytes);
/* Declares that every arrival at byte-time <= t has been pushed. */
void vmi_freq_ctl_set_horizon (VmiFreqCtl * ctl, guint64 t_bytes);
/* F_b(u), for non-decreasing u. FALSE when not yet known (push more). */
gboolean vmi_freq_ctl_count (VmiFreqCtl * ctl, guint64 u, guint64 * count);
/* Takes the sample (u, F_b(u)) and returns the regularised span/count.
 * *n_used receives how many windows were averaged (0 on the first sample).
 * FALSE when F_b(u) is not yet known. */
gboolean vmi_freq_ctl_sample (VmiFreqCtl * ctl, guint64 u, guint64 * span,
    guint64 * count, guint * n_used);
guint vmi_freq_ctl_n_windows (const VmiFreqCtl * ctl);
/* Byte-time of an arrival given in ns: floor(t_ns * line_rate / 8e9). */
guint64 vmi_pace_ns_to_bytes (guint64 t_ns, guint64 line_rate_bps);

G_END_DECLS

#endif /* __VMI_PACER_H__ */
