// nvcc's __nv_atomic_* builtins (CUDA 12.8+), which clang does not have.
__global__ void k(long long *p, long long *o) {
  o[0] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  o[1] = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_store_n(p, 3, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST);
}
