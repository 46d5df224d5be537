/* library_api_table.c - the cuBLAS, cuFFT, cuSPARSE and NCCL calls pygraph knows, from the
 * one list the runtime implements them from
 * (runtime/include/pygraph_library.def).
 *
 * A listed call (PG_API_LIBRARY) enqueues its work on the handle's stream
 * and returns: the runtime records it inside a region and, in a graph,
 * makes it one node, a graph captured from cuBLAS (runtime/README.md,
 * Library calls).  Every other cublas* symbol is a barrier: handle and
 * stream management, the pointer and math modes, copies between host and
 * device (cublasSetMatrix, ...), calls whose results the host reads, and
 * everything pygraph has not looked at (cublasLt*, the legacy API without
 * a handle, batched solvers).  Executing one while calls before it are
 * deferred could reorder them, or read a handle state they change.
 *
 * cuFFT: the executions (cufftExec*) are recorded on the plan's stream;
 * cufftCreate, cufftPlan1d/2d/3d/Many, cufftSetStream and cufftDestroy are
 * observed barriers (the runtime keeps each plan's stream); every other
 * cufft* symbol is a barrier.
 *
 * cuSPARSE: cusparseSpMV and cusparseSpMM are recorded on the handle's
 * stream; the destruction of a handle or descriptor and the preprocessing
 * calls are observed barriers (no graph captured before one is replayed
 * after it); every other cusparse* symbol is a barrier.
 *
 * NCCL (issue 20): the collectives, ncclSend/ncclRecv and the group calls
 * are recorded (a group as one call, runtime/README.md); every other nccl*
 * symbol is a barrier: communicator creation (ncclCommInitRank needs every
 * rank at once and synchronizes), destruction, finalization and abort,
 * ncclGetUniqueId, error and property queries whose answers the host
 * reads (ncclCommGetAsyncError, ncclCommCount, ...), buffer registration. */
#include "library_api_table.h"

#include <string.h>

#define LIBRARY_WHY "cuBLAS call"
#define NCCL_WHY "NCCL call"
#define CUFFT_WHY "cuFFT call"
#define CUSPARSE_WHY "cuSPARSE call"

/* The calls the runtime records, then those it only observes. */
static const pg_api_entry kLibrary[] = {
#define PYGRAPH_LIBRARY_CALL(ret, symbol, n, ...) {#symbol, PG_API_LIBRARY, 0, LIBRARY_WHY, 0},
#include "pygraph_library.def"
#define PYGRAPH_LIBRARY_OBSERVED(ret, symbol, ...)                                               \
  {#symbol, PG_API_LIBRARY_OTHER, 0, LIBRARY_WHY, 0},
#include "pygraph_library.def"
#define PYGRAPH_NCCL_CALL(symbol, params, fields, call) {#symbol, PG_API_LIBRARY, 0, NCCL_WHY, 0},
#define PYGRAPH_NCCL_GROUP(symbol) {#symbol, PG_API_LIBRARY, 0, NCCL_WHY, 0},
#include "pygraph_library.def"
#define PYGRAPH_CUFFT_CALL(symbol, params, fields, call) {#symbol, PG_API_LIBRARY, 0, CUFFT_WHY, 0},
#define PYGRAPH_CUFFT_OBSERVED(symbol) {#symbol, PG_API_LIBRARY_OTHER, 0, CUFFT_WHY, 0},
#include "pygraph_library.def"
#define PYGRAPH_CUSPARSE_CALL(symbol) {#symbol, PG_API_LIBRARY, 0, CUSPARSE_WHY, 0},
#define PYGRAPH_CUSPARSE_OBSERVED(symbol) {#symbol, PG_API_LIBRARY_OTHER, 0, CUSPARSE_WHY, 0},
#include "pygraph_library.def"
};

/* Every other cuBLAS, NCCL, cuFFT or cuSPARSE symbol. */
static const pg_api_entry kLibraryFamilies[] = {
    {"cublas", PG_API_LIBRARY_OTHER, 0, LIBRARY_WHY, 0},
    {"nccl", PG_API_LIBRARY_OTHER, 0, NCCL_WHY, 0},
    {"cufft", PG_API_LIBRARY_OTHER, 0, CUFFT_WHY, 0},
    {"cusparse", PG_API_LIBRARY_OTHER, 0, CUSPARSE_WHY, 0},
};

/* The recorded calls' parameters as the list writes them, row by row with
 * kLibrary: (kind, C type, name, bytes) each. */
static const char *const kParameters[] = {
#define PYGRAPH_LIBRARY_CALL(ret, symbol, n, ...) #__VA_ARGS__,
#include "pygraph_library.def"
};

static const char *const kObserved[] = {
#define PYGRAPH_LIBRARY_OBSERVED(ret, symbol, ...) #symbol,
#define PYGRAPH_CUFFT_OBSERVED(symbol) #symbol,
#include "pygraph_library.def"
#define PYGRAPH_CUSPARSE_OBSERVED(symbol) #symbol,
#include "pygraph_library.def"
};

const pg_api_entry *pg_library_lookup(const char *name) {
  for (size_t i = 0; i < sizeof kLibrary / sizeof kLibrary[0]; ++i)
    if (strcmp(kLibrary[i].name, name) == 0)
      return &kLibrary[i];
  for (size_t i = 0; i < sizeof kLibraryFamilies / sizeof kLibraryFamilies[0]; ++i)
    if (strncmp(name, kLibraryFamilies[i].name, strlen(kLibraryFamilies[i].name)) == 0)
      return &kLibraryFamilies[i];
  return NULL;
}

int pg_library_observed(const char *name) {
  for (size_t i = 0; i < sizeof kObserved / sizeof kObserved[0]; ++i)
    if (strcmp(kObserved[i], name) == 0)
      return 1;
  return 0;
}

int pg_library_writes_result(const char *name) {
  for (size_t i = 0; i < sizeof kParameters / sizeof kParameters[0]; ++i)
    if (strcmp(kLibrary[i].name, name) == 0)
      return strstr(kParameters[i], "(RESULT,") != NULL;
  return 0;
}
