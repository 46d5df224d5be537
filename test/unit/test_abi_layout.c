/* test_abi_layout.c - the descriptor layouts of pygraph_rt.h are the ones
 * the pass's instrumenter emits.
 *
 * Both come from runtime/include/pygraph_abi.def: the header declares each
 * field with its C type, the instrumenter builds an LLVM struct of the
 * field's IR kind (PTR: ptr, U32: i32, I64: i64; a plain, not packed,
 * struct of the host data layout).  Here a mirror struct is built from the
 * IR kinds alone, with the C types those LLVM types stand for, and every
 * offset and size must agree at compile time: a C type in the .def whose
 * size or alignment is not its IR kind's fails the build.
 */
#include "pygraph_rt.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void *ir_PTR;
typedef uint32_t ir_U32;
typedef int64_t ir_I64;

struct ir_site {
#define PYGRAPH_SITE_FIELD(type, name, ir) ir_##ir name;
#include "pygraph_abi.def"
};
struct ir_region {
#define PYGRAPH_REGION_FIELD(type, name, ir) ir_##ir name;
#include "pygraph_abi.def"
};
struct ir_whole_loop {
#define PYGRAPH_WHOLE_LOOP_FIELD(type, name, ir) ir_##ir name;
#include "pygraph_abi.def"
};
struct ir_exit_node {
#define PYGRAPH_EXIT_NODE_FIELD(type, name, ir) ir_##ir name;
#include "pygraph_abi.def"
};
struct ir_loop_value {
#define PYGRAPH_LOOP_VALUE_FIELD(type, name, ir) ir_##ir name;
#include "pygraph_abi.def"
};

#define SAME_FIELD(c_struct, ir_struct, type, name, ir)                                \
  _Static_assert(offsetof(c_struct, name) == offsetof(struct ir_struct, name),         \
                 #c_struct "." #name ": offset differs from the emitted layout");      \
  _Static_assert(sizeof(type) == sizeof(ir_##ir),                                      \
                 #c_struct "." #name ": C type is not the size of IR kind " #ir);      \
  _Static_assert(_Alignof(type) == _Alignof(ir_##ir),                                  \
                 #c_struct "." #name ": C type is not aligned like IR kind " #ir);

#define PYGRAPH_SITE_FIELD(type, name, ir) SAME_FIELD(pygraph_site, ir_site, type, name, ir)
#define PYGRAPH_REGION_FIELD(type, name, ir) \
  SAME_FIELD(pygraph_region, ir_region, type, name, ir)
#define PYGRAPH_WHOLE_LOOP_FIELD(type, name, ir) \
  SAME_FIELD(pygraph_whole_loop, ir_whole_loop, type, name, ir)
#define PYGRAPH_EXIT_NODE_FIELD(type, name, ir) \
  SAME_FIELD(pygraph_exit_node, ir_exit_node, type, name, ir)
#define PYGRAPH_LOOP_VALUE_FIELD(type, name, ir) \
  SAME_FIELD(pygraph_loop_value, ir_loop_value, type, name, ir)
#include "pygraph_abi.def"

_Static_assert(sizeof(pygraph_site) == sizeof(struct ir_site), "pygraph_site size");
_Static_assert(sizeof(pygraph_region) == sizeof(struct ir_region), "pygraph_region size");
_Static_assert(sizeof(pygraph_whole_loop) == sizeof(struct ir_whole_loop), "whole_loop size");
_Static_assert(sizeof(pygraph_exit_node) == sizeof(struct ir_exit_node), "exit_node size");
_Static_assert(sizeof(pygraph_loop_value) == sizeof(struct ir_loop_value), "loop_value size");
/* A region of any ABI version starts with abi_version: the runtime reads
 * it first and leaves a region of another version alone. */
_Static_assert(offsetof(pygraph_region, abi_version) == 0, "abi_version comes first");
_Static_assert(_Alignof(pygraph_region) == 8, "the pass aligns region descriptors to 8");
_Static_assert(_Alignof(pygraph_site) == 8, "the pass aligns site descriptors to 8");

/* Every routed entry point the .def lists is declared with the site first
 * (a mismatch with the runtime's definitions fails the runtime's build).
 * Checked on the declarations alone: _Generic does not evaluate its
 * operand, so nothing here needs the definitions, which live in the CUDA
 * part of the runtime (pygraph_rt), not in the logic this test links. */
#define PYGRAPH_ROUTED_CALL(ret, symbol, ...)                                             \
  _Static_assert(_Generic(&__pygraph_##symbol,                                           \
                          ret (*)(const pygraph_site *, __VA_ARGS__): 1, default: 0),    \
                 "__pygraph_" #symbol " is not declared as (site, CUDA's parameters)");
#include "pygraph_abi.def"

enum {
  N_ROUTED = 0
#define PYGRAPH_ROUTED_CALL(ret, symbol, ...) +1
#include "pygraph_abi.def"
};

int main(void) {
  printf("pygraph_site: %zu bytes, pygraph_region: %zu bytes, %d routed entry points\n",
         sizeof(pygraph_site), sizeof(pygraph_region), N_ROUTED);
  return 0;
}
