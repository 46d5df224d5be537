/* verify_ranges.h - which memory a verification shadows (verify.h): the
 * allocations an iteration's ops are given, and the streams they use. */
#ifndef PYGRAPH_VERIFY_RANGES_H
#define PYGRAPH_VERIFY_RANGES_H

#include "segment/verify.h"

/* From vf->ops: vf->ranges (allocations, merged where they overlap, in the
 * order of their first use: op, then argument), vf->total, vf->streams and
 * vf->copy_stream (the legacy stream when an op uses it, so copies there
 * are ordered with the blocking streams as those ops are; else the first
 * op's).  Every pointer-aligned word of a kernel's argument block that
 * lies in an allocation counts; a memset's or memcpy's destination counts
 * as its allocation, or as the bytes it writes when none is known.  The
 * first value pointing into host memory CUDA knows sets vf->host_memory,
 * host_op and host_arg.  Returns 0, or -1 when out of memory. */
int pygraph_verify_collect(struct pygraph_verify *vf);

/* The name of op i of vf->ops for messages: its kernel's (mangled) name,
 * "kernel@<address>" without one, or cudaMemsetAsync / cudaMemcpyAsync. */
const char *pygraph_verify_op_name(const struct pygraph_verify *vf, size_t i, char *buf,
                                   size_t cap);

#endif /* PYGRAPH_VERIFY_RANGES_H */
