/* gst-vmi tests: the registry of named engines
 * (gst/transport/vmi-engine-registry.h) the shared transmit and receive
 * engines are found, joined and left in, pure C: find or create by name,
 * the lowest free id per engine, a full engine, the last member out
 * freeing its engine (and only then), engines of one name after another,
 * and a random run of joins and leaves against a model. */

#include <glib.h>

#include "transport/vmi-engine-registry.h"

typedef struct
{
  VmiEngineEntry entry;
  guint *freed;
} Engine;

static void
engine_free (VmiEngineEntry * entry)
{
  Engine *e = (Engine *) entry;

  (*e->freed)++;
  g_free (e->entry.name);
  g_free (e);
}

static Engine *
engine_new (VmiEngineRegistry * r, const gchar * name, guint * freed)
{
  Engine *e = g_new0 (Engine, 1);

  e->entry.name = g_strdup (name);
  e->freed = freed;
  vmi_engine_registry_add (r, &e->entry);
  return e;
}

static void
test_find_join_leave (void)
{
  static VmiEngineRegistry r = VMI_ENGINE_REGISTRY_INIT (engine_free);
  guint freed = 0;
  Engine *a, *b;

  vmi_engine_registry_lock (&r);
  g_assert_null (vmi_engine_registry_find (&r, "a"));
  a = engine_new (&r, "a", &freed);
  b = engine_new (&r, "b", &freed);
  g_assert_true (vmi_engine_registry_find (&r, "a") == &a->entry);
  g_assert_true (vmi_engine_registry_find (&r, "b") == &b->entry);
  /* ids per engine, lowest free first */
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 64), ==, 0);
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 64), ==, 1);
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 64), ==, 2);
  g_assert_cmpint (vmi_engine_registry_join (&r, &b->entry, 64), ==, 0);
  vmi_engine_registry_unlock (&r);
  g_assert_cmpuint (vmi_engine_registry_count (&r, "a"), ==, 3);
  g_assert_cmpuint (vmi_engine_registry_count (&r, "b"), ==, 1);
  g_assert_cmpuint (vmi_engine_registry_count (&r, "c"), ==, 0);

  vmi_engine_registry_lock (&r);
  g_assert_false (vmi_engine_registry_leave (&r, &a->entry, 1));
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 64), ==, 1);
  g_assert_false (vmi_engine_registry_leave (&r, &a->entry, 0));
  g_assert_false (vmi_engine_registry_leave (&r, &a->entry, 2));
  g_assert_cmpuint (freed, ==, 0);
  /* the last one out frees its engine, the other stays */
  g_assert_true (vmi_engine_registry_leave (&r, &a->entry, 1));
  g_assert_cmpuint (freed, ==, 1);
  g_assert_null (vmi_engine_registry_find (&r, "a"));
  g_assert_true (vmi_engine_registry_find (&r, "b") == &b->entry);
  /* the name again: a new engine, ids from 0 */
  a = engine_new (&r, "a", &freed);
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 64), ==, 0);
  g_assert_true (vmi_engine_registry_leave (&r, &a->entry, 0));
  g_assert_true (vmi_engine_registry_leave (&r, &b->entry, 0));
  g_assert_cmpuint (freed, ==, 3);
  vmi_engine_registry_unlock (&r);
  g_assert_cmpuint (vmi_engine_registry_count (&r, "b"), ==, 0);
}

static void
test_full (void)
{
  static VmiEngineRegistry r = VMI_ENGINE_REGISTRY_INIT (engine_free);
  guint freed = 0, i;
  Engine *a, *b;

  vmi_engine_registry_lock (&r);
  a = engine_new (&r, "a", &freed);
  for (i = 0; i < VMI_ENGINE_REGISTRY_MAX_IDS; i++)
    g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 1000), ==, i);
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 1000), ==, -1);
  g_assert_cmpuint (a->entry.members, ==, VMI_ENGINE_REGISTRY_MAX_IDS);
  /* a smaller limit */
  b = engine_new (&r, "b", &freed);
  g_assert_cmpint (vmi_engine_registry_join (&r, &b->entry, 2), ==, 0);
  g_assert_cmpint (vmi_engine_registry_join (&r, &b->entry, 2), ==, 1);
  g_assert_cmpint (vmi_engine_registry_join (&r, &b->entry, 2), ==, -1);
  g_assert_cmpuint (b->entry.members, ==, 2);
  /* the highest id comes free and is handed out again */
  g_assert_false (vmi_engine_registry_leave (&r, &a->entry, 63));
  g_assert_cmpint (vmi_engine_registry_join (&r, &a->entry, 1000), ==, 63);
  for (i = 0; i < VMI_ENGINE_REGISTRY_MAX_IDS; i++)
    g_assert_cmpint (vmi_engine_registry_leave (&r, &a->entry, i), ==,
        i == VMI_ENGINE_REGISTRY_MAX_IDS - 1);
  g_assert_true (!vmi_engine_registry_leave (&r, &b->entry, 1)
      && vmi_engine_registry_leave (&r, &b->entry, 0));
  g_assert_cmpuint (freed, ==, 2);
  vmi_engine_registry_unlock (&r);
}

/* 20,000 random joins and leaves over 4 names against a model: ids, member
 * counts, and when engines are freed */
static void
test_random (void)
{
  static VmiEngineRegistry r = VMI_ENGINE_REGISTRY_INIT (engine_free);
  const gchar *names[] = { "e0", "e1", "e2", "e3" };
  gboolean held[4][8] = { {0} };
  guint n_held[4] = { 0 }, freed = 0, model_freed = 0, step, k;
  GRand *rand = g_rand_new_with_seed (29);

  vmi_engine_registry_lock (&r);
  for (step = 0; step < 20000; step++) {
    guint e = g_rand_int_range (rand, 0, 4);
    Engine *en = (Engine *) vmi_engine_registry_find (&r, names[e]);
    guint id = g_rand_int_range (rand, 0, 8);

    g_assert_true ((en != NULL) == (n_held[e] > 0));
    if (!held[e][id]) {
      guint want = 0;
      gint got;

      while (want < 8 && held[e][want])
        want++;
      if (en == NULL)
        en = engine_new (&r, names[e], &freed);
      got = vmi_engine_registry_join (&r, &en->entry, 8);
      g_assert_cmpint (got, ==, want < 8 ? (gint) want : -1);
      if (got >= 0) {
        held[e][got] = TRUE;
        n_held[e]++;
      }
    } else {
      gboolean last = n_held[e] == 1;

      held[e][id] = FALSE;
      n_held[e]--;
      g_assert_cmpint (vmi_engine_registry_leave (&r, &en->entry, id), ==,
          last);
      model_freed += last;
    }
    g_assert_cmpuint (freed, ==, model_freed);
    en = (Engine *) vmi_engine_registry_find (&r, names[e]);
    if (en)
      g_assert_cmpuint (en->entry.members, ==, n_held[e]);
  }
  /* everyone leaves */
  for (k = 0; k < 4; k++) {
    Engine *en = (Engine *) vmi_engine_registry_find (&r, names[k]);
    guint id;

    for (id = 0; id < 8; id++)
      if (held[k][id])
        vmi_engine_registry_leave (&r, &en->entry, id);
    g_assert_null (vmi_engine_registry_find (&r, names[k]));
  }
  vmi_engine_registry_unlock (&r);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine-registry/find-join-leave", test_find_join_leave);
  g_test_add_func ("/engine-registry/full", test_full);
  g_test_add_func ("/engine-registry/random", test_random);
  return g_test_run ();
}
