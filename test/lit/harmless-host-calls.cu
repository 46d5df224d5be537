// Host-only library calls between launches do not split a loop's region:
// a function-local static's initialization guard, number parsing,
// std::string members, an iostream's clear(), libm's nextafter and host
// files.  An unknown external still does (with across-files=0: else the
// runtime checks it, across-files.cu), with the allow= that lifts it.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,NOACROSS
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

__global__ void k(float *x, float v) { x[threadIdx.x] += v; }
void opaque(void);

// CHECK: remark: formed graph region in 'host_work(float*, int, char const*)': loop iteration (lines [[@LINE+3]]-{{[0-9]+}}), 5 launch sites
void host_work(float *d, int n, const char *arg) {
  std::string mode(arg);
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(d, 1.0f);
    static int first = n + 1;                    // __cxa_guard_acquire / release
    k<<<1, 32>>>(d, (float)first);
    long v = strtol(arg, nullptr, 10);
    k<<<1, 32>>>(d, (float)v);
    if (mode.compare("fast") == 0) std::cout.clear();
    k<<<1, 32>>>(d, nextafterf((float)i, 1.0f));
    FILE *f = fopen(arg, "r");
    if (f) fclose(f);
    k<<<1, 32>>>(d, 2.0f);
  }
}

// NOACROSS: remark: launch of 'k(float*, float)' stays eager: {{.*}}external call 'opaque()' at {{.*}}allow=
void unknown_call(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(d, 1.0f);
    opaque();
  }
}
