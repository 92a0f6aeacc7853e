/* gst-vmi benchmark: the floor of "the payload copied once, straight into
 * the frame" on this machine. One 1080p59.94 frame of datagrams (4497
 * payloads of 1376 bytes of a real raster: TRS, line numbers, CRCs, blank
 * fill, each at its own 2 KiB mbuf-like slot, 9 MB) is copied frame after
 * frame into output frames taken in turn from a pool of <frames> (1: the
 * same frame every time, cache-warm; 4: st2022src's pool minimum, which a
 * FIFO pool goes round), with nothing else done (side=0); then the way
 * st2022src splits it with its ancillary-data side buffer, a raster-sized
 * buffer (two, used in turn) that the ANC reader parses: each line's
 * active 4800 bytes into the 1920x1080 UYVP picture, what lies between
 * them into the side buffer, datagram by datagram as the depacketizer
 * does (copy_to_uyvp() and copy_blank() in
 * gst/st2022/st2022-depacketizer.c: the same span lookup,
 * st2022_datagram_spans_at()):
 *   side=1 anc=none  what st2022src does now, on a stream without
 *                    ancillary data: a datagram whose ANC spaces
 *                    (st2022_format_anc_space()) hold blank fill, as the
 *                    side buffer's do (its blank_dirty bit clear), is
 *                    compared with the fill and not copied there
 *   side=1 anc=hanc  the same with an ANC packet in the HANC space of
 *                    every line (as embedded audio has): the datagrams
 *                    crossing a HANC space are copied
 *   side=all         every blanking byte copied, as before the skip
 *                    (VMI_RX_BLANK=copy in st2022src)
 * For each pool size the four layouts run one after the other, each with
 * the picture written by ordinary stores (copy=memcpy) and right after by
 * the depacketizer's streaming-store copy (copy=avx2 or sse2, as
 * st2022_copy_stream() picks it: st2022_copy_stream_held() in
 * gst/st2022/st2022-copy.c, which holds a partial last line back until the
 * next datagram completes it, VMI_RX_HOLD=0 not; the held line released
 * and a fence per frame), so that they see the same minute of this
 * machine; the side buffer is always written with memcpy, as in the
 * depacketizer. Before the timing, each split's picture and side buffer
 * are checked against the raster, with both copies, and the datagrams
 * that wrote to the side buffer in a frame are counted (printed first, a
 * line per split).
 *
 *   bench-rx-copy [seconds per case, default 2] [rounds, default 1]
 *
 * Prints, per round, layout, pool size and copy, the CPU time of the
 * copying thread (getrusage RUSAGE_THREAD) per datagram and the datagrams
 * per CPU-second that the copy alone would allow. Not a test: a shared
 * machine's figures vary. */

#include "bench-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st2022.h"
#include "st2022-copy.h"
#include "st2022-private.h"

#define PAYLOAD ST2022_PAYLOAD_SIZE
#define SLOT 2048
/* where a payload starts in its slot: past mbuf headroom and headers */
#define SLOT_DATA (128 + 66)

enum
{ SIDE_NONE, SIDE_SKIP, SIDE_SKIP_ANC, SIDE_ALL, N_SIDES };
static const char *const side_names[N_SIDES] = {
  "side=0", "side=1 anc=none", "side=1 anc=hanc", "side=all"
};

/* blank fill, C 0x200 and Y 0x040, 4 words packed MSB first */
static const unsigned char blank_group[5] = { 0x80, 0x04, 0x08, 0x00, 0x40 };

static const St2022Format *fmt;
static unsigned n_dgrams;
/* bytes [b0, b1) of a line's HANC and VANC spaces, whole 5-byte groups */
static unsigned hanc_b0, hanc_b1, vanc_b0, vanc_b1;
static unsigned char fill[PAYLOAD + 8];
/* the line the last datagram began in (1-based) and its first byte */
static unsigned cur_line;
static size_t cur_ls;
/* datagrams that wrote into the side buffer */
static unsigned long long side_copies;

/* the picture copy under test */
static void (*copy_pic) (unsigned char *dst, const unsigned char *src,
    size_t len);

static void
copy_plain (unsigned char *dst, const unsigned char *src, size_t len)
{
  memcpy (dst, src, len);
}

/* the depacketizer's: a partial last line held back until the next copy
 * completes it (one hold per frame, released before the fence) */
static St2022CopyHold hold;

static void
copy_held (unsigned char *dst, const unsigned char *src, size_t len)
{
  st2022_copy_stream_held (&hold, dst, src, len);
}

static int
range_blank (const unsigned char *s, size_t b0, size_t b1, size_t ls,
    size_t from, size_t to)
{
  from = from > b0 ? from : b0;
  to = to < b1 ? to : b1;
  return from >= to || memcmp (s + (from - b0), fill + (from - ls) % 5,
      to - from) == 0;
}

/* whether the ANC spaces datagram [b0, b1) crosses hold blank fill */
static int
spaces_blank (const unsigned char *s, size_t b0, size_t b1)
{
  size_t ls = cur_ls;
  unsigned line = cur_line;

  for (; line <= fmt->total_lines && ls < b1; line++, ls += fmt->line_bytes) {
    if (!range_blank (s, b0, b1, ls, ls + hanc_b0, ls + hanc_b1))
      return 0;
    if (st2022_format_line_to_row (fmt, line) < 0
        && !range_blank (s, b0, b1, ls, ls + vanc_b0, ls + vanc_b1))
      return 0;
  }
  return 1;
}

/* datagram @j at @s into the picture @pic and, where @side_mode asks,
 * the side buffer @side with its blank_dirty map @dirty */
static void
copy_split (unsigned char *pic, unsigned char *side, unsigned *dirty,
    const unsigned char *s, unsigned j, int side_mode)
{
  size_t b0 = (size_t) j * PAYLOAD;
  unsigned end = j == n_dgrams - 1 ? fmt->last_payload_bytes : PAYLOAD;
  unsigned pos = 0, src[2], bit = 1u << (j & 31);
  St2022Span spans[2];
  int n, k, copied = 0;

  while (b0 >= cur_ls + fmt->line_bytes) {
    cur_line++;
    cur_ls += fmt->line_bytes;
  }
  n = st2022_datagram_spans_at (fmt, j, cur_line, cur_ls, spans, src);
  for (k = 0; k < n; k++)
    copy_pic (pic + (size_t) spans[k].row * fmt->active_bytes +
        spans[k].offset, s + src[k], spans[k].length);
  if (side_mode != SIDE_ALL) {
    if (spaces_blank (s, b0, b0 + end)) {
      if (!(dirty[j >> 5] & bit))
        return;
      dirty[j >> 5] &= ~bit;
    } else {
      dirty[j >> 5] |= bit;
    }
  }
  for (k = 0; k <= n; k++) {
    unsigned stop = k < n ? src[k] : end;

    if (stop > pos) {
      memcpy (side + b0 + pos, s + pos, stop - pos);
      copied = 1;
    }
    if (k < n)
      pos = src[k] + spans[k].length;
  }
  side_copies += copied;
}

/* the frame's raster (a picture of a ramp), with an ANC packet in every
 * line's HANC space if @anc (its CRCs then are stale: nothing checks) */
static unsigned char *
make_raster (int anc)
{
  St2022RasterWriter *w = st2022_raster_writer_new (fmt);
  unsigned char *raster = malloc (fmt->frame_bytes);
  unsigned char *pic = malloc ((size_t) fmt->height * fmt->active_bytes);
  size_t i;
  unsigned first, end, line;

  if (w == NULL || raster == NULL || pic == NULL)
    exit (1);
  for (i = 0; i < (size_t) fmt->height * fmt->active_bytes; i++)
    pic[i] = (unsigned char) (i * 7);
  st2022_raster_writer_write (w, raster, fmt->frame_bytes,
      ST2022_PIXEL_UYVP, pic, fmt->active_bytes);
  st2022_format_anc_space (fmt, FALSE, &first, &end);
  for (line = 0; anc && line < fmt->total_lines; line++) {
    /* ADF, DID/SDID of an HD audio data packet, DC 21, user data (the
     * checksum word not computed: nothing here reads the packet) */
    guint16 words[28] = { 0x000, 0x3ff, 0x3ff, 0x2e7, 0x200, 0x115 };

    for (i = 6; i < 28; i++)
      words[i] = (guint16) (0x100 + i * 9);
    st2022_pack_words (words, raster + (size_t) line * fmt->line_bytes +
        first / 4 * 5, 28);
  }
  st2022_raster_writer_free (w);
  free (pic);
  return raster;
}

/* one frame of split mode @mode from the slots at @frame into @pic and
 * @sb with @dirty */
static void
split_frame (int mode, const unsigned char *frame, unsigned char *pic,
    unsigned char *sb, unsigned *dirty)
{
  unsigned j;

  cur_line = 1;
  cur_ls = 0;
  for (j = 0; j < n_dgrams; j++)
    copy_split (pic, sb, dirty, frame + (size_t) j * SLOT + SLOT_DATA, j,
        mode);
}

/* whether the picture is @raster's and the side buffer holds @raster's
 * bytes outside the picture */
static int
split_right (const unsigned char *raster, const unsigned char *pic,
    const unsigned char *sb)
{
  unsigned char *want = malloc ((size_t) fmt->height * fmt->active_bytes);
  unsigned line;
  int ok;

  if (want == NULL)
    exit (1);
  st2022_raster_read (fmt, raster, fmt->frame_bytes, ST2022_PIXEL_UYVP,
      want, fmt->active_bytes);
  ok = memcmp (want, pic, (size_t) fmt->height * fmt->active_bytes) == 0;
  for (line = 1; ok && line <= fmt->total_lines; line++) {
    size_t ls = (size_t) (line - 1) * fmt->line_bytes;

    if (st2022_format_line_to_row (fmt, line) < 0)
      ok = memcmp (sb + ls, raster + ls, fmt->line_bytes) == 0;
    else
      ok = memcmp (sb + ls, raster + ls, fmt->active_offset) == 0
          && memcmp (sb + ls + fmt->active_offset + fmt->active_bytes,
          raster + ls + fmt->active_offset + fmt->active_bytes,
          fmt->line_bytes - fmt->active_offset - fmt->active_bytes) == 0;
  }
  free (want);
  return ok;
}

/* Before it is timed, each split is checked against the raster with each
 * copy: the picture and the side buffer right after a new buffer's first
 * frame (every blank_dirty bit set) and after a second; returns the
 * datagrams the second frame copied into the side buffer */
static unsigned long long
split_check (int mode, const unsigned char *frame,
    const unsigned char *raster, unsigned char *pic, unsigned char *sb,
    unsigned *dirty, unsigned map_words)
{
  size_t out_bytes = (size_t) n_dgrams * PAYLOAD;
  unsigned long long copies = 0;
  int k, stream;

  for (stream = 0; stream < 2; stream++) {
    copy_pic = stream ? copy_held : copy_plain;
    memset (pic, 0, out_bytes);
    memset (sb, 0, out_bytes);
    memset (dirty, 0xff, map_words * sizeof (unsigned));
    for (k = 0; k < 2; k++) {
      side_copies = 0;
      split_frame (mode, frame, pic, sb, dirty);
      st2022_copy_stream_release (&hold);
      st2022_copy_stream_fence ();
      if (!split_right (raster, pic, sb)) {
        fprintf (stderr, "rx-copy: %s: frame %d (%s) differs from the "
            "raster\n", side_names[mode], k + 1,
            stream ? st2022_copy_stream_name () : "memcpy");
        exit (1);
      }
    }
    if (stream && side_copies != copies) {
      fprintf (stderr, "rx-copy: %s: the copies wrote to the side buffer "
          "differently\n", side_names[mode]);
      exit (1);
    }
    copies = side_copies;
  }
  memset (pic, 0, out_bytes);
  return copies;
}

int
main (int argc, char **argv)
{
  double secs = argc > 1 ? atof (argv[1]) : 2.0;
  unsigned rounds = argc > 2 ? (unsigned) atoi (argv[2]) : 1, round, stream;
  static const unsigned pools[] = { 1, 2, 4, 8 };
  unsigned char *src[2], *dst[8], *side[2], *raster[2];
  unsigned *dirty[2];
  unsigned p, i, map_words, first, end;
  int mode;
  size_t out_bytes;

  fmt = st2022_format_from_name ("1080p59.94");
  if (fmt == NULL || fmt->interlaced || fmt->half_byte_lines)
    return 1;
  n_dgrams = fmt->datagrams_per_frame;
  map_words = (n_dgrams + 31) / 32;
  out_bytes = (size_t) n_dgrams * PAYLOAD;
  /* as the depacketizer rounds them: whole groups from a line's start */
  st2022_format_anc_space (fmt, FALSE, &first, &end);
  hanc_b0 = first / 4 * 5;
  hanc_b1 = (end * 10 + 7) / 8;
  st2022_format_anc_space (fmt, TRUE, &first, &end);
  vanc_b0 = first / 4 * 5;
  vanc_b1 = (end * 10 + 7) / 8;
  for (i = 0; i < sizeof (fill); i++)
    fill[i] = blank_group[i % 5];

  /* src[0]: the plain raster, src[1]: with HANC packets */
  for (i = 0; i < 2; i++) {
    unsigned j;

    raster[i] = make_raster (i);
    src[i] = aligned_alloc (64, (size_t) n_dgrams * SLOT);
    if (src[i] == NULL)
      return 1;
    memset (src[i], 0, (size_t) n_dgrams * SLOT);
    for (j = 0; j < n_dgrams; j++)
      memcpy (src[i] + (size_t) j * SLOT + SLOT_DATA,
          raster[i] + (size_t) j * PAYLOAD, j == n_dgrams - 1 ?
          fmt->last_payload_bytes : PAYLOAD);
  }
  for (i = 0; i < 8; i++) {
    dst[i] = aligned_alloc (64, out_bytes);
    if (dst[i] == NULL)
      return 1;
    memset (dst[i], 0, out_bytes);
  }
  for (i = 0; i < 2; i++) {
    side[i] = aligned_alloc (64, out_bytes);
    dirty[i] = malloc (map_words * sizeof (unsigned));
    if (side[i] == NULL || dirty[i] == NULL)
      return 1;
    memset (side[i], 0, out_bytes);
  }
  for (mode = SIDE_SKIP; mode < N_SIDES; mode++)
    printf ("rx-copy %s: picture and side buffer checked against the "
        "raster; datagrams into the side buffer per frame: %llu of %u\n",
        side_names[mode], split_check (mode, src[mode == SIDE_SKIP_ANC],
            raster[mode == SIDE_SKIP_ANC], dst[0], side[0], dirty[0],
            map_words), n_dgrams);
  /* the layouts of one pool size one after the other, so that they see
   * the same minute of a shared machine */
  for (round = 0; round < rounds; round++)
    for (p = 0; p < sizeof (pools) / sizeof (pools[0]); p++)
      for (mode = 0; mode < N_SIDES; mode++)
        for (stream = 0; stream < 2; stream++) {
          const unsigned char *frame = src[mode == SIDE_SKIP_ANC];
          double c0, c1;
          unsigned long long n = 0;
          unsigned f = 0, sum = 0;

          /* a new side buffer: every bit set, its first frame copied */
          for (i = 0; i < 2; i++)
            memset (dirty[i], 0xff, map_words * sizeof (unsigned));
          copy_pic = stream ? copy_held : copy_plain;
          c0 = bench_cpu_seconds (RUSAGE_THREAD);
          do {
            unsigned char *d = dst[f % pools[p]], *sb = side[f % 2];
            unsigned j, k;

            /* 16 frames between clock reads */
            for (k = 0; k < 16; k++, f++) {
              d = dst[f % pools[p]];
              sb = side[f % 2];
              if (mode != SIDE_NONE)
                split_frame (mode, frame, d, sb, dirty[f % 2]);
              else
                for (j = 0; j < n_dgrams; j++)
                  copy_pic (d + (size_t) j * PAYLOAD,
                      frame + (size_t) j * SLOT + SLOT_DATA, PAYLOAD);
              /* as the depacketizer does before handing a frame on */
              if (stream) {
                st2022_copy_stream_release (&hold);
                st2022_copy_stream_fence ();
              }
            }
            n += 16ull * n_dgrams;
            sum += d[f % n_dgrams] + sb[f % n_dgrams];
            c1 = bench_cpu_seconds (RUSAGE_THREAD);
          } while (c1 - c0 < secs);
          printf ("rx-copy round=%u %s frames=%u copy=%s "
              "ns_per_datagram=%.1f mdgps_per_cpu_s=%.2f (check %u)\n",
              round + 1, side_names[mode], pools[p],
              stream ? st2022_copy_stream_name () : "memcpy",
              (c1 - c0) / n * 1e9, n / (c1 - c0) / 1e6, sum & 1);
          fflush (stdout);
        }
  for (i = 0; i < 2; i++) {
    free (raster[i]);
    free (src[i]);
    free (side[i]);
    free (dirty[i]);
  }
  for (i = 0; i < 8; i++)
    free (dst[i]);
  return 0;
}
