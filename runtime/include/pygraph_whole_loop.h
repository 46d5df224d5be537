/* pygraph_whole_loop.h - the whole-loop descriptor types (struct
 * pygraph_whole_loop, its exit-test nodes and operand evolutions), expanded
 * from pygraph_abi.def, without CUDA: pygraph_rt.h includes this, and so
 * does the runtime's own device code (the WHILE graph's condition kernel
 * reads a device copy of a descriptor, runtime/device/).  C and C++. */
#ifndef PYGRAPH_WHOLE_LOOP_H
#define PYGRAPH_WHOLE_LOOP_H

/* the constants (enum pygraph_exit_op, pygraph_value_type, ...) */
#include "pygraph_abi.h"

typedef struct pygraph_exit_node {
#define PYGRAPH_EXIT_NODE_FIELD(type, name, ir) type name;
#include "pygraph_abi.def"
} pygraph_exit_node;

typedef struct pygraph_loop_value {
#define PYGRAPH_LOOP_VALUE_FIELD(type, name, ir) type name;
#include "pygraph_abi.def"
} pygraph_loop_value;

typedef struct pygraph_whole_loop {
#define PYGRAPH_WHOLE_LOOP_FIELD(type, name, ir) type name;
#include "pygraph_abi.def"
} pygraph_whole_loop;

#endif /* PYGRAPH_WHOLE_LOOP_H */
