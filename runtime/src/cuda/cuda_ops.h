/* cuda_ops.h - the CUDA calls behind the port's eager and query entries
 * (port/backend.h says what each does): running a recorded op, kernel and
 * pointer queries, twin and occupancy queries, device memory, events, the
 * capture status of a stream, errors and the host clock.  These are the
 * raw calls: the port table (backend_cuda.c) wraps those CUDA deems unsafe
 * during a program's stream capture (capture_mode.h). */
#ifndef PYGRAPH_CUDA_OPS_H
#define PYGRAPH_CUDA_OPS_H

#include <cuda.h>

#include "port/backend.h"

cudaError_t pygraph_cuda_execute(const struct pygraph_op *op);
struct pygraph_param_layout *pygraph_cuda_param_layout(const void *func, unsigned arg_slots);
/* The layout of a CUfunction (cuFuncGetParamInfo), arg_slots as the port's
 * param_layout takes it; NULL when the driver cannot tell. */
struct pygraph_param_layout *pygraph_cuda_function_layout(CUfunction f, unsigned arg_slots);
struct pygraph_param_layout *pygraph_cuda_driver_param_layout(const void *func,
                                                              unsigned arg_slots);
int pygraph_cuda_both_device_memory(const void *dst, const void *src);
int pygraph_cuda_func_attribute_holds(const void *func, int attr, int value);
const char *pygraph_cuda_twin_check(const void *twin, struct pygraph_twin_info *info);
cudaError_t pygraph_cuda_resident_blocks(const void *func, unsigned threads, size_t smem,
                                         long long *blocks);
cudaError_t pygraph_cuda_device_alloc(void **ptr, size_t size);
void pygraph_cuda_device_free(void *ptr);
int pygraph_cuda_event_times(cudaEvent_t event);
void pygraph_cuda_event_destroy(cudaEvent_t event);
cudaError_t pygraph_cuda_timing_event_create(cudaEvent_t *event);
cudaError_t pygraph_cuda_event_record(cudaEvent_t event, cudaStream_t stream);
cudaError_t pygraph_cuda_event_query(cudaEvent_t event);
cudaError_t pygraph_cuda_event_elapsed_ms(float *ms, cudaEvent_t start, cudaEvent_t end);
double pygraph_cuda_now_us(void);
int pygraph_cuda_stream_captured(cudaStream_t stream);
void pygraph_cuda_clear_error(void);
const char *pygraph_cuda_error_name(cudaError_t err);
/* cudaGetDevice / cudaSetDevice (port/backend.h). */
cudaError_t pygraph_cuda_get_device(int *device);
cudaError_t pygraph_cuda_set_device(int device);
int pygraph_cuda_pointer_device(const void *ptr);

#endif /* PYGRAPH_CUDA_OPS_H */
