/* pygraph_layout_tag.h - ties an indirect twin to the parameter layout it
 * reads.  Shared by the plugin (which makes the twins) and the runtime
 * (which fills their argument blocks); plain C, no dependencies.
 *
 * A twin's second parameter is an unused byte array whose size is the tag
 * of the original kernel's parameter layout as the plugin computed it: its
 * (offset, size) pairs.  The runtime computes the tag of the layout the
 * driver reports for the original (cuFuncGetParamInfo), reads the twin's
 * tag as the size of that parameter (cuFuncGetParamInfo again: no device
 * memory is read), and keeps the kernel direct when they differ, so a twin
 * never reads an argument from the wrong place. */
#ifndef PYGRAPH_LAYOUT_TAG_H
#define PYGRAPH_LAYOUT_TAG_H

/* Tags are 1..PYGRAPH_LAYOUT_TAG_MAX bytes (a prime, so every pair counts). */
#define PYGRAPH_LAYOUT_TAG_MAX 1021u

/* pairs[2*i] = offset, pairs[2*i+1] = size of parameter i, n parameters. */
static inline unsigned pygraph_layout_tag_bytes(const unsigned long long *pairs,
                                                unsigned long long n)
{
  unsigned long long h = 0xcbf29ce484222325ull ^ n;
  for (unsigned long long i = 0; i < 2 * n; i++) {
    h ^= pairs[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  return 1u + (unsigned)(h % PYGRAPH_LAYOUT_TAG_MAX);
}

#endif /* PYGRAPH_LAYOUT_TAG_H */
