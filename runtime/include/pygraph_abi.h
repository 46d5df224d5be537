/* pygraph_abi.h - the constants of the pass/runtime ABI, without CUDA.
 *
 * The compiler pass includes this (and pygraph_abi.def) but not
 * pygraph_rt.h, which needs the CUDA headers.  Layout changes must bump
 * PYGRAPH_ABI_VERSION, because descriptors are emitted as constant data by
 * the compiler.
 */
#ifndef PYGRAPH_ABI_H
#define PYGRAPH_ABI_H

#define PYGRAPH_ABI_VERSION 3u

/* A routed call is "__pygraph_" + <CUDA symbol>. */
#define PYGRAPH_ROUTED_PREFIX "__pygraph_"

enum pygraph_region_kind {
  PYGRAPH_REGION_LOOP = 0,       /* one loop iteration (split at barriers) */
  PYGRAPH_REGION_STRAIGHT = 1,   /* a run of launches outside loops */
  PYGRAPH_REGION_BATCH = 2       /* a barrier-free loop: iterations recorded in batches,
                                    one graph launch per batch (pygraph_rt.h) */
};

/* The IR kinds of descriptor fields and protocol parameters in
 * pygraph_abi.def, as the pass emits them: PTR is an address-space-0
 * pointer, U32 an i32, I64 an i64, laid out like a plain (not packed)
 * struct of the host's data layout. */

#endif /* PYGRAPH_ABI_H */
