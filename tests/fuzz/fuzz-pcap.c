/* gst-vmi: libFuzzer target for the capture reader of vmi-analyze
 * (libpcap for the pcap/pcapng container, tools/vmi-capture.c for the link,
 * IP and UDP layers, and the RTP sequence tracking of gst/pacing)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a whole capture file, read the way vmi-analyze reads one
 * (nanosecond precision, every packet through vmi_capture_udp()). The UDP
 * payload found must lie inside the captured bytes of its packet.
 */

#include <stdint.h>
#include <stdio.h>
#include <pcap/pcap.h>

#include "vmi-capture.h"
#include "vmi-timing.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  char errbuf[PCAP_ERRBUF_SIZE];
  struct pcap_pkthdr *h;
  const u_char *pkt;
  VmiSeqStats seq = { 0, };
  pcap_t *pc;
  FILE *f;
  int dlt;

  if (size == 0)
    return 0;
  f = fmemopen ((void *) data, size, "rb");
  if (!f)
    return 0;
  pc = pcap_fopen_offline_with_tstamp_precision (f,
      PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!pc) {
    fclose (f);
    return 0;
  }
  dlt = pcap_datalink (pc);
  while (pcap_next_ex (pc, &h, &pkt) == 1) {
    const guint8 *pl;
    guint16 dport;
    guint pl_len;

    if (!vmi_capture_udp (dlt, pkt, h->caplen, &dport, &pl, &pl_len))
      continue;
    if (pl < pkt || pl > pkt + h->caplen || pl_len > h->caplen ||
        (gsize) (pl - pkt) + pl_len > h->caplen)
      __builtin_trap ();
    if (pl_len >= 12 && (pl[0] >> 6) == 2)
      vmi_seq_stats_push (&seq, (pl[2] << 8) | pl[3]);
  }
  pcap_close (pc);              /* closes f */
  return 0;
}
