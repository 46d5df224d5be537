/* signature.h - is an iteration the "same" as another one?
 *
 * The signature of an iteration is everything that fixes a graph's
 * topology and node types: op kinds and count, kernel, grid, block, shared
 * memory, stream, memset/memcpy sizes and kinds, the size of bytes copied
 * from the host, event linkage, and a library call's function and every
 * argument (op.h: its graph is captured from the library, which no node
 * update can change).  Kernel argument values, pointers, memset values,
 * the bytes copied from the host and event handles are *parameters*: a
 * change there is applied to an existing graph as a node update. */
#ifndef PYGRAPH_SIGNATURE_H
#define PYGRAPH_SIGNATURE_H

#include "recording/op_list.h"

/* A hash of exactly what pygraph_same_signature compares (equal signatures
 * hash equal; use same_signature to confirm a match). */
unsigned long long pygraph_signature_hash(const struct pygraph_op_list *list);

int pygraph_same_signature(const struct pygraph_op_list *a, const struct pygraph_op_list *b);

/* For two ops at the same index of lists with the same signature: do the
 * node's parameters differ (so the graph node needs an update)? */
int pygraph_op_params_differ(const struct pygraph_op_list *a, const struct pygraph_op *op_a,
                             const struct pygraph_op_list *b, const struct pygraph_op *op_b);

/* Ops of `a` whose parameters differ from the same position's in `b` (same
 * signature: as many ops). */
long pygraph_count_changed_params(const struct pygraph_op_list *a, const struct pygraph_op_list *b);

#endif /* PYGRAPH_SIGNATURE_H */
