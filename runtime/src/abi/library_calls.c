/* library_calls.c - the library adapters' process-wide counts
 * (library_calls.h). */
#include "abi/library_calls.h"

#include <stdio.h>

static unsigned long long workspace_bytes;
static unsigned long long failures;
static unsigned long long driver_failures;

void pygraph_library_add_workspace(size_t bytes)
{
  __atomic_fetch_add(&workspace_bytes, (unsigned long long)bytes, __ATOMIC_RELAXED);
}

unsigned long long pygraph_library_workspace_bytes(void)
{
  return __atomic_load_n(&workspace_bytes, __ATOMIC_RELAXED);
}

/* Said once: a program that ignores the library's errors would otherwise
 * print a line per iteration; the report counts them all. */
void pygraph_library_failed(const struct pygraph_op *op, int status)
{
  if (__atomic_fetch_add(&failures, 1ull, __ATOMIC_RELAXED) != 0)
    return;
  const struct pygraph_library_fn *fn = op->library;
  const char *name = fn->status_name ? fn->status_name(status) : NULL;
  const pygraph_site *site = op->site;
  fprintf(stderr,
          "pygraph: error: %s at %s:%u failed when its recorded call ran: %s (status %d); "
          "the call had returned success, as pygraph records library calls inside graph "
          "regions (the report's library_errors= counts every such failure)\n",
          fn->name, site && site->file ? site->file : "?", site ? site->line : 0u,
          name ? name : "?", status);
}

unsigned long long pygraph_library_failures(void)
{
  return __atomic_load_n(&failures, __ATOMIC_RELAXED);
}

/* Said once, as a library call's. */
void pygraph_driver_launch_failed(const struct pygraph_op *op, int status)
{
  if (__atomic_fetch_add(&driver_failures, 1ull, __ATOMIC_RELAXED) != 0)
    return;
  const pygraph_site *site = op->site;
  fprintf(stderr,
          "pygraph: error: the driver launch at %s:%u failed when its recorded call ran "
          "(CUresult %d); the call had returned CUDA_SUCCESS, as pygraph records driver "
          "launches inside graph regions (the report's driver_errors= counts every such "
          "failure)\n",
          site && site->file ? site->file : "?", site ? site->line : 0u, status);
}

unsigned long long pygraph_driver_launch_failures(void)
{
  return __atomic_load_n(&driver_failures, __ATOMIC_RELAXED);
}
