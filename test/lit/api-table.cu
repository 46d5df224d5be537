// Every row of pass/core/cuda_api_table.c, held by what the pass does with
// the call between two launches in a loop.  ROW(expect, api, call) defines
// extern "C" void expect__api(...) whose loop runs k, the call, k2;
// ROWV(expect, api, variant, call) names it expect__api__variant.  expect is
// written here by hand, never taken from the table (a table that changed a
// class must fail this test):
//   barrier   no region in the function, the launch after the call stays
//             eager (not as after a CUDA call pygraph does not know: the
//             row is in effect), and the call is left as it is;
//   observed  a barrier, as above, but the call is routed to
//             __pygraph_<api> (the runtime notes what it made);
//   unknown   the same as barrier, for a CUDA call the table does not list;
//   deferred  one region of 2 launch sites, the call routed to
//             __pygraph_<api>;
//   harmless  one region of 2 launch sites, the call left as it is;
//   launch    one region of 3 launch sites, the call routed.
// utils/api_table_rows.py checks the remarks and the IR against these
// expectations, and (ctest api_table_rows) that every row of the table,
// _ptsz twins and API families included, has a ROW here.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2> %t.o2.remarks
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o %t.o2.ll
// RUN: %python %S/../../utils/api_table_rows.py behaviour %s %t.o2.remarks %t.o2.ll
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2> %t.o0.remarks
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o %t.o0.ll
// RUN: %python %S/../../utils/api_table_rows.py behaviour %s %t.o0.remarks %t.o0.ll
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void k(float *p) {}
__global__ void k2(float *p) {}
__global__ void k3(float *p) {}
__device__ float sym;
static void host_fn(void *) {}

#define ROW_PARAMS float *p, float *h, cudaStream_t s, cudaEvent_t e, int n
#define ROW_LOOP(...)                                                          \
  for (int i = 0; i < n; ++i) {                                                \
    k<<<1, 32, 0, s>>>(p);                                                     \
    __VA_ARGS__;                                                               \
    k2<<<1, 32, 0, s>>>(p);                                                    \
  }
#define ROW(expect, api, ...)                                                  \
  extern "C" void expect##__##api(ROW_PARAMS) { ROW_LOOP(__VA_ARGS__) }
#define ROWV(expect, api, variant, ...)                                        \
  extern "C" void expect##__##api##__##variant(ROW_PARAMS) { ROW_LOOP(__VA_ARGS__) }

// Symbols the headers do not declare (the _ptsz twins, which only
// -fgpu-default-stream=per-thread reaches, older unversioned driver entry
// points, the <<<>>> protocol): declared here under their IR names.  The
// pass reads only the name, and the kind of cudaMemcpyAsync, cudaMemcpy and
// cudaMemcpyToSymbol.
#define SYM(sym) extern "C" int sym##_(...) __asm__(#sym);
SYM(cudaLaunchKernel_ptsz) SYM(cudaLaunchKernelExC_ptsz) SYM(cuLaunchKernel_ptsz)
SYM(cuLaunchKernelEx_ptsz) SYM(cudaLaunchCooperativeKernel_ptsz)
SYM(cudaMemsetAsync_ptsz) SYM(cudaMemcpyAsync_ptsz) SYM(cudaEventRecord_ptsz) SYM(cudaStreamWaitEvent_ptsz)
SYM(cudaEventRecordWithFlags_ptsz) SYM(cudaLaunchHostFunc_ptsz) SYM(cudaMemset2DAsync_ptsz)
SYM(cudaMemcpy2DAsync_ptsz) SYM(cudaMemcpy3DAsync_ptsz) SYM(cudaMemcpyToSymbolAsync_ptsz)
SYM(cudaMemcpyFromSymbolAsync_ptsz) SYM(cudaMallocAsync_ptsz) SYM(cudaFreeAsync_ptsz)
SYM(cudaMemcpy_ptds) SYM(cudaMemset_ptds) SYM(cudaMemcpy2D_ptds) SYM(cudaMemcpy3D_ptds)
SYM(cudaMemcpyToSymbol_ptds) SYM(cudaMemcpyFromSymbol_ptds) SYM(cudaStreamSynchronize_ptsz)
SYM(cudaStreamQuery_ptsz)
SYM(cudaStreamBeginCapture_ptsz) SYM(cudaStreamBeginCaptureToGraph_ptsz)
SYM(cudaStreamEndCapture_ptsz) SYM(cudaStreamIsCapturing_ptsz)
SYM(cudaStreamGetCaptureInfo_ptsz) SYM(cudaStreamGetCaptureInfo_v2)
SYM(cudaStreamGetCaptureInfo_v2_ptsz) SYM(cudaStreamGetCaptureInfo_v3)
SYM(cudaStreamGetCaptureInfo_v3_ptsz) SYM(cudaStreamUpdateCaptureDependencies_ptsz)
SYM(cudaStreamUpdateCaptureDependencies_v2) SYM(cudaStreamUpdateCaptureDependencies_v2_ptsz)
SYM(cudaGraphLaunch_ptsz) SYM(cudaGraphUpload_ptsz)
SYM(cuStreamBeginCapture) SYM(cuStreamBeginCapture_ptsz) SYM(cuStreamBeginCapture_v2_ptsz)
SYM(cuStreamBeginCaptureToGraph_ptsz) SYM(cuStreamEndCapture_ptsz)
SYM(cuStreamIsCapturing_ptsz) SYM(cuStreamGetCaptureInfo) SYM(cuStreamGetCaptureInfo_ptsz)
SYM(cuStreamGetCaptureInfo_v2) SYM(cuStreamGetCaptureInfo_v2_ptsz)
SYM(cuStreamGetCaptureInfo_v3_ptsz) SYM(cuStreamUpdateCaptureDependencies)
SYM(cuStreamUpdateCaptureDependencies_ptsz) SYM(cuStreamUpdateCaptureDependencies_v2_ptsz)
SYM(cudaGetDeviceProperties_v2) SYM(__cudaPushCallConfiguration) SYM(__cudaPopCallConfiguration)
// Names the table does not list: unknown CUDA calls are barriers.
SYM(cudaMemcpy_ptsz) SYM(cuMemcpyDtoH_v2_ptds)

#define D2D cudaMemcpyDeviceToDevice
#define CFG cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(1); cfg.blockDim = dim3(32); cfg.stream = s
#define DCFG CUlaunchConfig dcfg = {}; dcfg.gridDimX = dcfg.gridDimY = dcfg.gridDimZ = 1; dcfg.blockDimX = 32; dcfg.blockDimY = dcfg.blockDimZ = 1; dcfg.hStream = (CUstream)s
#define P3 cudaMemcpy3DParms m3 = {}
#define FN(f) ((const void *)f)

// ---- kernel launches
ROW(launch, cudaLaunchKernel, cudaLaunchKernel(FN(k3), dim3(1), dim3(32), nullptr, 0, s))
ROW(launch, cudaLaunchKernel_ptsz, cudaLaunchKernel_ptsz_(FN(k3), dim3(1), dim3(32), nullptr, (size_t)0, s))
ROW(launch, cudaLaunchKernelExC, CFG; cudaLaunchKernelExC(&cfg, FN(k3), nullptr))
ROW(launch, cudaLaunchKernelExC_ptsz, CFG; cudaLaunchKernelExC_ptsz_(&cfg, FN(k3), nullptr))
ROW(launch, cuLaunchKernel, cuLaunchKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr))
ROW(launch, cuLaunchKernel_ptsz, cuLaunchKernel_ptsz_(nullptr, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr))
ROW(launch, cuLaunchKernelEx, DCFG; cuLaunchKernelEx(&dcfg, nullptr, nullptr, nullptr))
ROW(launch, cuLaunchKernelEx_ptsz, DCFG; cuLaunchKernelEx_ptsz_(&dcfg, nullptr, nullptr, nullptr))
ROW(barrier, cudaLaunchCooperativeKernel, cudaLaunchCooperativeKernel(FN(k3), dim3(1), dim3(32), nullptr, 0, s))
ROW(barrier, cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel_ptsz_(FN(k3), dim3(1), dim3(32), nullptr, (size_t)0, s))

// ---- stream work a graph can hold: deferred when the runtime routes it
ROW(deferred, cudaMemsetAsync, cudaMemsetAsync(p, 0, 4, s))
ROW(deferred, cudaMemsetAsync_ptsz, cudaMemsetAsync_ptsz_(p, 0, (size_t)4, s))
ROW(deferred, cudaMemcpyAsync, cudaMemcpyAsync(p, h, 4, D2D, s))
ROWV(deferred, cudaMemcpyAsync, default_kind, cudaMemcpyAsync(p, h, 4, cudaMemcpyDefault, s))
// a kind the compiler cannot see: the runtime checks it at the call
ROWV(deferred, cudaMemcpyAsync, unknown_kind, cudaMemcpyAsync(p, h, 4, (cudaMemcpyKind)n, s))
// host memory: the copy may read or write it at any time, and the host reads it
ROWV(barrier, cudaMemcpyAsync, host_to_host, cudaMemcpyAsync(p, h, 4, cudaMemcpyHostToHost, s))
ROWV(barrier, cudaMemcpyAsync, host_to_device, cudaMemcpyAsync(p, h, 4, cudaMemcpyHostToDevice, s))
ROWV(barrier, cudaMemcpyAsync, device_to_host, cudaMemcpyAsync(h, p, 4, cudaMemcpyDeviceToHost, s))
ROW(deferred, cudaMemcpyAsync_ptsz, cudaMemcpyAsync_ptsz_(p, h, (size_t)4, D2D, s))
ROWV(barrier, cudaMemcpyAsync_ptsz, device_to_host, cudaMemcpyAsync_ptsz_(h, p, (size_t)4, cudaMemcpyDeviceToHost, s))
ROW(deferred, cudaEventRecord, cudaEventRecord(e, s))
ROW(deferred, cudaEventRecord_ptsz, cudaEventRecord_ptsz_(e, s))
ROW(deferred, cudaStreamWaitEvent, cudaStreamWaitEvent(s, e, 0))
ROW(deferred, cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent_ptsz_(s, e, 0u))
// capturable, not routed yet: run at once, they would overtake deferred launches
ROW(barrier, cudaEventRecordWithFlags, cudaEventRecordWithFlags(e, s, 0))
ROW(barrier, cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags_ptsz_(e, s, 0u))
ROW(barrier, cudaLaunchHostFunc, cudaLaunchHostFunc(s, host_fn, nullptr))
ROW(barrier, cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc_ptsz_(s, host_fn, nullptr))
ROW(barrier, cudaMemset2DAsync, cudaMemset2DAsync(p, 4, 0, 4, 1, s))
ROW(barrier, cudaMemset2DAsync_ptsz, cudaMemset2DAsync_ptsz_(p, (size_t)4, 0, (size_t)4, (size_t)1, s))
ROW(barrier, cudaMemcpy2DAsync, cudaMemcpy2DAsync(p, 4, h, 4, 4, 1, D2D, s))
ROW(barrier, cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync_ptsz_(p, (size_t)4, h, (size_t)4, (size_t)4, (size_t)1, D2D, s))
ROW(barrier, cudaMemcpy3DAsync, P3; cudaMemcpy3DAsync(&m3, s))
ROW(barrier, cudaMemcpy3DAsync_ptsz, P3; cudaMemcpy3DAsync_ptsz_(&m3, s))
ROW(barrier, cudaMemcpyToSymbolAsync, cudaMemcpyToSymbolAsync(FN(&sym), h, 4, 0, D2D, s))
ROW(barrier, cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync_ptsz_(FN(&sym), h, (size_t)4, (size_t)0, D2D, s))
ROW(barrier, cudaMemcpyFromSymbolAsync, cudaMemcpyFromSymbolAsync(h, FN(&sym), 4, 0, D2D, s))
ROW(barrier, cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync_ptsz_(h, FN(&sym), (size_t)4, (size_t)0, D2D, s))
ROW(barrier, cudaMallocAsync, cudaMallocAsync((void **)&h, 4, s))
ROW(barrier, cudaMallocAsync_ptsz, cudaMallocAsync_ptsz_((void **)&h, (size_t)4, s))
ROW(barrier, cudaFreeAsync, cudaFreeAsync(h, s))
ROW(barrier, cudaFreeAsync_ptsz, cudaFreeAsync_ptsz_(h, s))

// ---- synchronous in name: the host waits only when they touch host or
// managed memory, which the runtime checks; deferred otherwise
ROW(deferred, cudaMemset, cudaMemset(p, 0, 4))
ROW(deferred, cudaMemset_ptds, cudaMemset_ptds_(p, 0, (size_t)4))
ROW(deferred, cudaMemcpy, cudaMemcpy(p, h, 4, D2D))
ROWV(deferred, cudaMemcpy, default_kind, cudaMemcpy(p, h, 4, cudaMemcpyDefault))
// the host waits for a copy to the host; a kind the compiler cannot see
// stays one too
ROWV(barrier, cudaMemcpy, device_to_host, cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost))
ROWV(barrier, cudaMemcpy, host_to_host, cudaMemcpy(p, h, 4, cudaMemcpyHostToHost))
ROWV(barrier, cudaMemcpy, unknown_kind, cudaMemcpy(p, h, 4, (cudaMemcpyKind)n))
ROW(deferred, cudaMemcpy_ptds, cudaMemcpy_ptds_(p, h, (size_t)4, D2D))
ROWV(barrier, cudaMemcpy_ptds, device_to_host, cudaMemcpy_ptds_(h, p, (size_t)4, cudaMemcpyDeviceToHost))
// a copy to a symbol from device memory, as cudaMemcpy's
ROWV(deferred, cudaMemcpyToSymbol, device_to_device, cudaMemcpyToSymbol(FN(&sym), h, 4, 0, D2D))
ROWV(deferred, cudaMemcpyToSymbol_ptds, device_to_device, cudaMemcpyToSymbol_ptds_(FN(&sym), h, (size_t)4, (size_t)0, D2D))
// host-to-device copies stay barriers in this file, which calls
// cudaMallocHost (host memory kernels can write, which the host may read
// once the copy has waited for its stream: h2d-snapshot.cu has the file
// without it, where they are deferred with the bytes read at the call)
ROWV(barrier, cudaMemcpy, host_to_device, cudaMemcpy(p, h, 4, cudaMemcpyHostToDevice))
ROW(barrier, cudaMemcpyToSymbol, cudaMemcpyToSymbol(FN(&sym), h, 4, 0, cudaMemcpyHostToDevice))
ROW(barrier, cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol_ptds_(FN(&sym), h, (size_t)4, (size_t)0, cudaMemcpyHostToDevice))

// ---- synchronizing
ROW(barrier, cudaMemcpy2D, cudaMemcpy2D(p, 4, h, 4, 4, 1, D2D))
ROW(barrier, cudaMemcpy2D_ptds, cudaMemcpy2D_ptds_(p, (size_t)4, h, (size_t)4, (size_t)4, (size_t)1, D2D))
ROW(barrier, cudaMemcpy3D, P3; cudaMemcpy3D(&m3))
ROW(barrier, cudaMemcpy3D_ptds, P3; cudaMemcpy3D_ptds_(&m3))
ROW(barrier, cudaMemcpyFromSymbol, cudaMemcpyFromSymbol(h, FN(&sym), 4, 0, cudaMemcpyDeviceToHost))
ROW(barrier, cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol_ptds_(h, FN(&sym), (size_t)4, (size_t)0, cudaMemcpyDeviceToHost))
ROW(barrier, cudaDeviceSynchronize, cudaDeviceSynchronize())
ROW(barrier, cudaStreamSynchronize, cudaStreamSynchronize(s))
ROW(barrier, cudaStreamSynchronize_ptsz, cudaStreamSynchronize_ptsz_(s))
ROW(barrier, cudaEventSynchronize, cudaEventSynchronize(e))
ROW(barrier, cudaStreamQuery, cudaStreamQuery(s))
ROW(barrier, cudaStreamQuery_ptsz, cudaStreamQuery_ptsz_(s))
ROW(barrier, cudaEventQuery, cudaEventQuery(e))
ROW(barrier, cudaEventElapsedTime, float ms; cudaEventElapsedTime(&ms, e, e))
ROW(barrier, cudaDeviceReset, cudaDeviceReset())
ROW(barrier, cuCtxSynchronize, cuCtxSynchronize())
ROW(barrier, cuStreamSynchronize, cuStreamSynchronize((CUstream)s))
ROW(barrier, cuMemcpyDtoH_v2, cuMemcpyDtoH_v2(h, (CUdeviceptr)p, 4))
ROW(barrier, cuMemcpyHtoD_v2, cuMemcpyHtoD_v2((CUdeviceptr)p, h, 4))
// what -fgpu-default-stream=per-thread makes of cuMemcpyDtoH; and a _ptsz
// name of a synchronous call, which CUDA does not have (it has _ptds)
ROW(unknown, cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2_ptds_(h, (CUdeviceptr)p, (size_t)4))
ROW(unknown, cudaMemcpy_ptsz, cudaMemcpy_ptsz_(h, p, (size_t)4, cudaMemcpyDeviceToHost))

// ---- allocation the runtime's pool serves in a region; cudaFree stays a
// barrier in this file, which calls cudaMallocHost (host memory kernels can
// write: alloc-pooled.cu has the file without it, where cudaFree is deferred)
ROW(deferred, cudaMalloc, cudaMalloc((void **)&h, 4))
ROW(barrier, cudaFree, cudaFree(h))
// ---- kernel settings: made at once in a region (the runtime flushes first
// when a launch of the kernel deferred before them would see a change)
ROW(deferred, cudaFuncSetAttribute, cudaFuncSetAttribute(FN(k3), cudaFuncAttributeMaxDynamicSharedMemorySize, 0))
ROW(deferred, cudaFuncSetCacheConfig, cudaFuncSetCacheConfig(FN(k3), cudaFuncCachePreferL1))
// ---- cannot be captured
ROW(barrier, cudaMallocManaged, cudaMallocManaged((void **)&h, 4, cudaMemAttachGlobal))
ROW(barrier, cudaMallocPitch, size_t pitch; cudaMallocPitch((void **)&h, &pitch, 4, 1))
ROW(barrier, cudaMallocHost, cudaMallocHost((void **)&h, 4))
ROW(barrier, cudaHostAlloc, cudaHostAlloc((void **)&h, 4, 0))
ROW(barrier, cudaFreeHost, cudaFreeHost(h))
ROW(barrier, cudaStreamCreate, cudaStream_t t; cudaStreamCreate(&t))
ROW(barrier, cudaStreamCreateWithFlags, cudaStream_t t; cudaStreamCreateWithFlags(&t, 0))
ROW(barrier, cudaStreamCreateWithPriority, cudaStream_t t; cudaStreamCreateWithPriority(&t, 0, 0))
ROW(barrier, cudaStreamDestroy, cudaStreamDestroy(s))
ROW(barrier, cudaDestroyTextureObject, cudaDestroyTextureObject((cudaTextureObject_t)n))
ROW(barrier, cudaDestroySurfaceObject, cudaDestroySurfaceObject((cudaSurfaceObject_t)n))
ROW(observed, cudaEventCreate, cudaEvent_t x; cudaEventCreate(&x))
ROW(observed, cudaEventCreateWithFlags, cudaEvent_t x; cudaEventCreateWithFlags(&x, 0))
ROW(observed, cudaEventDestroy, cudaEventDestroy(e))
ROW(deferred, cudaSetDevice, cudaSetDevice(0))
ROW(barrier, cudaDeviceSetLimit, cudaDeviceSetLimit(cudaLimitStackSize, 1024))

// ---- the program's own stream capture and graphs
#define MODE cudaStreamCaptureModeGlobal
ROW(barrier, cudaStreamBeginCapture, cudaStreamBeginCapture(s, MODE))
ROW(barrier, cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture_ptsz_(s, MODE))
ROW(barrier, cudaStreamBeginCaptureToGraph, cudaStreamBeginCaptureToGraph(s, nullptr, nullptr, nullptr, 0, MODE))
ROW(barrier, cudaStreamBeginCaptureToGraph_ptsz, cudaStreamBeginCaptureToGraph_ptsz_(s, nullptr, nullptr, nullptr, (size_t)0, MODE))
ROW(barrier, cudaStreamEndCapture, cudaGraph_t g; cudaStreamEndCapture(s, &g))
ROW(barrier, cudaStreamEndCapture_ptsz, cudaGraph_t g; cudaStreamEndCapture_ptsz_(s, &g))
ROW(barrier, cudaStreamIsCapturing, cudaStreamCaptureStatus st; cudaStreamIsCapturing(s, &st))
ROW(barrier, cudaStreamIsCapturing_ptsz, cudaStreamCaptureStatus st; cudaStreamIsCapturing_ptsz_(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo_ptsz, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo_ptsz_(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo_v2, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo_v2_(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo_v2_ptsz, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo_v2_ptsz_(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo_v3, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo_v3_(s, &st))
ROW(barrier, cudaStreamGetCaptureInfo_v3_ptsz, cudaStreamCaptureStatus st; cudaStreamGetCaptureInfo_v3_ptsz_(s, &st))
ROW(barrier, cudaStreamUpdateCaptureDependencies, cudaStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0))
ROW(barrier, cudaStreamUpdateCaptureDependencies_ptsz, cudaStreamUpdateCaptureDependencies_ptsz_(s, nullptr, nullptr, (size_t)0, 0u))
ROW(barrier, cudaStreamUpdateCaptureDependencies_v2, cudaStreamUpdateCaptureDependencies_v2_(s, nullptr, nullptr, (size_t)0, 0u))
ROW(barrier, cudaStreamUpdateCaptureDependencies_v2_ptsz, cudaStreamUpdateCaptureDependencies_v2_ptsz_(s, nullptr, nullptr, (size_t)0, 0u))
ROW(barrier, cudaGraphLaunch, cudaGraphLaunch(nullptr, s))
ROW(barrier, cudaGraphLaunch_ptsz, cudaGraphLaunch_ptsz_(nullptr, s))
ROW(barrier, cudaGraphUpload, cudaGraphUpload(nullptr, s))
ROW(barrier, cudaGraphUpload_ptsz, cudaGraphUpload_ptsz_(nullptr, s))
ROW(barrier, cudaThreadExchangeStreamCaptureMode, cudaStreamCaptureMode md = MODE; cudaThreadExchangeStreamCaptureMode(&md))
#define CS ((CUstream)s)
ROW(barrier, cuStreamBeginCapture, cuStreamBeginCapture_(CS))
ROW(barrier, cuStreamBeginCapture_ptsz, cuStreamBeginCapture_ptsz_(CS))
ROW(barrier, cuStreamBeginCapture_v2, cuStreamBeginCapture_v2(CS, CU_STREAM_CAPTURE_MODE_GLOBAL))
ROW(barrier, cuStreamBeginCapture_v2_ptsz, cuStreamBeginCapture_v2_ptsz_(CS, CU_STREAM_CAPTURE_MODE_GLOBAL))
ROW(barrier, cuStreamBeginCaptureToGraph, cuStreamBeginCaptureToGraph(CS, nullptr, nullptr, nullptr, 0, CU_STREAM_CAPTURE_MODE_GLOBAL))
ROW(barrier, cuStreamBeginCaptureToGraph_ptsz, cuStreamBeginCaptureToGraph_ptsz_(CS, nullptr, nullptr, nullptr, (size_t)0, CU_STREAM_CAPTURE_MODE_GLOBAL))
ROW(barrier, cuStreamEndCapture, CUgraph g; cuStreamEndCapture(CS, &g))
ROW(barrier, cuStreamEndCapture_ptsz, CUgraph g; cuStreamEndCapture_ptsz_(CS, &g))
ROW(barrier, cuStreamIsCapturing, CUstreamCaptureStatus st; cuStreamIsCapturing(CS, &st))
ROW(barrier, cuStreamIsCapturing_ptsz, CUstreamCaptureStatus st; cuStreamIsCapturing_ptsz_(CS, &st))
ROW(barrier, cuStreamGetCaptureInfo, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_(CS, &st))
ROW(barrier, cuStreamGetCaptureInfo_ptsz, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_ptsz_(CS, &st))
ROW(barrier, cuStreamGetCaptureInfo_v2, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_v2_(CS, &st))
ROW(barrier, cuStreamGetCaptureInfo_v2_ptsz, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_v2_ptsz_(CS, &st))
ROW(barrier, cuStreamGetCaptureInfo_v3, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_v3(CS, &st, nullptr, nullptr, nullptr, nullptr, nullptr))
ROW(barrier, cuStreamGetCaptureInfo_v3_ptsz, CUstreamCaptureStatus st; cuStreamGetCaptureInfo_v3_ptsz_(CS, &st))
ROW(barrier, cuStreamUpdateCaptureDependencies, cuStreamUpdateCaptureDependencies_(CS, nullptr, (size_t)0, 0u))
ROW(barrier, cuStreamUpdateCaptureDependencies_ptsz, cuStreamUpdateCaptureDependencies_ptsz_(CS, nullptr, (size_t)0, 0u))
ROW(barrier, cuStreamUpdateCaptureDependencies_v2, cuStreamUpdateCaptureDependencies_v2(CS, nullptr, nullptr, 0, 0))
ROW(barrier, cuStreamUpdateCaptureDependencies_v2_ptsz, cuStreamUpdateCaptureDependencies_v2_ptsz_(CS, nullptr, nullptr, (size_t)0, 0u))
ROW(barrier, cuThreadExchangeStreamCaptureMode, CUstreamCaptureMode md = CU_STREAM_CAPTURE_MODE_GLOBAL; cuThreadExchangeStreamCaptureMode(&md))
// the families, by prefix: every cudaGraph* and cuGraph* call
ROW(barrier, cudaGraphInstantiate, cudaGraphExec_t x; cudaGraphInstantiate(&x, nullptr, 0))
ROW(barrier, cudaGraphDestroy, cudaGraphDestroy(nullptr))
ROW(barrier, cuGraphLaunch, cuGraphLaunch(nullptr, CS))

// ---- no stream work
ROW(harmless, cudaGetLastError, cudaGetLastError())
ROW(harmless, cudaPeekAtLastError, cudaPeekAtLastError())
ROW(harmless, cudaGetErrorString, cudaGetErrorString(cudaSuccess))
ROW(harmless, cudaGetErrorName, cudaGetErrorName(cudaSuccess))
ROW(harmless, cudaGetDevice, int d; cudaGetDevice(&d))
ROW(harmless, cudaGetDeviceCount, int d; cudaGetDeviceCount(&d))
ROW(harmless, cudaGetDeviceProperties, cudaDeviceProp pr; cudaGetDeviceProperties(&pr, 0))
ROW(harmless, cudaGetDeviceProperties_v2, cudaDeviceProp pr; cudaGetDeviceProperties_v2_(&pr, 0))
ROW(harmless, cudaDeviceGetAttribute, int d; cudaDeviceGetAttribute(&d, cudaDevAttrWarpSize, 0))
ROW(harmless, cudaCreateTextureObject, cudaTextureObject_t t; cudaResourceDesc rd = {}; cudaTextureDesc td = {}; cudaCreateTextureObject(&t, &rd, &td, nullptr))
ROW(harmless, cudaCreateSurfaceObject, cudaSurfaceObject_t t; cudaResourceDesc rd = {}; cudaCreateSurfaceObject(&t, &rd))
ROW(harmless, cudaFuncGetAttributes, cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, FN(k3)))
ROW(harmless, cudaOccupancyMaxActiveBlocksPerMultiprocessor, int d; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d, FN(k3), 32, 0))
ROW(harmless, cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, int d; cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&d, FN(k3), 32, 0, 0))
ROW(harmless, cudaOccupancyAvailableDynamicSMemPerBlock, size_t d; cudaOccupancyAvailableDynamicSMemPerBlock(&d, FN(k3), 1, 32))
ROW(harmless, cudaOccupancyMaxPotentialClusterSize, int d; cudaLaunchConfig_t lc = {}; cudaOccupancyMaxPotentialClusterSize(&d, FN(k3), &lc))
ROW(harmless, cudaOccupancyMaxActiveClusters, int d; cudaLaunchConfig_t lc = {}; cudaOccupancyMaxActiveClusters(&d, FN(k3), &lc))
ROW(harmless, cuOccupancyMaxActiveBlocksPerMultiprocessor, int d; cuOccupancyMaxActiveBlocksPerMultiprocessor(&d, nullptr, 32, 0))
ROW(harmless, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, int d; cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&d, nullptr, 32, 0, 0))
ROW(harmless, __cudaPushCallConfiguration, __cudaPushCallConfiguration_(dim3(1), dim3(32), (size_t)0, s))
ROW(harmless, __cudaPopCallConfiguration, dim3 gd, bd; size_t sm; void *st; __cudaPopCallConfiguration_(&gd, &bd, &sm, &st))
