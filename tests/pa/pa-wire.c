/* gst-vmi tests: a line-rate wire for the transmit engine (pa-wire.h). */

#include "pa-wire.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define DGRAM 1400
#define HDR_MAX 64

typedef struct
{
  guint rec;                    /* index in records */
  guint64 end;                  /* byte-time it has left the wire */
  VmiTxFrame *frame;            /* reference held, or NULL */
  const guint8 *pieces[4];      /* payload pieces inside the frame */
  gsize lens[4];
  guint n_pieces;
  gboolean is_copy[4];
  gsize copy_len;
  guint8 copy[DGRAM];           /* pieces outside the frame, copied */
} Pending;

struct _PaWire
{
  VmiTransport parent;
  guint64 line_rate;
  guint64 queue_bytes;
  gint64 t0;
  gboolean started;
  guint64 end;                  /* byte-time the last queued frame ends */
  GArray *records;
  Pending *pending;
  guint pcap, phead, plen;
  guint8 *capture;
  guint capture_max, captured;
  guint64 idle_events, idle_bytes, short_counts;
  GMutex lock;                  /* records, against pa_wire_n_records() */
};

static VmiTransportClass pa_wire_class;

static guint64
now_bytes (PaWire * w)
{
  struct timespec ts;
  gint64 ns;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  ns = (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec - w->t0;
  return (guint64) ((unsigned __int128) ns * w->line_rate / 8000000000ULL);
}

/* Frames whose last byte has left by @t: their datagram is read now. */
static void
drain (PaWire * w, guint64 t)
{
  while (w->plen) {
    Pending *p = &w->pending[w->phead];
    guint i;

    if (p->end > t)
      break;
    if (p->n_pieces && w->captured < w->capture_max) {
      guint8 *out = w->capture + (gsize) w->captured * DGRAM;
      gsize off = 0, c = 0;

      memset (out, 0, DGRAM);
      for (i = 0; i < p->n_pieces; i++) {
        const guint8 *src = p->is_copy[i] ? p->copy + c : p->pieces[i];
        gsize len = MIN (p->lens[i], DGRAM - off);

        memcpy (out + off, src, len);
        off += len;
        if (p->is_copy[i])
          c += p->lens[i];
      }
      w->captured++;
    }
    if (p->frame)
      vmi_tx_frame_unref (p->frame);
    p->frame = NULL;
    w->phead = (w->phead + 1) % w->pcap;
    w->plen--;
  }
}

static gint
pa_wire_send_burst (VmiTransport * t, const VmiTxDatagram * d, guint n,
    GError ** error)
{
  PaWire *w = (PaWire *) t;
  guint64 now;
  guint k, i;

  if (!w->started) {
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    w->t0 = (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
    w->started = TRUE;
  }
  now = now_bytes (w);
  drain (w, now);
  g_mutex_lock (&w->lock);
  for (k = 0; k < n; k++) {
    PaRecord r = { 0 };
    Pending *p;
    guint64 len = 0;

    if (w->end > now && w->end - now >= w->queue_bytes) {
      w->short_counts++;
      break;
    }
    if (w->plen == w->pcap) {
      w->short_counts++;
      break;
    }
    if (w->end < now) {
      if (w->records->len) {
        w->idle_events++;
        w->idle_bytes += now - w->end;
      }
      w->end = now;
    }
    p = &w->pending[(w->phead + w->plen) % w->pcap];
    memset (p, 0, G_STRUCT_OFFSET (Pending, copy));
    if (d[k].gap_wire_bytes) {
      r.kind = PA_REC_GAP;
      r.wire = d[k].gap_wire_bytes;
    } else {
      const guint8 *h = d[k].iov[0].iov_base;

      r.kind = PA_REC_MEDIA;
      for (i = 0; i < d[k].n_iov && i < 4; i++) {
        const guint8 *b = d[k].iov[i].iov_base;
        gsize l = d[k].iov[i].iov_len;

        p->lens[i] = l;
        len += l;
        if (vmi_tx_frame_contains (d[k].frame, b, l)) {
          p->pieces[i] = b;
        } else {
          /* the contract: what is not the frame's stable memory is copied
           * before send_burst() returns */
          memcpy (p->copy + p->copy_len, b, MIN (l, DGRAM - p->copy_len));
          p->copy_len += MIN (l, DGRAM - p->copy_len);
          p->is_copy[i] = TRUE;
        }
      }
      p->n_pieces = i;
      if (d[k].frame) {
        vmi_tx_frame_ref (d[k].frame);
        p->frame = d[k].frame;
      }
      r.wire = (guint32) len + 14 + 20 + 8 + 24;
      r.marker = h[1] >> 7;
      r.seq = h[2] << 8 | h[3];
      r.rtp = (guint32) h[4] << 24 | h[5] << 16 | h[6] << 8 | h[7];
    }
    r.start = w->end;
    w->end += r.wire;
    p->rec = w->records->len;
    p->end = w->end;
    g_array_append_val (w->records, r);
    w->plen++;
  }
  g_mutex_unlock (&w->lock);
  return k;
}

static void
pa_wire_close (VmiTransport * t)
{
}

PaWire *
pa_wire_new (guint64 line_rate, guint64 queue_ns, guint capture_datagrams)
{
  PaWire *w = g_new0 (PaWire, 1);

  pa_wire_class.name = "pa-wire";
  pa_wire_class.kind = VMI_TRANSPORT_KIND_PACKET;
  pa_wire_class.caps = VMI_TRANSPORT_CAP_RAW_ETHERNET |
      VMI_TRANSPORT_CAP_GAP_FRAMES | VMI_TRANSPORT_CAP_ZEROCOPY_TX;
  pa_wire_class.send_burst = pa_wire_send_burst;
  pa_wire_class.close = pa_wire_close;
  w->parent.klass = &pa_wire_class;
  w->line_rate = line_rate;
  w->queue_bytes = (guint64) ((unsigned __int128) queue_ns * line_rate /
      8000000000ULL);
  g_mutex_init (&w->lock);
  w->records = g_array_sized_new (FALSE, FALSE, sizeof (PaRecord), 4 << 20);
  w->pcap = w->queue_bytes / 84 + 2;
  w->pending = g_new0 (Pending, w->pcap);
  w->capture_max = capture_datagrams;
  w->capture = g_malloc ((gsize) capture_datagrams * DGRAM + 1);
  return w;
}

VmiTransport *
pa_wire_transport (PaWire * w)
{
  return &w->parent;
}

void
pa_wire_finish (PaWire * w)
{
  drain (w, G_MAXUINT64);
}

void
pa_wire_free (PaWire * w)
{
  pa_wire_finish (w);
  g_array_unref (w->records);
  g_free (w->pending);
  g_free (w->capture);
  g_free (w);
}

const PaRecord *
pa_wire_records (PaWire * w, guint * n)
{
  *n = w->records->len;
  return (const PaRecord *) w->records->data;
}

const guint8 *
pa_wire_datagram (PaWire * w, guint i)
{
  return i < w->captured ? w->capture + (gsize) i * DGRAM : NULL;
}

guint
pa_wire_n_datagrams (PaWire * w)
{
  return w->captured;
}

guint
pa_wire_n_records (PaWire * w)
{
  guint n;

  g_mutex_lock (&w->lock);
  n = w->records->len;
  g_mutex_unlock (&w->lock);
  return n;
}

guint64
pa_wire_idle_events (PaWire * w)
{
  return w->idle_events;
}

guint64
pa_wire_idle_bytes (PaWire * w)
{
  return w->idle_bytes;
}

guint64
pa_wire_short_counts (PaWire * w)
{
  return w->short_counts;
}

static void
put16 (guint8 * p, guint v)
{
  p[0] = v >> 8;
  p[1] = v;
}

static void
put32 (guint8 * p, guint32 v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

gboolean
pa_wire_write_pcap (PaWire * w, const gchar * path, guint from,
    guint16 udp_port, gboolean with_gaps)
{
  FILE *f = fopen (path, "wb");
  guint8 gh[24] = { 0 }, fr[64];
  guint i;

  if (f == NULL)
    return FALSE;
  /* nanosecond pcap, little endian, Ethernet */
  gh[0] = 0x4d;
  gh[1] = 0x3c;
  gh[2] = 0xb2;
  gh[3] = 0xa1;
  gh[4] = 2;
  gh[6] = 4;
  gh[16] = 0xff;
  gh[17] = 0xff;
  gh[20] = 1;
  fwrite (gh, 1, 24, f);
  for (i = from; i < w->records->len; i++) {
    const PaRecord *r = &g_array_index (w->records, PaRecord, i);
    guint64 ns = (guint64) ((unsigned __int128) r->start * 8000000000ULL /
        w->line_rate);
    guint32 rh[4];
    guint caplen, len = r->wire - 24;

    if (r->kind == PA_REC_GAP && !with_gaps)
      continue;
    if (r->kind == PA_REC_GAP && !with_gaps)
      continue;
    memset (fr, 0, sizeof (fr));
    if (r->kind == PA_REC_GAP) {
      static const guint8 dst[6] = { 0x01, 0x80, 0xc2, 0, 0, 1 };
      memcpy (fr, dst, 6);
      fr[6] = 0x02;
      put16 (fr + 12, 0x8808);
      caplen = 16;
    } else {
      fr[0] = 0x02;
      fr[6] = 0x02;
      fr[11] = 1;
      put16 (fr + 12, 0x0800);
      fr[14] = 0x45;
      put16 (fr + 16, len - 14);
      fr[22] = 64;
      fr[23] = 17;
      put32 (fr + 26, 0x0a000001);
      put32 (fr + 30, 0x0a000002);
      put16 (fr + 34, udp_port);
      put16 (fr + 36, udp_port);
      put16 (fr + 38, len - 34);
      fr[42] = 0x80;
      fr[43] = (r->marker << 7) | 98;
      put16 (fr + 44, r->seq);
      put32 (fr + 46, r->rtp);
      caplen = 54;
    }
    rh[0] = GUINT32_TO_LE ((guint32) (ns / 1000000000));
    rh[1] = GUINT32_TO_LE ((guint32) (ns % 1000000000));
    rh[2] = GUINT32_TO_LE (caplen);
    rh[3] = GUINT32_TO_LE (len);
    fwrite (rh, 1, 16, f);
    fwrite (fr, 1, caplen, f);
  }
  return fclose (f) == 0;
}

const St2022Format *
pa_core_format (const RefFormat * f)
{
  const St2022Format *fmt = st2022_format_from_video (f->width, f->height,
      f->interlaced, f->fps_n, f->fps_d);
  g_assert (fmt != NULL);
  return fmt;
}

St2022PacketizerConfig
pa_pkt_config (void)
{
  St2022PacketizerConfig c;

  st2022_packetizer_config_init (&c);
  c.payload_type = 98;
  c.ssrc = 0x12345678;
  c.initial_seq = 65000;
  return c;
}

gint64
pa_mono_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* the engine is built without the transport registry here */
G_DEFINE_QUARK (vmi-transport-error-quark, vmi_transport_error);
