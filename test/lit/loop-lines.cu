// Region and loop remarks give the lines the source loop spans at every -O
// level.  Optimisation may drop a loop's location metadata (here: a local
// array whose lifetime a `break` ends, as in HeCBench's lulesh main loop):
// the range then still spans the loop's own code, not the line of its
// preheader alone, nor reach the function's closing brace, the line a
// landing pad carries.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O1 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BATCH
// RUN: %cuda_host -O3 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BATCH
// The same loop without remark flags keeps no locations at -O2: what the
// test relies on (lines come from the blocks, not from loop metadata).
// RUN: %cuda_host -O2 -Rpass=none -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <iostream>
__global__ void k1(float *a) {}
__global__ void k2(float *a) {}
struct Dom {
  double t, stop;
  int c;
  double time() { return t; }
  double stoptime() { return stop; }
  int cycle() { return c; }
};
struct Opts { int its, cap; };
void print_cycle(int c, int t) { std::cout << c << t; }

int main(int argc, char **argv) {
  float *a = 0;
  Dom *d = new Dom{0, 10.0 * argc, 0};
  Opts opts{5 * argc, 3 * argc};
  // O0: loop-lines.cu:[[#@LINE+4]]:5: remark: formed graph region in 'main': loop iteration (lines [[#@LINE+3]]-[[#@LINE+59]])
  // O0: remark: loop (lines [[#@LINE+2]]-[[#@LINE+58]]) not batchable
  // CHECK: loop-lines.cu:[[#@LINE+2]]:5: remark: formed graph region in 'main': loop iteration (lines [[#@LINE+1]]-[[#@LINE+57]])
  while ((d->time() < d->stoptime()) && (d->cycle() < opts.its)) {
    k1<<<1, 32>>>(a);
    // BATCH: loop-lines.cu:[[#@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+54]])
    k2<<<1, 32>>>(a);
    int tmp[4];
    for (int j = 0; j < 4; ++j)
      tmp[j] = j * d->c;
    d->t += 0.5; // step 0
    d->t += 0.5; // step 1
    d->t += 0.5; // step 2
    d->t += 0.5; // step 3
    d->t += 0.5; // step 4
    d->t += 0.5; // step 5
    d->t += 0.5; // step 6
    d->t += 0.5; // step 7
    d->t += 0.5; // step 8
    d->t += 0.5; // step 9
    d->t += 0.5; // step 10
    d->t += 0.5; // step 11
    d->t += 0.5; // step 12
    d->t += 0.5; // step 13
    d->t += 0.5; // step 14
    d->t += 0.5; // step 15
    d->t += 0.5; // step 16
    d->t += 0.5; // step 17
    d->t += 0.5; // step 18
    d->t += 0.5; // step 19
    d->t += 0.5; // step 20
    d->t += 0.5; // step 21
    d->t += 0.5; // step 22
    d->t += 0.5; // step 23
    d->t += 0.5; // step 24
    d->t += 0.5; // step 25
    d->t += 0.5; // step 26
    d->t += 0.5; // step 27
    d->t += 0.5; // step 28
    d->t += 0.5; // step 29
    d->t += 0.5; // step 30
    d->t += 0.5; // step 31
    d->t += 0.5; // step 32
    d->t += 0.5; // step 33
    d->t += 0.5; // step 34
    d->t += 0.5; // step 35
    d->t += 0.5; // step 36
    d->t += 0.5; // step 37
    d->t += 0.5; // step 38
    d->t += 0.5; // step 39
    d->c++;
    try {
      print_cycle(d->cycle(), tmp[d->c % 4]);
    } catch (...) {
    }
    if (opts.cap == 1) {
      break;
    }
    opts.cap -= 1;
  }
  return 0;
}
// IR-LABEL: define {{.*}} @main(
// IR-NOT: !llvm.loop
// IR: ret i32 0
