/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* When st2022src's formats meet nothing downstream, the element right after
 * it is often not the one refusing: in `st2022src ! vmi10to8 !
 * video/x-raw,format=I420 ! autovideosink` vmi10to8 takes UYVP, but the
 * display sink has no I420, so every caps query back to st2022src comes out
 * empty. Walking down the chain to the first element that does accept
 * something, and naming what it accepts, points at the link to fix. */

#include "gstvmicapsdiag.h"

/* chains longer than this are described from their first element only */
#define MAX_HOPS 16

/* What @elem restricts its output to: a capsfilter's caps, otherwise its
 * source pad template's. */
static GstCaps *
element_output_caps (GstElement * elem, GstPad * srcpad)
{
  GstCaps *caps = NULL;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (elem), "caps"))
    g_object_get (elem, "caps", &caps, NULL);
  if (caps == NULL || gst_caps_is_any (caps)) {
    gst_clear_caps (&caps);
    caps = gst_pad_get_pad_template_caps (srcpad);
  }
  return caps;
}

/* The only source pad of @elem, or NULL (none, or a choice of several). */
static GstPad *
single_src_pad (GstElement * elem)
{
  GstPad *pad = NULL;

  GST_OBJECT_LOCK (elem);
  if (elem->numsrcpads == 1)
    pad = gst_object_ref (elem->srcpads->data);
  GST_OBJECT_UNLOCK (elem);
  return pad;
}

/**
 * gst_vmi_caps_refusal:
 * @srcpad: the source pad whose caps downstream refused
 *
 * Returns: (transfer full): one sentence naming the downstream element that
 * refuses, the caps it accepts and the element to add where.
 */
gchar *
gst_vmi_caps_refusal (GstPad * srcpad)
{
  GstPad *peer = gst_pad_get_peer (srcpad);
  GstElement *elem;
  GstCaps *caps;
  gchar *str, *msg;
  guint hop;

  if (peer == NULL)
    return g_strdup ("the source pad is not linked");
  caps = gst_pad_query_caps (peer, NULL);
  elem = gst_pad_get_parent_element (peer);
  if (!gst_caps_is_empty (caps) || elem == NULL) {
    str = gst_caps_to_string (caps);
    msg = g_strdup_printf ("downstream %s accepts only %s: put videoconvert "
        "(or vmi10to8) right after %s", elem ? GST_OBJECT_NAME (elem) :
        GST_OBJECT_NAME (peer), str,
        GST_OBJECT_NAME (GST_OBJECT_PARENT (srcpad)));
    g_free (str);
    gst_caps_unref (caps);
    gst_clear_object (&elem);
    gst_object_unref (peer);
    return msg;
  }
  gst_caps_unref (caps);

  /* @elem accepts nothing because of what lies after it: find the first
   * element that accepts something, and the one before it that narrows
   * its output to caps the former does not take */
  for (hop = 0; hop < MAX_HOPS; hop++) {
    GstPad *out = single_src_pad (elem), *next;
    GstElement *next_elem;
    GstCaps *accepts, *gives;
    gchar *gstr;

    next = out ? gst_pad_get_peer (out) : NULL;
    next_elem = next ? gst_pad_get_parent_element (next) : NULL;
    if (next_elem == NULL) {
      msg = g_strdup_printf ("downstream %s accepts no raw video format "
          "here: put videoconvert (or vmi10to8) after %s", GST_OBJECT_NAME
          (elem), GST_OBJECT_NAME (GST_OBJECT_PARENT (srcpad)));
      gst_clear_object (&next);
      gst_clear_object (&out);
      break;
    }
    accepts = gst_pad_query_caps (next, NULL);
    if (gst_caps_is_empty (accepts)) {
      gst_caps_unref (accepts);
      gst_object_unref (next);
      gst_object_unref (out);
      gst_object_unref (elem);
      elem = next_elem;
      continue;
    }
    gives = element_output_caps (elem, out);
    str = gst_caps_to_string (accepts);
    gstr = gst_caps_to_string (gives);
    msg = g_strdup_printf ("%s accepts only %s, and %s before it gives %s: "
        "put videoconvert between %s and %s",
        GST_OBJECT_NAME (next_elem), str, GST_OBJECT_NAME (elem), gstr,
        GST_OBJECT_NAME (elem), GST_OBJECT_NAME (next_elem));
    g_free (str);
    g_free (gstr);
    gst_caps_unref (gives);
    gst_caps_unref (accepts);
    gst_object_unref (next_elem);
    gst_object_unref (next);
    gst_object_unref (out);
    break;
  }
  if (hop == MAX_HOPS)
    msg = g_strdup_printf ("nothing downstream of %s accepts raw video",
        GST_OBJECT_NAME (GST_OBJECT_PARENT (srcpad)));
  gst_object_unref (elem);
  gst_object_unref (peer);
  return msg;
}
