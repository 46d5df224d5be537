// Launch dimensions in the launch-site remark are what the program launches
// with, at every -O level: a component is a number only where a constant
// provably reaches the launch (through dim3's constructor, stores of single
// components and copies of whole dim3s, at -O0 through their stack slots),
// else <dynamic>.  A dim3 variable assigned again before the launch shows
// its last value, not the one it was declared with.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %cuda_host -O1 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O3 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
__global__ void k(float *a) {}
void init(dim3 *g);

void reassigned(float *a) {
  dim3 grid, block;
  grid = dim3(4, 2);
  block.x = 128;
  k<<<grid, block>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(4,2,1) block=(128,1,1) shmem=0 stream=default
}

void last_store_wins(float *a, int n) {
  dim3 w;
  w.x = 7;
  w.y = n;
  w.y = 8;
  k<<<w, 1>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(7,8,1) block=(1,1,1)
}

// Two values may reach the launch: that component is not known.
void conditional(float *a, int n) {
  dim3 g(2);
  if (n)
    g.x = 7;
  k<<<g, 1>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(<dynamic>,1,1) block=(1,1,1)
}

// The same value on every path is known.
void both_paths_agree(float *a, int n) {
  dim3 same(6);
  if (n > 2)
    same = dim3(6);
  else
    same.x = 6;
  k<<<same, 4>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(6,1,1) block=(4,1,1)
}

// The address escapes: nothing about it is known.
void escapes(float *a) {
  dim3 h(3);
  init(&h);
  k<<<h, 2>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=<dynamic> block=(2,1,1)
}

void runtime_values(float *a, int n, const dim3 &ref) {
  k<<<dim3(n, 3), 32>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(<dynamic>,3,1) block=(32,1,1)
  k<<<ref, 64>>>(a);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=<dynamic> block=(64,1,1)
}

void launch_api(float *a, int n) {
  void *args[] = {&a};
  dim3 lg(9, 9), lb(32);
  lb.y = n;
  cudaLaunchKernel((const void *)k, lg, lb, args, 0, 0);
  // CHECK: launch-dims.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' grid=(9,9,1) block=(32,<dynamic>,1)
}

// Changed after the launch inside the loop: 1 on the first iteration, 5
// later.  (-O1 and up peel the first iteration into a launch of its own.)
void loop_carried(float *a, int n) {
  dim3 g(1);
  for (int i = 0; i < n; ++i) {
    k<<<g, 1>>>(a);
    // O0: launch-dims.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' grid=(<dynamic>,1,1) block=(1,1,1)
    g.x = 5;
  }
}
