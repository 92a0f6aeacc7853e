/* gst-vmi tools: kernel events next to vmi-jitter's user-space timestamps
 *
 * A private tracefs instance (instances/vmi-jitter-PID, so a system-wide
 * tracer is left alone) records, with trace_clock "mono" (the clock of
 * CLOCK_MONOTONIC), the interrupt handler entries, the NAPI polls and the
 * frames entering the network stack (net:netif_receive_skb), and context
 * switches. Kernel timestamps come out of the text buffer with 1 µs
 * resolution.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef __VMI_JITTER_TRACE_H__
#define __VMI_JITTER_TRACE_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  VMI_JITTER_EV_IRQ,            /* irq:irq_handler_entry */
  VMI_JITTER_EV_NAPI,           /* napi:napi_poll */
  VMI_JITTER_EV_NET,            /* net:netif_receive_skb */
  VMI_JITTER_EV_SCHED,          /* sched:sched_switch */
} VmiJitterEvKind;

typedef struct
{
  double ts_ns;                 /* CLOCK_MONOTONIC */
  guint8 kind;                  /* VmiJitterEvKind */
  guint16 cpu;
} VmiJitterEvent;

typedef struct _VmiJitterTrace VmiJitterTrace;

/* Starts recording. @iface: only that device's NAPI polls and frames
 * (NULL: all); @irq_glob: only IRQs whose name matches (NULL: all);
 * @cpu >= 0: only events on that CPU. NULL with *why set (tracefs not
 * mounted, not root, ...) when tracing cannot run here. */
VmiJitterTrace *vmi_jitter_trace_start (const gchar * iface,
    const gchar * irq_glob, gint cpu, gchar ** why);

/* Stops, reads the events in time order into a new array of
 * VmiJitterEvent, removes the instance and frees @tr. */
GArray *vmi_jitter_trace_stop (VmiJitterTrace * tr);

/* Parses one line of a tracefs `trace` file; FALSE for headers and
 * events of no interest. */
gboolean vmi_jitter_trace_parse_line (const gchar * line, VmiJitterEvent * ev);

G_END_DECLS

#endif /* __VMI_JITTER_TRACE_H__ */
