/* backend_cuda.c - the port table the logic gets (port/backend.h): each
 * entry's CUDA function (cuda_ops.h, graph_realise.h), the ones that may
 * make a call CUDA deems unsafe during a program's stream capture wrapped
 * to run in relaxed capture mode (capture_mode.h). */
#include "cuda/backend_cuda.h"

#include "cuda/capture_mode.h"
#include "cuda/cuda_ops.h"
#include "cuda/driver_launch.h"
#include "cuda/graph_realise.h"
#include "cuda/host_bytes.h"
#include "cuda/nvtx_ranges.h"
#include "cuda/verify_ops.h"
#include "cuda/while_graph.h"

/* Every entry once.  RELAXED / RELAXED_VOID: the entry may make an unsafe
 * call (memory, event creation and queries, synchronization, graph build
 * and instantiation with the loaders' module load, destruction, kernel
 * queries that may load a module lazily, a WHILE graph's build with the
 * condition kernel's module load, verify mode's pointer queries,
 * copies to pageable host memory and stream synchronization); it runs pygraph_cuda_<name> in
 * relaxed mode.  DIRECT: pygraph_cuda_<name> itself, making no unsafe call:
 * eager execution and the steady state (node updates, argument refreshes,
 * graph launches, event records) pay nothing.  A new unsafe call is one
 * RELAXED line here. */
#define CUDA_ENTRIES(DIRECT, RELAXED, RELAXED_VOID)                                               \
  DIRECT(execute)                                                                                 \
  RELAXED(param_layout, struct pygraph_param_layout *, (const void *func, unsigned arg_slots),    \
          (func, arg_slots))                                                                      \
  RELAXED(driver_param_layout, struct pygraph_param_layout *,                                     \
          (const void *func, unsigned arg_slots), (func, arg_slots))                              \
  DIRECT(driver_context_ok)                                                                       \
  DIRECT(both_device_memory)                                                                      \
  RELAXED(func_attribute_holds, int, (const void *func, int attr, int value),                     \
          (func, attr, value))                                                                    \
  DIRECT(host_only_memory)                                                                        \
  DIRECT(host_bytes_source)            /* its module load relaxes itself, once */                 \
  DIRECT(device_range)                                                                            \
  DIRECT(symbol_range)                 /* a symbol's first lookup relaxes itself */               \
  RELAXED(graph_build, cudaError_t,                                                               \
          (const struct pygraph_op_list *ops, const struct pygraph_graph_plan *plan,              \
           const struct pygraph_indirect_graph *ind, void **graph),                               \
          (ops, plan, ind, graph))                                                                \
  RELAXED(while_graph_build, cudaError_t,                                                         \
          (const struct pygraph_op_list *ops, const struct pygraph_graph_plan *plan,              \
           const struct pygraph_indirect_graph *ind, const struct pygraph_while_spec *spec,       \
           void **graph, const char **step),                                                      \
          (ops, plan, ind, spec, graph, step))                                                    \
  RELAXED(graph_instantiate, cudaError_t, (void *graph, void *previous), (graph, previous))       \
  DIRECT(graph_update_node)                                                                       \
  DIRECT(graph_launch)                                                                            \
  RELAXED_VOID(graph_destroy, (void *graph), (graph))                                             \
  RELAXED(twin_check, const char *, (const void *twin, struct pygraph_twin_info *info),           \
          (twin, info))                                                                           \
  RELAXED(device_alloc, cudaError_t, (void **ptr, size_t size), (ptr, size))                      \
  RELAXED_VOID(device_free, (void *ptr), (ptr))                                                   \
  DIRECT(graph_set_args)                                                                          \
  RELAXED(graph_synchronize, int, (void *graph), (graph))                                         \
  RELAXED(resident_blocks, cudaError_t,                                                           \
          (const void *func, unsigned threads, size_t smem, long long *blocks),                   \
          (func, threads, smem, blocks))                                                          \
  RELAXED(allocation_of, int, (const void *ptr, void **base, size_t *size), (ptr, base, size))   \
  RELAXED(memory_copy, cudaError_t, (void *dst, const void *src, size_t size, cudaStream_t stream), \
          (dst, src, size, stream))                                                               \
  RELAXED(stream_synchronize, cudaError_t, (cudaStream_t stream), (stream))                      \
  DIRECT(event_destroy)                                                                           \
  DIRECT(event_times)                                                                             \
  RELAXED(timing_event_create, cudaError_t, (cudaEvent_t * event), (event))                       \
  DIRECT(event_record)                                                                            \
  RELAXED(event_query, cudaError_t, (cudaEvent_t event), (event))                                 \
  RELAXED(event_elapsed_ms, cudaError_t, (float *ms, cudaEvent_t start, cudaEvent_t end),         \
          (ms, start, end))                                                                       \
  DIRECT(now_us)                                                                                  \
  DIRECT(stream_captured)                                                                         \
  DIRECT(clear_error)                                                                             \
  DIRECT(error_name)                                                                              \
  DIRECT(get_device)                                                                              \
  DIRECT(set_device)                                                                              \
  DIRECT(pointer_device)                                                                          \
  DIRECT(range_push)                                                                              \
  DIRECT(range_pop)                                                                               \
  DIRECT(range_tool)

#define NO_WRAPPER(name)
CUDA_ENTRIES(NO_WRAPPER, PYGRAPH_RELAXED, PYGRAPH_RELAXED_VOID)

/* Every member of the port is a function pointer, and each is listed. */
#define ONE(...) +1
_Static_assert(0 CUDA_ENTRIES(ONE, ONE, ONE) ==
                   sizeof(struct pygraph_backend) / sizeof(void (*)(void)),
               "CUDA_ENTRIES lists every port entry once");

#define AS_IS(name) .name = pygraph_cuda_##name,
#define WRAPPED(name, ...) .name = pygraph_relaxed_##name,
const struct pygraph_backend pygraph_cuda_backend = {CUDA_ENTRIES(AS_IS, WRAPPED, WRAPPED)};
