// The plugin runs in the device (-fcuda-is-device) compile too, and in both
// jobs of an ordinary compile.  The device compile's remarks (one per
// kernel: what graphs can do with its arguments) are under their own name,
// pygraph-device: -Rpass-analysis=pygraph shows the host's alone (a device
// remark sits on a kernel's first column), and
// -Rpass-analysis=pygraph-device the device's alone.
// RUN: %cuda_device -O2 -fplugin=%plugin -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=DEV
// RUN: %cuda -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=HOST --implicit-check-not=":1: remark:"
// RUN: %cuda -O2 -fplugin=%plugin -Rpass-analysis=pygraph-device -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=DEV --implicit-check-not="launch of"
// RUN: %cuda -O2 -fplugin=%plugin '-Rpass-analysis=pygraph|device' -c -o /dev/null %s 2>&1 | FileCheck %s --check-prefixes=DEV,HOST
// Kernels without a twin say why.
// RUN: %cuda_device -O2 -fplugin=%plugin -fplugin-arg-pygraph-indirection=0 -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %cuda_device -O2 -fplugin=%plugin -fplugin-arg-pygraph-analyze-only -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ANALYZE
// A remark record keeps them under their name, whatever -Rpass prints.
// RUN: rm -f %t.yaml
// RUN: %cuda_device -O2 -fplugin=%plugin -Rpass-analysis=pygraph -fsave-optimization-record -foptimization-record-file=%t.yaml -S -o /dev/null %s 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
struct Params { float a[3]; int n; };

__global__ void axpy(float *y, const float *x, float a, int n) {}
// DEV: device-compile.cu:[[@LINE-1]]:1: remark: kernel 'axpy(float*, float const*, float, int)' (4 parameters, 24 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes [-Rpass-analysis=pygraph-device]
// OFF: device-compile.cu:[[@LINE-2]]:1: remark: kernel 'axpy(float*, float const*, float, int)' (4 parameters, 24 bytes): graphs change its arguments with a per-launch update (indirection=0) [-Rpass-analysis=pygraph-device]
// ANALYZE: device-compile.cu:[[@LINE-3]]:1: remark: kernel 'axpy(float*, float const*, float, int)' (4 parameters, 24 bytes): graphs change its arguments with a per-launch update (analyze-only) [-Rpass-analysis=pygraph-device]
// YAML: --- !Analysis
// YAML-NEXT: Pass: pygraph-device
// YAML-NEXT: Name: Kernel
// YAML: String: '{{.*}}kernel ''axpy(float*, float const*, float, int)'' (4 parameters, 24 bytes)
__global__ void __launch_bounds__(128) bystruct(Params p, double *out) {}
// DEV: device-compile.cu:[[@LINE-1]]:1: remark: kernel 'bystruct(Params, double*)' (2 parameters, 24 bytes): graphs can change its arguments

void run(float *y, float *x, double *o) {
  axpy<<<1, 32>>>(y, x, 1.0f, 4);
  // HOST: device-compile.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)'
  bystruct<<<1, 32>>>(Params{{1, 2, 3}, 4}, o);
  // HOST: device-compile.cu:[[@LINE-1]]:3: remark: launch of 'bystruct(Params, double*)'
}
