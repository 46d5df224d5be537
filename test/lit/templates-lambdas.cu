// Launches in C++ templates and lambdas are sites where they are written,
// and regions form inside them.
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
template <typename T> __global__ void scale(T *p, T a, int n) {}

template <typename T> void step_all(T *p, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    scale<T><<<n / 128, 128>>>(p, T(2), n);
    // CHECK-DAG: templates-lambdas.cu:[[@LINE-1]]:5: remark: launch of 'void scale<double>(double*, double, int)'
    scale<T><<<n / 128, 128>>>(p, T(3), n);
  }
}

void run(double *d, float *f, int n) {
  step_all(d, n, 10);
  auto twice = [&](int k) {
    for (int i = 0; i < k; ++i) {
      scale<float><<<1, 128>>>(f, 1.5f, n);
      // CHECK-DAG: templates-lambdas.cu:[[@LINE-1]]:7: remark: launch of 'void scale<float>(float*, float, int)' grid=(1,1,1) block=(128,1,1)
      scale<float><<<1, 128>>>(f, 0.5f, n);
    }
  };
  twice(3);
}
// CHECK-DAG: remark: formed graph region in 'void step_all<double>(double*, int, int)': loop iteration
// The lambda is its own function at -O0 and inlined into run() at -O2:
// CHECK-DAG: templates-lambdas.cu:19:7: remark: formed graph region in '{{run\(double\*, float\*, int\)|.*operator\(\)\(int\) const}}': loop iteration (lines 18-22)
// step_all() runs its own loop region: no straight-line region in run() swallows it.
// CHECK-NOT: straight-line run
