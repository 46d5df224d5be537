/* library_api_table.h - what each call of a library pygraph knows (cuBLAS,
 * cuFFT, cuSPARSE, NCCL) means to a graph region. */
#ifndef PYGRAPH_LIBRARY_API_TABLE_H
#define PYGRAPH_LIBRARY_API_TABLE_H

#include "cuda_api_table.h"

/* The entry of a cuBLAS or NCCL symbol: PG_API_LIBRARY for the calls the
 * runtime records (runtime/include/pygraph_library.def's
 * PYGRAPH_LIBRARY_CALL, PYGRAPH_NCCL_CALL, PYGRAPH_NCCL_GROUP),
 * PG_API_LIBRARY_OTHER for every other cublas* or nccl* symbol (the
 * observed ones by name, the rest as one family each); NULL for any other
 * name. */
const pg_api_entry *pg_library_lookup(const char *name);
/* 1 when the runtime provides __pygraph_<name> for a call it only
 * observes (PYGRAPH_LIBRARY_OBSERVED: it stays a barrier). */
int pg_library_observed(const char *name);
/* 1 for a recorded call with a RESULT parameter (dot, nrm2, ...): in host
 * pointer mode its result goes to host memory, and the runtime makes it at
 * once, a real synchronization. */
int pg_library_writes_result(const char *name);

#endif
