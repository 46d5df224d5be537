/* nvtx_tool.c - the smallest NVTX tool: an injection library (loaded by
 * NVTX when NVTX_INJECTION64_PATH names it, as Nsight Systems' is) that
 * prints every domain created and every range pushed and popped, so a test
 * sees what the runtime's NVTX calls (cuda/nvtx_ranges.c) hand a profiler.
 * NVTX_TOOL_QUIET=1: record without printing (for timing). */
#include <stdio.h>
#include <stdlib.h>

#include <nvtx3/nvToolsExt.h>

static int quiet;

static nvtxDomainHandle_t tool_domain_create(const char *name)
{
  if (!quiet)
    printf("tool: domain %s\n", name);
  return (nvtxDomainHandle_t)0x1;
}

static int tool_push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attr)
{
  if (!quiet)
    printf("tool: push %s \"%s\" colour %08x\n", domain ? "pygraph" : "global",
           attr->messageType == NVTX_MESSAGE_TYPE_ASCII ? attr->message.ascii : "?",
           attr->colorType == NVTX_COLOR_ARGB ? attr->color : 0u);
  return 0;
}

static int tool_pop(nvtxDomainHandle_t domain)
{
  if (!quiet)
    printf("tool: pop %s\n", domain ? "pygraph" : "global");
  return 0;
}

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
  const char *q = getenv("NVTX_TOOL_QUIET");
  quiet = q && *q == '1';
  const NvtxExportTableCallbacks *cb = (const NvtxExportTableCallbacks *)get(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable table = 0;
  unsigned size = 0;
  if (!cb || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size))
    return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)tool_domain_create;
  *table[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)tool_push;
  *table[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)tool_pop;
  if (!quiet)
    printf("tool: attached\n");
  return 1;
}
