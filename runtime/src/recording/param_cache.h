/* param_cache.h - kernel parameter layouts, queried once per kernel. */
#ifndef PYGRAPH_PARAM_CACHE_H
#define PYGRAPH_PARAM_CACHE_H

#include <stddef.h>

#include "port/backend.h"
#include "recording/op.h"

/* For backends: a layout with room for n parameters (malloc'ed). */
struct pygraph_param_layout *pygraph_param_layout_alloc(size_t n_params);

/* `hint` is a layout the caller saw for this kernel before (typically the
 * op at the same index last iteration, launched the same way); when it
 * matches, no lock is taken.  arg_slots goes to the backend with the
 * kernel's first lookup (backend->param_layout, or driver_param_layout when
 * `driver`: func is a CUfunction, recording/op.h).  Returns NULL when the
 * backend cannot describe the kernel. */
const struct pygraph_param_layout *
pygraph_param_layout_lookup(const struct pygraph_backend *backend, const void *func, int driver,
                            unsigned arg_slots, const void *hint_func,
                            const struct pygraph_param_layout *hint);

#endif /* PYGRAPH_PARAM_CACHE_H */
