/* host_bytes.c - the port's queries that decide whether a host-to-device
 * copy may be snapshotted at the call, and such a copy run now (host_bytes.h). */
#include "cuda/host_bytes.h"

#include <pthread.h>
#include <stdatomic.h>

#include "common/key_table.h"
#include "cuda/capture_mode.h"
#include "cuda/driver_api.h"
#include "cuda/host_bytes_module.h"

/* The module, loaded by the first query that needs it, in relaxed capture
 * mode (host_bytes_module.h); later queries only read the outcome. */
static _Atomic int module_state;       /* 0 not tried, 1 loaded, -1 failed */

static int module_ready(void)
{
  int state = atomic_load(&module_state);
  if (state == 0) {
    int saved = pygraph_capture_mode_relax();
    state = pygraph_cuda_host_bytes_kernels_ready() == cudaSuccess ? 1 : -1;
    pygraph_capture_mode_restore(saved);
    atomic_store(&module_state, state);
  }
  return state > 0;
}

/* ---- the port's queries ----------------------------------------------------- */

/* CU_MEMORYTYPE_* of p (0: memory CUDA does not know) and whether it is
 * managed; 0 when the driver cannot tell.  Driver calls: a failure is a
 * return value, never the program's last error. */
static int memory_kind(const void *p, unsigned *type, unsigned *managed)
{
  pygraph_pfn_cuPointerGetAttributes get = pygraph_driver_cuPointerGetAttributes();
  CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 CU_POINTER_ATTRIBUTE_IS_MANAGED};
  void *data[] = {type, managed};
  *type = *managed = 0;
  return get && get(2, which, data, (CUdeviceptr)(unsigned long long)p) == CUDA_SUCCESS;
}

int pygraph_cuda_host_only_memory(const void *p)
{
  unsigned type, managed;
  return p && memory_kind(p, &type, &managed) && type == 0 && !managed;
}

int pygraph_cuda_device_range(const void *dst, size_t count)
{
  unsigned type, managed;
  if (!memory_kind(dst, &type, &managed) || type != CU_MEMORYTYPE_DEVICE || managed)
    return 0;
  pygraph_pfn_cuMemGetAddressRange get_range = pygraph_driver_cuMemGetAddressRange();
  CUdeviceptr base = 0;
  size_t size = 0;
  CUdeviceptr at = (CUdeviceptr)(unsigned long long)dst;
  if (!get_range || get_range(&base, &size, at) != CUDA_SUCCESS)
    return 0;
  return at - base <= size && count <= size - (size_t)(at - base);
}

int pygraph_cuda_host_bytes_source(const void *src)
{
  /* not pinned, registered, managed or device memory */
  return pygraph_cuda_host_only_memory(src) && module_ready();
}

struct symbol_entry {
  struct pygraph_table_key key;        /* the symbol's host shadow */
  void *address;
  size_t size;
  int device;                          /* not __managed__ */
};

static pthread_mutex_t symbol_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table symbols = PYGRAPH_KEY_TABLE_INIT(struct symbol_entry);

/* The runtime's answer for a symbol not seen before; 0 when CUDA has none
 * (not cached: the real call, made next, reports it).  cudaGetSymbolAddress
 * may load the program's module (lazy loading): relaxed capture mode. */
static int look_up(const void *symbol, struct symbol_entry *e)
{
  int saved = pygraph_capture_mode_relax();
  cudaError_t err = cudaGetSymbolAddress(&e->address, symbol);
  if (err == cudaSuccess)
    err = cudaGetSymbolSize(&e->size, symbol);
  pygraph_capture_mode_restore(saved);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  unsigned type, managed;
  e->device = memory_kind(e->address, &type, &managed) && type == CU_MEMORYTYPE_DEVICE && !managed;
  return 1;
}

int pygraph_cuda_symbol_range(const void *symbol, void **address, size_t *size)
{
  struct symbol_entry entry = {.key = {symbol, 0, 0}};
  pthread_mutex_lock(&symbol_lock);
  const struct symbol_entry *found = pygraph_key_table_find(&symbols, entry.key);
  int known = found != NULL;
  if (found) {
    entry = *found;
  } else if ((known = look_up(symbol, &entry))) {
    struct symbol_entry *e = pygraph_key_table_insert(&symbols, entry.key);
    if (e)
      *e = entry;
  }
  pthread_mutex_unlock(&symbol_lock);
  *address = entry.address;
  *size = entry.size;
  return known && entry.device;
}

/* ---- eager ---------------------------------------------------------------- */

cudaError_t pygraph_cuda_host_bytes_launch(const struct pygraph_op *op)
{
  void *params[3], *dst;
  unsigned count;
  struct cudaKernelNodeParams p = pygraph_cuda_host_bytes_node(op, params, &dst, &count);
  if (!p.func)
    return cudaErrorInvalidDeviceFunction;
  return cudaLaunchKernel(p.func, p.gridDim, p.blockDim, p.kernelParams, 0, op->stream);
}
