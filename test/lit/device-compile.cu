// The plugin runs in the device (-fcuda-is-device) compile too, and in both
// jobs of an ordinary compile.
// RUN: %cuda_device -O2 -fplugin=%plugin -Rpass-analysis=pygraph -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=DEV
// RUN: %cuda -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefixes=DEV,HOST
struct Params { float a[3]; int n; };

__global__ void axpy(float *y, const float *x, float a, int n) {}
// DEV: device-compile.cu:[[@LINE-1]]:1: remark: device kernel 'axpy(float*, float const*, float, int)': 4 parameters, 24 bytes
__global__ void __launch_bounds__(128) bystruct(Params p, double *out) {}
// DEV: device-compile.cu:[[@LINE-1]]:1: remark: device kernel 'bystruct(Params, double*)': 2 parameters, 24 bytes

void run(float *y, float *x, double *o) {
  axpy<<<1, 32>>>(y, x, 1.0f, 4);
  // HOST: device-compile.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)'
  bystruct<<<1, 32>>>(Params{{1, 2, 3}, 4}, o);
  // HOST: device-compile.cu:[[@LINE-1]]:3: remark: launch of 'bystruct(Params, double*)'
}
