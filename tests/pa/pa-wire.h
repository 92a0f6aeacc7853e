/* gst-vmi tests: a line-rate wire for the transmit engine.
 *
 * A VmiTransport whose "NIC" sends frames back to back at exactly
 * `line_rate` against CLOCK_MONOTONIC from a bounded TX queue: send_burst()
 * accepts an entry only while the wire time already queued is below
 * `queue_ns` (a short count otherwise, the back-pressure of a real NIC),
 * and a frame starts when the wire is free and it is queued, so when the
 * sender lets the queue run empty the wire idles (counted). It records the
 * order, start byte-time and wire bytes of every frame. It declares
 * VMI_TRANSPORT_CAP_ZEROCOPY_TX and keeps a reference on each frame until
 * its datagram "leaves" the wire, and only then copies the datagram out:
 * a sender that rewrote a raster still on the wire would be caught by the
 * bit-exact comparison. */

#ifndef __PA_WIRE_H__
#define __PA_WIRE_H__

#include <glib.h>
#include "transport/vmi-transport.h"
#include "st2022/st2022.h"
#include "st2022-ref.h"

G_BEGIN_DECLS

enum
{
  PA_REC_MEDIA = 0,
  PA_REC_GAP = 1,
};

typedef struct
{
  guint64 start;                /* byte-time on the line-rate wire */
  guint32 wire;                 /* wire bytes (frame + 24) */
  guint8 kind;                  /* PA_REC_* */
  guint8 marker;
  guint16 seq;
  guint32 rtp;
} PaRecord;

typedef struct _PaWire PaWire;

/* @capture_datagrams: how many media datagrams to keep (1400 B each) */
PaWire *pa_wire_new (guint64 line_rate, guint64 queue_ns,
    guint capture_datagrams);
/* The transport to hand the engine (owned by the wire) */
VmiTransport *pa_wire_transport (PaWire * w);
/* Lets everything queued leave the wire (after the engine is freed) */
void pa_wire_finish (PaWire * w);
void pa_wire_free (PaWire * w);

const PaRecord *pa_wire_records (PaWire * w, guint * n);
/* frames on the wire so far (any thread) */
guint pa_wire_n_records (PaWire * w);
/* datagram @i of the captured media (1400 bytes), NULL past the end */
const guint8 *pa_wire_datagram (PaWire * w, guint i);
guint pa_wire_n_datagrams (PaWire * w);
/* times the queue had run empty when a frame came (after the first), and
 * the byte-times the wire idled */
guint64 pa_wire_idle_events (PaWire * w);
guint64 pa_wire_idle_bytes (PaWire * w);
guint64 pa_wire_short_counts (PaWire * w);

/* The record as a capture (ns timestamps = wire start times; media frames
 * truncated after their RTP header, gap frames after the opcode) for
 * tools/vmi-analyze; @from: first record to write; @with_gaps: FALSE
 * writes the media frames only (the analyzer skips the rest) */
gboolean pa_wire_write_pcap (PaWire * w, const gchar * path, guint from,
    guint16 udp_port, gboolean with_gaps);

/* the core's format of @f (fails the test when there is none) */
const St2022Format *pa_core_format (const RefFormat * f);
/* PT 98, a fixed SSRC, a sequence that wraps during the tests */
St2022PacketizerConfig pa_pkt_config (void);
gint64 pa_mono_ns (void);

G_END_DECLS

#endif
