/* print_loader_ptx.c - writes the runtime's built-in argument loader PTX to
 * stdout, so that ctest can have ptxas assemble it (loader_ptx_assembles). */
#include <stdio.h>

#include "graphs/arg_loader.h"

int main(void)
{
  return fputs(pygraph_loader_ptx, stdout) < 0;
}
