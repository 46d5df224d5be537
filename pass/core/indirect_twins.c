/* indirect_twins.c - kernels that read their parameters from an argument
 * block (see indirect_twins.h).  C builds the twin and its prologue; the
 * shim clones the body. */
#include "ir_util.h"
#include "device_pass.h"
#include "indirect_twins.h"

#include "pygraph_layout_tag.h"

#include <llvm-c/Analysis.h>
#include "../shim/pygraph_shim.h"

#include <llvm-c/Comdat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned attr_kind(const char *name) {
  return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

static LLVMAttributeRef param_attr(LLVMValueRef f, unsigned i, const char *name) {
  return LLVMGetEnumAttributeAtIndex(f, i + 1, attr_kind(name));
}

int pg_is_device_kernel(LLVMValueRef f) {
  return LLVMGetFunctionCallConv(f) == LLVMPTXKernelCallConv;
}

int pg_is_indirect_twin(LLVMValueRef f) {
  size_t len, sl = strlen(PG_TWIN_SUFFIX);
  const char *name = LLVMGetValueName2(f, &len);
  return len > sl && strcmp(name + len - sl, PG_TWIN_SUFFIX) == 0;
}

unsigned long long pg_param_layout(LLVMTargetDataRef dl, LLVMValueRef f, pg_param_slot *slots,
                                   unsigned *max_align) {
  unsigned long long end = 0;
  unsigned maxa = 1, n = LLVMCountParams(f);
  for (unsigned i = 0; i < n; ++i) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(f, i));
    LLVMAttributeRef byval = param_attr(f, i, "byval");
    if (byval)
      t = LLVMGetTypeAttributeValue(byval);
    unsigned align = LLVMABIAlignmentOfType(dl, t);
    /* A byval .param is aligned to max(align attribute, ABI alignment):
     * over-aligned structs (float4, __align__(16)) have ABI alignment 4. */
    LLVMAttributeRef a = byval ? param_attr(f, i, "align") : NULL;
    if (a && LLVMGetEnumAttributeValue(a) > align)
      align = (unsigned)LLVMGetEnumAttributeValue(a);
    unsigned long long off = (end + align - 1) / align * align;
    unsigned long long size = LLVMABISizeOfType(dl, t);
    end = off + size;
    if (align > maxa)
      maxa = align;
    if (slots) {
      slots[i].type = t;
      slots[i].offset = off;
      slots[i].size = size;
      slots[i].align = align;
      slots[i].byval = byval != NULL;
    }
  }
  if (max_align)
    *max_align = maxa;
  return end;
}

/* A byval parameter the kernel may write is copied out of the block: the
 * block is shared by all threads and must stay as the host wrote it. */
static int byval_may_write(LLVMValueRef f, unsigned i) {
  if (param_attr(f, i, "readonly") || param_attr(f, i, "readnone"))
    return 0;
  const char *gc = "nvvm.grid_constant"; /* __grid_constant__: const by rule */
  return !LLVMGetStringAttributeAtIndex(f, i + 1, gc, (unsigned)strlen(gc));
}

/* nvvm.annotations entries of k (older producers put launch bounds there)
 * are repeated for the twin; grid_constant ones name k's parameters and
 * are dropped. */
static void copy_annotations(LLVMModuleRef m, LLVMValueRef k, LLVMValueRef twin) {
  static const char kNamed[] = "nvvm.annotations";
  unsigned n = LLVMGetNamedMetadataNumOperands(m, kNamed);
  if (!n)
    return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMValueRef *nodes = calloc(n, sizeof *nodes);
  LLVMGetNamedMetadataOperands(m, kNamed, nodes);
  for (unsigned j = 0; j < n; ++j) {
    unsigned nops = LLVMGetMDNodeNumOperands(nodes[j]);
    if (nops < 2)
      continue;
    LLVMValueRef *ops = calloc(nops, sizeof *ops);
    LLVMMetadataRef *mds = calloc(nops, sizeof *mds);
    LLVMGetMDNodeOperands(nodes[j], ops);
    int ok = ops[0] == k;
    for (unsigned o = 1; ok && o < nops; ++o) {
      unsigned len = 0;
      const char *s = ops[o] && LLVMIsAMDString(ops[o]) ? LLVMGetMDString(ops[o], &len) : NULL;
      ok = ops[o] && !(s && len == 13 && strncmp(s, "grid_constant", 13) == 0);
      if (ok)
        mds[o] = LLVMValueAsMetadata(ops[o]);
    }
    if (ok) {
      mds[0] = LLVMValueAsMetadata(twin);
      LLVMAddNamedMetadataOperand(m, kNamed,
                                  LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, mds, nops)));
    }
    free(ops);
    free(mds);
  }
  free(nodes);
}

static void add_param_attr(LLVMContextRef ctx, LLVMValueRef f, const char *name,
                           unsigned long long val) {
  LLVMAddAttributeAtIndex(f, 1, LLVMCreateEnumAttribute(ctx, attr_kind(name), val));
}

/* 1 when k is compiled for sm_90 or newer ("target-cpu" "sm_90", "sm_90a",
 * "sm_100", ...): only there does PTX have griddepcontrol.  The runtime
 * links twins by programmatic edges iff their PTX is for sm_90 or newer,
 * so this must be exactly that rule. */
static int target_has_pdl(LLVMValueRef k) {
  static const char kCpu[] = "target-cpu";
  LLVMAttributeRef a =
      LLVMGetStringAttributeAtIndex(k, LLVMAttributeFunctionIndex, kCpu, sizeof kCpu - 1);
  if (!a)
    return 0;
  unsigned len = 0;
  const char *cpu = LLVMGetStringAttributeValue(a, &len); /* not NUL-terminated */
  if (len < 4 || strncmp(cpu, "sm_", 3) != 0)
    return 0;
  unsigned sm = 0, i = 3;
  for (; i < len && cpu[i] >= '0' && cpu[i] <= '9' && sm < 100000; ++i)
    sm = sm * 10 + (unsigned)(cpu[i] - '0');
  return i > 3 && sm >= 90;
}

/* A PTX instruction as inline asm with a memory clobber.  Not the
 * llvm.nvvm.griddepcontrol.* intrinsics: they are IntrNoMem, so the
 * optimizers and codegen (which still run after us) could move memory
 * accesses across them. */
static void build_ptx_barrier(LLVMContextRef ctx, LLVMBuilderRef b, const char *insn) {
  static const char kClobber[] = "~{memory}";
  LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
  LLVMValueRef asm_fn = LLVMGetInlineAsm(fty, insn, strlen(insn), kClobber, sizeof kClobber - 1,
                                         1, 0, LLVMInlineAsmDialectATT, 0);
  LLVMValueRef call = LLVMBuildCall2(b, fty, asm_fn, NULL, 0, "");
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateEnumAttribute(ctx, attr_kind("nounwind"), 0));
}

/* The layout tag of k's parameters (pygraph_layout_tag.h). */
static unsigned layout_tag(const pg_param_slot *slots, unsigned n) {
  unsigned long long *pairs = calloc(2 * (size_t)n + 1, sizeof *pairs);
  for (unsigned i = 0; i < n; ++i) {
    pairs[2 * i] = slots[i].offset;
    pairs[2 * i + 1] = slots[i].size;
  }
  unsigned tag = pygraph_layout_tag_bytes(pairs, n);
  free(pairs);
  return tag;
}

/* k's name with PG_TWIN_SUFFIX (malloc'd), or NULL when that twin exists. */
static char *twin_name(LLVMModuleRef m, LLVMValueRef k) {
  size_t len;
  const char *kname = LLVMGetValueName2(k, &len);
  char *name = malloc(len + sizeof PG_TWIN_SUFFIX);
  memcpy(name, kname, len);
  memcpy(name + len, PG_TWIN_SUFFIX, sizeof PG_TWIN_SUFFIX);
  if (LLVMGetNamedFunction(m, name)) {
    free(name);
    return NULL;
  }
  return name;
}

/* Parameter i of k, read from the argument block `args` of the twin. */
static LLVMValueRef load_param(LLVMContextRef ctx, LLVMBuilderRef b, LLVMValueRef k, unsigned i,
                               const pg_param_slot *slot, LLVMValueRef args) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef pty = LLVMTypeOf(LLVMGetParam(k, i));
  char vname[32]; /* "arg" and an unsigned number */
  snprintf(vname, sizeof vname, "arg%u", i);
  LLVMValueRef addr = args;
  if (slot->offset) {
    LLVMValueRef idx = LLVMConstInt(i64, slot->offset, 0);
    addr = LLVMBuildInBoundsGEP2(b, i8, args, &idx, 1, "");
  }
  LLVMValueRef v;
  if (slot->byval) {
    v = addr;
    if (byval_may_write(k, i)) {
      v = LLVMBuildAlloca(b, slot->type, vname);
      LLVMSetAlignment(v, slot->align);
      LLVMBuildMemCpy(b, v, slot->align, addr, slot->align, LLVMConstInt(i64, slot->size, 0));
    }
    if (LLVMTypeOf(v) != pty)
      v = LLVMBuildAddrSpaceCast(b, v, pty, "");
    return v;
  }
  v = LLVMBuildLoad2(b, pty, addr, vname);
  LLVMSetAlignment(v, slot->align);
  /* Kernel pointer parameters point to global memory; NVPTXLowerArgs
   * tells the backend so for kernel's own parameters; do the same for
   * the loaded ones so that accesses through them stay ld/st.global. */
  if (LLVMGetTypeKind(pty) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(pty) == 0) {
    LLVMValueRef g = LLVMBuildAddrSpaceCast(b, v, LLVMPointerTypeInContext(ctx, 1), "");
    v = LLVMBuildAddrSpaceCast(b, g, pty, "");
  }
  return v;
}

/* The layout of k's parameters in the twin's argument block. */
typedef struct twin_layout {
  pg_param_slot *slots;
  unsigned n, maxa;           /* parameters; largest alignment */
  unsigned long long bytes;   /* size of the argument block */
  int pdl;                    /* programmatic dependent launch (sm_90 on) */
} twin_layout;

/* Linkage, calling convention and attributes of a cloned twin. */
static void finish_twin(LLVMModuleRef m, LLVMValueRef k, LLVMValueRef twin,
                        const twin_layout *lay) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  /* Calling convention, function attributes (launch bounds among them),
   * alignment and visibility came with the clone.  A linkonce kernel is
   * kept alive by its host stub; its twin is only named at run time. */
  LLVMLinkage l = LLVMGetLinkage(k);
  LLVMSetLinkage(twin, l == LLVMLinkOnceODRLinkage ? LLVMWeakODRLinkage
                       : l == LLVMLinkOnceAnyLinkage ? LLVMWeakAnyLinkage
                                                    : l);
  if (LLVMGetComdat(k))
    LLVMSetComdat(twin, LLVMGetComdat(k));
  LLVMSetFunctionCallConv(twin, LLVMPTXKernelCallConv);
  /* memory(argmem: ...) of k no longer holds: the twin reads its argument
   * and touches k's pointees through loaded pointers. */
  LLVMRemoveEnumAttributeAtIndex(twin, LLVMAttributeFunctionIndex, attr_kind("memory"));
  /* Nor does k's nosync: the twin synchronizes with its predecessor grids. */
  if (lay->pdl)
    LLVMRemoveEnumAttributeAtIndex(twin, LLVMAttributeFunctionIndex, attr_kind("nosync"));
  /* After the clone, which sets the twin's attribute list from k's. */
  LLVMTypeRef tag = LLVMArrayType2(LLVMInt8TypeInContext(ctx), layout_tag(lay->slots, lay->n));
  LLVMAddAttributeAtIndex(twin, 2, LLVMCreateTypeAttribute(ctx, attr_kind("byval"), tag));
  LLVMAddAttributeAtIndex(twin, 2, LLVMCreateEnumAttribute(ctx, attr_kind("align"), 1));
  if (lay->n) {
    add_param_attr(ctx, twin, "noalias", 0);
    add_param_attr(ctx, twin, "readonly", 0);
    add_param_attr(ctx, twin, "nonnull", 0);
    add_param_attr(ctx, twin, "noundef", 0);
    add_param_attr(ctx, twin, "align", lay->maxa);
    add_param_attr(ctx, twin, "dereferenceable", lay->bytes);
  }
  copy_annotations(m, k, twin);
}

/* The kernel's device remark (device_pass.h), once its twin is made or
 * failed: what graphs can do with its arguments, in the user's terms. */
static void twin_remark(LLVMModuleRef m, LLVMValueRef k, const twin_layout *lay, int made) {
  pg_remark_kind kind = made ? PG_REMARK_ANALYSIS : PG_REMARK_MISSED;
  if (!pg_device_remark_wanted(m, kind))
    return;
  const char *what =
      !made ? "graphs change its arguments with a per-launch update (no version of it that "
              "reads them from GPU memory could be built)"
      : lay->pdl ? "graphs can change its arguments without a per-launch update, through a "
                   "version of it that reads them from GPU memory while the kernel before it "
                   "finishes"
                 : "with PYGRAPH_INDIRECT=1, graphs can change its arguments without a "
                   "per-launch update, through a version of it that reads them from GPU memory";
  char *msg = pg_kernel_remark_text(k, lay->n, lay->bytes, what);
  pg_device_remark(kind, "Kernel", k, msg);
  free(msg);
}

/* The twin's declaration: (args, tag).  The tag is an unused byval byte
 * array whose size names the layout read from args (pygraph_layout_tag.h);
 * the runtime compares it with the driver's layout of k before it lets the
 * twin run. */
static LLVMValueRef declare_twin(LLVMModuleRef m, const char *name) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef twin_params[2] = {ptr, ptr};
  LLVMValueRef twin =
      LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), twin_params, 2, 0));
  LLVMSetValueName2(LLVMGetParam(twin, 1), "layout_tag", 10);
  LLVMSetValueName2(LLVMGetParam(twin, 0), "args", 4);
  return twin;
}

/* Builds the twin of kernel k; NULL when it exists already or cloning failed.
 * From sm_90 on the twin takes part in programmatic dependent launch (see
 * indirect_twins.h): it lets its successor launch at once, reads its
 * arguments, and only then waits for its predecessor grids. */
static LLVMValueRef make_twin(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef k) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  char *name = twin_name(m, k);
  if (!name)
    return NULL;
  twin_layout lay;
  lay.n = LLVMCountParams(k);
  lay.slots = calloc(lay.n ? lay.n : 1, sizeof *lay.slots);
  lay.bytes = pg_param_layout(LLVMGetModuleDataLayout(m), k, lay.slots, &lay.maxa);
  LLVMValueRef twin = declare_twin(m, name);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, twin, "args");
  LLVMPositionBuilderAtEnd(b, entry);
  lay.pdl = target_has_pdl(k);
  if (lay.pdl)
    build_ptx_barrier(ctx, b, "griddepcontrol.launch_dependents;");
  LLVMValueRef *vals = calloc(lay.n ? lay.n : 1, sizeof *vals);
  for (unsigned i = 0; i < lay.n; ++i)
    vals[i] = load_param(ctx, b, k, i, &lay.slots[i], LLVMGetParam(twin, 0));
  /* k's body must not run before its predecessors' writes are visible. */
  if (lay.pdl)
    build_ptx_barrier(ctx, b, "griddepcontrol.wait;");
  /* A twin that fails the verifier is dropped (clang's cc1 runs without
   * the verifier): the kernel then simply stays direct at run time. */
  if (!pg_clone_body_into(k, twin, vals, entry) ||
      LLVMVerifyFunction(twin, LLVMReturnStatusAction)) {
    twin_remark(m, k, &lay, 0);
    LLVMDeleteFunction(twin);
    twin = NULL;
  } else {
    finish_twin(m, k, twin, &lay);
    twin_remark(m, k, &lay, 1);
  }
  free(vals);
  free(lay.slots);
  free(name);
  return twin;
}

unsigned pg_make_indirect_twins(LLVMModuleRef m) {
  unsigned nk = 0, cap = 16, made = 0;
  LLVMValueRef *kernels = malloc(cap * sizeof *kernels);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !pg_is_device_kernel(f) || pg_is_indirect_twin(f))
      continue;
    if (nk == cap)
      kernels = realloc(kernels, (cap *= 2) * sizeof *kernels);
    kernels[nk++] = f;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (unsigned i = 0; i < nk; ++i)
    made += make_twin(m, b, kernels[i]) != NULL;
  LLVMDisposeBuilder(b);
  free(kernels);
  return made;
}
