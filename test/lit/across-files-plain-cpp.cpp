// A C++ file without any CUDA call (the drivers compile every source with
// the plugin) gets none of the across-files protocol: no barrier point
// before its indirect or external calls, no marker (a region calling into
// it splits there, as at any file built without the plugin).
// RUN: %clangxx -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: __pygraph
struct Shape {
  virtual double area() const = 0;
};
double log_value(double);
double total(const Shape *const *s, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += log_value(s[i]->area());
  return sum;
}
