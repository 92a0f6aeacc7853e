/* gst-vmi: SMPTE ST 291-1 ancillary data core (pure C, GLib only)
 *
 * Copyright (C) 2026 gst-vmi contributors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Ancillary (ANC) packets in the blanking of an HD SDI raster as carried by
 * ST 2022-6:
 *
 *  - ST 291-1 packets: ADF, DID, SDID/DBN, DC, UDW, checksum, parity;
 *  - ST 352 payload identifier bytes for every format of the st2022 table;
 *  - ST 12-2 ancillary time code (ATC_LTC / ATC_VITC1 / ATC_VITC2);
 *  - ST 334 CEA-708 caption distribution packets (CDP) and a CDP builder
 *    from cc_data triplets;
 *  - ST 299-1 HD embedded audio: data packets (groups 1-4, with clock
 *    phase, AES3 channel status, ECC) and control packets, the 48 kHz
 *    sample distribution of the 1000/1001 rates;
 *  - placement of packets into the HANC/VANC of raster lines (C or Y
 *    channel), keeping the line CRCs right, and reading them back.
 *
 * Conventions as in st2022.h: functions return %VMI_ANC_OK (0) or a
 * negative #VmiAncResult and never abort on bad input.  Line numbers are
 * 1-based.  See docs/ancillary.md for what is written where and why.
 */

#ifndef __VMI_ANC_H__
#define __VMI_ANC_H__

#include <glib.h>
#include "st2022.h"

G_BEGIN_DECLS

typedef enum
{
  VMI_ANC_OK = 0,
  VMI_ANC_ERROR_INVALID_ARGUMENT = -1,
  VMI_ANC_ERROR_NO_ADF = -2,            /* no 000 3FF 3FF at this word */
  VMI_ANC_ERROR_SHORT = -3,             /* packet runs past the words given */
  VMI_ANC_ERROR_PARITY = -4,            /* DID/SDID/DC parity bits wrong */
  VMI_ANC_ERROR_CHECKSUM = -5,          /* checksum word wrong */
  VMI_ANC_ERROR_NO_SPACE = -6,          /* the line's ANC space is full */
  VMI_ANC_ERROR_WRONG_TYPE = -7,        /* DID/SDID/DC not of that kind */
  VMI_ANC_ERROR_ECC = -8,               /* 299-1 audio ECC mismatch */
} VmiAncResult;

const char *vmi_anc_result_to_string (int result);

/* DIDs / SDIDs (without parity bits) */
#define VMI_ANC_DID_PAYLOAD_ID      0x41        /* ST 352 */
#define VMI_ANC_SDID_PAYLOAD_ID     0x01
#define VMI_ANC_DID_ATC             0x60        /* ST 12-2 */
#define VMI_ANC_SDID_ATC            0x60
#define VMI_ANC_DID_CAPTION         0x61        /* ST 334-1 */
#define VMI_ANC_SDID_CDP            0x01
#define VMI_ANC_DID_AUDIO_G1        0xE7        /* ST 299-1 data, group 1;
                                                 * group g: 0xE7 - g */
#define VMI_ANC_DID_AUDIO_CTRL_G1   0xE3        /* control, group 1 */

#define VMI_ANC_MAX_UDW             255
/* ADF (3) + DID + SDID + DC + UDW + checksum */
#define VMI_ANC_PACKET_WORDS(dc)    ((guint) (dc) + 7)
#define VMI_ANC_MAX_WORDS           VMI_ANC_PACKET_WORDS (VMI_ANC_MAX_UDW)

typedef enum
{
  VMI_ANC_CHANNEL_C = 0,        /* colour difference: even words of a line */
  VMI_ANC_CHANNEL_Y = 1,        /* luma: odd words */
} VmiAncChannel;

typedef enum
{
  VMI_ANC_HANC = 0,             /* from the word after CRC to SAV */
  VMI_ANC_VANC = 1,             /* active area of a vertical blanking line */
} VmiAncSpace;

/**
 * VmiAncPacket:
 * One type-2 ST 291-1 packet.  @udw holds the user data words as on the
 * wire (10 bits; those built by this core carry 8 data bits with parity).
 * The location fields are filled by the reader.
 */
typedef struct
{
  guint8 did;
  guint8 sdid;                  /* SDID, or DBN for type-1 packets */
  guint8 dc;
  guint16 udw[VMI_ANC_MAX_UDW];

  guint line;
  VmiAncSpace space;
  VmiAncChannel channel;
  guint offset;                 /* first word, counted in its channel from
                                 * the start of its space */
} VmiAncPacket;

/* 8-bit value → 10-bit word with b8 = even parity of b0-b7, b9 = !b8 */
guint16 vmi_anc_word (guint8 value);
/* Start a packet: DID/SDID, no UDW */
void vmi_anc_packet_init (VmiAncPacket * p, guint8 did, guint8 sdid);
/* Set @n (<= 255) 8-bit user data words, adding parity */
int vmi_anc_packet_set_data (VmiAncPacket * p, const guint8 * data, guint n);
/* Checksum word of DID..UDW: sum of b0-b8 mod 512, b9 = !b8 */
guint16 vmi_anc_packet_checksum (const VmiAncPacket * p);
/* The whole packet as words (ADF..checksum); returns the word count
 * (dc + 7) or VMI_ANC_ERROR_SHORT if @max is too small */
int vmi_anc_packet_to_words (const VmiAncPacket * p, guint16 * words,
    gsize max);
/* Parse a packet starting at @words[0] (one channel's words).  Returns the
 * number of words it takes (dc + 7), or NO_ADF, SHORT, PARITY (DID, SDID
 * or DC parity wrong), CHECKSUM. */
int vmi_anc_packet_parse (const guint16 * words, gsize n, VmiAncPacket * p);

/* ---------------------------------------------------------------- */
/* ST 352 payload identifier                                        */
/* ---------------------------------------------------------------- */

/* The 4 payload ID bytes of @fmt (byte 1 first) */
int vmi_anc_st352_bytes (const St2022Format * fmt, guint8 bytes[4]);
void vmi_anc_st352_build (const St2022Format * fmt, VmiAncPacket * p);
/* Lines that carry it (1 or 2); line 10, and 572 for interlaced 1125;
 * 13 and 276 for 525, 9 and 322 for 625 */
guint vmi_anc_st352_lines (const St2022Format * fmt, guint lines[2]);

/* ---------------------------------------------------------------- */
/* ST 12-2 ancillary time code                                      */
/* ---------------------------------------------------------------- */

#define VMI_ANC_ATC_LTC    0x00
#define VMI_ANC_ATC_VITC1  0x01
#define VMI_ANC_ATC_VITC2  0x02

typedef struct
{
  guint8 hours, minutes, seconds, frames;       /* frames 0..39 */
  gboolean drop_frame;          /* bit 10 (flag 14) */
  gboolean color_frame;         /* bit 11 (flag 15) */
  guint8 dbb1;                  /* payload type: LTC / VITC1 / VITC2 */
  guint8 dbb2;                  /* line select, validity, process bits */
  guint8 binary_groups[8];      /* BG1..BG8, 4 bits each */
} VmiAncTimecode;

void vmi_anc_atc_build (const VmiAncTimecode * tc, VmiAncPacket * p);
/* WRONG_TYPE unless DID/SDID 0x60/0x60 with DC 16 */
int vmi_anc_atc_parse (const VmiAncPacket * p, VmiAncTimecode * tc);
/* Line of ATC_VITC1 (9) and of ATC_VITC2 (571 interlaced, else 9); SD:
 * 12 and 275 (525), 8 and 321 (625) */
guint vmi_anc_atc_line (const St2022Format * fmt, guint8 dbb1);

/* ---------------------------------------------------------------- */
/* ST 334 CEA-708 CDP                                               */
/* ---------------------------------------------------------------- */

/* DID 0x61 SDID 0x01 around a CDP of @len <= 255 bytes */
int vmi_anc_cdp_build (const guint8 * cdp, guint len, VmiAncPacket * p);
/* A CDP from cc_data triplets (cc_valid/type byte + 2 data bytes), padded
 * to the frame rate's cc_count; writes to @out (max bytes) and returns its
 * length, or a negative result (too many triplets, unknown rate) */
int vmi_anc_cdp_from_cc_data (const guint8 * cc_data, guint len, gint fps_n,
    gint fps_d, guint16 seq, guint8 * out, guint max);
/* VANC line of the caption packets (CDP, CEA-608): 11 on HD; SD the line
 * after ATC_VITC1's, 13 on 525 and 9 on 625 (field 1 only, as on HD) */
guint vmi_anc_caption_line (const St2022Format * fmt);

/* ---------------------------------------------------------------- */
/* ST 299-1 HD embedded audio                                       */
/* ---------------------------------------------------------------- */

#define VMI_ANC_AUDIO_RATE          48000
#define VMI_ANC_AUDIO_MAX_CHANNELS  16
#define VMI_ANC_AUDIO_DATA_DC       24
#define VMI_ANC_AUDIO_CTRL_DC       11

/* 48 kHz samples carried by frame @frame_index of @fmt (1602, 1601, 1602,
 * 1601, 1602 for the 30000/1001 rates, 801 801 801 801 800 for 60000/1001,
 * 2002 for 24000/1001, 48000/rate otherwise) */
guint vmi_anc_audio_frame_samples (const St2022Format * fmt,
    guint64 frame_index);
/* Length of that sequence: 5 for 30000/1001 and 60000/1001, else 1 */
guint vmi_anc_audio_sequence_length (const St2022Format * fmt);
/* Where sample @k (0-based) of frame @frame_index lies on the continuous
 * 48 kHz grid (frame 0 is the first of its 1000/1001 sequence): the raster
 * line its instant falls in and the clock phase word, the video clocks
 * (samples of the line) from that line's EAV to the instant, rounded down.
 * See docs/ancillary.md for the grid's phase. */
int vmi_anc_audio_sample_phase (const St2022Format * fmt,
    guint64 frame_index, guint k, guint * line, guint * clk);
/* The inverse: the sample (0-based) of frame @frame_index whose packet
 * says @line and clock phase @clk (@mpf: carried on a later line than its
 * instant's), or -1 when no sample of the grid has that phase (a sender on
 * another grid) */
int vmi_anc_audio_sample_at (const St2022Format * fmt, guint64 frame_index,
    guint line, guint clk, gboolean mpf);

/**
 * VmiAncAudioData:
 * One ST 299-1 audio data packet: one sample of each of the 4 channels of
 * a group.  @samples are signed 24-bit values.
 */
typedef struct
{
  guint group;                  /* 0..3 */
  guint8 dbn;                   /* data block number 1..255 */
  guint16 clk;                  /* 13-bit audio clock phase */
  gboolean mpf;                 /* multiplexed position flag */
  gint32 samples[4];
  guint8 z;                     /* AES3 block start (frame 0 of 192) */
  guint8 v, u, c;               /* AES3 bits, the same for the 4 channels */
  guint line;                   /* line carrying the packet (set by parse
                                 * from the packet's line, 0 if unknown) */
} VmiAncAudioData;

void vmi_anc_audio_data_build (const VmiAncAudioData * a, VmiAncPacket * p);
/* WRONG_TYPE, or ECC when the BCH words disagree */
int vmi_anc_audio_data_parse (const VmiAncPacket * p, VmiAncAudioData * a);
/* The 6 ECC bytes (BCH over b0-b7 of ADF, DID, DBN, DC and UDW0-17) */
void vmi_anc_audio_ecc (guint8 did, guint8 dbn, const guint8 udw[18],
    guint8 ecc[6]);

typedef struct
{
  guint group;
  guint8 dbn;
  guint8 af;                    /* audio frame number in the sequence,
                                 * 1..5, 0 = none */
  guint8 rate;                  /* 0: 48 kHz synchronous */
  guint8 active;                /* b0..b3: channels 1..4 of the group */
  guint16 delay[3];             /* 26-bit delays are not used: 0 */
} VmiAncAudioControl;

void vmi_anc_audio_control_build (const VmiAncAudioControl * c,
    VmiAncPacket * p);
int vmi_anc_audio_control_parse (const VmiAncPacket * p,
    VmiAncAudioControl * c);

/* ---------------------------------------------------------------- */
/* ST 272 SD embedded audio                                         */
/* ---------------------------------------------------------------- */

/* type-1 data packets: DID 0xFF, 0xFD, 0xFB, 0xF9 for groups 1-4 */
#define VMI_ANC_DID_SD_AUDIO_G1     0xFF
#define VMI_ANC_SD_AUDIO_MAX        16  /* samples a packet holds here */

/**
 * VmiAncSdAudio:
 * One ST 272 audio data packet: @n samples of @channels (1..4) channels
 * of a group, each channel's sample an AES3 subframe in 3 words.  Only the
 * 20 audio bits are carried: @samples are signed 24-bit values whose 4
 * low bits are dropped on building and 0 after parsing.
 */
typedef struct
{
  guint group;                  /* 0..3 */
  guint8 dbn;                   /* data block number 1..255 */
  guint n;                      /* samples, 1..VMI_ANC_SD_AUDIO_MAX */
  guint channels;               /* subframes a sample, 1..4 */
  gint32 samples[VMI_ANC_SD_AUDIO_MAX][4];
  guint8 z[VMI_ANC_SD_AUDIO_MAX];       /* AES3 block start */
  guint8 c[VMI_ANC_SD_AUDIO_MAX];       /* AES3 channel status bit */
  guint8 v, u;
} VmiAncSdAudio;

/* INVALID_ARGUMENT if @a does not fit a packet */
int vmi_anc_sd_audio_build (const VmiAncSdAudio * a, VmiAncPacket * p);
/* WRONG_TYPE unless an ST 272 data packet (DID, DC a multiple of 3,
 * subframes in channel order 0.., at most 4 a sample); PARITY if an AES3
 * subframe's parity bit is wrong */
int vmi_anc_sd_audio_parse (const VmiAncPacket * p, VmiAncSdAudio * a);

/* ---------------------------------------------------------------- */
/* Raster placement                                                 */
/* ---------------------------------------------------------------- */

typedef struct _VmiAncWriter VmiAncWriter;

/* SD formats: packets in consecutive words of the one stream (the
 * channel argument of vmi_anc_writer_add() is ignored there) */
VmiAncWriter *vmi_anc_writer_new (const St2022Format * fmt);
void vmi_anc_writer_free (VmiAncWriter * w);
/* Words of one channel's space on @line (0 if VANC on an active line) */
guint vmi_anc_space_words (const St2022Format * fmt, guint line,
    VmiAncSpace space);
/* Start writing packets into @raster, a full raster just written by
 * st2022_raster_writer_write() (blank HANC/VANC). */
int vmi_anc_writer_begin (VmiAncWriter * w, guint8 * raster, gsize size);
/* Place @p after the packets already in (line, space, channel).
 * NO_SPACE if it does not fit, INVALID_ARGUMENT for VANC on an active
 * line, the last line (its CRC is carried to the next frame) or lines 1..7
 * around the switching point are allowed for HANC only. */
int vmi_anc_writer_add (VmiAncWriter * w, guint line, VmiAncSpace space,
    VmiAncChannel channel, const VmiAncPacket * p);
/* Words already used in (line, space, channel) */
guint vmi_anc_writer_used (VmiAncWriter * w, guint line, VmiAncSpace space,
    VmiAncChannel channel);
/* Finish the frame: recompute the CRC words of every line following a
 * line whose VANC was written (VANC lies in the CRC-covered area). */
int vmi_anc_writer_end (VmiAncWriter * w);

typedef struct
{
  guint64 packets;              /* valid packets found */
  guint64 checksum_errors;      /* dropped: checksum or parity wrong */
  guint64 lost;                 /* dropped: in a missing datagram */
} VmiAncReadStats;

typedef void (*VmiAncPacketFunc) (gpointer user_data,
    const VmiAncPacket * p);

/* Find every packet in the HANC (both channels) of every line and in the
 * VANC of vertical blanking lines of @raster (only the non-active bytes
 * are read, so a side buffer holding just those works too).  Packets must
 * start at the first word of their space and follow each other (ST 291-1).
 * With @missing_map (bit i = datagram i missing, as in St2022FrameInfo),
 * spaces and packets touching a missing datagram are skipped and counted
 * as lost.  @cb is called for each valid packet in raster order (SD:
 * HANC after the 4-word EAV, VANC of every vertical blanking line). */
int vmi_anc_read_frame (const St2022Format * fmt, const guint8 * raster,
    gsize size, const guint32 * missing_map, VmiAncReadStats * stats,
    VmiAncPacketFunc cb, gpointer user_data);
/* The same, and with @blank_map (NULL: none) a St2022Target.blank_dirty
 * map of the buffer @raster is (bit i clear: the ancillary data spaces in
 * datagram i's bytes hold blank fill): a space whose first words lie in
 * such datagrams is not read at all.  Ignored for half_byte_lines
 * formats (the map holds only for the wire layout). */
int vmi_anc_read_frame_full (const St2022Format * fmt, const guint8 * raster,
    gsize size, const guint32 * missing_map, const guint32 * blank_map,
    VmiAncReadStats * stats, VmiAncPacketFunc cb, gpointer user_data);

/* ---------------------------------------------------------------- */
/* Embedding and de-embedding a frame of audio                       */
/* ---------------------------------------------------------------- */

/**
 * VmiAncAudioTx:
 * Sender state across frames: data block numbers, AES3 channel-status
 * position, the frame's place in the 1000/1001 sequence.
 */
typedef struct
{
  guint64 frame_index;
  guint64 samples_sent;         /* for the 192-frame AES3 block */
  guint8 dbn[4];
  guint8 ctrl_dbn[4];
} VmiAncAudioTx;

void vmi_anc_audio_tx_init (VmiAncAudioTx * tx);
/* Embed one frame's @n samples (interleaved, @channels 1..16, signed
 * 24-bit values) in the C-channel HANC, each on the line its instant on
 * the 48 kHz grid falls in (vmi_anc_audio_sample_phase()), or on the next
 * line with room when that line is full or follows a switching point (MPF
 * set), plus one control packet per group and field in the Y-channel HANC
 * of line 9 (and 571). @n must be vmi_anc_audio_frame_samples() of
 * tx->frame_index. */
int vmi_anc_audio_tx_frame (VmiAncAudioTx * tx, VmiAncWriter * w,
    const gint32 * samples, guint n, guint channels);

typedef struct _VmiAncAudioRx VmiAncAudioRx;

VmiAncAudioRx *vmi_anc_audio_rx_new (void);
void vmi_anc_audio_rx_free (VmiAncAudioRx * rx);
/* Forget the stream (format change, flush) */
void vmi_anc_audio_rx_reset (VmiAncAudioRx * rx);
/* Frames were skipped: the next data block numbers do not continue */
void vmi_anc_audio_rx_discont (VmiAncAudioRx * rx);
void vmi_anc_audio_rx_begin_frame (VmiAncAudioRx * rx);
/* @samples samples of frames that never came were sent: the next data
 * block numbers continue after them (ST 272's start over) */
void vmi_anc_audio_rx_skip (VmiAncAudioRx * rx, guint64 samples);
void vmi_anc_audio_rx_push_data (VmiAncAudioRx * rx,
    const VmiAncAudioData * a);
/* The same for a packet whose position in its frame @near is known from
 * its clock phase word (vmi_anc_audio_sample_at(); -1: not known): it is
 * put there, whatever the data block numbers say (they count modulo 255,
 * and not across a stream's start) */
void vmi_anc_audio_rx_push_data_near (VmiAncAudioRx * rx,
    const VmiAncAudioData * a, gint near);
void vmi_anc_audio_rx_push_control (VmiAncAudioRx * rx,
    const VmiAncAudioControl * c);
/* Channels announced by the control packets (highest active channel) or,
 * without them, 4 per group seen; 0 before any audio */
guint vmi_anc_audio_rx_channels (VmiAncAudioRx * rx);
/* The control packets' audio frame number (1..5) of this frame, 0 if none */
guint vmi_anc_audio_rx_frame_number (VmiAncAudioRx * rx);
/* Check this frame's clock phase words against the 48 kHz grid (frame
 * @frame_index of @fmt's sequence, as vmi_anc_audio_sample_phase()): a
 * packet mismatches when its clock word differs from its sample's, or its
 * line is not the sample's line (MPF clear) or not a later one (MPF set).
 * Returns this frame's mismatches, before vmi_anc_audio_rx_end_frame(). */
guint vmi_anc_audio_rx_check_phase (VmiAncAudioRx * rx,
    const St2022Format * fmt, guint64 frame_index);
/* End the frame: write its samples (interleaved, @channels each, 24-bit
 * values) to @out (room for @max samples per channel).  @expected is the
 * frame's sample count when datagrams were lost (0: take what arrived).
 * Samples of lost packets (gaps in the data block numbers) are silence at
 * their place; *@concealed counts them.  Returns the sample count. */
guint vmi_anc_audio_rx_end_frame (VmiAncAudioRx * rx, guint expected,
    guint channels, gint32 * out, guint max, guint * concealed);

/* ST 272 on SD: embed one frame's @n samples (interleaved, @channels
 * 1..16; @n as vmi_anc_audio_frame_samples()): one packet per group on
 * every line with samples, the frame's samples spread evenly over its
 * lines but the one after each switching point (11/274 on 525, 7/320 on
 * 625), in the HANC.  Uses tx's data block numbers and AES3 block
 * position as vmi_anc_audio_tx_frame() does. */
int vmi_anc_sd_audio_tx_frame (VmiAncAudioTx * tx, VmiAncWriter * w,
    const gint32 * samples, guint n, guint channels);
/* Give a parsed ST 272 packet's samples to @rx (no clock phase on SD; the
 * channels present count as the group's active ones) */
void vmi_anc_audio_rx_push_sd (VmiAncAudioRx * rx, const VmiAncSdAudio * a);

G_END_DECLS

#endif /* __VMI_ANC_H__ */
