/* call_map.c - the host module's classified instructions, by instruction. */
#include "call_map.h"
#include "ir_util.h"

#include <stdint.h>
#include <string.h>

static size_t slot_of(const pg_call_map *map, LLVMValueRef inst) {
  /* Fibonacci hashing of the address; nslots is a power of two. */
  uint64_t h = (uint64_t)(uintptr_t)inst * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 20) & (map->nslots - 1);
}

static void index_calls(pg_call_map *map) {
  map->nslots = 16;
  while (map->nslots < 2 * (size_t)map->n)
    map->nslots *= 2;
  map->slots = calloc(map->nslots, sizeof *map->slots);
  for (unsigned i = 0; i < map->n; ++i) {
    size_t s = slot_of(map, map->calls[i].inst);
    while (map->slots[s])
      s = (s + 1) & (map->nslots - 1);
    map->slots[s] = i + 1;
  }
}

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
  index_calls(map);
}

void pg_call_map_free(pg_call_map *map) {
  free(map->calls);
  free(map->fns);
  free(map->slots);
  memset(map, 0, sizeof *map);
}

const pg_call_info *pg_call_at(const pg_call_map *map, LLVMValueRef inst) {
  static const pg_call_info kHarmless = {NULL, PG_CALL_HARMLESS, PG_WHY_NONE, NULL, NULL, NULL};
  for (size_t s = slot_of(map, inst); map->slots[s]; s = (s + 1) & (map->nslots - 1))
    if (map->calls[map->slots[s] - 1].inst == inst)
      return &map->calls[map->slots[s] - 1];
  return &kHarmless;
}

const pg_call_info *pg_calls_in(const pg_call_map *map, LLVMValueRef fn, unsigned *n) {
  for (unsigned i = 0; i < map->nfns; ++i)
    if (map->fns[i].fn == fn) {
      *n = map->fns[i].n;
      return map->calls + map->fns[i].first;
    }
  *n = 0;
  return map->calls;
}
