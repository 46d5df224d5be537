/* pygraph_nvcc_atomics.h - nvcc's __nv_atomic_* builtins (CUDA 12.8+), for clang.
 *
 * nvcc compiles __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED) and its siblings
 * itself (they are in no header); clang has the same operations as its
 * __scoped_atomic_* builtins.  pygraph-nvcc pre-includes this file in CUDA
 * compiles.  Each name is a macro, so order and scope stay the constants
 * the builtins need; the scope argument is optional, as in nvcc (default:
 * system).  Orders are C11's.  Scopes: thread, block and device map to
 * clang's single, work-group and device scopes; cluster, which clang lacks,
 * to the wider device scope (correct, possibly slower); system to system.
 *
 * Only loads, stores and fences are provided: clang 22 lowers them at the
 * scope asked or a wider one (ld.relaxed.sys, st.release.sys, fence.sc.sys).
 * It lowers a relaxed system-scope read-modify-write at device scope, narrower
 * than nvcc's, so __nv_atomic_fetch_*, _exchange and _compare_exchange stay
 * undeclared: clang's error names them rather than the program changing.
 */
#ifndef PYGRAPH_NVCC_ATOMICS_H
#define PYGRAPH_NVCC_ATOMICS_H
#if defined(__clang__) && defined(__CUDA__) && !defined(__NV_ATOMIC_RELAXED)
#define __NV_ATOMIC_RELAXED __ATOMIC_RELAXED
#define __NV_ATOMIC_CONSUME __ATOMIC_CONSUME
#define __NV_ATOMIC_ACQUIRE __ATOMIC_ACQUIRE
#define __NV_ATOMIC_RELEASE __ATOMIC_RELEASE
#define __NV_ATOMIC_ACQ_REL __ATOMIC_ACQ_REL
#define __NV_ATOMIC_SEQ_CST __ATOMIC_SEQ_CST
#define __NV_THREAD_SCOPE_THREAD __MEMORY_SCOPE_SINGLE
#define __NV_THREAD_SCOPE_BLOCK __MEMORY_SCOPE_WRKGRP
#define __NV_THREAD_SCOPE_CLUSTER __MEMORY_SCOPE_DEVICE
#define __NV_THREAD_SCOPE_DEVICE __MEMORY_SCOPE_DEVICE
#define __NV_THREAD_SCOPE_SYSTEM __MEMORY_SCOPE_SYSTEM
/* __nv_atomic_X(args...[, scope]): the system scope appended, then the first
 * scope given taken. */

#define __nv_atomic_load_n(...) __PG_NV_LOAD_N(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM, )
#define __PG_NV_LOAD_N(p, order, scope, ...) __scoped_atomic_load_n(p, order, scope)
#define __nv_atomic_load(...) __PG_NV_LOAD(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM, )
#define __PG_NV_LOAD(p, ret, order, scope, ...) __scoped_atomic_load(p, ret, order, scope)
#define __nv_atomic_store_n(...) __PG_NV_STORE_N(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM, )
#define __PG_NV_STORE_N(p, val, order, scope, ...) __scoped_atomic_store_n(p, val, order, scope)
#define __nv_atomic_store(...) __PG_NV_STORE(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM, )
#define __PG_NV_STORE(p, val, order, scope, ...) __scoped_atomic_store(p, val, order, scope)
#define __nv_atomic_thread_fence(...) __PG_NV_THREAD_FENCE(__VA_ARGS__, __MEMORY_SCOPE_SYSTEM, )
#define __PG_NV_THREAD_FENCE(order, scope, ...) __scoped_atomic_thread_fence(order, scope)
#endif
#endif /* PYGRAPH_NVCC_ATOMICS_H */
