/* gst-vmi: Pacing-Assistant command generator (thesis ch. 4, algorithms 1 and 2)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmi-pacer.h"

#include <string.h>

/* Keep num, den and every product we form below 2^62 so the state
 * arithmetic (s * den scale) can never wrap. */
#define RAT_LIMIT (G_GUINT64_CONSTANT (1) << 62)

const gchar *
vmi_pace_error_string (VmiPaceError err)
{
  switch (err) {
    case VMI_PACE_OK:
      return "no error";
    case VMI_PACE_ERR_INVALID:
      return "invalid parameter (zero packet size, n_min or rate)";
    case VMI_PACE_ERR_N_RANGE:
      return "n_max must be greater than 2 * n_min";
    case VMI_PACE_ERR_RATE_TOO_HIGH:
      return "packet rate too high for the line rate: tau - packet wire "
          "bytes must be at least n_min (raise the line rate or lower n_min)";
    case VMI_PACE_ERR_NO_REFERENCE:
      return "frequency controller saw no reference packet during a window";
    case VMI_PACE_ERR_OVERFLOW:
      return "rate does not fit the 62-bit rational arithmetic";
  }
  return "unknown error";
}

guint64
vmi_pace_gcd (guint64 a, guint64 b)
{
  while (b) {
    guint64 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

gboolean
vmi_pace_tau_for_rate (guint64 line_rate_bps, guint64 packets_per_frame,
    guint64 fps_num, guint64 fps_den, guint64 * tau_num, guint64 * tau_den)
{
  unsigned __int128 num, den, g;

  if (!line_rate_bps || !packets_per_frame || !fps_num || !fps_den)
    return FALSE;
  /* tau = (r / 8) * fps_den / (N * fps_num) */
  num = (unsigned __int128) line_rate_bps * fps_den;
  den = (unsigned __int128) 8 * packets_per_frame * fps_num;
  {
    unsigned __int128 a = num, b = den;
    while (b) {
      unsigned __int128 t = a % b;
      a = b;
      b = t;
    }
    g = a;
  }
  num /= g;
  den /= g;
  if (num >= RAT_LIMIT || den >= RAT_LIMIT)
    return FALSE;
  *tau_num = (guint64) num;
  *tau_den = (guint64) den;
  return TRUE;
}

/* n_min <= tau - dur, i.e. num >= (n_min + dur) * den, and every value
 * vmi_pacer_next() forms (s < num + den, (n_max + n_min) * den) below 2^62 */
static VmiPaceError
check_tau (const VmiPacer * p, guint64 num, guint64 den)
{
  unsigned __int128 need;

  if (!den || !num)
    return VMI_PACE_ERR_INVALID;
  if (num >= RAT_LIMIT || den >= RAT_LIMIT
      || (unsigned __int128) ((guint64) p->n_max + p->n_min) * den >=
      RAT_LIMIT)
    return VMI_PACE_ERR_OVERFLOW;
  need = (unsigned __int128) ((guint64) p->n_min + p->dur) * den;
  if ((unsigned __int128) num < need)
    return VMI_PACE_ERR_RATE_TOO_HIGH;
  return VMI_PACE_OK;
}

static VmiPaceError
check_common (guint32 n_min, guint32 n_max, guint32 dur)
{
  if (!n_min || !dur)
    return VMI_PACE_ERR_INVALID;
  if ((guint64) n_max <= 2 * (guint64) n_min)
    return VMI_PACE_ERR_N_RANGE;
  return VMI_PACE_OK;
}

static void
reset (VmiPacer * p, guint32 n_min, guint32 n_max, guint32 dur)
{
  memset (p, 0, sizeof (*p));
  p->n_min = n_min;
  p->n_max = n_max;
  p->dur = dur;
}

VmiPaceError
vmi_pacer_init_free_running (VmiPacer * p, guint32 n_min, guint32 n_max,
    guint32 dur, guint64 tau_num, guint64 tau_den)
{
  VmiPaceError err;
  guint64 g;

  reset (p, n_min, n_max, dur);
  p->mode = VMI_PACE_MODE_FREE_RUNNING;
  if ((err = check_common (n_min, n_max, dur)))
    goto fail;
  if (!tau_den || !tau_num) {
    err = VMI_PACE_ERR_INVALID;
    goto fail;
  }
  g = vmi_pace_gcd (tau_num, tau_den);
  p->num = tau_num / g;
  p->den = tau_den / g;
  if ((err = check_tau (p, p->num, p->den)))
    goto fail;
  return VMI_PACE_OK;

fail:
  p->error = err;
  return err;
}

VmiPaceError
vmi_pacer_init_controlled (VmiPacer * p, guint32 n_min, guint32 n_max,
    guint32 dur, VmiFreqCtl * ctl, guint64 window, guint64 lead)
{
  VmiPaceError err;

  reset (p, n_min, n_max, dur);
  p->mode = VMI_PACE_MODE_CONTROLLED;
  if ((err = check_common (n_min, n_max, dur)))
    goto fail;
  if (!ctl || !window || lead < window || window >= RAT_LIMIT / 64
      || lead >= RAT_LIMIT / 64) {
    err = VMI_PACE_ERR_INVALID;
    goto fail;
  }
  p->ctl = ctl;
  p->window = window;
  p->lead = lead;
  /* Algorithm 2, lines 1-4: s = 0, tau_cur = 0, y_last = -W, y_now = 0 */
  p->y_last = -(gint64) window;
  p->y_now = 0;
  p->num = 0;
  p->den = 1;
  return VMI_PACE_OK;

fail:
  p->error = err;
  return err;
}

/* Algorithm 2, lines 7-11. Returns FALSE to stall (controller not ready). */
static gboolean
update_tau (VmiPacer * p)
{
  guint64 span, count;
  guint used;
  VmiPaceError err;

  if (!p->primed) {
    /* the sample at y_last + lead, y_last = -W */
    if (!vmi_freq_ctl_sample (p->ctl, p->lead - p->window, &span, &count,
            &used))
      return FALSE;
    p->primed = TRUE;
  }
  if (!vmi_freq_ctl_sample (p->ctl, (guint64) p->y_now + p->lead, &span,
          &count, &used))
    return FALSE;
  if (count == 0) {
    p->error = VMI_PACE_ERR_NO_REFERENCE;
    return TRUE;
  }
  {
    guint64 g = vmi_pace_gcd (span, count);
    span /= g;
    count /= g;
  }
  if ((err = check_tau (p, span, count))) {
    p->error = err;
    return TRUE;
  }
  p->num = span;
  p->den = count;
  p->s = 0;
  p->y_last = p->y_now;
  p->updates++;
  return TRUE;
}

VmiPaceCmd
vmi_pacer_next (VmiPacer * p, guint32 * n)
{
  const guint64 den = p->den;
  guint64 w;

  if (G_UNLIKELY (p->error))
    return VMI_PACE_CMD_ERROR;

  if (p->s < den) {             /* s < 1 */
    if (p->mode == VMI_PACE_MODE_CONTROLLED
        && p->y_now - p->y_last >= (gint64) p->window) {
      if (!update_tau (p))
        return VMI_PACE_CMD_STALL;
      if (p->error)
        return VMI_PACE_CMD_ERROR;
    }
    /* s += tau - dur(p): never negative since tau - dur >= n_min */
    p->s += p->num - (guint64) p->dur * p->den;
    p->y_now += p->dur;
    p->sends++;
    *n = p->dur;
    return VMI_PACE_CMD_SEND;
  }

  if (p->s >= ((guint64) p->n_max + p->n_min) * den)
    w = p->n_max;
  else if (p->s <= (guint64) p->n_max * den)
    w = p->s / den;             /* floor(s); >= n_min by property 3 */
  else
    w = p->n_min;

  /* corrected line 25: w = floor(s); wait(w); s -= w; y_now += w */
  p->s -= w * den;
  p->y_now += w;
  p->waits++;
  *n = (guint32) w;
  return VMI_PACE_CMD_WAIT;
}

/* ---- frequency controller ---- */

struct _VmiFreqCtl
{
  guint n_windows;
  /* arrivals pushed but later than the last query point */
  guint64 *pending;
  guint cap, head, len;
  guint64 last_push;
  gboolean have_push;
  guint64 horizon;
  gboolean have_horizon;
  guint64 counted;              /* arrivals <= last query point */
  guint64 last_query;
  gboolean queried;
  /* ring of the last n_windows + 1 samples (u, F_b(u)) */
  guint64 *su, *sf;
  guint nsamples, shead;
};

VmiFreqCtl *
vmi_freq_ctl_new (guint n_windows, guint pending_capacity)
{
  VmiFreqCtl *c;

  if (n_windows == 0 || pending_capacity == 0)
    return NULL;
  c = g_new0 (VmiFreqCtl, 1);
  c->n_windows = n_windows;
  c->cap = pending_capacity;
  c->pending = g_new (guint64, pending_capacity);
  c->su = g_new (guint64, n_windows + 1);
  c->sf = g_new (guint64, n_windows + 1);
  return c;
}

void
vmi_freq_ctl_free (VmiFreqCtl * c)
{
  if (!c)
    return;
  g_free (c->pending);
  g_free (c->su);
  g_free (c->sf);
  g_free (c);
}

guint
vmi_freq_ctl_n_windows (const VmiFreqCtl * c)
{
  return c->n_windows;
}

gboolean
vmi_freq_ctl_push (VmiFreqCtl * c, guint64 t)
{
  if (c->have_push && t < c->last_push)
    return FALSE;
  /* an arrival at or before an answered query point would change a value
   * already handed out */
  if (c->queried && t <= c->last_query)
    return FALSE;
  if (c->len == c->cap)
    return FALSE;
  c->pending[(c->head + c->len) % c->cap] = t;
  c->len++;
  c->last_push = t;
  c->have_push = TRUE;
  return TRUE;
}

void
vmi_freq_ctl_set_horizon (VmiFreqCtl * c, guint64 t)
{
  if (!c->have_horizon || t > c->horizon) {
    c->horizon = t;
    c->have_horizon = TRUE;
  }
}

gboolean
vmi_freq_ctl_count (VmiFreqCtl * c, guint64 u, guint64 * count)
{
  while (c->len && c->pending[c->head] <= u) {
    c->head = (c->head + 1) % c->cap;
    c->len--;
    c->counted++;
  }
  /* F_b(u) is final once an arrival after u was seen or the caller
   * declared that nothing up to u is missing */
  if (c->len == 0 && !(c->have_horizon && c->horizon >= u))
    return FALSE;
  if (!c->queried || u > c->last_query)
    c->last_query = u;
  c->queried = TRUE;
  *count = c->counted;
  return TRUE;
}

gboolean
vmi_freq_ctl_sample (VmiFreqCtl * c, guint64 u, guint64 * span,
    guint64 * count, guint * n_used)
{
  guint64 f;
  guint ring = c->n_windows + 1, used, oldest;

  if (!vmi_freq_ctl_count (c, u, &f))
    return FALSE;
  c->shead = (c->shead + 1) % ring;
  c->su[c->shead] = u;
  c->sf[c->shead] = f;
  if (c->nsamples < ring)
    c->nsamples++;
  used = c->nsamples - 1;       /* windows available, at most n_windows */
  oldest = (c->shead + ring - used) % ring;
  *span = u - c->su[oldest];
  *count = f - c->sf[oldest];
  *n_used = used;
  return TRUE;
}

guint64
vmi_pace_ns_to_bytes (guint64 t_ns, guint64 line_rate_bps)
{
  return (guint64) ((unsigned __int128) t_ns * line_rate_bps / 8000000000ULL);
}
