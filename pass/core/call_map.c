/* call_map.c - the host module's classified instructions, by instruction. */
#include "call_map.h"
#include "ir_util.h"

#include <stdint.h>
#include <string.h>

static size_t slot_of(size_t nslots, LLVMValueRef key) {
  /* Fibonacci hashing of the address; nslots is a power of two. */
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20) & (nslots - 1);
}

/* An open-addressing index of n keys, key(i) for i < n: slot = i + 1, 0 empty. */
typedef LLVMValueRef (*pg_key_of)(const pg_call_map *map, unsigned i);

static unsigned *index_keys(const pg_call_map *map, unsigned n, pg_key_of key, size_t *nslots) {
  *nslots = 16;
  while (*nslots < 2 * (size_t)n)
    *nslots *= 2;
  unsigned *slots = calloc(*nslots, sizeof *slots);
  if (!slots)
    pg_out_of_memory();
  for (unsigned i = 0; i < n; ++i) {
    size_t s = slot_of(*nslots, key(map, i));
    while (slots[s])
      s = (s + 1) & (*nslots - 1);
    slots[s] = i + 1;
  }
  return slots;
}

static LLVMValueRef call_key(const pg_call_map *map, unsigned i) { return map->calls[i].inst; }
static LLVMValueRef fn_key(const pg_call_map *map, unsigned i) { return map->fns[i].fn; }

static void add_function(pg_call_map *map, LLVMValueRef fn) {
  pg_fn_calls range = {fn, map->n, 0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      pg_call_info ci;
      pg_classify(map->cls, i, &ci);
      if (ci.kind != PG_CALL_HARMLESS)
        PG_PUSH(map->calls, map->n, map->cap, ci);
    }
  range.n = map->n - range.first;
  PG_PUSH(map->fns, map->nfns, map->capfns, range);
}

void pg_call_map_build(pg_call_map *map, const pg_classifier *c, LLVMModuleRef m) {
  memset(map, 0, sizeof *map);
  map->cls = c;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      add_function(map, f);
  map->slots = index_keys(map, map->n, call_key, &map->nslots);
  map->fn_slots = index_keys(map, map->nfns, fn_key, &map->nfn_slots);
}

void pg_call_map_free(pg_call_map *map) {
  free(map->calls);
  free(map->fns);
  free(map->slots);
  free(map->fn_slots);
  memset(map, 0, sizeof *map);
}

const pg_call_info *pg_call_at(const pg_call_map *map, LLVMValueRef inst) {
  static const pg_call_info kHarmless = {NULL, PG_CALL_HARMLESS, PG_WHY_NONE, NULL, NULL, NULL};
  for (size_t s = slot_of(map->nslots, inst); map->slots[s]; s = (s + 1) & (map->nslots - 1))
    if (map->calls[map->slots[s] - 1].inst == inst)
      return &map->calls[map->slots[s] - 1];
  return &kHarmless;
}

const pg_call_info *pg_calls_in(const pg_call_map *map, LLVMValueRef fn, unsigned *n) {
  for (size_t s = slot_of(map->nfn_slots, fn); map->fn_slots[s];
       s = (s + 1) & (map->nfn_slots - 1)) {
    const pg_fn_calls *range = &map->fns[map->fn_slots[s] - 1];
    if (range->fn == fn) {
      *n = range->n;
      return map->calls + range->first;
    }
  }
  *n = 0;
  return map->calls;
}
