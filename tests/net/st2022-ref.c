/* gst-vmi tests: independent ST 2022-6 reference (see st2022-ref.h). */

#include "st2022-ref.h"

#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* SMPTE 274 (1080), 296 (720); FRAME/FRATE/CF codes from ST 2022-6 */
const RefFormat ref_1080i5994 = { "1080i59.94", 1920, 1080, TRUE, 30000, 1001,
  1125, 2200, 21, 560, 584, 1123, 564, 0x20, 0x17, 3
};

const RefFormat ref_1080i50 = { "1080i50", 1920, 1080, TRUE, 25, 1,
  1125, 2640, 21, 560, 584, 1123, 564, 0x20, 0x18, 2
};

/* SMPTE 274 1080p59.94 (a 3G-SDI level A raster): 1125 lines of 2200
 * samples, ST 2022-6 FRAME 0x21, FRATE 0x11, clock 297/1.001 MHz */
const RefFormat ref_1080p5994 = { "1080p59.94", 1920, 1080, FALSE,
  60000, 1001, 1125, 2200, 42, 1121, 0, 0, 0, 0x21, 0x11, 5
};

const RefFormat ref_720p5994 = { "720p59.94", 1280, 720, FALSE, 60000, 1001,
  750, 1650, 26, 745, 0, 0, 0, 0x30, 0x11, 3
};

const RefFormat ref_1080p25 = { "1080p25", 1920, 1080, FALSE, 25, 1,
  1125, 2640, 42, 1121, 0, 0, 0, 0x21, 0x18, 2
};

const RefFormat ref_720p50 = { "720p50", 1280, 720, FALSE, 50, 1,
  750, 1980, 26, 745, 0, 0, 0, 0x30, 0x12, 2
};

/* SMPTE 296 Table 1: 3960 samples at 25, 3300 at 30 and 29.97 */
const RefFormat ref_720p25 = { "720p25", 1280, 720, FALSE, 25, 1,
  750, 3960, 26, 745, 0, 0, 0, 0x30, 0x18, 2
};

/* SMPTE 296 Table 1: 4125 samples at 24 and 23.98 (82,500 bits a line:
 * every second line starts half way through a byte) */
const RefFormat ref_720p24 = { "720p24", 1280, 720, FALSE, 24, 1,
  750, 4125, 26, 745, 0, 0, 0, 0x30, 0x1A, 2
};

const RefFormat ref_720p2398 = { "720p23.98", 1280, 720, FALSE, 24000, 1001,
  750, 4125, 26, 745, 0, 0, 0, 0x30, 0x1B, 3
};

const RefFormat ref_720p2997 = { "720p29.97", 1280, 720, FALSE, 30000, 1001,
  750, 3300, 26, 745, 0, 0, 0, 0x30, 0x17, 3
};

/* SMPTE 274 segmented frames: the interlaced system's raster (F=1 from
 * line 564, segments on 21-560 and 584-1123), 2750 samples at 24/23.98,
 * 2640 at 25, 2200 at 30/29.97 */
const RefFormat ref_1080psf2398 = { "1080PsF23.98", 1920, 1080, TRUE,
  24000, 1001, 1125, 2750, 21, 560, 584, 1123, 564, 0x22, 0x1B, 3, TRUE
};

const RefFormat ref_1080psf25 = { "1080PsF25", 1920, 1080, TRUE,
  25, 1, 1125, 2640, 21, 560, 584, 1123, 564, 0x22, 0x18, 2, TRUE
};

const RefFormat ref_1080psf2997 = { "1080PsF29.97", 1920, 1080, TRUE,
  30000, 1001, 1125, 2200, 21, 560, 584, 1123, 564, 0x22, 0x17, 3, TRUE
};

/* SMPTE 2048-2: 2048 active samples in the 1125-line rasters; 47.95/48 on
 * 3G level A (CF 297/1.001, 297 MHz) */
const RefFormat ref_2048p24 = { "2048p24", 2048, 1080, FALSE, 24, 1,
  1125, 2750, 42, 1121, 0, 0, 0, 0x23, 0x1A, 2
};

const RefFormat ref_2048p4795 = { "2048p47.95", 2048, 1080, FALSE,
  48000, 1001, 1125, 2750, 42, 1121, 0, 0, 0, 0x23, 0x15, 5
};

const RefFormat ref_2048p48 = { "2048p48", 2048, 1080, FALSE, 48, 1,
  1125, 2750, 42, 1121, 0, 0, 0, 0x23, 0x14, 4
};

const RefFormat ref_2048psf24 = { "2048PsF24", 2048, 1080, TRUE, 24, 1,
  1125, 2750, 21, 560, 584, 1123, 564, 0x24, 0x1A, 2, TRUE
};

const RefFormat ref_2048psf2997 = { "2048PsF29.97", 2048, 1080, TRUE,
  30000, 1001, 1125, 2200, 21, 560, 584, 1123, 564, 0x24, 0x17, 3, TRUE
};

/* SMPTE ST 125 / ITU-R BT.656: 858 and 864 samples per line; 525: F=1 on
 * lines 266-525 and 1-3, the 486-line picture on 21-263 and 283-525 with
 * line 283 on top; 625: F=1 from 313, picture on 23-310 and 336-623 */
const RefFormat ref_525i = { "525i59.94", 720, 486, TRUE, 30000, 1001,
  525, 858, 21, 263, 283, 525, 266, 0x10, 0x17, 1, FALSE, TRUE, TRUE, 4
};

const RefFormat ref_625i = { "625i50", 720, 576, TRUE, 25, 1,
  625, 864, 23, 310, 336, 623, 313, 0x11, 0x18, 1, FALSE, TRUE, FALSE, 0
};

gsize
ref_line_bytes (const RefFormat * f)
{
  return (gsize) f->samples * 2 * 10 / 8;
}

gsize
ref_frame_bytes (const RefFormat * f)
{
  /* 720p23.98/24's lines are 10,312.5 bytes: the frame is whole */
  return ((gsize) f->samples * 20 * f->lines + 7) / 8;
}

guint
ref_datagrams (const RefFormat * f)
{
  return (ref_frame_bytes (f) + REF_PAYLOAD - 1) / REF_PAYLOAD;
}

guint32
ref_rtp_per_frame (const RefFormat * f)
{
  return (guint32) (27000000ull * f->fps_d / f->fps_n);
}

guint
ref_row_to_line (const RefFormat * f, guint row)
{
  if (!f->interlaced)
    return f->f1_first + row;
  if (f->bff)
    return (row % 2 == 0) ? f->f2_first + row / 2 : f->f1_first + row / 2;
  return (row % 2 == 0) ? f->f1_first + row / 2 : f->f2_first + row / 2;
}

void
ref_line_fv (const RefFormat * f, guint line, guint * F, guint * V)
{
  gboolean active = (line >= f->f1_first && line <= f->f1_last)
      || (f->interlaced && line >= f->f2_first && line <= f->f2_last);

  *V = active ? 0 : 1;
  *F = (f->interlaced && (line >= f->f_first || line < f->f_also_below)) ?
      1 : 0;
}

guint16
ref_xyz (guint F, guint V, guint H)
{
  return 0x200 | F << 8 | V << 7 | H << 6 | (V ^ H) << 5 | (F ^ H) << 4 |
      (F ^ V) << 3 | (F ^ V ^ H) << 2;
}

guint32
ref_crc18 (guint32 crc, guint16 word)
{
  guint i;

  /* reflected form of x^18 + x^5 + x^4 + 1: the register shifts towards
   * bit 0, input enters at the top, taps at x^5 and x^4 */
  for (i = 0; i < 10; i++) {
    guint fb = (crc ^ (word >> i)) & 1;
    crc >>= 1;
    if (fb)
      crc ^= 0x23000;
  }
  return crc;
}

guint16
ref_get_word (const guint8 * buf, gsize wi)
{
  gsize bit = wi * 10, byte = bit / 8;
  guint shift = bit % 8;
  guint v = (buf[byte] << 8) | buf[byte + 1];

  return (v >> (6 - shift)) & 0x3ff;
}

void
ref_put_word (guint8 * buf, gsize wi, guint16 w)
{
  gsize bit = wi * 10, byte = bit / 8;
  guint shift = bit % 8;
  guint mask = 0x3ff << (6 - shift);
  guint v = (buf[byte] << 8) | buf[byte + 1];

  v = (v & ~mask) | ((guint) (w & 0x3ff) << (6 - shift));
  buf[byte] = v >> 8;
  buf[byte + 1] = v & 0xff;
}

static void
ln_words (guint line, guint16 * ln0, guint16 * ln1)
{
  guint b8 = ((line & 0x7f) << 2) >> 8 & 1;

  *ln0 = (!b8) << 9 | (line & 0x7f) << 2;
  *ln1 = 1 << 9 | ((line >> 7) & 0xf) << 2;
}

static void
crc_words (guint32 c, guint16 * cr0, guint16 * cr1)
{
  *cr0 = (!((c >> 8) & 1)) << 9 | (c & 0x1ff);
  *cr1 = (!((c >> 17) & 1)) << 9 | ((c >> 9) & 0x1ff);
}

/* Words of line @line in interleaved order, CRC words left 0 */
static void
line_words (const RefFormat * f, guint line, const guint8 * uyvp,
    gsize stride, guint16 * w)
{
  guint S = f->samples, W = f->width, F, V, i, row = G_MAXUINT, r;
  guint sav = 2 * S - 2 * W - 8, act = 2 * S - 2 * W;
  guint16 eav, savw, ln0, ln1;

  ref_line_fv (f, line, &F, &V);
  eav = ref_xyz (F, V, 1);
  savw = ref_xyz (F, V, 0);
  ln_words (line, &ln0, &ln1);

  for (i = 0; i < 2 * S; i++)
    w[i] = (i % 2 == 0) ? 0x200 : 0x040;
  w[0] = w[1] = 0x3ff;
  w[2] = w[3] = w[4] = w[5] = 0;
  w[6] = w[7] = eav;
  w[8] = w[9] = ln0;
  w[10] = w[11] = ln1;
  w[12] = w[13] = w[14] = w[15] = 0;
  w[sav] = w[sav + 1] = 0x3ff;
  w[sav + 2] = w[sav + 3] = w[sav + 4] = w[sav + 5] = 0;
  w[sav + 6] = w[sav + 7] = savw;

  if (!V) {
    for (r = 0; r < f->height; r++)
      if (ref_row_to_line (f, r) == line)
        row = r;
    g_assert (row != G_MAXUINT);
    for (i = 0; i < 2 * W; i++) {
      guint16 s = ref_get_word (uyvp + row * stride, i);
      /* 0-3 and 1020-1023 are timing references: a sender clips */
      w[act + i] = CLAMP (s, 4, 1019);
    }
  }
}

/* An SD line: EAV 3FF 000 000 XYZ, blanking, SAV, active (one stream) */
static void
sd_line_words (const RefFormat * f, guint line, const guint8 * uyvp,
    gsize stride, guint16 * w)
{
  guint S = f->samples, W = f->width, F, V, i, r;
  guint act = 2 * S - 2 * W, sav = act - 4;

  ref_line_fv (f, line, &F, &V);
  for (i = 0; i < 2 * S; i++)
    w[i] = (i % 2 == 0) ? 0x200 : 0x040;
  w[0] = w[sav] = 0x3ff;
  w[1] = w[2] = w[sav + 1] = w[sav + 2] = 0;
  w[3] = ref_xyz (F, V, 1);
  w[sav + 3] = ref_xyz (F, V, 0);
  if (V)
    return;
  for (r = 0; r < f->height; r++)
    if (ref_row_to_line (f, r) == line)
      break;
  g_assert (r < f->height);
  for (i = 0; i < 2 * W; i++)
    w[act + i] = CLAMP (ref_get_word (uyvp + r * stride, i), 4, 1019);
}

static void
line_crcs (const RefFormat * f, const guint16 * prev, const guint16 * cur,
    guint16 out[4])
{
  guint S = f->samples, W = f->width, act = 2 * S - 2 * W, ch, i;

  for (ch = 0; ch < 2; ch++) {
    guint32 c = 0;
    for (i = act + ch; i < 2 * S; i += 2)
      c = ref_crc18 (c, prev[i]);
    for (i = ch; i < 12; i += 2)
      c = ref_crc18 (c, cur[i]);
    crc_words (c, &out[ch], &out[2 + ch]);
  }
}

void
ref_build_raster (const RefFormat * f, const guint8 * uyvp, gsize stride,
    guint8 * raster)
{
  guint S = f->samples, line, i;
  guint16 *prev = g_new (guint16, 2 * S), *cur = g_new (guint16, 2 * S);
  guint16 crc[4];

  if (f->sd) {
    for (line = 1; line <= f->lines; line++) {
      sd_line_words (f, line, uyvp, stride, cur);
      for (i = 0; i < 2 * S; i++)
        ref_put_word (raster, (gsize) (line - 1) * 2 * S + i, cur[i]);
    }
    g_free (prev);
    g_free (cur);
    return;
  }
  /* the previous frame's last line is blanking in every HD format */
  line_words (f, f->lines, uyvp, stride, prev);
  for (line = 1; line <= f->lines; line++) {
    guint16 *tmp;
    line_words (f, line, uyvp, stride, cur);
    line_crcs (f, prev, cur, crc);
    cur[12] = crc[0];
    cur[13] = crc[1];
    cur[14] = crc[2];
    cur[15] = crc[3];
    for (i = 0; i < 2 * S; i++)
      ref_put_word (raster, (gsize) (line - 1) * 2 * S + i, cur[i]);
    tmp = prev;
    prev = cur;
    cur = tmp;
  }
  g_free (prev);
  g_free (cur);
}

static void
get_line (const RefFormat * f, const guint8 * raster, guint line, guint16 * w)
{
  guint i;

  for (i = 0; i < 2 * f->samples; i++)
    w[i] = ref_get_word (raster, (gsize) (line - 1) * 2 * f->samples + i);
}

/* ST 291-1: b8 even parity of b0-b7, b9 = !b8 */
static gboolean
anc_word_ok (guint16 w)
{
  guint ones = 0, k;

  for (k = 0; k < 8; k++)
    ones += (w >> k) & 1;
  return ((w >> 8) & 1) == (ones & 1) && ((w >> 9) & 1) != ((w >> 8) & 1);
}

/* The packet at line word @i in @w (words up to @end), its words @s apart
 * (2: one channel of HD's interleaved C/Y; 1: SD's one multiplexed
 * stream): its word count, or 0 if there is no ADF, -1 if it is malformed
 * (parity of DID/SDID/DC, checksum, runs past @end) */
static gint
anc_packet_at (const guint16 * w, guint i, guint end, guint s)
{
  guint dc, k, sum = 0;

  if (i + 5 * s >= end || w[i] != 0 || w[i + s] != 0x3ff
      || w[i + 2 * s] != 0x3ff)
    return 0;
  if (!anc_word_ok (w[i + 3 * s]) || !anc_word_ok (w[i + 4 * s])
      || !anc_word_ok (w[i + 5 * s]))
    return -1;
  dc = w[i + 5 * s] & 0xff;
  if (i + s * (dc + 6) >= end)
    return -1;
  for (k = 3; k < 6 + dc; k++)
    sum += w[i + s * k] & 0x1ff;
  sum &= 0x1ff;
  if (w[i + s * (6 + dc)] != (sum | (((sum >> 8) & 1) ? 0 : 0x200)))
    return -1;
  return dc + 7;
}

/* Blanking words [@first, @end) of a line: each channel (SD: the one
 * stream) may start with ANC packets, the rest is blank (C 200, Y 040 by
 * the word's place). Returns the first wrong word or @end. */
static guint
check_blank_or_anc (const guint16 * w, guint first, guint end, gboolean sd)
{
  guint ch, i, s = sd ? 1 : 2;

  for (ch = 0; ch < s; ch++) {
    gint n;

    i = first + ch;
    while ((n = anc_packet_at (w, i, end, s)) > 0)
      i += s * n;
    if (n < 0)
      return i;
    for (; i < end; i += s)
      if (w[i] != ((i - first) % 2 == 0 ? 0x200 : 0x040))
        return i;
  }
  return end;
}

gint
ref_find_anc (const RefFormat * f, const guint8 * raster, guint line,
    gboolean hanc, guint ch, guint8 did, guint8 sdid, guint8 * udw)
{
  guint S = f->samples, W = f->width, s = f->sd ? 1 : 2;
  /* HD: HANC after EAV/LN/CRC, 8-word SAV; SD: after the 4-word EAV, 4-word
   * SAV, one stream (@ch is ignored) */
  guint first = hanc ? (f->sd ? 4 : 16) : 2 * S - 2 * W;
  guint end = hanc ? 2 * S - 2 * W - (f->sd ? 4 : 8) : 2 * S, i, k;
  guint16 *w = g_new (guint16, 2 * S);
  gint n, ret = -1;

  get_line (f, raster, line, w);
  for (i = first + (f->sd ? 0 : ch); (n = anc_packet_at (w, i, end, s)) > 0;
      i += s * n) {
    guint dc = n - 7;

    if ((w[i + 3 * s] & 0xff) != did || (w[i + 4 * s] & 0xff) != sdid)
      continue;
    for (k = 0; k < dc; k++) {
      if (!anc_word_ok (w[i + s * (6 + k)]))
        break;
      udw[k] = w[i + s * (6 + k)] & 0xff;
    }
    if (k == dc)
      ret = dc;
    break;
  }
  g_free (w);
  return ret;
}

guint
ref_sd_audio (const RefFormat * f, const guint8 * raster, RefSdAudio * out,
    gchar ** first_error)
{
  guint S = f->samples, W = f->width, line, errors = 0;
  /* SD HANC: after the 4-word EAV up to the 4-word SAV */
  guint first = 4, end = 2 * S - 2 * W - 4;
  guint16 *w = g_new (guint16, 2 * S);

#define AERR(...) G_STMT_START { \
    if (errors++ == 0 && first_error) *first_error = g_strdup_printf (__VA_ARGS__); \
  } G_STMT_END

  memset (out, 0, sizeof (*out));
  for (line = 1; line <= f->lines; line++) {
    guint i = first;
    gint n;

    get_line (f, raster, line, w);
    while ((n = anc_packet_at (w, i, end, 1)) != 0) {
      guint did, g, dc, k, dbn, nsub, c;

      if (n < 0) {
        AERR ("line %u word %u: malformed ANC packet", line, i);
        break;
      }
      did = w[i + 3] & 0xff;
      dc = w[i + 5] & 0xff;
      dbn = w[i + 4] & 0xff;
      if (did != 0xff && did != 0xfd && did != 0xfb && did != 0xf9) {
        i += n;
        continue;
      }
      g = (0xff - did) / 2;
      out->line_packets[line]++;
      out->end_word[g][line] = (guint16) (i + n - 1);
      if (out->first_dbn[g] == 0)
        out->first_dbn[g] = dbn;
      else if (dbn != (out->last_dbn[g] == 255 ? 1u : out->last_dbn[g] + 1u))
        AERR ("line %u: group %u data block %u after %u", line, g + 1, dbn,
            out->last_dbn[g]);
      out->last_dbn[g] = dbn;
      out->packets[g]++;
      if (dc % 3 != 0 || dc == 0) {
        AERR ("line %u: DC %u is not whole subframes", line, dc);
        i += n;
        continue;
      }
      /* subframes carry channel numbers 0, 1, .., c-1 sample after sample */
      nsub = dc / 3;
      for (c = 1; c < nsub && ((w[i + 6 + 3 * c] >> 1) & 3) != 0; c++);
      if (nsub % c != 0)
        AERR ("line %u: %u subframes of %u channels", line, nsub, c);
      if (out->channels[g] == 0)
        out->channels[g] = c;
      else if (out->channels[g] != c)
        AERR ("line %u: group %u has %u channels, had %u", line, g + 1, c,
            out->channels[g]);
      for (k = 0; k < nsub; k++) {
        const guint16 *x = w + i + 6 + 3 * k;
        guint ch = (x[0] >> 1) & 3, ones = 0, b, sn;

        if (ch != k % c)
          AERR ("line %u: subframe %u has channel %u", line, k, ch);
        for (b = 0; b < 3; b++)
          if (((x[b] >> 9) & 1) == ((x[b] >> 8) & 1))
            AERR ("line %u: subframe word with b9 = b8", line);
        /* P (b8 of the third word) makes the 26 bits before it even */
        for (b = 0; b < 9; b++)
          ones += ((x[0] >> b) & 1) + ((x[1] >> b) & 1) + ((x[2] >> b) & 1);
        if (ones & 1)
          AERR ("line %u: subframe parity", line);
        if (x[2] & 0x60)
          AERR ("line %u: V or U set", line);
        if (k % c == 0) {
          if (out->n[g] >= REF_SD_AUDIO_MAX) {
            AERR ("group %u: more than %u samples", g + 1, REF_SD_AUDIO_MAX);
            break;
          }
          out->n[g]++;
        }
        sn = out->n[g] - 1;
        /* audio bits 0-5 in b3-b8, 6-14 in b0-b8, 15-19 in b0-b4 */
        out->pcm[g][sn][ch] = (((x[0] >> 3) & 0x3f) | (guint32) (x[1] &
                0x1ff) << 6 | (guint32) (x[2] & 0x1f) << 15) << 12;
        if (ch == 0) {
          out->z[g][sn] = x[0] & 1;
          out->c[g][sn] = (x[2] >> 7) & 1;
          out->line[g][sn] = (guint16) line;
        }
      }
      i += n;
    }
  }
  g_free (w);
  return errors;
#undef AERR
}

guint
ref_check_raster (const RefFormat * f, const guint8 * raster,
    const guint8 * prev_raster, guint8 * uyvp, gchar ** first_error)
{
  guint S = f->samples, W = f->width, line, i, errors = 0, r;
  guint sav = 2 * S - 2 * W - 8, act = 2 * S - 2 * W;
  guint16 *prev = g_new (guint16, 2 * S), *cur = g_new (guint16, 2 * S);
  guint16 crc[4];
  gsize ustride = W * 5 / 2;

#define ERR(...) G_STMT_START { \
    if (errors++ == 0 && first_error) *first_error = g_strdup_printf (__VA_ARGS__); \
  } G_STMT_END

  if (f->sd) {
    /* every word: TRS, blanking and the picture */
    sav = act - 4;
    for (line = 1; line <= f->lines; line++) {
      guint F, V;

      get_line (f, raster, line, cur);
      ref_line_fv (f, line, &F, &V);
      if (cur[0] != 0x3ff || cur[1] || cur[2] || cur[3] != ref_xyz (F, V, 1))
        ERR ("line %u: bad EAV (XYZ %03x, expected %03x)", line, cur[3],
            ref_xyz (F, V, 1));
      if (cur[sav] != 0x3ff || cur[sav + 1] || cur[sav + 2]
          || cur[sav + 3] != ref_xyz (F, V, 0))
        ERR ("line %u: bad SAV (XYZ %03x, expected %03x)", line,
            cur[sav + 3], ref_xyz (F, V, 0));
      /* blanking, or ANC packets (ST 291-1 in one stream) at its start */
      i = check_blank_or_anc (cur, 4, sav, TRUE);
      if (i < sav)
        ERR ("line %u: horizontal blanking word %u is %03x", line, i,
            cur[i]);
      if (V) {
        i = check_blank_or_anc (cur, act, 2 * S, TRUE);
        if (i < 2 * S)
          ERR ("line %u: blanking line carries %03x at word %u", line,
              cur[i], i);
      }
      if (V)
        continue;
      for (r = 0; r < f->height; r++)
        if (ref_row_to_line (f, r) == line)
          break;
      for (i = 0; i < 2 * W; i++) {
        if (cur[act + i] < 4 || cur[act + i] > 1019) {
          ERR ("line %u: illegal active sample %03x", line, cur[act + i]);
          break;
        }
        if (uyvp)
          ref_put_word (uyvp + r * ustride, i, cur[act + i]);
      }
    }
    g_free (prev);
    g_free (cur);
    return errors;
  }

  get_line (f, prev_raster ? prev_raster : raster, f->lines, prev);
  for (line = 1; line <= f->lines; line++) {
    guint F, V;
    guint16 ln0, ln1, eav, savw;
    guint16 *tmp;

    get_line (f, raster, line, cur);
    ref_line_fv (f, line, &F, &V);
    eav = ref_xyz (F, V, 1);
    savw = ref_xyz (F, V, 0);
    ln_words (line, &ln0, &ln1);

    if (cur[0] != 0x3ff || cur[1] != 0x3ff || cur[2] || cur[3] || cur[4]
        || cur[5] || cur[6] != eav || cur[7] != eav)
      ERR ("line %u: bad EAV (XYZ %03x, expected %03x)", line, cur[6], eav);
    if (cur[8] != ln0 || cur[9] != ln0 || cur[10] != ln1 || cur[11] != ln1)
      ERR ("line %u: bad LN %03x %03x", line, cur[8], cur[10]);
    line_crcs (f, prev, cur, crc);
    if (cur[12] != crc[0] || cur[13] != crc[1] || cur[14] != crc[2]
        || cur[15] != crc[3])
      ERR ("line %u: bad CRC %03x %03x %03x %03x, expected %03x %03x %03x "
          "%03x", line, cur[12], cur[13], cur[14], cur[15], crc[0], crc[1],
          crc[2], crc[3]);
    i = check_blank_or_anc (cur, 16, sav, FALSE);
    if (i < sav)
      ERR ("line %u: horizontal blanking word %u is %03x", line, i, cur[i]);
    if (cur[sav] != 0x3ff || cur[sav + 1] != 0x3ff || cur[sav + 2]
        || cur[sav + 3] || cur[sav + 4] || cur[sav + 5]
        || cur[sav + 6] != savw || cur[sav + 7] != savw)
      ERR ("line %u: bad SAV (XYZ %03x, expected %03x)", line, cur[sav + 6],
          savw);
    if (V) {
      i = check_blank_or_anc (cur, act, 2 * S, FALSE);
      if (i < 2 * S)
        ERR ("line %u: blanking line carries %03x at word %u", line,
            cur[i], i);
    } else {
      for (r = 0; r < f->height; r++)
        if (ref_row_to_line (f, r) == line)
          break;
      for (i = 0; i < 2 * W; i++) {
        if (cur[act + i] < 4 || cur[act + i] > 1019) {
          ERR ("line %u: illegal active sample %03x", line, cur[act + i]);
          break;
        }
        if (uyvp)
          ref_put_word (uyvp + r * ustride, i, cur[act + i]);
      }
    }
    tmp = prev;
    prev = cur;
    cur = tmp;
  }
#undef ERR
  g_free (prev);
  g_free (cur);
  return errors;
}

guint32
ref_vts_offset (guint index)
{
  /* sample k (20 bits) is whole in datagram i when 20k >= i*1376*8 */
  guint64 bits = (guint64) index * REF_PAYLOAD * 8;
  return (guint32) (2 * ((bits + 19) / 20));
}

void
ref_pack_datagram (const RefFormat * f, const guint8 * raster, guint index,
    guint16 seq, guint32 rtp_ts, guint32 ssrc, guint8 frcount,
    guint32 frame_vts, guint8 pt, guint8 * out)
{
  guint n = ref_datagrams (f);
  gsize off = (gsize) index * REF_PAYLOAD, fb = ref_frame_bytes (f);
  guint32 vts = frame_vts + ref_vts_offset (index);
  gboolean marker = index == n - 1;

  out[0] = 0x80;
  out[1] = (marker ? 0x80 : 0) | (pt & 0x7f);
  out[2] = seq >> 8;
  out[3] = seq & 0xff;
  out[4] = rtp_ts >> 24;
  out[5] = rtp_ts >> 16;
  out[6] = rtp_ts >> 8;
  out[7] = rtp_ts;
  out[8] = ssrc >> 24;
  out[9] = ssrc >> 16;
  out[10] = ssrc >> 8;
  out[11] = ssrc;
  out[12] = 0x08;               /* Ext 0, F 1, VSID 0 */
  out[13] = frcount;
  out[14] = (f->cf >> 3) & 1;   /* R 0, S 0, FEC 0, CF[3] */
  out[15] = (f->cf & 7) << 5;
  out[16] = f->frame_code >> 4; /* MAP 0 */
  out[17] = (f->frame_code & 0xf) << 4 | f->frate_code >> 4;
  out[18] = (f->frate_code & 0xf) << 4 | 0x1;   /* SAMPLE 4:2:2 10-bit */
  out[19] = 0;
  out[20] = vts >> 24;
  out[21] = vts >> 16;
  out[22] = vts >> 8;
  out[23] = vts;
  memset (out + REF_HEADER, 0, REF_PAYLOAD);
  memcpy (out + REF_HEADER, raster + off, MIN (REF_PAYLOAD, fb - off));
}

void
ref_random_uyvp (const RefFormat * f, GRand * rand, guint8 * uyvp,
    gsize stride)
{
  guint r, i;

  for (r = 0; r < f->height; r++)
    for (i = 0; i < 2 * f->width; i++)
      ref_put_word (uyvp + r * stride, i, g_rand_int_range (rand, 4, 1020));
}

void
ref_uyvp_to_v210 (const guint8 * uyvp, guint width, guint8 * v210)
{
  guint nw = 2 * width, groups = (width + 5) / 6, g, j, k;

  for (g = 0; g < groups; g++)
    for (j = 0; j < 4; j++) {
      guint32 v = 0;
      for (k = 0; k < 3; k++) {
        guint wi = g * 12 + j * 3 + k;
        if (wi < nw)
          v |= (guint32) ref_get_word (uyvp, wi) << (10 * k);
      }
      v210[g * 16 + j * 4 + 0] = v;
      v210[g * 16 + j * 4 + 1] = v >> 8;
      v210[g * 16 + j * 4 + 2] = v >> 16;
      v210[g * 16 + j * 4 + 3] = v >> 24;
    }
}

void
ref_v210_to_uyvp (const guint8 * v210, guint width, guint8 * uyvp)
{
  guint nw = 2 * width, wi;

  for (wi = 0; wi < nw; wi++) {
    guint g = wi / 12, j = (wi % 12) / 3, k = wi % 3;
    const guint8 *p = v210 + g * 16 + j * 4;
    guint32 v = p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
    ref_put_word (uyvp, wi, (v >> (10 * k)) & 0x3ff);
  }
}

int
ref_udp_bind (const gchar * addr, guint16 port)
{
  struct sockaddr_in sa = { 0 };
  int fd = socket (AF_INET, SOCK_DGRAM, 0), size = 128 * 1024 * 1024, one = 1;

  g_assert (fd >= 0);
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof (one));
  if (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof (size)) < 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof (size));
  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  inet_pton (AF_INET, addr ? addr : "127.0.0.1", &sa.sin_addr);
  g_assert (bind (fd, (struct sockaddr *) &sa, sizeof (sa)) == 0);
  return fd;
}

int
ref_udp_sender (void)
{
  int fd = socket (AF_INET, SOCK_DGRAM, 0), size = 16 * 1024 * 1024;

  g_assert (fd >= 0);
  setsockopt (fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof (size));
  return fd;
}

void
ref_udp_sendto (int fd, const gchar * addr, guint16 port,
    const guint8 * data, gsize len)
{
  struct sockaddr_in sa = { 0 };

  sa.sin_family = AF_INET;
  sa.sin_port = htons (port);
  inet_pton (AF_INET, addr ? addr : "127.0.0.1", &sa.sin_addr);
  while (sendto (fd, data, len, 0, (struct sockaddr *) &sa, sizeof (sa)) < 0)
    g_usleep (100);
}

/* --- Ethernet / IPv4 / UDP ------------------------------------------------ */

static guint16
rd16 (const guint8 * p)
{
  return (guint16) (p[0] << 8 | p[1]);
}

static void
wr16 (guint8 * p, guint16 v)
{
  p[0] = v >> 8;
  p[1] = v & 0xff;
}

static void
wr32 (guint8 * p, guint32 v)
{
  wr16 (p, v >> 16);
  wr16 (p + 2, v & 0xffff);
}

guint32
ref_ones_sum (guint32 sum, const guint8 * data, gsize len)
{
  gsize i;

  for (i = 0; i + 1 < len; i += 2)
    sum += rd16 (data + i);
  if (len & 1)
    sum += data[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return sum;
}

static guint32
udp_pseudo_sum (guint32 src, guint32 dst, guint16 udp_len)
{
  guint8 ph[12];

  wr32 (ph, src);
  wr32 (ph + 4, dst);
  ph[8] = 0;
  ph[9] = 17;
  wr16 (ph + 10, udp_len);
  return ref_ones_sum (0, ph, sizeof (ph));
}

#define REF_FAIL(...) do { if (error) *error = g_strdup_printf (__VA_ARGS__); \
    return NULL; } while (0)

const guint8 *
ref_parse_udp_frame (const guint8 * f, gsize len, RefUdpFrame * out,
    gsize * payload_len, gchar ** error)
{
  const guint8 *ip = f + 14, *udp = f + 34;
  guint16 total, ulen;

  if (len < REF_NET_HEADER)
    REF_FAIL ("frame of %" G_GSIZE_FORMAT " bytes is too short", len);
  if (rd16 (f + 12) != 0x0800)
    REF_FAIL ("EtherType 0x%04x, not IPv4", rd16 (f + 12));
  if (ip[0] != 0x45)
    REF_FAIL ("IPv4 version/IHL byte 0x%02x, want 0x45", ip[0]);
  total = rd16 (ip + 2);
  if (total < 28 || 14 + (gsize) total > len)
    REF_FAIL ("IPv4 total length %u in a %" G_GSIZE_FORMAT "-byte frame",
        total, len);
  if ((rd16 (ip + 6) & 0x3fff) != 0)
    REF_FAIL ("fragment (flags/offset 0x%04x)", rd16 (ip + 6));
  if (!(ip[6] & 0x40))
    REF_FAIL ("DF not set");
  if (ip[9] != 17)
    REF_FAIL ("IP protocol %u, not UDP", ip[9]);
  if (ref_ones_sum (0, ip, 20) != 0xffff)
    REF_FAIL ("bad IPv4 header checksum 0x%04x", rd16 (ip + 10));
  ulen = rd16 (udp + 4);
  if (ulen != total - 20)
    REF_FAIL ("UDP length %u, IPv4 payload %u", ulen, total - 20);
  if (rd16 (udp + 6) != 0) {
    guint32 s = udp_pseudo_sum (rd16 (ip + 12) << 16 | rd16 (ip + 14),
        rd16 (ip + 16) << 16 | rd16 (ip + 18), ulen);
    if (ref_ones_sum (s, udp, ulen) != 0xffff)
      REF_FAIL ("bad UDP checksum 0x%04x", rd16 (udp + 6));
  }
  if (out) {
    memcpy (out->dst_mac, f, 6);
    memcpy (out->src_mac, f + 6, 6);
    out->src_ip = (guint32) rd16 (ip + 12) << 16 | rd16 (ip + 14);
    out->dst_ip = (guint32) rd16 (ip + 16) << 16 | rd16 (ip + 18);
    out->ttl = ip[8];
    out->src_port = rd16 (udp);
    out->dst_port = rd16 (udp + 2);
  }
  *payload_len = ulen - 8;
  return udp + 8;
}

gsize
ref_build_udp_frame (const RefUdpFrame * h, const guint8 * payload,
    gsize payload_len, guint8 * out)
{
  guint8 *ip = out + 14, *udp = out + 34;
  guint16 ulen = payload_len + 8, sum;

  memcpy (out, h->dst_mac, 6);
  memcpy (out + 6, h->src_mac, 6);
  wr16 (out + 12, 0x0800);
  ip[0] = 0x45;
  ip[1] = 0;
  wr16 (ip + 2, ulen + 20);
  wr16 (ip + 4, 0);
  wr16 (ip + 6, 0x4000);
  ip[8] = h->ttl;
  ip[9] = 17;
  wr16 (ip + 10, 0);
  wr32 (ip + 12, h->src_ip);
  wr32 (ip + 16, h->dst_ip);
  wr16 (ip + 10, ~ref_ones_sum (0, ip, 20) & 0xffff);
  wr16 (udp, h->src_port);
  wr16 (udp + 2, h->dst_port);
  wr16 (udp + 4, ulen);
  wr16 (udp + 6, 0);
  memcpy (udp + 8, payload, payload_len);
  sum = ~ref_ones_sum (udp_pseudo_sum (h->src_ip, h->dst_ip, ulen), udp,
      ulen) & 0xffff;
  wr16 (udp + 6, sum ? sum : 0xffff);
  return REF_NET_HEADER + payload_len;
}

void
ref_multicast_mac (guint32 group, guint8 mac[6])
{
  mac[0] = 0x01;
  mac[1] = 0x00;
  mac[2] = 0x5e;
  mac[3] = (group >> 16) & 0x7f;
  mac[4] = (group >> 8) & 0xff;
  mac[5] = group & 0xff;
}
