/* call_map.h - every host instruction that matters to regions, classified
 * once.
 *
 * Built after the classifier's summaries are final.  The region builder, the
 * host pass (remarks, callee coverage) and the instrumenter (rerouting) read
 * it instead of classifying again.  Instructions not in the map are
 * harmless.  Entries stay valid while the IR only gains instructions (loop
 * simplification and the begin/end calls do not move or erase calls; the
 * rerouting, which does erase them, walks the map last).
 */
#ifndef PYGRAPH_CALL_MAP_H
#define PYGRAPH_CALL_MAP_H

#include "call_classifier.h"

typedef struct pg_fn_calls {
  LLVMValueRef fn;
  unsigned first, n;         /* its entries: calls[first .. first + n) */
} pg_fn_calls;

typedef struct pg_call_map {
  const pg_classifier *cls;
  pg_call_info *calls;       /* module order, none harmless */
  unsigned n, cap;
  pg_fn_calls *fns;          /* defined functions, module order */
  unsigned nfns, capfns;
  unsigned *slots;           /* open addressing on calls[i].inst: i + 1, 0 empty */
  size_t nslots;
  unsigned *fn_slots;        /* the same on fns[i].fn (host_pass looks each function up) */
  size_t nfn_slots;
} pg_call_map;

void pg_call_map_build(pg_call_map *map, const pg_classifier *c, LLVMModuleRef m);
void pg_call_map_free(pg_call_map *map);
/* The entry of inst; a harmless one for instructions the map does not hold. */
const pg_call_info *pg_call_at(const pg_call_map *map, LLVMValueRef inst);
/* The entries of fn in instruction order (n = 0 for a declaration). */
const pg_call_info *pg_calls_in(const pg_call_map *map, LLVMValueRef fn, unsigned *n);

#endif
