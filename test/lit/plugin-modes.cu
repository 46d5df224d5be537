// -fplugin-arg-pygraph-analyze-only reports what it would do and changes
// nothing; -fplugin-arg-pygraph-disable turns the plugin off entirely.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-analyze-only -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYZE
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-analyze-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=UNCHANGED
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-disable -Rpass=pygraph -Rpass-analysis=pygraph -S -emit-llvm %s -o - 2>&1 | FileCheck %s --check-prefix=UNCHANGED
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-disable -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | count 0
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-min-launches=3 -fplugin-arg-pygraph-batch=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN3
__global__ void k(float *p, int i) {}
void f(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(p, i);
    k<<<1, 1>>>(p, i + 1);
  }
}
// ANALYZE: plugin-modes.cu:11:5: remark: would form graph region in 'f(float*, int)': loop iteration (lines 10-13), 2 launch sites
// UNCHANGED-NOT: __pygraph
// MIN3: plugin-modes.cu:11:5: remark: launch of 'k(float*, int)' stays eager: only 2 launch sites at the start of the loop iteration before the next barrier; a graph region needs at least 3 (min-launches)
// MIN3-NOT: formed graph region
// A batchable loop (this one) needs one launch site, whatever min-launches says.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-min-launches=3 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN3BATCH
// MIN3BATCH: plugin-modes.cu:11:5: remark: formed graph region in 'f(float*, int)': loop iteration (lines 10-13), 2 launch sites
// MIN3BATCH: plugin-modes.cu:11:5: remark: batchable loop (lines 10-13): up to 32 iterations per graph
// MIN3BATCH-NOT: stays eager
// -fplugin-arg-pygraph-disable leaves clang's compile as it is without the
// plugin (no pass, no location tracking either): the same host and device IR.
// RUN: %cuda_host -O2 -S -emit-llvm %s -o %t.clang.ll
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-disable -S -emit-llvm %s -o %t.off.ll
// RUN: diff %t.clang.ll %t.off.ll
// RUN: %cuda_device -O2 -S -emit-llvm %s -o %t.clang-dev.ll
// RUN: %cuda_device -O2 -fplugin=%plugin -fplugin-arg-pygraph-disable -S -emit-llvm %s -o %t.off-dev.ll
// RUN: diff %t.clang-dev.ll %t.off-dev.ll
