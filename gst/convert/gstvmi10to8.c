/* gst-vmi
 * Copyright (C) 2026 gst-vmi developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-vmi10to8
 * @title: vmi10to8
 *
 * Converts 10-bit 4:2:2 video (`UYVP`, the SDI active line as ST 2022-6
 * carries it, or `v210`) to 8-bit `UYVY`, `Y42B`, `I420` or `NV12` at memory
 * speed: SSSE3/AVX2 kernels chosen at run time, rows spread over
 * #GstVmi10to8:n-threads persistent worker threads.
 *
 * Each 10-bit sample v becomes v >> 2 (#GstVmi10to8:rounding `truncate`, the
 * default) or MIN ((v + 2) >> 2, 255) (`nearest`). For `I420`/`NV12` the
 * chroma of two lines is averaged at 10 bits and rounded once; interlaced
 * frames average the two lines of a pair within one field (lines 4m and
 * 4m + 2 for field 1, 4m + 1 and 4m + 3 for field 2), progressive frames
 * adjacent lines.
 *
 * `UYVP`/`v210` to `UYVY` is done in the input buffer itself when this
 * element holds its only reference and its memory is writable; the other
 * cases write a new buffer. Upstream is offered a #GstVmiBufferPool with
 * #GstVideoMeta. Caps fields other than `format` (size, frame rate,
 * interlace mode, field order, colorimetry, pixel aspect ratio) pass
 * through, as do timestamps, buffer flags and metadata. The width must be
 * even (4:2:2 chroma belongs to pixel pairs). See docs/convert.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc num-buffers=100 ! \
 *     video/x-raw,format=UYVP,width=1920,height=1080 ! vmi10to8 ! \
 *     video/x-raw,format=I420 ! x264enc ! mp4mux ! filesink location=out.mp4
 * ]| Encodes 10-bit test frames as 8-bit H.264.
 * |[
 * gst-launch-1.0 st2022src port=5004 ! vmi10to8 rounding=nearest ! \
 *     video/x-raw,format=UYVY ! videoconvert ! autovideosink
 * ]| Displays an ST 2022-6 stream.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "convert/gstvmi10to8.h"
#include "pool/gstvmibufferpool.h"
#include "gstvmielements.h"

GST_DEBUG_CATEGORY_STATIC (gst_vmi_10to8_debug);
#define GST_CAT_DEFAULT gst_vmi_10to8_debug

#define DEFAULT_PROP_ROUNDING GST_VMI_10TO8_ROUNDING_TRUNCATE
#define DEFAULT_PROP_N_THREADS 0

enum
{
  PROP_0,
  PROP_ROUNDING,
  PROP_N_THREADS,
};

#define SINK_FORMATS "{ UYVP, v210 }"
#define SRC_FORMATS "{ UYVY, Y42B, I420, NV12 }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (SINK_FORMATS)));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE (SRC_FORMATS)));

#define gst_vmi_10to8_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstVmi10to8, gst_vmi_10to8, GST_TYPE_VIDEO_FILTER,
    GST_DEBUG_CATEGORY_INIT (gst_vmi_10to8_debug, "vmi10to8", 0,
        "10-bit to 8-bit video converter"));
GST_ELEMENT_REGISTER_DEFINE (vmi10to8, "vmi10to8", GST_RANK_NONE,
    GST_TYPE_VMI_10TO8);

G_DEFINE_ENUM_TYPE (GstVmi10to8Rounding, gst_vmi_10to8_rounding,
    G_DEFINE_ENUM_VALUE (GST_VMI_10TO8_ROUNDING_TRUNCATE, "truncate"),
    G_DEFINE_ENUM_VALUE (GST_VMI_10TO8_ROUNDING_NEAREST, "nearest"));

/* ---- restoring a pool's video meta after an in-place conversion -------- */

/* A buffer from a GstVideoBufferPool carries a pooled, locked GstVideoMeta
 * that the pool hands out again with the buffer. Converting in place must
 * describe the UYVY result in that meta, and the producer that gets the
 * buffer back expects its own layout. This small unpooled meta carries the
 * original layout: the pool's reset_buffer removes unpooled metas, and
 * freeing this one writes the layout back. It is added after the video meta,
 * so it sits before it in the buffer's list and is freed first even when
 * the buffer itself is freed. */
typedef struct
{
  GstMeta meta;
  GstVideoMeta *vmeta;
  GstVideoFormat format;
  guint n_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} VmiRestoreMeta;

static GType
vmi_restore_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstVmi10to8RestoreMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
vmi_restore_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  ((VmiRestoreMeta *) meta)->vmeta = NULL;
  return TRUE;
}

static void
vmi_restore_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  VmiRestoreMeta *r = (VmiRestoreMeta *) meta;

  if (r->vmeta) {
    r->vmeta->format = r->format;
    r->vmeta->n_planes = r->n_planes;
    memcpy (r->vmeta->offset, r->offset, sizeof (r->offset));
    memcpy (r->vmeta->stride, r->stride, sizeof (r->stride));
  }
}

static const GstMetaInfo *
vmi_restore_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi =
        gst_meta_register (vmi_restore_meta_api_get_type (),
        "GstVmi10to8RestoreMeta", sizeof (VmiRestoreMeta),
        vmi_restore_meta_init, vmi_restore_meta_free, NULL);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

/* ---- caps ------------------------------------------------------------- */

static gboolean
conv_format (GstVideoFormat f, VmiConvFormat * out)
{
  switch (f) {
    case GST_VIDEO_FORMAT_UYVP:
      *out = VMI_CONV_FORMAT_UYVP;
      return TRUE;
    case GST_VIDEO_FORMAT_v210:
      *out = VMI_CONV_FORMAT_V210;
      return TRUE;
    case GST_VIDEO_FORMAT_UYVY:
      *out = VMI_CONV_FORMAT_UYVY;
      return TRUE;
    case GST_VIDEO_FORMAT_Y42B:
      *out = VMI_CONV_FORMAT_Y42B;
      return TRUE;
    case GST_VIDEO_FORMAT_I420:
      *out = VMI_CONV_FORMAT_I420;
      return TRUE;
    case GST_VIDEO_FORMAT_NV12:
      *out = VMI_CONV_FORMAT_NV12;
      return TRUE;
    default:
      return FALSE;
  }
}

/* Only the format changes: every other field is copied as is. */
static GstCaps *
gst_vmi_10to8_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter)
{
  GstStaticPadTemplate *other = direction == GST_PAD_SINK ?
      &src_template : &sink_template;
  GstCaps *other_caps = gst_static_pad_template_get_caps (other);
  const GValue *formats =
      gst_structure_get_value (gst_caps_get_structure (other_caps, 0),
      "format");
  GstCaps *res = gst_caps_new_empty ();
  guint i, n = gst_caps_get_size (caps);

  for (i = 0; i < n; i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    /* the kernels need the frames in mappable memory */
    if (f && !gst_caps_features_is_any (f) &&
        !gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      continue;
    s = gst_structure_copy (s);
    gst_structure_set_value (s, "format", formats);
    res = gst_caps_merge_structure_full (res, s,
        f ? gst_caps_features_copy (f) : NULL);
  }
  gst_caps_unref (other_caps);

  if (filter) {
    GstCaps *tmp = gst_caps_intersect_full (filter, res,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

static gboolean
gst_vmi_10to8_set_info (GstVideoFilter * filter, GstCaps * incaps,
    GstVideoInfo * in_info, GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (filter);

  if (!conv_format (GST_VIDEO_INFO_FORMAT (in_info), &self->in_format) ||
      !conv_format (GST_VIDEO_INFO_FORMAT (out_info), &self->out_format) ||
      !vmi_conv_format_is_input (self->in_format) ||
      !vmi_conv_format_is_output (self->out_format))
    goto bad_formats;
  if (GST_VIDEO_INFO_WIDTH (in_info) % 2 != 0)
    goto odd_width;
  if (GST_VIDEO_INFO_WIDTH (in_info) != GST_VIDEO_INFO_WIDTH (out_info) ||
      GST_VIDEO_INFO_HEIGHT (in_info) != GST_VIDEO_INFO_HEIGHT (out_info))
    goto bad_size;

  self->in_place_formats =
      vmi_conv_in_place_possible (self->in_format, self->out_format);
  GST_INFO_OBJECT (self, "%s -> %s, %s kernels, %u thread(s)%s",
      GST_VIDEO_INFO_NAME (in_info), GST_VIDEO_INFO_NAME (out_info),
      vmi_conv_impl_name (vmi_conv_impl_best ()),
      vmi_workers_n_threads (self->workers),
      self->in_place_formats ? ", in place when possible" : "");
  return TRUE;

  /* ERRORS */
bad_formats:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("Cannot convert %s to %s", GST_VIDEO_INFO_NAME (in_info),
            GST_VIDEO_INFO_NAME (out_info)));
    return FALSE;
  }
odd_width:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Width %d is odd: 4:2:2 video needs an even width.",
            GST_VIDEO_INFO_WIDTH (in_info)),
        ("set an even width upstream, e.g. with videocrop or videoscale"));
    return FALSE;
  }
bad_size:
  {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("vmi10to8 converts the format only, it cannot scale %dx%d to %dx%d.",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            GST_VIDEO_INFO_WIDTH (out_info), GST_VIDEO_INFO_HEIGHT (out_info)),
        ("add videoscale after vmi10to8, or ask downstream for the input "
            "size"));
    return FALSE;
  }
}

/* ---- allocation ------------------------------------------------------- */

/* Offers upstream a GstVmiBufferPool with GstVideoMeta: frames in shareable
 * memory, and (for UYVY output) buffers this element can convert in place. */
static gboolean
gst_vmi_10to8_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCaps *caps;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (decide_query && caps && gst_video_info_from_caps (&info, caps) &&
      gst_query_get_n_allocation_pools (query) == 0) {
    GstBufferPool *pool = gst_vmi_buffer_pool_new ();
    GstStructure *config = gst_buffer_pool_get_config (pool);
    guint size = GST_VIDEO_INFO_SIZE (&info);

    gst_buffer_pool_config_set_params (config, caps, size, 0, 0);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config)) {
      GST_WARNING_OBJECT (trans, "vmi pool refused %" GST_PTR_FORMAT, caps);
    } else {
      gst_query_add_allocation_pool (query, pool, size, 0, 0);
    }
    gst_object_unref (pool);
  }

  /* GstVideoFilter adds metas we can pass on; it adds no pool of its own
   * when one is in the query already */
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans,
          decide_query, query))
    return FALSE;

  if (decide_query &&
      !gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static gboolean
gst_vmi_10to8_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (trans);

  /* whether an in-place result may keep the input's stride */
  self->downstream_video_meta =
      gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans,
      query);
}

static gboolean
all_memory_writable (GstBuffer * buf)
{
  guint i, n = gst_buffer_n_memory (buf);

  for (i = 0; i < n; i++)
    if (!gst_memory_is_writable (gst_buffer_peek_memory (buf, i)))
      return FALSE;
  return TRUE;
}

/* GstVideoFilter would always allocate: hand the input buffer back as the
 * output when it can be converted in place. gst_buffer_is_writable() means
 * nobody else holds the buffer; the memory must be ours alone and not
 * read-only (a mapping from another process, a shared sub-buffer), and in
 * one piece (mapping several memories would merge them into a copy). */
static GstFlowReturn
gst_vmi_10to8_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (trans);

  if (self->in_place_formats && gst_buffer_is_writable (inbuf) &&
      gst_buffer_n_memory (inbuf) == 1 && all_memory_writable (inbuf)) {
    GST_LOG_OBJECT (self, "converting %p in place", inbuf);
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (trans,
      inbuf, outbuf);
}

/* ---- conversion ------------------------------------------------------- */

static VmiConvRounding
get_rounding (GstVmi10to8 * self)
{
  VmiConvRounding r;

  GST_OBJECT_LOCK (self);
  r = (VmiConvRounding) self->rounding;
  GST_OBJECT_UNLOCK (self);
  return r;
}

static GstFlowReturn
gst_vmi_10to8_transform_frame (GstVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (filter);
  VmiConvJob job = { 0, };
  guint p;

  job.width = GST_VIDEO_FRAME_WIDTH (in_frame);
  job.height = GST_VIDEO_FRAME_HEIGHT (in_frame);
  job.rounding = get_rounding (self);
  /* per buffer: interlace-mode=mixed flags each frame */
  job.interlaced = GST_VIDEO_FRAME_IS_INTERLACED (in_frame);
  job.src.format = self->in_format;
  job.src.data[0] = GST_VIDEO_FRAME_PLANE_DATA (in_frame, 0);
  job.src.stride[0] = GST_VIDEO_FRAME_PLANE_STRIDE (in_frame, 0);
  job.dst.format = self->out_format;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (out_frame) && p < 3; p++) {
    job.dst.data[p] = GST_VIDEO_FRAME_PLANE_DATA (out_frame, p);
    job.dst.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (out_frame, p);
  }
  if (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO) != 0)
    goto bad_job;
  vmi_conv_job_run_parallel (&job, self->workers);
  return GST_FLOW_OK;

  /* ERRORS */
bad_job:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("cannot convert a %ux%u frame", job.width, job.height));
    return GST_FLOW_ERROR;
  }
}

/* The output layout of an in-place conversion: the input's own offset and
 * stride when downstream reads GstVideoMeta (every row then only overwrites
 * itself, so rows run in parallel), else the default UYVY layout, packed
 * from the start of the memory (rows run in order on this thread). */
static GstFlowReturn
gst_vmi_10to8_transform_in_place (GstVmi10to8 * self, GstBuffer * buf)
{
  GstVideoFilter *filter = GST_VIDEO_FILTER (self);
  GstVideoInfo *out_info = &filter->out_info;
  GstVideoFrame frame;
  GstVideoMeta *vmeta;
  VmiConvJob job = { 0, };
  gsize in_offset, out_offset;
  gint out_stride;
  gboolean keep_layout = self->downstream_video_meta;
  guint8 *base;

  if (!gst_video_frame_map (&frame, &filter->in_info, buf, GST_MAP_READWRITE))
    goto map_failed;

  in_offset = GST_VIDEO_FRAME_PLANE_OFFSET (&frame, 0);
  base = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) - in_offset;
  if (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) < 0)
    keep_layout = TRUE;         /* bottom-up rows: only in their own place */
  if (keep_layout) {
    out_offset = in_offset;
    out_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  } else {
    out_offset = 0;
    out_stride = GST_VIDEO_INFO_PLANE_STRIDE (out_info, 0);
  }

  job.width = GST_VIDEO_FRAME_WIDTH (&frame);
  job.height = GST_VIDEO_FRAME_HEIGHT (&frame);
  job.rounding = get_rounding (self);
  job.src.format = self->in_format;
  job.src.data[0] = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  job.src.stride[0] = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  job.dst.format = VMI_CONV_FORMAT_UYVY;
  job.dst.data[0] = base + out_offset;
  job.dst.stride[0] = out_stride;
  if (vmi_conv_job_prepare (&job, VMI_CONV_IMPL_AUTO) != 0) {
    gst_video_frame_unmap (&frame);
    goto bad_job;
  }
  vmi_conv_job_run_parallel (&job, vmi_conv_in_place_parallel_ok (&job) ?
      self->workers : NULL);
  gst_video_frame_unmap (&frame);

  /* describe the result */
  vmeta = gst_buffer_get_video_meta (buf);
  if (vmeta && GST_META_FLAG_IS_SET (vmeta, GST_META_FLAG_POOLED)) {
    VmiRestoreMeta *r = (VmiRestoreMeta *) gst_buffer_add_meta (buf,
        vmi_restore_meta_get_info (), NULL);
    r->vmeta = vmeta;
    r->format = vmeta->format;
    r->n_planes = vmeta->n_planes;
    memcpy (r->offset, vmeta->offset, sizeof (r->offset));
    memcpy (r->stride, vmeta->stride, sizeof (r->stride));
  } else if (vmeta && !keep_layout) {
    gst_buffer_remove_meta (buf, (GstMeta *) vmeta);
    vmeta = NULL;
  }
  if (vmeta) {
    vmeta->format = GST_VIDEO_FORMAT_UYVY;
    vmeta->n_planes = 1;
    memset (vmeta->offset, 0, sizeof (vmeta->offset));
    memset (vmeta->stride, 0, sizeof (vmeta->stride));
    vmeta->offset[0] = out_offset;
    vmeta->stride[0] = out_stride;
  } else if (keep_layout && (out_offset != 0 ||
          out_stride != GST_VIDEO_INFO_PLANE_STRIDE (out_info, 0))) {
    gsize offset[GST_VIDEO_MAX_PLANES] = { out_offset, };
    gint stride[GST_VIDEO_MAX_PLANES] = { out_stride, };
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_UYVY, job.width, job.height, 1, offset, stride);
  }
  /* a reader without GstVideoMeta (filesink, appsink) takes the size as
   * the frame's: cut it to the packed frame (a pool resizes it back) */
  if (!keep_layout)
    gst_buffer_resize (buf, 0, GST_VIDEO_INFO_SIZE (out_info));
  return GST_FLOW_OK;

  /* ERRORS */
map_failed:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("could not map a %s buffer of %" G_GSIZE_FORMAT " bytes for writing",
            GST_VIDEO_INFO_NAME (&filter->in_info), gst_buffer_get_size (buf)));
    return GST_FLOW_ERROR;
  }
bad_job:
  {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, (NULL),
        ("cannot convert a %ux%u frame", job.width, job.height));
    return GST_FLOW_ERROR;
  }
}

static GstFlowReturn
gst_vmi_10to8_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf)
{
  if (inbuf == outbuf)
    return gst_vmi_10to8_transform_in_place (GST_VMI_10TO8 (trans), inbuf);
  /* GstVideoFilter maps both frames and calls transform_frame */
  return GST_BASE_TRANSFORM_CLASS (parent_class)->transform (trans, inbuf,
      outbuf);
}

/* ---- state ------------------------------------------------------------ */

static gboolean
gst_vmi_10to8_start (GstBaseTransform * trans)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (trans);
  guint n;

  GST_OBJECT_LOCK (self);
  n = self->n_threads;
  GST_OBJECT_UNLOCK (self);

  self->workers = vmi_workers_new (n);
  if (!self->workers)
    goto no_threads;
  GST_DEBUG_OBJECT (self, "%u conversion thread(s), %s kernels",
      vmi_workers_n_threads (self->workers),
      vmi_conv_impl_name (vmi_conv_impl_best ()));
  return TRUE;

  /* ERRORS */
no_threads:
  {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not start %u conversion threads.", n),
        ("lower the n-threads property (0 = one per CPU)"));
    return FALSE;
  }
}

static gboolean
gst_vmi_10to8_stop (GstBaseTransform * trans)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (trans);

  vmi_workers_free (self->workers);
  self->workers = NULL;
  return TRUE;
}

static void
gst_vmi_10to8_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ROUNDING:
      self->rounding = g_value_get_enum (value);
      break;
    case PROP_N_THREADS:
      self->n_threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmi_10to8_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstVmi10to8 *self = GST_VMI_10TO8 (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ROUNDING:
      g_value_set_enum (value, self->rounding);
      break;
    case PROP_N_THREADS:
      g_value_set_uint (value, self->n_threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vmi_10to8_class_init (GstVmi10to8Class * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *filter_class = GST_VIDEO_FILTER_CLASS (klass);

  gobject_class->set_property = gst_vmi_10to8_set_property;
  gobject_class->get_property = gst_vmi_10to8_get_property;

  /**
   * GstVmi10to8:rounding:
   *
   * How 10-bit samples become 8-bit ones: `truncate` drops the two least
   * significant bits (what SDI-to-8-bit converters traditionally do),
   * `nearest` rounds half up and saturates at 255. Can change while
   * playing; takes effect at the next frame.
   */
  g_object_class_install_property (gobject_class, PROP_ROUNDING,
      g_param_spec_enum ("rounding", "Rounding",
          "How 10-bit samples become 8-bit ones: truncate (drop the two "
          "least significant bits) or nearest (round half up, (v + 2) >> 2, "
          "saturated at 255)",
          GST_TYPE_VMI_10TO8_ROUNDING, DEFAULT_PROP_ROUNDING,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstVmi10to8:n-threads:
   *
   * Number of threads converting each frame, the streaming thread
   * included; 0 means one per online CPU. The threads are started once,
   * when the element starts, and reused for every frame.
   */
  g_object_class_install_property (gobject_class, PROP_N_THREADS,
      g_param_spec_uint ("n-threads", "Threads",
          "Threads converting each frame (0 = one per CPU)",
          0, 256, DEFAULT_PROP_N_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "10-bit to 8-bit video converter", "Filter/Converter/Video",
      "Converts 10-bit 4:2:2 video (UYVP, v210) to 8-bit UYVY, Y42B, I420 "
      "or NV12 with SIMD kernels, in place when it can. Example: "
      "gst-launch-1.0 videotestsrc num-buffers=100 ! "
      "video/x-raw,format=UYVP,width=1920,height=1080 ! vmi10to8 ! "
      "video/x-raw,format=I420 ! x264enc ! mp4mux ! filesink "
      "location=out.mp4",
      "gst-vmi developers");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_vmi_10to8_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_vmi_10to8_stop);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_vmi_10to8_transform_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_vmi_10to8_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_vmi_10to8_decide_allocation);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_vmi_10to8_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_vmi_10to8_transform);
  filter_class->set_info = GST_DEBUG_FUNCPTR (gst_vmi_10to8_set_info);
  filter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_vmi_10to8_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_VMI_10TO8_ROUNDING, 0);
}

static void
gst_vmi_10to8_init (GstVmi10to8 * self)
{
  self->rounding = DEFAULT_PROP_ROUNDING;
  self->n_threads = DEFAULT_PROP_N_THREADS;
}
