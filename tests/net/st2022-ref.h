/* gst-vmi tests: an independent ST 2022-6 reference, written from the
 * standards (SMPTE 2022-6, 292-1, 274, 296, 2048-2) and docs/st2022-6.md, sharing no code
 * with gst/st2022. Slow and obvious on purpose: a bit-serial CRC, word by
 * word rasters. */

#ifndef __ST2022_REF_H__
#define __ST2022_REF_H__

#include <glib.h>

G_BEGIN_DECLS

#define REF_PAYLOAD 1376
#define REF_HEADER 24
#define REF_DATAGRAM (REF_HEADER + REF_PAYLOAD)

typedef struct
{
  const gchar *name;
  guint width, height;
  gboolean interlaced;
  gint fps_n, fps_d;
  guint lines, samples;         /* total lines, samples (C/Y pairs) per line */
  guint f1_first, f1_last, f2_first, f2_last;   /* active lines */
  guint f_first;                /* first line with F=1 (0: none) */
  guint8 frame_code, frate_code, cf;
  gboolean psf;                 /* progressive picture as two segments:
                                 * the interlaced raster, caps without
                                 * field-order */
  /* SD (ST 125 / BT.656): 4-word EAV/SAV, no LN/CRC, BT.601 caps */
  gboolean sd;
  gboolean bff;                 /* field 2's first line is the top row */
  guint f_also_below;           /* F=1 also on the lines before this one */
} RefFormat;

extern const RefFormat ref_1080i5994;
extern const RefFormat ref_1080i50;
extern const RefFormat ref_720p5994;
extern const RefFormat ref_1080p5994;
extern const RefFormat ref_1080p25;
extern const RefFormat ref_720p50;
/* ST 2022-6's other HD rasters */
extern const RefFormat ref_720p25;
extern const RefFormat ref_720p2997;
extern const RefFormat ref_720p24;
extern const RefFormat ref_720p2398;
extern const RefFormat ref_1080psf2398;
extern const RefFormat ref_1080psf25;
extern const RefFormat ref_1080psf2997;
extern const RefFormat ref_2048p24;
extern const RefFormat ref_2048p4795;
extern const RefFormat ref_2048p48;
extern const RefFormat ref_2048psf24;
extern const RefFormat ref_2048psf2997;
extern const RefFormat ref_525i;
extern const RefFormat ref_625i;

/* whole-byte lines only (not 720p23.98/24, whose lines are 10,312.5
 * bytes: address their words from the frame start) */
gsize ref_line_bytes (const RefFormat * f);
gsize ref_frame_bytes (const RefFormat * f);
guint ref_datagrams (const RefFormat * f);
guint32 ref_rtp_per_frame (const RefFormat * f);

/* Raster line (1-based) of picture row @row */
guint ref_row_to_line (const RefFormat * f, guint row);
/* F and V of a line */
void ref_line_fv (const RefFormat * f, guint line, guint * F, guint * V);
guint16 ref_xyz (guint F, guint V, guint H);

/* CRC-18 x^18+x^5+x^4+1, init 0, words fed LSB first, one bit at a time */
guint32 ref_crc18 (guint32 crc, guint16 word);

/* 10-bit words <-> bytes, MSB first */
guint16 ref_get_word (const guint8 * buf, gsize word_index);
void ref_put_word (guint8 * buf, gsize word_index, guint16 w);

/* Builds the full raster of a frame from a UYVP picture (rows of
 * width*5/2 bytes at @stride). @prev_last_active_c/_y: the previous frame's
 * last line's active words per channel (NULL: that line was blanking). */
void ref_build_raster (const RefFormat * f, const guint8 * uyvp, gsize stride,
    guint8 * raster);

/* Checks EAV, SAV, LN, CRC of every line, blanking words, and extracts the
 * active picture as UYVP into @uyvp (stride width*5/2). @prev_raster: the
 * previous frame (for line 1's CRC) or NULL when its last line was blanking.
 * Returns the number of errors and describes the first in @first_error. */
guint ref_check_raster (const RefFormat * f, const guint8 * raster,
    const guint8 * prev_raster, guint8 * uyvp, gchar ** first_error);

/* The ST 291-1 packet @did/@sdid at the start of channel @ch (0 C, 1 Y) of
 * the HANC (@hanc) or VANC of @line, with parity of every word and the
 * checksum checked: its user data (8 bits) in @udw (255 bytes), returns
 * DC, or -1 if absent or malformed.  Blanking checked by ref_check_raster()
 * may hold such packets. */
gint ref_find_anc (const RefFormat * f, const guint8 * raster, guint line,
    gboolean hanc, guint ch, guint8 did, guint8 sdid, guint8 * udw);
/* ST 272 embedded audio of an SD raster: every audio data packet (DID 2FF,
 * 1FD, 1FB, 2F9: groups 1-4) in the HANC of every line, in line order,
 * each AES3 subframe (3 words) decoded to its 20 audio bits. */
#define REF_SD_AUDIO_MAX 2048
typedef struct
{
  guint n[4];                   /* samples of group g */
  guint channels[4];            /* subframes a sample in group g */
  guint32 pcm[4][REF_SD_AUDIO_MAX][4];  /* the 20 bits in the top of 32 */
  guint8 z[4][REF_SD_AUDIO_MAX];        /* AES3 block start flag */
  guint8 c[4][REF_SD_AUDIO_MAX];        /* channel status bit */
  guint packets[4];
  guint8 first_dbn[4], last_dbn[4];     /* data block numbers, 0: none */
  guint16 line_packets[626];    /* audio packets on each line */
  guint16 line[4][REF_SD_AUDIO_MAX];    /* each sample's line */
  guint16 end_word[4][626];     /* last word of group g's packet on a line */
} RefSdAudio;

/* Fills @out (zeroed first); returns the errors: packets that are not ST
 * 291-1 (parity, checksum), DC not whole subframes, channel numbers not
 * 0, 1, ... in every sample, a subframe parity bit wrong, data block
 * numbers not consecutive (1-255, 0 unused), V or U set; the first in
 * @first_error. */
guint ref_sd_audio (const RefFormat * f, const guint8 * raster,
    RefSdAudio * out, gchar ** first_error);

/* Writes datagram @index of a frame: RTP + HBRMT + video timestamp +
 * 1376 bytes of @raster (zero-padded at the end). */
void ref_pack_datagram (const RefFormat * f, const guint8 * raster,
    guint index, guint16 seq, guint32 rtp_ts, guint32 ssrc, guint8 frcount,
    guint32 frame_vts, guint8 pt, guint8 * out);

/* Video timestamp offset of datagram @index (words before the first whole
 * sample it carries) */
guint32 ref_vts_offset (guint index);

/* Random legal UYVP picture (samples 4..1019) */
void ref_random_uyvp (const RefFormat * f, GRand * rand, guint8 * uyvp,
    gsize stride);

/* UYVP row <-> v210 row (a last partial 6-pixel group zero-filled) */
void ref_uyvp_to_v210 (const guint8 * uyvp, guint width, guint8 * v210);
void ref_v210_to_uyvp (const guint8 * v210, guint width, guint8 * uyvp);

/* Binds a UDP socket on 127.0.0.1:@port (or @addr) with a large receive
 * buffer; returns the fd */
int ref_udp_bind (const gchar * addr, guint16 port);
int ref_udp_sender (void);
void ref_udp_sendto (int fd, const gchar * addr, guint16 port,
    const guint8 * data, gsize len);

/* Ethernet II + IPv4 (no options) + UDP, as raw transports put a datagram
 * on the wire. Addresses in host byte order. */
#define REF_NET_HEADER 42

typedef struct
{
  guint8 dst_mac[6], src_mac[6];
  guint32 src_ip, dst_ip;
  guint16 src_port, dst_port;
  guint8 ttl;
} RefUdpFrame;

/* RFC 1071 one's-complement sum over @len bytes, folded, not inverted */
guint32 ref_ones_sum (guint32 sum, const guint8 * data, gsize len);

/* Checks an Ethernet frame (without FCS) byte by byte: EtherType 0x0800,
 * IPv4 version 4 with no options, total length, DF, no fragment, protocol
 * UDP, the IPv4 header checksum, the UDP length, and the UDP checksum
 * when it is not 0. Fills @out and returns the UDP payload (its length in
 * @payload_len), or NULL and the first problem in @error. */
const guint8 *ref_parse_udp_frame (const guint8 * frame, gsize len,
    RefUdpFrame * out, gsize * payload_len, gchar ** error);

/* Writes the frame: IPv4 (DF, ID 0, header checksum), UDP with its
 * checksum over the pseudo-header. Returns the frame length. */
gsize ref_build_udp_frame (const RefUdpFrame * h, const guint8 * payload,
    gsize payload_len, guint8 * out);

/* 01:00:5e + the group's low 23 bits (RFC 1112) */
void ref_multicast_mac (guint32 group, guint8 mac[6]);

G_END_DECLS

#endif
