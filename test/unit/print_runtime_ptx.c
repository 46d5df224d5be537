/* print_runtime_ptx.c - writes one of the runtime's built-in PTX modules to
 * stdout, so that ctest can have ptxas assemble it: `loader` (the argument
 * loaders, graphs/arg_loader.h) or `while` (the WHILE graph's condition
 * kernel, graphs/while_condition.h). */
#include <stdio.h>
#include <string.h>

#include "graphs/arg_loader.h"
#include "graphs/while_condition.h"

int main(int argc, char **argv)
{
  if (argc != 2 || (strcmp(argv[1], "loader") && strcmp(argv[1], "while"))) {
    fputs("usage: pygraph_print_runtime_ptx loader|while\n", stderr);
    return 2;
  }
  const char *ptx = strcmp(argv[1], "loader") ? pygraph_while_condition_ptx : pygraph_loader_ptx;
  return fputs(ptx, stdout) < 0;
}
