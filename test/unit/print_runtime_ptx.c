/* print_runtime_ptx.c - writes one of the runtime's built-in PTX modules to
 * stdout, so that ctest can have ptxas assemble it: `loader` (the argument
 * loaders, graphs/arg_loader.h), `while` (the WHILE graph's condition
 * kernel, graphs/while_condition.h) or `host_bytes` (the copy kernels of
 * snapshotted host-to-device copies, recording/host_bytes.h).  `fatbins`
 * checks the fat binaries the runtime loads instead of those two PTX
 * modules: one line each, "<name> fatbin ok <bytes>" when it starts with
 * the fat binary magic number and is 16-byte aligned, else "<name> fatbin
 * BAD" (or "none" where the build made none). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "graphs/arg_loader.h"
#include "graphs/while_condition.h"
#include "recording/host_bytes.h"

static void check_fatbin(const char *name, const unsigned char *image, unsigned long size)
{
  static const unsigned char magic[4] = {0x50, 0xed, 0x55, 0xba};   /* 0xba55ed50, little-endian */
  if (!size)
    printf("%s fatbin none\n", name);
  else if (size >= 16 && memcmp(image, magic, 4) == 0 && (uintptr_t)image % 16 == 0)
    printf("%s fatbin ok %lu\n", name, size);
  else
    printf("%s fatbin BAD\n", name);
}

int main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "fatbins") == 0) {
    check_fatbin("while", pygraph_while_condition_ptx_fatbin,
                 pygraph_while_condition_ptx_fatbin_size);
    check_fatbin("host_bytes", pygraph_host_bytes_ptx_fatbin, pygraph_host_bytes_ptx_fatbin_size);
    return 0;
  }
  static const struct {
    const char *name, *ptx;
  } modules[] = {{"loader", pygraph_loader_ptx},
                 {"while", pygraph_while_condition_ptx},
                 {"host_bytes", pygraph_host_bytes_ptx}};
  for (size_t m = 0; argc == 2 && m < sizeof modules / sizeof modules[0]; m++)
    if (strcmp(argv[1], modules[m].name) == 0)
      return fputs(modules[m].ptx, stdout) < 0;
  fputs("usage: pygraph_print_runtime_ptx loader|while|host_bytes|fatbins\n", stderr);
  return 2;
}
