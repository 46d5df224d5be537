// How the plugin is loaded: -fplugin= (libpygraph.so loads its clang half,
// libpygraph_clang.so, from its own folder), -fpass-plugin= alone, both at
// once (the pass registers once), and opt -load-pass-plugin (see the .ll
// tests).  libpygraph.so exports only the pass-plugin entry point.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %cuda_host -O2 -fpass-plugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %cuda_host -O2 -fplugin=%plugin -fpass-plugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-min-launches=3 -fplugin-arg-pygraph-batch=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: llvm-nm -D --defined-only %plugin | FileCheck %s --check-prefix=EXPORTS
#include <cuda_runtime.h>
__global__ void k(float *p) {}
void f(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    k<<<1, 32>>>(p);
  }
}
// ONCE: remark: formed graph region in 'f(float*, int)': loop iteration
// ONCE-NOT: formed graph region
// ARGS: stays eager: only 2 launch sites {{.*}} needs at least 3 (min-launches)
// EXPORTS-NOT: {{.}}
// EXPORTS: {{^[0-9a-f]+ [WT] llvmGetPassPluginInfo$}}
// EXPORTS-NOT: {{.}}
