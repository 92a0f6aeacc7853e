/* gst-vmi: SMPTE ST 2022-6 / SDI raster codec core (pure C, GLib only)
 *
 * Copyright (C) 2026 gst-vmi contributors
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 *
 * The core knows nothing about GObject, GStreamer or sockets.  It offers:
 *
 *  - a table of SDI formats with every derived count (lines, samples, bytes,
 *    datagrams, clock increments) and lookups in all directions;
 *  - RTP + HBRMT (+ video timestamp) header pack/parse with validation;
 *  - an SDI raster writer (picture → full frame raster with EAV/SAV, LN,
 *    CRC-18) and reader (raster → picture) plus a TRS/LN/CRC checker;
 *  - a zero-copy packetizer (raster → header + iovec-ready payload pointers);
 *  - a depacketizer writing payloads straight into caller memory (a raster
 *    or a UYVP picture), handling loss, reordering, duplicates, lost markers,
 *    wraps, mid-stream start and format changes.
 *
 * Conventions: functions returning #St2022Result return %ST2022_OK (0) or a
 * negative error code and never abort on bad input; constructors return %NULL
 * on bad arguments.  Raster line numbers are 1-based as in SMPTE 274/296.
 * See docs/st2022-6.md for the wire format and every choice made here.
 */

#ifndef __ST2022_H__
#define __ST2022_H__

#include <glib.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Constants                                                                */
/* ------------------------------------------------------------------------ */

#define ST2022_RTP_HEADER_SIZE      12
#define ST2022_HBRMT_HEADER_SIZE    8
#define ST2022_VTS_SIZE             4
/* RTP + HBRMT + video timestamp: the header length when CF != 0 */
#define ST2022_MAX_HEADER_SIZE      24
/* SDI bytes carried by every datagram (the last one of a frame zero-padded) */
#define ST2022_PAYLOAD_SIZE         1376
/* UDP payload size with a video timestamp (CF != 0) */
#define ST2022_DATAGRAM_SIZE        1400
#define ST2022_DEFAULT_PAYLOAD_TYPE 98
/* RTP timestamp clock of ST 2022-6 */
#define ST2022_RTP_CLOCK_RATE       27000000

/* HBRMT FRAME codes */
#define ST2022_FRAME_525I           0x10
#define ST2022_FRAME_625I           0x11
#define ST2022_FRAME_1080I          0x20
#define ST2022_FRAME_1080P          0x21
#define ST2022_FRAME_1080PSF        0x22
#define ST2022_FRAME_2048_1080P     0x23
#define ST2022_FRAME_2048_1080PSF   0x24
#define ST2022_FRAME_720P           0x30

/* HBRMT FRATE codes (frames per second) */
#define ST2022_FRATE_60             0x10
#define ST2022_FRATE_59_94          0x11
#define ST2022_FRATE_50             0x12
#define ST2022_FRATE_48             0x14
#define ST2022_FRATE_47_95          0x15
#define ST2022_FRATE_30             0x16
#define ST2022_FRATE_29_97          0x17
#define ST2022_FRATE_25             0x18
#define ST2022_FRATE_24             0x1A
#define ST2022_FRATE_23_98          0x1B

/* HBRMT SAMPLE codes */
#define ST2022_SAMPLE_422_10        0x1

/* HBRMT CF codes (video timestamp clock) */
#define ST2022_CF_NONE              0
#define ST2022_CF_27MHZ             1
#define ST2022_CF_148_5MHZ          2
#define ST2022_CF_148_5_1001MHZ     3
#define ST2022_CF_297MHZ            4
#define ST2022_CF_297_1001MHZ       5

/* Raster words used in blanking (C and Y channel) */
#define ST2022_BLANK_C              0x200
#define ST2022_BLANK_Y              0x040
/* Legal range of active samples; 0-3 and 1020-1023 are timing references */
#define ST2022_SAMPLE_MIN           4
#define ST2022_SAMPLE_MAX           1019

/* Per-line flags returned by st2022_format_line_flags() */
#define ST2022_LINE_F               (1u << 0)   /* field 2 (F=1) */
#define ST2022_LINE_V               (1u << 1)   /* vertical blanking (V=1) */

/* ------------------------------------------------------------------------ */
/* Results                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * St2022Result:
 * Every fallible function returns one of these; each malformed-datagram
 * cause has its own code so receivers can count and log them precisely.
 */
typedef enum
{
  ST2022_OK = 0,
  ST2022_ERROR_INVALID_ARGUMENT = -1,   /* NULL pointer, bad index, ... */
  ST2022_ERROR_SHORT = -2,              /* datagram shorter than its headers */
  ST2022_ERROR_RTP_VERSION = -3,        /* RTP version != 2 */
  ST2022_ERROR_RTP_PADDING = -4,        /* RTP P bit set */
  ST2022_ERROR_RTP_EXTENSION = -5,      /* RTP X bit set */
  ST2022_ERROR_RTP_CSRC = -6,           /* RTP CC != 0 */
  ST2022_ERROR_HBRMT_EXTENSION = -7,    /* HBRMT Ext != 0 */
  ST2022_ERROR_HBRMT_NO_FORMAT = -8,    /* HBRMT F bit clear: format fields invalid */
  ST2022_ERROR_BAD_FRAME = -9,          /* unknown FRAME code */
  ST2022_ERROR_BAD_FRATE = -10,         /* unknown FRATE code */
  ST2022_ERROR_BAD_SAMPLE = -11,        /* unknown SAMPLE code */
  ST2022_ERROR_BAD_CF = -12,            /* CF > 5 */
  ST2022_ERROR_UNSUPPORTED_MAP = -13,   /* MAP != 0 (ST 425 level B mapping) */
  ST2022_ERROR_UNSUPPORTED_FORMAT = -14,/* valid codes, not in the format table */
  ST2022_ERROR_LENGTH = -15,            /* payload length != 1376 */
  ST2022_ERROR_BUFFER_TOO_SMALL = -16,  /* caller buffer too small */
  ST2022_ERROR_NO_MEMORY = -17,
  ST2022_ERROR_BAD_PAYLOAD_TYPE = -18,  /* depacketizer: not the configured PT */
} St2022Result;

/* Short, static, English name of a result code (never NULL) */
const char *st2022_result_to_string (int result);

/* ------------------------------------------------------------------------ */
/* Formats                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * St2022Format:
 * One SDI video format.  All fields are constant and derived from the
 * standards (SMPTE 274, 296, 292, 424 level A mapping 1:1 to the raster).
 * Instances live in a static table; compare them by pointer.
 */
typedef struct
{
  const char *name;             /* "1080i59.94", "720p50", ... */
  guint8 frame_code;            /* HBRMT FRAME */
  guint8 frate_code;            /* HBRMT FRATE */
  guint8 sample_code;           /* HBRMT SAMPLE */
  guint8 cf_code;               /* HBRMT CF used when sending a video timestamp */
  gboolean level_a_3g;          /* 3G-SDI level A (1080p50/59.94/60) */

  guint width;                  /* active samples per line (pixels) */
  guint height;                 /* active lines per frame (picture rows) */
  gboolean interlaced;          /* raster of two fields (or segments), F
                                 * bit, picture woven top first */
  gboolean psf;                 /* progressive picture as two segments
                                 * (FRAME 0x22 / 0x24): interlaced raster */
  gboolean sd;                  /* 525/625 (ST 125 / BT.656 on ST 259):
                                 * one multiplexed word stream, 4-word
                                 * EAV/SAV, no LN or CRC words */
  gboolean bottom_field_first;  /* field 1 holds the odd picture rows
                                 * (525: line 283 is the top row) */
  gint fps_n, fps_d;            /* FRAME rate (1080i59.94: 30000/1001) */

  guint total_lines;            /* raster lines per frame (1125, 750) */
  guint samples_per_line;       /* total samples (C/Y pairs) per line */
  /* active lines, 1-based inclusive; field 2 range is 0/0 if progressive */
  guint active_first[2];
  guint active_last[2];
  /* first line with F=1 (interlaced), 0 if progressive; F is also 1 on
   * the lines before field1_first_line (525: lines 1-3) */
  guint field2_first_line;
  guint field1_first_line;

  /* Lines as they lie in a raster in memory.  A line of an odd number of
   * samples (720p23.98/24: 4125, 10,312.5 bytes) is not whole bytes on
   * the wire; in memory it carries one blank C/Y pair more, just before
   * its SAV, so that every line starts on a 5-byte group and the writer,
   * reader and ancillary code address it as any other.
   * st2022_raster_to_wire() / _from_wire() convert (see half_byte_lines). */
  guint line_words;             /* words per line in memory: samples_per_line
                                 * * 2, + 2 where that is not a multiple of 4 */
  guint line_bytes;             /* line_words * 5 / 4 */
  guint active_offset;          /* byte offset of active video within a line */
  guint active_bytes;           /* width * 5 / 2: also the UYVP row size */
  gsize frame_bytes;            /* total_lines * line_bytes: a raster in memory */
  guint datagrams_per_frame;    /* ceil (wire_bytes / 1376) */
  guint last_payload_bytes;     /* SDI bytes in the last datagram (rest zero) */
  guint32 vts_increment;        /* video timestamp step per frame: lines*samples*2 */
  guint32 rtp_ts_increment;     /* 27 MHz ticks per frame */
  /* SDI bytes of a frame on the wire: total_lines * samples_per_line * 5 /
   * 2, frame_bytes unless half_byte_lines */
  gsize wire_bytes;
  /* every second line starts half way through a byte on the wire
   * (samples_per_line odd): rasters in memory are converted to and from
   * the wire layout by st2022_raster_to_wire() / _from_wire() */
  gboolean half_byte_lines;
} St2022Format;

/* Number of formats in the table; st2022_format_get (0..count-1) */
guint st2022_format_count (void);
const St2022Format *st2022_format_get (guint index);

/* HBRMT codes → format; %NULL if the combination is not in the table */
const St2022Format *st2022_format_from_codes (guint8 frame, guint8 frate,
    guint8 sample);
/* Picture geometry → format (frame rate, e.g. 30000/1001 for 1080i59.94;
 * any equal fraction matches); %NULL if unknown.  @interlaced matches
 * interlaced and PsF formats alike; where both exist (1080 at 25, 29.97,
 * 30) the interlaced one is returned. */
const St2022Format *st2022_format_from_video (guint width, guint height,
    gboolean interlaced, gint fps_n, gint fps_d);
/* The segmented-frame (PsF) format of @fmt's picture size and rate:
 * 1080i50 or 1080p25 → 1080PsF25, 2048p24 → 2048PsF24; @fmt itself if
 * it is PsF; %NULL where the rate has none (720p, 1080p50, SD). */
const St2022Format *st2022_format_psf_of (const St2022Format * fmt);
/* "1080i59.94" → format (case-insensitive); %NULL if unknown */
const St2022Format *st2022_format_from_name (const char *name);

/* ST2022_LINE_F / ST2022_LINE_V flags of a raster line (1-based);
 * returns 0 for out-of-range lines (check with line <= total_lines) */
guint st2022_format_line_flags (const St2022Format * fmt, guint line);
/* Picture row (0-based, woven) of a raster line, or -1 for blanking lines */
gint st2022_format_line_to_row (const St2022Format * fmt, guint line);
/* Raster line (1-based) of a picture row, or 0 if out of range */
guint st2022_format_row_to_line (const St2022Format * fmt, guint row);
/* The ancillary data spaces of every line as interleaved word ranges
 * [*first, *end) of a line in memory: HANC (@vanc FALSE; after EAV, LN
 * and CRC, up to SAV, as ST 291-1 places it) and VANC (@vanc TRUE: the
 * active area, used on vertical blanking lines).  SD: the one multiplexed
 * stream, HANC between its 4-word EAV and SAV. */
void st2022_format_anc_space (const St2022Format * fmt, gboolean vanc,
    guint * first, guint * end);

/* ------------------------------------------------------------------------ */
/* SDI word helpers                                                         */
/* ------------------------------------------------------------------------ */

/* XYZ word of a TRS: f, v, h are 0/1 (h=1 EAV, h=0 SAV) */
guint16 st2022_xyz (guint f, guint v, guint h);
/* LN0/LN1 words of a 1-based line number (11 bits) */
void st2022_ln_words (guint line, guint16 * ln0, guint16 * ln1);

/* CRC-18 (x^18+x^5+x^4+1, each 10-bit word fed LSB first), table driven.
 * Feed one channel's words: crc = st2022_crc18_update (crc, words, n);
 * start from 0. */
guint32 st2022_crc18_update (guint32 crc, const guint16 * words, gsize n);
/* CRC register → CR0/CR1 words */
void st2022_crc_words (guint32 crc, guint16 * cr0, guint16 * cr1);

/* Unpack @n_words 10-bit words (n_words multiple of 4) from packed
 * MSB-first bytes, and pack them back */
void st2022_unpack_words (const guint8 * src, guint16 * words, gsize n_words);
void st2022_pack_words (const guint16 * words, guint8 * dst, gsize n_words);

/* Video timestamp offset (10-bit words) of datagram @index within a frame:
 * words before the first whole sample (C/Y pair) it carries */
guint32 st2022_datagram_vts_offset (guint index);

/* ------------------------------------------------------------------------ */
/* Headers                                                                  */
/* ------------------------------------------------------------------------ */

/**
 * St2022Header:
 * RTP + HBRMT (+ video timestamp) header fields of one datagram.
 */
typedef struct
{
  /* RTP */
  gboolean marker;              /* last datagram of a frame */
  guint8 payload_type;          /* 7 bits */
  guint16 seq;
  guint32 rtp_ts;               /* 27 MHz */
  guint32 ssrc;

  /* HBRMT */
  guint8 ext;                   /* must be 0 */
  gboolean f;                   /* format fields valid */
  guint8 vsid;                  /* 0 primary, 1 protect */
  guint8 frcount;               /* frame counter mod 256 */
  guint8 ref;                   /* R: 0 unlocked, 2 UTC, 3 private */
  guint8 scramble;              /* S */
  guint8 fec;
  guint8 cf;                    /* video timestamp clock, 0 = no timestamp */
  guint8 map;
  guint8 frame;
  guint8 frate;
  guint8 sample;

  guint32 vts;                  /* video timestamp, valid if cf != 0 */

  /* filled by st2022_header_parse(): the table entry of (frame, frate,
   * sample) and the header length (20 or 24) */
  const St2022Format *format;
  guint header_len;
} St2022Header;

/* Header length for a header (24 when cf != 0, else 20) */
guint st2022_header_size (const St2022Header * hdr);

/* Write the header to @buf (@size >= st2022_header_size()).
 * Fields are masked to their widths; nothing is validated beyond sizes. */
int st2022_header_pack (const St2022Header * hdr, guint8 * buf, gsize size);

/* Parse and validate one datagram of @len bytes.  On success fills @hdr
 * (including ->format and ->header_len) and sets *@payload (may be NULL)
 * to the 1376 SDI bytes.  Checks, in order: length >= 20, RTP V=2, P=0,
 * X=0, CC=0, length >= 24 if CF != 0, HBRMT Ext=0, F=1, CF <= 5, MAP=0,
 * FRAME / FRATE / SAMPLE known, format in table, payload length == 1376. */
int st2022_header_parse (const guint8 * data, gsize len, St2022Header * hdr,
    const guint8 ** payload);

/**
 * St2022HeaderCache:
 * The last datagram st2022_header_parse_cached() accepted: a stream's
 * datagrams differ only in marker, sequence number, timestamps and (once
 * per frame) the frame counter, so most need no field-by-field parse.
 * Zero it (or `= { 0 }`) before first use.
 */
typedef struct
{
  gboolean valid;
  gsize len;
  guint8 rtp0, pt;              /* RTP byte 0, payload type */
  guint8 ssrc[4];
  guint8 hbrmt[8];              /* the HBRMT header bytes */
  St2022Header hdr;
} St2022HeaderCache;

/* Exactly st2022_header_parse() (same result, same @hdr), taking the fast
 * path when the datagram's length, RTP byte 0, payload type, SSRC and
 * HBRMT header bytes equal those of the last datagram it accepted. */
int st2022_header_parse_cached (St2022HeaderCache * cache,
    const guint8 * data, gsize len, St2022Header * hdr);

/* ------------------------------------------------------------------------ */
/* SDI raster                                                               */
/* ------------------------------------------------------------------------ */

typedef enum
{
  ST2022_PIXEL_UYVP = 0,        /* 10-bit 4:2:2 packed MSB first (GStreamer UYVP) */
  ST2022_PIXEL_V210 = 1,        /* 10-bit 4:2:2 little-endian 32-bit (v210) */
} St2022PixelFormat;

/* Minimum row stride of a picture row in @pixfmt for @fmt */
gsize st2022_picture_min_stride (const St2022Format * fmt,
    St2022PixelFormat pixfmt);

typedef struct _St2022RasterWriter St2022RasterWriter;

/* A writer precomputes the format's raster template (TRS, LN, blanking and
 * the CRCs that do not depend on picture content) and carries the CRC
 * history of the last line across frames.  %NULL on bad argument. */
St2022RasterWriter *st2022_raster_writer_new (const St2022Format * fmt);
void st2022_raster_writer_free (St2022RasterWriter * w);
const St2022Format *st2022_raster_writer_get_format (St2022RasterWriter * w);

/* Build the full raster of one frame into @raster (@raster_size >=
 * frame_bytes; bytes beyond frame_bytes are untouched) from a woven
 * picture of fmt->height rows at @picture with @stride bytes per row.
 * Active samples outside 4..1019 are clipped. */
int st2022_raster_writer_write (St2022RasterWriter * w, guint8 * raster,
    gsize raster_size, St2022PixelFormat pixfmt, const guint8 * picture,
    gsize stride);

/* The sliced writer: one frame's raster written a few lines at a time, so
 * a sender can write each part just before it packetizes it (the raster
 * stays in cache) and into a ring of memory rather than a whole raster.
 * The cursor holds the frame's state (next line, CRC chain, picture); the
 * writer keeps its tables and may serve one cursor at a time per frame
 * order. Lines land at @base + ((@origin + offset) mod @ring_size), each
 * line contiguous (@ring_size 0: a flat raster at @base; otherwise the
 * memory after @base + @ring_size must repeat the ring for at least two
 * lines, e.g. a double mapping). Writes may reach 64 bytes past the last
 * line written (the next line's bytes, written later). Bit-exact with
 * st2022_raster_writer_write(). HD formats only (SD rasters are small). */
typedef struct
{
  guint8 *base;
  gsize ring_size;
  gsize origin;
  St2022PixelFormat pixfmt;
  const guint8 *picture;
  gsize stride;
  /* state */
  guint line;                   /* next line to write (1-based) */
  guint32 pc, py;
  gboolean prev_active;
} St2022RasterCursor;

/* Bytes a cursor writer may write past the last line it wrote */
#define ST2022_RASTER_CURSOR_SLACK 64

int st2022_raster_writer_begin (St2022RasterWriter * w,
    St2022RasterCursor * cur, guint8 * base, gsize ring_size, gsize origin,
    St2022PixelFormat pixfmt, const guint8 * picture, gsize stride);
/* Writes the lines from cur->line up to @last_line (inclusive; at most
 * total_lines). */
void st2022_raster_writer_lines (St2022RasterWriter * w,
    St2022RasterCursor * cur, guint last_line);

/* Rasters of formats with half_byte_lines: the memory layout (each line
 * whole 5-byte groups, one blank C/Y pair before SAV) to the wire layout
 * (the lines' bits back to back, wire_bytes), in place; the bytes from
 * wire_bytes to frame_bytes are left undefined.  _from_wire() is the
 * reverse, in place, rewriting the pairs blank.  Both do nothing for
 * other formats, whose lines are whole bytes.  The sender converts after
 * the ancillary data is in (the packetizer sends the wire layout); the
 * depacketizer converts what it assembled before frame_end. */
void st2022_raster_to_wire (const St2022Format * fmt, guint8 * raster);
void st2022_raster_from_wire (const St2022Format * fmt, guint8 * raster);
/* The wire byte (its offset in the frame's datagram payloads) that holds
 * the start of raster byte @offset in memory: @offset itself unless
 * half_byte_lines (a pad byte maps to the SAV's first) */
gsize st2022_raster_wire_offset (const St2022Format * fmt, gsize offset);

/* Copy the active video of @raster to a woven picture (UYVP: byte copy,
 * v210: repacked; v210 row padding bytes are zeroed) */
int st2022_raster_read (const St2022Format * fmt, const guint8 * raster,
    gsize raster_size, St2022PixelFormat pixfmt, guint8 * picture,
    gsize stride);

/**
 * St2022RasterCheck:
 * Counters of st2022_raster_check(); accumulate across calls.
 */
typedef struct
{
  guint64 lines_checked;
  guint64 trs_errors;           /* wrong words in EAV/SAV (per word) */
  guint64 ln_errors;            /* wrong LN words (per word) */
  guint64 crc_errors;           /* wrong CRCs (per line and channel) */
} St2022RasterCheck;

/* Verify TRS (EAV/SAV with the expected XYZ), LN and CRC of every line of
 * @raster, adding to @counters.  Line 1's CRC covers the previous frame's
 * last line: pass that frame's raster as @prev_raster, or %NULL to use this
 * raster's own last line (identical when the last line is blanking, which
 * it is for every format in the table). */
int st2022_raster_check (const St2022Format * fmt, const guint8 * raster,
    gsize raster_size, const guint8 * prev_raster,
    St2022RasterCheck * counters);

/* ------------------------------------------------------------------------ */
/* Packetizer                                                               */
/* ------------------------------------------------------------------------ */

typedef struct
{
  guint8 payload_type;          /* default 98 */
  guint32 ssrc;                 /* default 0: set it (random) */
  guint16 initial_seq;          /* default 0 */
  guint8 initial_frcount;       /* default 0 */
  guint32 initial_vts;          /* default 0 */
  gboolean video_timestamp;     /* default TRUE: CF = format's cf_code, 24 B
                                 * header; FALSE: CF = 0, 20 B header */
  guint8 ref;                   /* HBRMT R, default 0 (unlocked) */
  guint8 vsid;                  /* default 0 (primary) */
} St2022PacketizerConfig;

void st2022_packetizer_config_init (St2022PacketizerConfig * cfg);

/**
 * St2022Datagram:
 * One datagram ready to send as two iovecs: header[0..header_len) and
 * payload[0..payload_len).  @payload points INTO the caller's raster (zero
 * copy), except for the last datagram of a frame, which points to a
 * zero-padded tail buffer owned by the packetizer (valid until the next
 * st2022_packetizer_begin_frame()).
 */
typedef struct
{
  guint8 header[ST2022_MAX_HEADER_SIZE];
  guint header_len;
  const guint8 *payload;
  guint payload_len;            /* always 1376 */
  guint index;                  /* datagram index within the frame */
} St2022Datagram;

typedef struct _St2022Packetizer St2022Packetizer;

St2022Packetizer *st2022_packetizer_new (const St2022Format * fmt,
    const St2022PacketizerConfig * cfg);
void st2022_packetizer_free (St2022Packetizer * p);

/* Start a frame: @raster must hold frame_bytes and stay valid until its
 * datagrams are sent.  @rtp_ts is the frame's 27 MHz RTP timestamp. */
int st2022_packetizer_begin_frame (St2022Packetizer * p,
    const guint8 * raster, gsize raster_size, guint32 rtp_ts);
/* Start a frame whose raster lies in a ring (the sliced writer's
 * St2022RasterCursor): datagram i's payload at @base + ((@origin + i *
 * 1376) mod @ring_size), contiguous (the memory after the ring repeats
 * it). The last payload is copied when _next() returns it. */
int st2022_packetizer_begin_frame_ring (St2022Packetizer * p,
    const guint8 * base, gsize ring_size, gsize origin, guint32 rtp_ts);
/* Fill up to @max datagrams of the current frame (in order); returns how
 * many were filled (0 when the frame is done) or a negative error.  Seq,
 * FRCount and video timestamp advance continuously across frames. */
int st2022_packetizer_next (St2022Packetizer * p, St2022Datagram * out,
    guint max);
/* Datagrams of the current frame not yet returned by _next() */
guint st2022_packetizer_remaining (St2022Packetizer * p);
/* First sequence number, FRCount and frame-start video timestamp that the
 * NEXT st2022_packetizer_begin_frame() will use (the initial values before
 * any frame; unsent datagrams of the current frame are skipped).  A sender
 * re-creating the packetizer on a caps change passes them as the new
 * initial_seq / initial_frcount / initial_vts so the stream runs on. */
guint16 st2022_packetizer_get_seq (St2022Packetizer * p);
guint8 st2022_packetizer_get_frcount (St2022Packetizer * p);
guint32 st2022_packetizer_get_vts (St2022Packetizer * p);
/* A sender on a time reference (ST 2059): the frame-start video timestamp
 * the next st2022_packetizer_begin_frame() uses (later frames advance from
 * it), and the HBRMT R bits of the datagrams from then on (2: locked to
 * UTC, 0: not locked). */
void st2022_packetizer_set_vts (St2022Packetizer * p, guint32 vts);
void st2022_packetizer_set_ref (St2022Packetizer * p, guint8 ref);

/* ------------------------------------------------------------------------ */
/* Depacketizer                                                             */
/* ------------------------------------------------------------------------ */

typedef enum
{
  ST2022_TARGET_RASTER = 0,     /* full raster: data[0..frame_bytes) */
  ST2022_TARGET_UYVP = 1,       /* woven UYVP picture: rows at data + r*stride */
  ST2022_TARGET_V210 = 2,       /* woven v210 picture: rows at data + r*stride */
} St2022TargetType;

/**
 * St2022Target:
 * Caller memory a frame is assembled into, handed over in frame_begin.
 * @user_data travels back in frame_end (e.g. the GstBuffer).
 */
typedef struct
{
  St2022TargetType type;
  guint8 *data;
  gsize size;                   /* bytes at data (raster: >= frame_bytes;
                                 * UYVP: >= (height-1)*stride + active_bytes;
                                 * v210: >= (height-1)*stride + min_stride) */
  gsize stride;                 /* UYVP: >= active_bytes; v210: >= min_stride
                                 * (st2022_picture_min_stride()) */
  gpointer user_data;
  /* UYVP and v210 only, optional (NULL: none): a raster-shaped buffer
   * of at least frame_bytes that also receives every byte that is NOT
   * active picture (HANC, vertical blanking lines, TRS), at its raster
   * offset, so that ancillary data can be read without a second copy of
   * the picture */
  guint8 *blank;
  gsize blank_size;
  /* with @blank, optional (NULL: every non-picture byte is copied): one
   * bit per datagram (bit i%32 of word i/32), kept by the caller with
   * @blank across frames, all set for a new buffer or a new format.  A
   * clear bit says @blank's ancillary data spaces
   * (st2022_format_anc_space()) in that datagram's bytes hold blank fill
   * (C 0x200, Y 0x040); a datagram whose spaces carry blank fill then
   * is not copied into @blank at all (its TRS, LN and CRC words there
   * are left as they were), which spares the cold side buffer most of
   * its writes: only an ancillary data reader may rely on @blank then. */
  guint32 *blank_dirty;
} St2022Target;

/**
 * St2022FrameInfo:
 * What frame_end learns about a finished frame.  @missing_map is a bitmap
 * of datagram indices (bit i%32 of word i/32 set = datagram i never
 * arrived), valid only during the callback; pass it to
 * st2022_conceal_uyvp() / st2022_conceal_raster(), or map single datagrams
 * with st2022_datagram_spans().
 */
typedef struct
{
  const St2022Format *format;
  guint32 rtp_ts;
  guint8 frcount;
  guint32 ssrc;
  guint16 first_seq;            /* sequence number of datagram 0 */
  guint datagrams;              /* expected (datagrams_per_frame) */
  guint received;               /* distinct datagrams written */
  guint missing;                /* datagrams - received */
  gboolean complete;            /* missing == 0 */
  gboolean marker;              /* the marker datagram arrived */
  const guint32 *missing_map;
  guint64 first_arrival_ns;     /* arrival of the first datagram received */
  guint64 last_arrival_ns;
  /* TRUE when the frame's start was only guessed (the very first datagram
   * after creation or flush was taken as datagram 0) and the guess proved
   * wrong: the target holds misplaced data.  Drop it (do not conceal and
   * push it); it is counted in frames_aborted, not in frames. */
  gboolean aborted;
  /* video timestamp of the frame start (datagram 0), derived from the
   * first datagram received (its vts minus its offset); valid if has_vts
   * (CF != 0) */
  gboolean has_vts;
  guint32 vts;
  /* v210 target only (else NULL): the received part of each 6-pixel
   * block that a datagram boundary cuts, for st2022_conceal_v210(); valid
   * during the callback */
  const guint8 *v210_edges;
} St2022FrameInfo;

typedef struct
{
  /* A new frame is seen.  Fill @target and return TRUE, or return FALSE to
   * skip the frame (its datagrams are counted, frames_dropped +1, no
   * frame_end).  Up to two frames can be between begin and end. */
  gboolean (*frame_begin) (gpointer user_data, const St2022Format * fmt,
      const St2022Header * hdr, St2022Target * target);
  /* The frame is finished (complete, or given up after the reorder window
   * or at flush, or aborted: check info->aborted); @target is the one
   * filled in frame_begin.  Called exactly once per accepted frame, in
   * frame order. */
  void (*frame_end) (gpointer user_data, St2022Target * target,
      const St2022FrameInfo * info);
  /* Optional: the stream's format (or SSRC) changed; pending frames were
   * already ended.  @old_fmt is %NULL for the first format seen. */
  void (*format_changed) (gpointer user_data, const St2022Format * old_fmt,
      const St2022Format * new_fmt);
} St2022DepacketizerCallbacks;

/**
 * St2022DepacketizerStats:
 * Exact counters; see docs/st2022-6.md "Loss accounting".
 */
typedef struct
{
  guint64 packets;              /* valid datagrams pushed (incl. duplicates) */
  guint64 packets_lost;         /* datagrams of started frames never arrived
                                 * in time + datagrams of wholly skipped frames */
  guint64 packets_reordered;    /* arrived after a higher sequence number */
  guint64 packets_duplicate;    /* same sequence number already received */
  guint64 packets_invalid;      /* rejected by st2022_header_parse() */
  guint64 packets_discarded;    /* valid but written nowhere: before sync,
                                 * too late, declined or aborted frame */
  guint64 frames;               /* frames ended (frame_end called) */
  guint64 frames_corrupted;     /* ended with missing datagrams */
  guint64 frames_dropped;       /* declined in frame_begin (or a target
                                 * that is NULL / too small) */
  guint64 frames_skipped;       /* wholly lost between two received frames */
  guint64 format_changes;
  guint64 bytes;                /* SDI payload bytes of valid datagrams */
  guint64 frames_aborted;       /* guessed start proved wrong (see
                                 * St2022FrameInfo.aborted) */
} St2022DepacketizerStats;

typedef struct _St2022Depacketizer St2022Depacketizer;

/* Reorder window in datagrams (default 32): a frame is given up once a
 * datagram this far past its last datagram has arrived.  At most a frame
 * less a datagram counts (two frames in flight); ST 2022-7's merge uses
 * up to that (st2022_seamless_set_reach()). */
#define ST2022_DEFAULT_REORDER_WINDOW 32
#define ST2022_MAX_REORDER_WINDOW 32767

St2022Depacketizer *st2022_depacketizer_new (const St2022DepacketizerCallbacks
    * callbacks, gpointer user_data);
void st2022_depacketizer_free (St2022Depacketizer * d);
/* 1..ST2022_MAX_REORDER_WINDOW; returns ST2022_ERROR_INVALID_ARGUMENT
 * otherwise */
int st2022_depacketizer_set_reorder_window (St2022Depacketizer * d,
    guint window);
/* Accept only datagrams of RTP payload type @pt (0..127); -1 (the default)
 * accepts any.  Others are counted as packets_invalid and push() returns
 * ST2022_ERROR_BAD_PAYLOAD_TYPE. */
int st2022_depacketizer_set_payload_type (St2022Depacketizer * d, gint pt);

/* Push one datagram.  Returns ST2022_OK when the datagram was valid (used,
 * duplicate or discarded — see stats) or the st2022_header_parse() error
 * (counted as packets_invalid).  Callbacks run inside this call. */
int st2022_depacketizer_push (St2022Depacketizer * d, const guint8 * data,
    gsize len, guint64 arrival_ns);
/* The same for a datagram whose header the caller has already parsed
 * (@hdr: what st2022_header_parse() returned ST2022_OK with for @data),
 * so that a receiver that looks at the header first (the stream lock)
 * does not parse it twice. */
int st2022_depacketizer_push_parsed (St2022Depacketizer * d,
    const guint8 * data, const St2022Header * hdr, guint64 arrival_ns);
/* End of stream: end every pending frame (with what is missing) and go
 * back to hunting; the next datagram is again guessed to start a frame
 * (see St2022FrameInfo.aborted). */
void st2022_depacketizer_flush (St2022Depacketizer * d);
/* Like st2022_depacketizer_flush(), when the sender left the numbering of
 * the frames in progress (a restart, a renumbered stream: the stream lock's
 * RELOCK to a new stream): their missing datagrams were never sent under
 * it, so they are not counted in packets_lost (the frames still end, as
 * incomplete ones). */
void st2022_depacketizer_flush_abandoned (St2022Depacketizer * d);
void st2022_depacketizer_get_stats (St2022Depacketizer * d,
    St2022DepacketizerStats * stats);
/* Format of the current stream, %NULL before the first valid datagram */
const St2022Format *st2022_depacketizer_get_format (St2022Depacketizer * d);

/* ------------------------------------------------------------------------ */
/* Concealment helpers                                                      */
/* ------------------------------------------------------------------------ */

/**
 * St2022Span:
 * A byte range of one UYVP picture row.
 */
typedef struct
{
  guint row;
  guint offset;                 /* bytes from the row start */
  guint length;
} St2022Span;

/* Picture spans carried by datagram @index (a datagram covers at most two
 * lines, hence at most two spans).  Returns how many spans (0..2) were
 * written to @spans, or a negative error. */
int st2022_datagram_spans (const St2022Format * fmt, guint index,
    St2022Span spans[2]);

/* Same for a v210 picture, with the same result as concealing the
 * raster and reading v210 from it: the 6-pixel blocks (16 bytes; the
 * row's last with its zero padding) that a missing datagram touches are
 * rebuilt from @prev's (or black) words, except for the words of a block
 * cut by a datagram boundary that the received side carried, which come
 * from @edges (St2022FrameInfo.v210_edges; NULL: conceal such blocks
 * whole). */
int st2022_conceal_v210 (const St2022Format * fmt, const guint32 * missing_map,
    const guint8 * edges, guint8 * dst, gsize dst_stride, const guint8 * prev,
    gsize prev_stride);

/* Conceal the datagrams marked in @missing_map in the UYVP picture @dst:
 * copy the bytes from @prev (previous frame, same stride) or, when @prev is
 * %NULL, write black (C=0x200, Y=0x040, byte phase kept). */
int st2022_conceal_uyvp (const St2022Format * fmt, const guint32 * missing_map,
    guint8 * dst, gsize dst_stride, const guint8 * prev, gsize prev_stride);

/* Same for a full raster (raster target): the missing datagrams' bytes
 * are copied from @prev_raster or, when it is %NULL, filled with the UYVP
 * black pattern (lines start on 5-byte groups, so the phase is the raster
 * offset; blanking/TRS words become black too, which no reader needs). */
int st2022_conceal_raster (const St2022Format * fmt,
    const guint32 * missing_map, guint8 * raster, const guint8 * prev_raster);

G_END_DECLS

#endif /* __ST2022_H__ */
