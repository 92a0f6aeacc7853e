/* gst-vmi: ST 2022-7 seamless protection merge (pure C, GLib only)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The merge tracks a range of extended sequence numbers in a ring:
 *
 *   tail <= next_out <= head
 *
 * [tail, next_out) has been passed on (or given up) and waits to be
 * accounted; [next_out, head) holds datagrams that arrived ahead of a gap.
 * Each path extends the 16-bit sequence from its own last datagram, so the
 * two paths may lag each other by up to the ring's capacity.
 */

#include <string.h>

#include "st2022-seamless.h"

/* A path silent longer than this (or than the window) is placed afresh
 * against the merged stream: at the highest rates (270,000 datagrams/s) its
 * own last sequence number no longer tells the cycle after 120 ms. */
#define REALIGN_NS (50 * G_GUINT64_CONSTANT (1000000))

/* extended sequence numbers start here: room behind the first datagram */
#define EXT_BASE (G_GUINT64_CONSTANT (1) << 40)
#define NONE G_MAXUINT64

typedef struct
{
  guint64 first_arrival;        /* first copy; creation time while unseen */
  guint16 len;
  guint8 seen;                  /* a bit per path */
  guint8 held;                  /* data in the store, not passed on yet */
  guint8 out;                   /* passed on ahead of a gap */
  guint8 first_path;            /* whose copy is held */
} Slot;

typedef struct
{
  gboolean aligned;             /* last_ext is a reference for the next one */
  gboolean has_key;
  gboolean in_stream;           /* delivered a datagram of the merged stream */
  guint64 key;
  guint64 last_ext;
  guint64 highest;              /* highest extended sequence delivered */
  guint64 last_arrival;         /* last datagram of the merged stream */
} Path;

struct _St2022Seamless
{
  St2022SeamlessCallbacks cb;
  gpointer user_data;
  guint64 window_ns;
  guint cap, mask;
  guint reach;                  /* st2022_seamless_set_reach() */
  Slot *slots;
  guint8 *store;

  gboolean started;             /* a merged stream is anchored */
  gboolean empty;               /* anchored, no datagram placed yet */
  gboolean startup;             /* holding until both paths showed up */
  guint64 startup_deadline;
  guint64 key;
  guint64 tail, next_out, head;
  guint64 first_held;           /* lowest held at or after next_out, NONE */
  guint n_held;                 /* slots held */
  guint64 emit_next;            /* one past the highest passed on */
  guint64 now;
  Path path[ST2022_SEAMLESS_N_PATHS];
  St2022SeamlessStats stats;
};

static inline Slot *
slot_of (St2022Seamless * m, guint64 ext)
{
  return &m->slots[ext & m->mask];
}

static inline guint8 *
store_of (St2022Seamless * m, guint64 ext)
{
  return m->store + (gsize) (ext & m->mask) * ST2022_SEAMLESS_MAX_LEN;
}

/* Counts a datagram passed on after a later one (the depacketizer counts
 * it reordered). */
static inline void
note_emit (St2022Seamless * m, guint64 ext)
{
  m->stats.emitted++;
  if (ext + 1 < m->emit_next)
    m->stats.behind++;
  else
    m->emit_next = ext + 1;
}

/* the extended sequence number of @seq nearest to @ref */
static inline guint64
extend (guint64 ref, guint16 seq)
{
  return ref + (gint64) (gint16) (guint16) (seq - (guint16) ref);
}

St2022Seamless *
st2022_seamless_new (guint window_ms, guint capacity,
    const St2022SeamlessCallbacks * callbacks, gpointer user_data)
{
  St2022Seamless *m;
  guint cap = 64;

  if (window_ms == 0 || window_ms > ST2022_SEAMLESS_MAX_WINDOW_MS
      || callbacks == NULL || callbacks->emit == NULL)
    return NULL;
  while (cap < capacity && cap < ST2022_SEAMLESS_MAX_CAPACITY)
    cap <<= 1;

  m = g_new0 (St2022Seamless, 1);
  m->cb = *callbacks;
  m->user_data = user_data;
  m->window_ns = (guint64) window_ms * G_GUINT64_CONSTANT (1000000);
  m->cap = cap;
  m->mask = cap - 1;
  m->slots = g_new0 (Slot, cap);
  /* pages are touched only where datagrams are held */
  m->store = g_malloc ((gsize) cap * ST2022_SEAMLESS_MAX_LEN);
  m->first_held = NONE;
  return m;
}

void
st2022_seamless_free (St2022Seamless * m)
{
  if (m == NULL)
    return;
  g_free (m->store);
  g_free (m->slots);
  g_free (m);
}

static gboolean
path_live (St2022Seamless * m, guint p)
{
  const Path *P = &m->path[p];

  return P->in_stream && P->has_key && P->key == m->key
      && m->now <= P->last_arrival + m->window_ns;
}

gboolean
st2022_seamless_path_live (St2022Seamless * m, St2022SeamlessPath path)
{
  g_return_val_if_fail (path < ST2022_SEAMLESS_N_PATHS, FALSE);
  return m->started && path_live (m, path);
}

/* Accounts the datagram at tail. */
static void
finalize_tail (St2022Seamless * m)
{
  Slot *s = slot_of (m, m->tail);
  guint p;

  for (p = 0; p < ST2022_SEAMLESS_N_PATHS; p++)
    if (!(s->seen & (1u << p)))
      m->stats.lost[p]++;
  if (s->seen == 0)
    m->stats.lost_both++;
  else if (s->seen != (1u << ST2022_SEAMLESS_N_PATHS) - 1)
    m->stats.recovered++;
  m->n_held -= s->held;
  s->seen = 0;
  s->held = 0;
  s->out = 0;
  m->tail++;
}

static void
emit_slot (St2022Seamless * m, guint64 ext)
{
  Slot *s = slot_of (m, ext);

  m->n_held -= s->held;
  s->held = 0;
  note_emit (m, ext);
  m->cb.emit (m->user_data, store_of (m, ext), s->len, s->first_arrival,
      (St2022SeamlessPath) s->first_path, NULL);
}

/* first_held moves on once it has been passed on */
static void
find_first_held (St2022Seamless * m)
{
  guint64 e;

  if (m->first_held != NONE && m->first_held >= m->next_out)
    return;
  m->first_held = NONE;
  /* with a reach, the common case: nothing held, nothing to look for */
  if (m->n_held == 0)
    return;
  for (e = m->next_out; e < m->head; e++)
    if (slot_of (m, e)->held) {
      m->first_held = e;
      return;
    }
}

/* Passes on the held datagrams that are next in turn (and steps over
 * those passed on ahead of the gap just closed). */
static void
emit_chain (St2022Seamless * m)
{
  for (;;) {
    Slot *s;

    if (m->next_out >= m->head)
      break;
    s = slot_of (m, m->next_out);
    if (s->held)
      emit_slot (m, m->next_out);
    else if (!s->out)
      break;
    m->next_out++;
  }
  find_first_held (m);
}

/* The gap at next_out is given up when every path that still carries the
 * stream has gone past it, or when the datagram after it has waited the
 * window. */
static void
resolve_gaps (St2022Seamless * m)
{
  while (!m->startup && m->next_out < m->head) {
    guint64 e = m->next_out;
    gboolean give_up;
    guint p, live = 0, passed = 0;

    if (m->first_held != NONE)
      give_up = m->now >= slot_of (m, m->first_held)->first_arrival +
          m->window_ns;
    else if (m->reach)
      /* nothing waits behind the gap (passed on ahead of it); it still
       * ends when the paths have gone past it, or at the window after the
       * first datagram beyond it came */
      give_up = m->now >= slot_of (m, e)->first_arrival + m->window_ns;
    else
      break;
    for (p = 0; p < ST2022_SEAMLESS_N_PATHS; p++) {
      if (!path_live (m, p))
        continue;
      live++;
      if (m->path[p].highest >= e + ST2022_SEAMLESS_REORDER)
        passed++;
    }
    if (!give_up && !(live > 0 && passed == live))
      break;
    m->next_out++;
    emit_chain (m);
  }
}

/* Accounts what can no longer change: both paths went past it, or it is
 * older than the window. */
static void
finalize_old (St2022Seamless * m)
{
  while (m->tail < m->next_out) {
    Slot *s = slot_of (m, m->tail);
    gboolean all = TRUE;
    guint p;

    /* a path is past it a little after it, so that a duplicate that
     * follows its first copy closely is still known as one */
    for (p = 0; p < ST2022_SEAMLESS_N_PATHS && all; p++)
      if (!(m->path[p].in_stream
              && m->path[p].key == m->key
              && m->path[p].highest >= m->tail + ST2022_SEAMLESS_REORDER))
        all = FALSE;
    if (!all && m->now < s->first_arrival + m->window_ns)
      break;
    finalize_tail (m);
  }
}

static void
end_startup (St2022Seamless * m)
{
  if (!m->startup)
    return;
  m->startup = FALSE;
  m->next_out = m->tail;
  m->first_held = NONE;
  emit_chain (m);
  resolve_gaps (m);
}

/* Everything held leaves in order, everything tracked is accounted. */
static void
drain_all (St2022Seamless * m)
{
  if (!m->started)
    return;
  if (m->startup) {
    m->startup = FALSE;
    m->next_out = m->tail;
  }
  while (m->next_out < m->head) {
    if (slot_of (m, m->next_out)->held)
      emit_slot (m, m->next_out);
    m->next_out++;
  }
  while (m->tail < m->head)
    finalize_tail (m);
  m->first_held = NONE;
}

/* Makes room for @ext at the front of the ring: the oldest datagrams are
 * passed on or given up, and accounted. */
static void
make_room (St2022Seamless * m, guint64 ext)
{
  if (m->startup)
    end_startup (m);
  while (ext >= m->tail + m->cap) {
    if (m->next_out == m->tail) {
      if (slot_of (m, m->next_out)->held)
        emit_slot (m, m->next_out);
      m->next_out++;
      emit_chain (m);
    }
    finalize_tail (m);
  }
  find_first_held (m);
}

static void
anchor (St2022Seamless * m, guint64 key, guint64 arrival, gboolean startup)
{
  guint p;

  m->started = TRUE;
  m->key = key;
  m->startup = startup;
  m->startup_deadline = arrival + m->window_ns;
  m->tail = m->next_out = m->head = EXT_BASE;
  m->empty = TRUE;
  m->first_held = NONE;
  m->n_held = 0;
  m->emit_next = 0;
  for (p = 0; p < ST2022_SEAMLESS_N_PATHS; p++) {
    m->path[p].aligned = FALSE;
    m->path[p].in_stream = FALSE;
  }
}

static void
resync (St2022Seamless * m, guint64 key, guint64 arrival)
{
  drain_all (m);
  m->stats.resyncs++;
  if (m->cb.resync)
    m->cb.resync (m->user_data);
  anchor (m, key, arrival, TRUE);
}

/* The stream held during startup was not the primary path's: it is
 * dropped (nothing of it left yet) and counted as not the merged stream. */
static void
discard_startup (St2022Seamless * m, guint64 arrival)
{
  guint64 e;

  for (e = m->tail; e < m->head; e++) {
    Slot *s = slot_of (m, e);
    guint p;

    for (p = 0; p < ST2022_SEAMLESS_N_PATHS; p++)
      if (s->seen & (1u << p)) {
        m->stats.packets[p]--;
        m->stats.mismatch[p]++;
        if (s->held && s->first_path == p) {
          m->stats.held--;
          m->n_held--;
        }
      }
    s->seen = 0;
    s->held = 0;
    s->out = 0;
  }
  anchor (m, m->key, arrival, TRUE);
}

static void
init_slots (St2022Seamless * m, guint64 from, guint64 to, guint64 arrival)
{
  guint64 e;

  for (e = from; e < to; e++) {
    Slot *s = slot_of (m, e);

    m->n_held -= s->held;
    s->seen = 0;
    s->held = 0;
    s->out = 0;
    s->first_arrival = arrival;
  }
}

St2022SeamlessVerdict
st2022_seamless_push (St2022Seamless * m, St2022SeamlessPath path,
    guint64 key, guint16 seq, const guint8 * data, gsize len,
    guint64 arrival_ns, gconstpointer tag)
{
  guint other = 1 - (guint) path;
  Path *P;
  Slot *s;
  guint64 ext;
  guint8 bit;

  g_return_val_if_fail (path < ST2022_SEAMLESS_N_PATHS,
      ST2022_SEAMLESS_INVALID);
  if (len > ST2022_SEAMLESS_MAX_LEN)
    return ST2022_SEAMLESS_INVALID;
  if (arrival_ns > m->now)
    m->now = arrival_ns;
  P = &m->path[path];
  bit = 1u << path;

  if (!m->started) {
    anchor (m, key, arrival_ns, TRUE);
  } else if (key != m->key) {
    P->has_key = TRUE;
    P->key = key;
    P->aligned = FALSE;
    /* the other path still carries the merged stream: this one is wrong
     * (or early, when the sender restarted: the other path follows); before
     * anything left, the primary path decides */
    if (path_live (m, other) && !(m->startup
            && path == ST2022_SEAMLESS_PRIMARY)) {
      m->stats.mismatch[path]++;
      return ST2022_SEAMLESS_MISMATCH;
    }
    if (m->startup)
      discard_startup (m, arrival_ns);
    else
      resync (m, key, arrival_ns);
    m->key = key;
  }
  P->has_key = TRUE;
  P->key = key;

  if (m->empty) {
    /* the first datagram of a merged stream */
    ext = EXT_BASE + seq;
    m->tail = m->next_out = m->head = ext;
    m->empty = FALSE;
  } else if (P->aligned && P->in_stream
      && arrival_ns <= P->last_arrival + MIN (m->window_ns, REALIGN_NS)) {
    ext = extend (P->last_ext, seq);
  } else {
    ext = extend (m->head - 1, seq);
  }

  if (ext < m->tail) {
    if (m->startup && m->head - ext <= m->cap) {
      /* the lagging path's first datagrams are older than the leading
       * path's: the merged stream starts with them */
      init_slots (m, ext, m->tail, arrival_ns);
      m->tail = m->next_out = ext;
    } else if (m->tail - ext >= m->cap && !path_live (m, other)) {
      /* the only path jumped back further than any window: a restart */
      resync (m, key, arrival_ns);
      ext = EXT_BASE + seq;
      m->tail = m->next_out = m->head = ext;
      m->empty = FALSE;
    } else {
      m->stats.packets[path]++;
      m->stats.late[path]++;
      return ST2022_SEAMLESS_LATE;
    }
  } else if (ext >= m->tail + m->cap) {
    if (ext - m->head + 1 >= m->cap) {
      if (path_live (m, other) && !m->startup) {
        /* out of line with the stream the other path carries */
        m->stats.packets[path]++;
        m->stats.late[path]++;
        return ST2022_SEAMLESS_LATE;
      }
      /* a jump no window explains: the stream starts over here */
      resync (m, key, arrival_ns);
      ext = EXT_BASE + seq;
      m->tail = m->next_out = m->head = ext;
      m->empty = FALSE;
    } else {
      make_room (m, ext);
    }
  }

  m->stats.packets[path]++;
  P->aligned = TRUE;
  P->last_ext = ext;
  P->last_arrival = arrival_ns;
  if (!P->in_stream || ext > P->highest)
    P->highest = ext;
  P->in_stream = TRUE;
  if (ext >= m->head) {
    init_slots (m, m->head, ext + 1, arrival_ns);
    m->head = ext + 1;
  }

  s = slot_of (m, ext);
  if (s->seen & bit) {
    m->stats.duplicate[path]++;
    return ST2022_SEAMLESS_DUPLICATE;
  }
  if (s->seen) {
    guint64 d = arrival_ns >= s->first_arrival ?
        arrival_ns - s->first_arrival : s->first_arrival - arrival_ns;

    s->seen |= bit;
    if (d > m->stats.differential_max_ns)
      m->stats.differential_max_ns = d;
    m->stats.differential_sum_ns += d;
    m->stats.differential_count++;
    st2022_seamless_advance (m, m->now);
    return ST2022_SEAMLESS_COPY;
  }
  if (ext < m->next_out) {
    /* its gap was given up already: the stream went on without it */
    m->stats.late[path]++;
    return ST2022_SEAMLESS_LATE;
  }

  s->seen = bit;
  s->first_arrival = arrival_ns;
  s->first_path = (guint8) path;
  s->len = (guint16) len;
  if (!m->startup && ext == m->next_out) {
    s->held = 0;
    note_emit (m, ext);
    m->next_out++;
    m->cb.emit (m->user_data, data, len, arrival_ns, path, tag);
    emit_chain (m);
  } else if (!m->startup && ext - m->next_out < m->reach) {
    /* behind a gap the depacketizer can still fill when the other path's
     * copy comes: passed on now, from the caller's memory */
    s->held = 0;
    s->out = 1;
    note_emit (m, ext);
    m->stats.ahead++;
    m->cb.emit (m->user_data, data, len, arrival_ns, path, tag);
  } else {
    memcpy (store_of (m, ext), data, len);
    s->held = 1;
    m->n_held++;
    m->stats.held++;
    if (m->first_held == NONE || ext < m->first_held)
      m->first_held = ext;
  }
  st2022_seamless_advance (m, m->now);
  return ST2022_SEAMLESS_FIRST;
}

void
st2022_seamless_advance (St2022Seamless * m, guint64 now_ns)
{
  if (now_ns > m->now)
    m->now = now_ns;
  if (!m->started)
    return;
  /* both paths showed up, or one alone has had the window to */
  if (m->startup && (m->now >= m->startup_deadline
          || (path_live (m, ST2022_SEAMLESS_PRIMARY)
              && path_live (m, ST2022_SEAMLESS_SECONDARY))))
    end_startup (m);
  resolve_gaps (m);
  finalize_old (m);
}

void
st2022_seamless_set_reach (St2022Seamless * m, guint reach)
{
  m->reach = MIN (reach, m->cap);
}

void
st2022_seamless_path_restart (St2022Seamless * m, St2022SeamlessPath path)
{
  g_return_if_fail (path < ST2022_SEAMLESS_N_PATHS);
  m->path[path].aligned = FALSE;
}

void
st2022_seamless_flush (St2022Seamless * m)
{
  guint p;

  drain_all (m);
  m->started = FALSE;
  m->startup = FALSE;
  m->tail = m->next_out = m->head = 0;
  for (p = 0; p < ST2022_SEAMLESS_N_PATHS; p++)
    memset (&m->path[p], 0, sizeof (m->path[p]));
}

void
st2022_seamless_get_stats (St2022Seamless * m, St2022SeamlessStats * stats)
{
  *stats = m->stats;
}
