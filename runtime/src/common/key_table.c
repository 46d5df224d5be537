/* key_table.c - open addressing for the runtime's caches (key_table.h). */
#include "common/key_table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int same_key(const struct pygraph_table_key *x, const struct pygraph_table_key *y)
{
  return x->ptr == y->ptr && x->a == y->a && x->b == y->b;
}

static size_t home_slot(const struct pygraph_table_key *key, size_t cap)
{
  uint64_t h = (uint64_t)(uintptr_t)key->ptr ^ ((uint64_t)key->a << 40) ^ (uint64_t)key->b;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

/* The slot holding `key`, or the empty one where it would go. */
static struct pygraph_table_key *probe(unsigned char *slots, size_t entry_size, size_t cap,
                                       const struct pygraph_table_key *key)
{
  for (size_t i = home_slot(key, cap);; i = (i + 1) & (cap - 1)) {
    struct pygraph_table_key *k = (struct pygraph_table_key *)(slots + i * entry_size);
    if (!k->ptr || same_key(k, key))
      return k;
  }
}

void *pygraph_key_table_find(const struct pygraph_key_table *t, struct pygraph_table_key key)
{
  if (!t->cap)
    return NULL;
  struct pygraph_table_key *k = probe(t->slots, t->entry_size, t->cap, &key);
  return k->ptr ? k : NULL;
}

static int grow(struct pygraph_key_table *t)
{
  size_t cap = t->cap ? t->cap * 2 : 64;
  unsigned char *slots = calloc(cap, t->entry_size);
  if (!slots)
    return -1;
  for (size_t i = 0; i < t->cap; i++) {
    const struct pygraph_table_key *k =
        (const struct pygraph_table_key *)(t->slots + i * t->entry_size);
    if (k->ptr)
      memcpy(probe(slots, t->entry_size, cap, k), k, t->entry_size);
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
  return 0;
}

void *pygraph_key_table_insert(struct pygraph_key_table *t, struct pygraph_table_key key)
{
  if ((t->n + 1) * 2 > t->cap && grow(t) != 0)
    return NULL;
  struct pygraph_table_key *k = probe(t->slots, t->entry_size, t->cap, &key);
  *k = key;
  t->n++;
  return k;
}
