/* test_key_table.c - the caches' shared hash table: entries survive growth,
 * keys that differ only in their numbers are apart, absent keys are absent. */
#include <stdlib.h>

#include "check.h"
#include "common/key_table.h"

struct entry {
  struct pygraph_table_key key;
  int value;
};

static void test_grows_and_finds(void)
{
  static char objects[300];
  struct pygraph_key_table t = PYGRAPH_KEY_TABLE_INIT(struct entry);
  CHECK(pygraph_key_table_find(&t, (struct pygraph_table_key){objects, 0, 0}) == NULL);
  for (int i = 0; i < 300; i++) {            /* past 64 slots: several growths */
    struct entry *e = pygraph_key_table_insert(&t, (struct pygraph_table_key){&objects[i], 0, 0});
    CHECK(e && e->key.ptr == &objects[i] && e->value == 0);
    if (e)
      e->value = i + 1;
  }
  int all = 1;
  for (int i = 0; i < 300; i++) {
    struct entry *e = pygraph_key_table_find(&t, (struct pygraph_table_key){&objects[i], 0, 0});
    all &= e && e->value == i + 1;
  }
  CHECK(all);
  CHECK(t.n == 300 && t.cap >= 600);
  free(t.slots);
}

static void test_numbers_are_part_of_the_key(void)
{
  static char kernel;
  struct pygraph_key_table t = PYGRAPH_KEY_TABLE_INIT(struct entry);
  struct entry *a = pygraph_key_table_insert(&t, (struct pygraph_table_key){&kernel, 256, 0});
  struct entry *b = pygraph_key_table_insert(&t, (struct pygraph_table_key){&kernel, 256, 4096});
  CHECK(a && b);
  if (a && b) {
    a->value = 1;
    b->value = 2;
  }
  struct entry *fa = pygraph_key_table_find(&t, (struct pygraph_table_key){&kernel, 256, 0});
  struct entry *fb = pygraph_key_table_find(&t, (struct pygraph_table_key){&kernel, 256, 4096});
  CHECK(fa && fa->value == 1 && fb && fb->value == 2);
  CHECK(pygraph_key_table_find(&t, (struct pygraph_table_key){&kernel, 128, 0}) == NULL);
  free(t.slots);
}

int main(void)
{
  test_grows_and_finds();
  test_numbers_are_part_of_the_key();
  return check_finish();
}
