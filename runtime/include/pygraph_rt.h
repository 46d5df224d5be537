/* pygraph_rt.h - the ABI between the pygraph compiler pass and its runtime.
 *
 * The pass emits calls to these entry points; nothing else in a user's
 * program refers to them.  Layout changes must bump PYGRAPH_ABI_VERSION,
 * because descriptors are emitted as constant data by the compiler: the
 * runtime reads a region's abi_version (its first field, at the same place
 * in every version) before anything else and runs a region of another
 * version eagerly, untouched.
 *
 * Routed calls: every CUDA stream operation the pass may defer is replaced by
 * "__pygraph_" + <CUDA symbol> with one extra leading `const pygraph_site *`
 * argument; the remaining arguments are exactly the CUDA function's.  Outside
 * an open region a routed call forwards to the CUDA function unchanged.
 *
 * The declarations and layouts below are expanded from pygraph_abi.def, the
 * list the pass's instrumenter and CUDA API table expand too.
 */
#ifndef PYGRAPH_RT_H
#define PYGRAPH_RT_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PYGRAPH_ABI_VERSION, PYGRAPH_ROUTED_PREFIX, enum pygraph_region_kind */
#include "pygraph_abi.h"

/* struct pygraph_site: one per routed call site; struct pygraph_region:
 * one per region the pass formed (fields and their meaning:
 * pygraph_abi.def). */
typedef struct pygraph_site {
#define PYGRAPH_SITE_FIELD(type, name, ir) type name;
#include "pygraph_abi.def"
} pygraph_site;

/* A loop that can run whole as one conditional graph, its exit-test
 * nodes and its operands' evolution (CUDA-free, for device code too). */
#include "pygraph_whole_loop.h"

typedef struct pygraph_region {
#define PYGRAPH_REGION_FIELD(type, name, ir) type name;
#include "pygraph_abi.def"
} pygraph_region;

/* Region protocol.  The pass guarantees: every instruction that may
 * synchronize with the device or observe its results is preceded by
 * __pygraph_region_end for any region that may be open at that point.
 * begin(r, s) opens segment s of r; a begin while another region is open
 * nests (a callee's region inside its caller's) and is ignored; end(r)
 * closes r only when r is the innermost open region and is a no-op
 * otherwise.
 *
 * Batchable loops (kind PYGRAPH_REGION_BATCH, one segment, index 0):
 * loop_enter(r, trips) runs each time the loop is entered (trips: the most
 * iterations it runs from there, -1 when unknown); begin(r, 0) opens each
 * iteration and end(r) closes it; exit(r) is called on every path out of
 * the loop (normal exits, returns, unwinding through invokes) before
 * anything else runs.  The pass guarantees that between enter and exit
 * nothing may synchronize with the device, observe its results or write
 * memory a kernel might read, and that no call unwinds past the exits: the
 * runtime may therefore keep an iteration's work deferred past its end(r)
 * and launch several iterations as one graph; exit(r) runs what is still
 * deferred.  For a region nested in another one, enter is ignored and exit
 * acts as end.
 *
 * Across files: a call of an external function that may be defined by
 * another file compiled with pygraph stays inside its segment, preceded by
 * external_call(r, s, aware): r and s name the live region (the caller's)
 * and a segment of r reserved for the rest of the iteration, or are NULL, 0
 * when the call is in no instrumented segment; `aware` is the address of the
 * callee's `__pygraph_aware.<symbol>` marker, NULL when no file compiled with
 * pygraph defined it.  A file compiled with pygraph defines that marker for
 * each of its external functions and calls barrier_point() right before
 * every instruction that may synchronize or observe the device, in every
 * host function (after any end(r) there).  The runtime splits a live
 * iteration at an external call whose callee has no marker and at every
 * barrier point: what was deferred runs, and the rest of the iteration is
 * recorded in the reserved segment of the last external call of that region
 * (or passes through when there is none).
 *
 * Whole loops (issue 17): a loop whose descriptor `wl` is on r's
 * whole_loop list: r's own loop (wl->nested == 0) or a loop inside it
 * (wl->nested == 1).  The pass guarantees:
 *   - enter(r, wl, inv) runs each time the loop is entered, last before
 *     its first iteration, with no region of the thread open but, for a
 *     nested loop, r itself (the runtime ends r's iteration before it
 *     launches the loop's graph: what r deferred runs first, and the rest
 *     of r's iteration passes through); inv[k] holds
 *     the bits of invariant k as the loop sees it (pygraph_abi.h: integers
 *     and pointers zero-extended, F32/F64 their IEEE bits, BYTES 0);
 *   - try(r, wl, &left) runs at the top of every iteration, before anything
 *     else of it (its region's begin too);
 *   - exit(r, wl, tests) runs first on every path out of the loop; `tests`
 *     has bit k set when exit test k's branch leads to this exit (0: an
 *     exit no test takes, an error path);
 *   - the status copy is routed (__pygraph_cudaMemcpy[_ptds],
 *     __pygraph_cudaMemcpyAsync[_ptsz]) although it stays a barrier: no
 *     region is open at it.
 * try answers -1: the iteration runs as written.  k >= 0: the runtime ran
 * every remaining iteration of the loop; the last one was number *left
 * (counted from 0 at the entry) and exit test k (descriptor order) left
 * it; the status copy's host destination holds the last copy's bytes.
 * The pass then continues at the exit that test k's branch leads to, with the
 * loop's values as that exit sees them in iteration *left.  The runtime
 * answers k only after it verified the loop's earlier executions (see
 * runtime/README.md, Whole-loop graphs).
 *
 * Routed launches and the stream operations a graph can hold follow. */
#define PYGRAPH_PROTOCOL_CALL(name, n, ir, ...) void __pygraph_##name(__VA_ARGS__);
#define PYGRAPH_LOOP_CALL(ret, ir_ret, name, n, ir, ...) ret __pygraph_##name(__VA_ARGS__);
#define PYGRAPH_ROUTED_CALL(ret, symbol, ...) \
  ret __pygraph_##symbol(const pygraph_site *site, __VA_ARGS__);
#include "pygraph_abi.def"

#ifdef __cplusplus
}
#endif
#endif /* PYGRAPH_RT_H */
