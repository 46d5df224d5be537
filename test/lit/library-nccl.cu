// NCCL calls inside a loop of launches (issue 20): the collectives and
// the group calls of runtime/include/pygraph_library.def are routed to
// __pygraph_<symbol> with the call's own arguments and do not end the
// region (they count like launches); every other NCCL call (communicator
// set-up, error queries) is a barrier named as an NCCL call pygraph does
// not record.  The NCCL declarations are written here: the test needs no
// NCCL.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cuda_runtime.h>

extern "C" {
typedef struct ncclComm *ncclComm_t;
typedef enum { ncclSuccess = 0, ncclInProgress = 7 } ncclResult_t;
typedef enum { ncclFloat32 = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream);
ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, int root, ncclComm_t comm,
                           cudaStream_t stream);
ncclResult_t ncclGroupStart();
ncclResult_t ncclGroupEnd();
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError);
}

// The routed library functions stay referenced by the object.
// IR: @.pygraph.library_refs = private constant [4 x ptr] [ptr @ncclAllReduce, ptr @ncclGroupStart, ptr @ncclBroadcast, ptr @ncclGroupEnd]

__global__ void grad(float *g, int n) {}
__global__ void update(float *w, const float *g, int n) {}

// A data-parallel step: gradients, their all-reduce, the update.
void train(ncclComm_t comm, cudaStream_t s, float *w, float *g, int n, int steps) {
  for (int i = 0; i < steps; ++i) {
    grad<<<1, 32, 0, s>>>(g, n);
    // CHECK-DAG: library-nccl.cu:[[@LINE-1]]:5: remark: formed graph region in 'train(ncclComm*, CUstream_st*, float*, float*, int, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+5]]), 2 launch sites, 1 library call
    // O0-DAG: library-nccl.cu:[[@LINE-2]]:5: remark: formed graph region in 'train(ncclComm*, CUstream_st*, float*, float*, int, int)': loop iteration (lines [[#@LINE-3]]-[[#@LINE+4]]), 2 launch sites, 1 library call
    ncclAllReduce(g, g, n, ncclFloat32, ncclSum, comm, s);
    // CHECK-DAG: library-nccl.cu:[[@LINE-1]]:5: remark: ncclAllReduce inside a loop: an NCCL call recorded in a region as one graph node (a graph captured from the library), not a barrier [-Rpass-analysis=pygraph]
    update<<<1, 32, 0, s>>>(w, g, n);
  }
}
// IR-LABEL: define {{.*}}@_Z5trainP8ncclCommP11CUstream_stPfS3_ii(
// IR: call {{.*}}@__pygraph_region_begin(
// IR: call {{.*}}i32 @__pygraph_ncclAllReduce(ptr @.pygraph.site{{[.0-9]*}}, ptr
// IR-NOT: call {{.*}}@ncclAllReduce(

// A group of two calls: both group calls are routed too.
void grouped(ncclComm_t comm, cudaStream_t s, float *w, float *g, int n, int steps) {
  for (int i = 0; i < steps; ++i) {
    grad<<<1, 32, 0, s>>>(g, n);
    ncclGroupStart();
    // CHECK-DAG: library-nccl.cu:[[@LINE-1]]:5: remark: ncclGroupStart inside a loop: an NCCL call recorded in a region as one graph node (a graph captured from the library), not a barrier [-Rpass-analysis=pygraph]
    ncclAllReduce(g, g, n, ncclFloat32, ncclSum, comm, s);
    ncclBroadcast(w, w, n, ncclFloat32, 0, comm, s);
    ncclGroupEnd();
    update<<<1, 32, 0, s>>>(w, g, n);
  }
}
// IR-LABEL: define {{.*}}@_Z7groupedP8ncclCommP11CUstream_stPfS3_ii(
// IR: call {{.*}}i32 @__pygraph_ncclGroupStart(ptr @.pygraph.site
// IR: call {{.*}}i32 @__pygraph_ncclAllReduce(ptr @.pygraph.site
// IR: call {{.*}}i32 @__pygraph_ncclBroadcast(ptr @.pygraph.site
// IR: call {{.*}}i32 @__pygraph_ncclGroupEnd(ptr @.pygraph.site

// An NCCL call whose answer the host reads ends the region: a barrier.
void checked(ncclComm_t comm, cudaStream_t s, float *g, int n, int steps) {
  for (int i = 0; i < steps; ++i) {
    grad<<<1, 32, 0, s>>>(g, n);
    ncclResult_t e;
    ncclCommGetAsyncError(comm, &e);
    // CHECK-DAG: library-nccl.cu:[[@LINE-1]]:5: remark: ncclCommGetAsyncError inside a loop: an NCCL call that pygraph does not record, a barrier [-Rpass-analysis=pygraph]
    // CHECK-DAG: remark: launch of 'grad(float*, int)' stays eager: {{.*}}NCCL call 'ncclCommGetAsyncError' that pygraph does not record at library-nccl.cu:[[#@LINE-2]]{{.*}}[library-call]
    if (e != ncclSuccess)
      break;
  }
}
// IR-LABEL: define {{.*}}@_Z7checkedP8ncclCommP11CUstream_stPfii(
// IR: call {{.*}}i32 @ncclCommGetAsyncError(
