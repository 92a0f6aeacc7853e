/* gst-vmi: a raw vMI consumer for tests (speaks the protocol with the pure-C
 * core directly, so tests can check what vmisink sends byte by byte and
 * misbehave on purpose). Header-only: static functions. */

#ifndef __VMI_TEST_CLIENT_H__
#define __VMI_TEST_CLIENT_H__

#include <glib.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmi-protocol.h"

typedef struct
{
  int fd;
  GHashTable *maps;             /* id -> TestMap */
  guint8 buf[VMI_PROTO_MAX_MSG];
  gchar *caps;
} TestClient;

typedef struct
{
  guint8 *data;
  gsize size;
} TestMap;

static void
test_map_free (gpointer p)
{
  TestMap *m = p;
  munmap (m->data, m->size);
  g_free (m);
}

/* Connects to the vmisink serving @path. Once set_state() has taken the
 * sink past READY its socket listens (start() made it), so there is nothing
 * to wait for: one attempt. */
static G_GNUC_UNUSED TestClient *
test_client_connect (const gchar * path)
{
  TestClient *c;
  int fd = vmi_socket_connect (path);

  if (fd < 0)
    return NULL;
  c = g_new0 (TestClient, 1);
  c->fd = fd;
  c->maps = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
      test_map_free);
  return c;
}

static G_GNUC_UNUSED void
test_client_free (TestClient * c)
{
  if (c->fd >= 0)
    close (c->fd);
  g_hash_table_destroy (c->maps);
  g_free (c->caps);
  g_free (c);
}

/* Next message (MEMORY ones are mapped and kept). Returns FALSE on timeout
 * or disconnect. */
static G_GNUC_UNUSED gboolean
test_client_next (TestClient * c, VmiMsg * m, gint timeout_ms)
{
  struct pollfd p = { c->fd, POLLIN, 0 };
  const char *why = NULL;
  gssize r;
  int fd = -1;

  if (poll (&p, 1, timeout_ms) <= 0)
    return FALSE;
  r = vmi_socket_recv (c->fd, c->buf, sizeof (c->buf), &fd, FALSE);
  if (r <= 0)
    return FALSE;
  if (!vmi_msg_parse (c->buf, r, m, &why))
    g_error ("vmisink sent a malformed message: %s", why);
  if (m->type == VMI_MSG_MEMORY) {
    TestMap *map = g_new0 (TestMap, 1);
    guint64 *id = g_new (guint64, 1);
    if (fd < 0 || !vmi_check_memfd (fd, m->u.memory.size, &why))
      g_error ("bad MEMORY from vmisink: %s", why ? why : "no fd");
    map->size = m->u.memory.size;
    map->data = mmap (NULL, map->size, PROT_READ, MAP_SHARED, fd, 0);
    g_assert (map->data != MAP_FAILED);
    *id = m->u.memory.id;
    g_hash_table_insert (c->maps, id, map);
    close (fd);
  } else if (fd >= 0) {
    g_error ("vmisink attached an fd to message type %d", m->type);
  }
  if (m->type == VMI_MSG_CAPS) {
    g_free (c->caps);
    c->caps = g_strdup (m->u.caps.str);
  }
  return TRUE;
}

/* Next FRAME, skipping HELLO/CAPS/MEMORY/FORGET. */
static G_GNUC_UNUSED gboolean
test_client_next_frame (TestClient * c, VmiFrameInfo * f, gint timeout_ms)
{
  VmiMsg m;

  while (test_client_next (c, &m, timeout_ms)) {
    if (m.type == VMI_MSG_FRAME) {
      *f = m.u.frame;
      return TRUE;
    }
    if (m.type == VMI_MSG_FORGET)
      g_hash_table_remove (c->maps, &m.u.forget.id);
    if (m.type == VMI_MSG_EOS)
      return FALSE;
  }
  return FALSE;
}

/* The bytes of memory @i of frame @f. */
static G_GNUC_UNUSED const guint8 *
test_client_frame_data (TestClient * c, const VmiFrameInfo * f, guint i)
{
  TestMap *map = g_hash_table_lookup (c->maps, &f->mems[i].id);

  g_assert (map != NULL);
  g_assert (vmi_range_ok (f->mems[i].offset, f->mems[i].size, map->size));
  return map->data + f->mems[i].offset;
}

static G_GNUC_UNUSED gboolean
test_client_release (TestClient * c, guint64 seq)
{
  VmiMsg m = {.type = VMI_MSG_RELEASE };
  guint8 b[64];
  gsize len;

  m.u.release.seq = seq;
  len = vmi_msg_pack (&m, b, sizeof (b));
  return vmi_socket_send (c->fd, b, len, -1, FALSE) == (gssize) len;
}

#endif /* __VMI_TEST_CLIENT_H__ */
