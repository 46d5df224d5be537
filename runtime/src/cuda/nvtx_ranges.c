/* nvtx_ranges.c - NVTX v3 ranges (header-only, from the CUDA toolkit).
 *
 * Without a tool: NVTX's first call looks for one once (the environment's
 * NVTX_INJECTION64_PATH, a preloaded or statically linked injection) and,
 * finding none, sets its entry points to NULL; from then on every call is a
 * load of that pointer and a return (nvtxDetail/nvtxInit.h,
 * nvtxImplCore.h).  With a tool (nsys profile), the tool records each
 * range.  The ranges go into a "pygraph" domain of their own, created at
 * the first push. */
#include "cuda/nvtx_ranges.h"

#include <pthread.h>

#include <nvtx3/nvToolsExt.h>

static nvtxDomainHandle_t domain;            /* NULL without a tool: the global domain */
static pthread_once_t domain_once = PTHREAD_ONCE_INIT;
static int domain_ready;                     /* atomic: domain is set (pthread_once alone
                                                costs more than the rest of a push) */

static void create_domain(void)
{
  domain = nvtxDomainCreateA("pygraph");
  __atomic_store_n(&domain_ready, 1, __ATOMIC_RELEASE);
}

static void domain_made(void)
{
  if (!__atomic_load_n(&domain_ready, __ATOMIC_ACQUIRE))
    pthread_once(&domain_once, create_domain);
}

int pygraph_cuda_range_tool(void)
{
  domain_made();
  return domain != NULL;
}

void pygraph_cuda_range_push(const char *name, unsigned argb)
{
  domain_made();
  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attr.message.ascii = name;
  if (argb) {
    attr.colorType = NVTX_COLOR_ARGB;
    attr.color = argb;
  }
  nvtxDomainRangePushEx(domain, &attr);
}

void pygraph_cuda_range_pop(void)
{
  nvtxDomainRangePop(domain);
}
