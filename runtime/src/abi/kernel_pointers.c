/* kernel_pointers.c - is a kernel pointer one of pygraph's stubs? */
#include "abi/kernel_pointers.h"
#include "abi/region_stack.h"

#include <stdint.h>

/* Stubs found in some table: a stub is pygraph's whichever table named it,
 * so a hit needs no table.  Direct-mapped; a collision only costs a scan.
 * Never cleared: a library unloaded (dlclose) and another loaded at the
 * same address would inherit its stubs' answers. */
#define KNOWN_SLOTS 64
static _Thread_local const void *known[KNOWN_SLOTS];

static unsigned slot_of(const void *fn)
{
  uint64_t h = (uint64_t)(uintptr_t)fn * 0x9e3779b97f4a7c15ull;
  return (unsigned)(h >> 58);              /* the top 6 bits: 64 slots */
}

int pygraph_kernel_pointer_known(const void *fn, const void *const *stubs, unsigned n)
{
  if (!fn)
    return 0;
  unsigned s = slot_of(fn);
  if (known[s] == fn)
    return 1;
  for (unsigned i = 0; i < n; ++i)
    if (stubs[i] == fn) {
      known[s] = fn;
      return 1;
    }
  return 0;
}

void pygraph_kernel_pointer_call_impl(const struct pygraph_backend *backend, pygraph_region *r,
                                      unsigned segment, const void *fn,
                                      const void *const *stubs, unsigned n)
{
  pygraph_external_call_impl(backend, r, segment,
                             pygraph_kernel_pointer_known(fn, stubs, n) ? fn : NULL);
}
