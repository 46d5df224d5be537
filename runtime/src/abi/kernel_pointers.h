/* kernel_pointers.h - is a kernel pointer one of pygraph's stubs?
 *
 * A <<<>>> launch through a kernel pointer calls the kernel's host stub;
 * the stubs of a file compiled with pygraph launch through the runtime.
 * The pass gives each such launch its file's table of stubs
 * (pygraph_abi.def, kernel_pointer_call): a pointer in it is pygraph code,
 * any other (a stub of a file built without pygraph) is not. */
#ifndef PYGRAPH_KERNEL_POINTERS_H
#define PYGRAPH_KERNEL_POINTERS_H

#include "port/backend.h"
#include "pygraph_rt.h"

/* A launch through kernel pointer fn (pygraph_abi.def, kernel_pointer_call):
 * a checked external call (region_stack.h) whose callee is pygraph code
 * when fn is one of the n stubs. */
void pygraph_kernel_pointer_call_impl(const struct pygraph_backend *backend, pygraph_region *r,
                                      unsigned segment, const void *fn,
                                      const void *const *stubs, unsigned n);

/* 1 when fn is one of the n stubs.  Pointers found before answer from a
 * small per-thread cache (a miss scans the table again). */
int pygraph_kernel_pointer_known(const void *fn, const void *const *stubs, unsigned n);

#endif
