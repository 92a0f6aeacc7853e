/* gst-vmi: libFuzzer target for the SDP parser (gst/sdp/st2022-sdp.c)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Input: SDP text of any length and bytes (NULs included: they must be
 * refused, not read past). A parse that succeeds must give a description
 * the writer turns back into SDP that parses to the same stream. */

#include <stdint.h>
#include <string.h>
#include "st2022-sdp.h"

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  St2022Sdp sdp, again;
  GError *err = NULL;

  if (!st2022_sdp_parse ((const gchar *) data, size, &sdp, &err)) {
    /* an error always says something */
    if (err == NULL || err->message == NULL || err->message[0] == '\0')
      __builtin_trap ();
    g_error_free (err);
    return 0;
  }
  if (sdp.address && sdp.port && (sdp.source_address == NULL
          || strchr (sdp.source_address, ':') == NULL) == (strchr
          (sdp.address, ':') == NULL)) {
    St2022SdpDescription d = {
      .session_name = sdp.session_name,
      .origin_address = sdp.source_address,
      .address = sdp.address,
      .ttl = sdp.ttl,
      .port = sdp.port,
      .payload_type = sdp.payload_type,
      .source_filter = sdp.source_address != NULL,
      .tp = sdp.tp,
    };
    gchar *text = st2022_sdp_write (&d, NULL);

    /* a session name with a line break would not survive; all else must */
    if (text && (sdp.session_name == NULL || !strpbrk (sdp.session_name,
                "\r\n"))) {
      if (!st2022_sdp_parse (text, -1, &again, NULL))
        __builtin_trap ();
      if (strcmp (again.address, sdp.address) != 0
          || again.port != sdp.port
          || again.payload_type != sdp.payload_type
          || g_strcmp0 (again.source_address, sdp.source_address) != 0
          || g_strcmp0 (again.tp, sdp.tp) != 0)
        __builtin_trap ();
      st2022_sdp_clear (&again);
    }
    g_free (text);
  }
  st2022_sdp_clear (&sdp);
  return 0;
}
