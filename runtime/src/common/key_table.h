/* key_table.h - the runtime's process-wide caches (kernel parameter
 * layouts, twin checks, occupancy answers), one hash table for all.
 *
 * Keys are a pointer and two numbers; entries are the caller's structs,
 * each beginning with its struct pygraph_table_key (a NULL pointer marks an
 * empty slot).  Open addressing, the capacity a power of 2, grown when half
 * full.  Not locked: each cache holds its own mutex, taken only off the
 * launch path (captures, a kernel's first sighting). */
#ifndef PYGRAPH_KEY_TABLE_H
#define PYGRAPH_KEY_TABLE_H

#include <stddef.h>

struct pygraph_table_key {
  const void *ptr;                  /* never NULL in an entry */
  unsigned long long a, b;
};

struct pygraph_key_table {
  unsigned char *slots;
  size_t entry_size;                /* sizeof the caller's entry struct */
  size_t n, cap;
};

#define PYGRAPH_KEY_TABLE_INIT(entry_type) {NULL, sizeof(entry_type), 0, 0}

/* The entry with `key`, or NULL. */
void *pygraph_key_table_find(const struct pygraph_key_table *t, struct pygraph_table_key key);

/* A new entry for `key` (not present yet), its key set, the rest zeroed;
 * NULL when out of memory (the caller then just does not cache). */
void *pygraph_key_table_insert(struct pygraph_key_table *t, struct pygraph_table_key key);

#endif
