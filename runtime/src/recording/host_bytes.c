/* host_bytes.c - the copy kernels' classes (host_bytes.h). */
#include "recording/host_bytes.h"

#define BYTES(b) b,
#define NAME(b) "pygraph_host_bytes_" #b,
static const size_t class_bytes[PYGRAPH_HOST_BYTES_CLASSES] = {
    PYGRAPH_HOST_BYTES_CLASS_LIST(BYTES)};
static const char *const class_names[PYGRAPH_HOST_BYTES_CLASSES] = {
    PYGRAPH_HOST_BYTES_CLASS_LIST(NAME)};

_Static_assert(sizeof class_bytes / sizeof class_bytes[0] == PYGRAPH_HOST_BYTES_CLASSES,
               "PYGRAPH_HOST_BYTES_CLASSES counts the class list");

#define COVERS_MAX(b) || (b) >= PYGRAPH_HOST_BYTES_MAX
_Static_assert(0 PYGRAPH_HOST_BYTES_CLASS_LIST(COVERS_MAX),
               "a class holds the largest copy delivered so (PYGRAPH_HOST_BYTES_MAX)");

size_t pygraph_host_bytes_class_bytes(unsigned c)
{
  return c < PYGRAPH_HOST_BYTES_CLASSES ? class_bytes[c] : 0;
}

const char *pygraph_host_bytes_class_name(unsigned c)
{
  return c < PYGRAPH_HOST_BYTES_CLASSES ? class_names[c] : NULL;
}

unsigned pygraph_host_bytes_class_of(size_t count)
{
  unsigned c = 0;
  while (c + 1 < PYGRAPH_HOST_BYTES_CLASSES && class_bytes[c] < count)
    c++;
  return c;
}
