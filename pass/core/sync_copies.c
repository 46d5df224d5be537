/* sync_copies.c - the synchronous copies' verdicts (sync_copies.h). */
#include "sync_copies.h"
#include "ir_util.h"
#include "pygraph_abi.h"

#include <string.h>

/* enum cudaMemcpyKind */
enum { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3, kDefault = 4 };

static int named(const pg_api_entry *api, const char *base) {
  size_t n = strlen(base);
  return api && strncmp(api->name, base, n) == 0 &&
         (!api->name[n] || strcmp(api->name + n, "_ptds") == 0);
}

/* Operand indices of the count and the kind; 0 when api is no such copy. */
static int copy_operands(const pg_api_entry *api, unsigned *count_op, unsigned *kind_op) {
  *count_op = 2;
  if (named(api, "cudaMemcpy"))
    *kind_op = 3;
  else if (named(api, "cudaMemcpyToSymbol"))
    *kind_op = 4;
  else
    return 0;
  return 1;
}

/* The constant operand k of call, when there is one. */
static int constant_operand(LLVMValueRef call, unsigned k, long long *v) {
  return k < (unsigned)LLVMGetNumArgOperands(call) && pg_const_int(LLVMGetOperand(call, k), v);
}

pg_sync_copy pg_sync_copy_judge(LLVMValueRef call, const pg_api_entry *api,
                                const char *host_visible) {
  unsigned count_op, kind_op;
  if (!pg_is_call(call) || !copy_operands(api, &count_op, &kind_op))
    return PG_COPY_NONE;
  long long kind, bytes;
  int known = constant_operand(call, kind_op, &kind);
  if (known && (kind == kDeviceToDevice || kind == kDefault))
    return PG_COPY_DEVICE;
  /* a copy to a symbol never goes to the host: any kind the runtime judges */
  if (!known && kind_op == 3)
    return PG_COPY_KIND_UNKNOWN;
  if (known && kind != kHostToDevice)
    return PG_COPY_HOST;
  if (host_visible)
    return PG_COPY_HOST_VISIBLE;
  if (constant_operand(call, count_op, &bytes) &&
      (bytes < 0 || bytes > (long long)PYGRAPH_HOST_BYTES_MAX))
    return PG_COPY_TOO_LARGE;
  return PG_COPY_SNAPSHOT;
}

char *pg_sync_copy_why(LLVMValueRef call, const pg_api_entry *api, const char *host_visible) {
  static const char *const kKinds[] = {"a host-to-host copy", "a host-to-device copy",
                                       "a device-to-host copy"};
  long long kind = -1, bytes = 0;
  unsigned count_op, kind_op;
  switch (pg_sync_copy_judge(call, api, host_visible)) {
  case PG_COPY_NONE:
  case PG_COPY_DEVICE:
  case PG_COPY_SNAPSHOT:
    return NULL;
  case PG_COPY_HOST:
    copy_operands(api, &count_op, &kind_op);
    constant_operand(call, kind_op, &kind);
    return pg_strf("%s", kind >= 0 && kind < 3 ? kKinds[kind] : "a copy of no known kind");
  case PG_COPY_KIND_UNKNOWN:
    return pg_strf("its kind is not a constant");
  case PG_COPY_TOO_LARGE:
    constant_operand(call, 2, &bytes);
    return pg_strf("a host-to-device copy of %lld bytes, more than the %u pygraph reads at the "
                   "call",
                   bytes, PYGRAPH_HOST_BYTES_MAX);
  case PG_COPY_HOST_VISIBLE:
    return pg_strf("a host-to-device copy, and this file calls %s: host memory kernels can "
                   "write, which the host may read once the copy has waited for the device",
                   host_visible);
  }
  return NULL;
}

int pg_sync_copy_reads_source_at_call(LLVMValueRef call, LLVMValueRef f) {
  size_t n;
  const pg_api_entry *api = f ? pg_api_lookup(LLVMGetValueName2(f, &n)) : NULL;
  unsigned count_op, kind_op;
  long long kind;
  return copy_operands(api, &count_op, &kind_op) && constant_operand(call, kind_op, &kind) &&
         kind == kHostToDevice;
}
