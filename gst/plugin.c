/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * plugin-vmi:
 *
 * Uncompressed professional video (SDI) over IP as SMPTE ST 2022-6, a SIMD
 * 10-bit to 8-bit converter and zero-copy frame exchange between elements and
 * between processes.
 *
 * Elements: `st2022sink`, `st2022src`, `vmi10to8`, `vmisink`, `vmisrc`.
 *
 * System prerequisites: none for the default `socket` transport. Large
 * receive buffers need `net.core.rmem_max` raised (the elements warn when the
 * kernel caps `buffer-size`). Huge pages are used for frame memory when
 * available (`echo 512 > /proc/sys/vm/nr_hugepages`) and silently skipped
 * otherwise. The `packet` transport needs CAP_NET_RAW; the `dpdk` transport
 * needs a build with `-Ddpdk=enabled` and, on machines without huge pages,
 * `dpdk-eal-args="--no-huge -m 512"`. `clock-source=ptp` runs GStreamer's
 * `gst-ptp-helper`, which binds UDP ports 319 and 320 (root or
 * CAP_NET_BIND_SERVICE) and needs a PTP grandmaster on the network;
 * `clock-source=tai` needs the host clock disciplined by ptp4l and
 * `phc2sys -w` (docs/timing.md).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstvmielements.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  ret |= GST_ELEMENT_REGISTER (st2022sink, plugin);
  ret |= GST_ELEMENT_REGISTER (st2022src, plugin);
  ret |= GST_ELEMENT_REGISTER (vmi10to8, plugin);
  ret |= GST_ELEMENT_REGISTER (vmisink, plugin);
  ret |= GST_ELEMENT_REGISTER (vmisrc, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR,
    vmi,
    "SMPTE ST 2022-6 transport, 10-to-8-bit conversion and zero-copy frames",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
