/* nvtx_ranges.h - the port's range entries (port/backend.h) as NVTX ranges
 * in the "pygraph" domain, so Nsight Systems shows where region segments
 * run, capture and replay. */
#ifndef PYGRAPH_NVTX_RANGES_H
#define PYGRAPH_NVTX_RANGES_H

void pygraph_cuda_range_push(const char *name, unsigned argb);
void pygraph_cuda_range_pop(void);
/* 1 when a tool took the "pygraph" domain (NVTX found one), else 0. */
int pygraph_cuda_range_tool(void);

#endif /* PYGRAPH_NVTX_RANGES_H */
