/* print_runtime_ptx.c - writes one of the runtime's built-in PTX modules to
 * stdout, so that ctest can have ptxas assemble it: `loader` (the argument
 * loaders, graphs/arg_loader.h), `while` (the WHILE graph's condition
 * kernel, graphs/while_condition.h) or `host_bytes` (the copy kernels of
 * snapshotted host-to-device copies, recording/host_bytes.h). */
#include <stdio.h>
#include <string.h>

#include "graphs/arg_loader.h"
#include "graphs/while_condition.h"
#include "recording/host_bytes.h"

int main(int argc, char **argv)
{
  static const struct {
    const char *name, *ptx;
  } modules[] = {{"loader", pygraph_loader_ptx},
                 {"while", pygraph_while_condition_ptx},
                 {"host_bytes", pygraph_host_bytes_ptx}};
  for (size_t m = 0; argc == 2 && m < sizeof modules / sizeof modules[0]; m++)
    if (strcmp(argv[1], modules[m].name) == 0)
      return fputs(modules[m].ptx, stdout) < 0;
  fputs("usage: pygraph_print_runtime_ptx loader|while|host_bytes\n", stderr);
  return 2;
}
