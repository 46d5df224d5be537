// Without remark flags the plugin prints nothing, with or without launches;
// a file without launches gets no host remarks even when asked.
// RUN: %cuda_host -O2 -fplugin=%plugin -c %s -o /dev/null 2>&1 | count 0
// RUN: %cuda_host -O0 -fplugin=%plugin -c %s -DWITH_LAUNCH -o /dev/null 2>&1 | count 0
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | count 0
#ifdef WITH_LAUNCH
__global__ void k(int *p) {}
void f(int *p) { for (int i = 0; i < 4; ++i) { k<<<1, 1>>>(p); k<<<1, 1>>>(p); } }
#else
int host_only(int x) { return x * 2; }
#endif
