#!/usr/bin/env python3
"""Mutation check: small, plausible changes to the safety rules of the pass
and the runtime, each of which some test must catch.

  utils/mutate.py [--scratch DIR] [--only NAME[,NAME...]] [--list] [--jobs N]
  utils/mutate.py --self-test

For each mutation of MUTATIONS (a name, a file, the exact original text, its
replacement, the tests that must catch it) it writes the mutant into a
scratch copy of the tree (DIR/src, synced from this checkout's tracked and
untracked-not-ignored files), rebuilds only the targets those tests need
(DIR/build, one incremental Ninja build reused by every mutant and every
run), runs only those tests, and restores the file.  A mutant no test fails
SURVIVES.  The run prints every survivor and exits 1 if there is one.

A mutation whose original text is not in its file is looked up in every
file under the file's top folder (runtime/src, pass/core, ...), so a file
moved by a restructure is still found.  Text found nowhere is a STALE
mutation, text found in several files an AMBIGUOUS one: both are errors
(exit 1), never skipped.  The unmutated tree must pass every test first.

Tests: "lit:NAME.cu" (test/lit, built target: the plugin) or "unit:NAME"
(test/unit/NAME.c, target pygraph_NAME).
"""
import argparse
import filecmp
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent

# (name, file, original text, replacement, tests that must fail), or
# (name, [(file, original text, replacement), ...], tests) for a mutation of
# several places at once.
MUTATIONS = [
    # ---- the CUDA API table: a barrier or a deferred op that turns harmless
    ("api: cudaEventSynchronize harmless", "pass/core/cuda_api_table.c",
     '{"cudaEventSynchronize", PG_API_SYNC, 0,', '{"cudaEventSynchronize", PG_API_HARMLESS, 0,',
     ["lit:api-table.cu"]),
    ("api: cudaStreamQuery harmless", "pass/core/cuda_api_table.c",
     'PTSZ("cudaStreamQuery", PG_API_SYNC,', 'PTSZ("cudaStreamQuery", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaMemcpy harmless", "pass/core/cuda_api_table.c",
     'PTDS("cudaMemcpy", PG_API_MAYBE_DEFERRED,', 'PTDS("cudaMemcpy", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaMemset a barrier", "pass/core/cuda_api_table.c",
     'PTDS("cudaMemset", PG_API_MAYBE_DEFERRED,', 'PTDS("cudaMemset", PG_API_SYNC,',
     ["lit:api-table.cu", "lit:sync-deferred.cu"]),
    ("api: cudaMalloc harmless", "pass/core/cuda_api_table.c",
     '{"cudaMalloc", PG_API_POOLED,', '{"cudaMalloc", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaFree harmless", "pass/core/cuda_api_table.c",
     '{"cudaFree", PG_API_POOLED,', '{"cudaFree", PG_API_HARMLESS,',
     ["lit:api-table.cu", "lit:alloc-pooled.cu"]),
    ("api: cudaLaunchHostFunc harmless", "pass/core/cuda_api_table.c",
     'PTSZ("cudaLaunchHostFunc", PG_API_STREAM_OP,', 'PTSZ("cudaLaunchHostFunc", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaGetLastError a barrier", "pass/core/cuda_api_table.c",
     '{"cudaGetLastError", PG_API_HARMLESS,', '{"cudaGetLastError", PG_API_SYNC,',
     ["lit:api-table.cu"]),
    ("api: cudaEventRecord harmless", "pass/core/cuda_api_table.c",
     'PTSZ("cudaEventRecord", PG_API_STREAM_OP,', 'PTSZ("cudaEventRecord", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaGraph* family dropped", "pass/core/cuda_api_table.c",
     '{"cudaGraph", PG_API_OWN_CAPTURE,', '{"cudaGraphNoSuchCall", PG_API_OWN_CAPTURE,',
     ["lit:api-table.cu"]),
    # ---- the call classifier
    ("classifier: D2H cudaMemcpyAsync not host-touching", "pass/core/call_classifier.c",
     "kind != kMemcpyDeviceToDevice &&", "kind != kMemcpyDeviceToDevice && kind != 2 &&",
     ["lit:api-table.cu", "lit:batchable-refusals.cu"]),
    ("classifier: synchronous copies routed whatever their kind", "pass/core/call_classifier.c",
     "    else if (sync_copy_barrier(c, out))\n      set_barrier(out, PG_WHY_API_SYNC_COPY);\n", "",
     ["lit:api-table.cu", "lit:sync-deferred.cu", "lit:h2d-snapshot.cu"]),
    # ---- synchronous copies (sync_copies.c)
    ("copies: a device-to-host cudaMemcpy routed", "pass/core/sync_copies.c",
     "  if (known && kind != kHostToDevice)\n    return PG_COPY_HOST;\n", "",
     ["lit:api-table.cu", "lit:sync-deferred.cu"]),
    ("copies: a cudaMemcpy of no constant kind routed", "pass/core/sync_copies.c",
     "  if (!known && kind_op == 3)\n    return PG_COPY_KIND_UNKNOWN;\n", "",
     ["lit:api-table.cu", "lit:sync-deferred.cu"]),
    ("copies: host-to-device size limit ignored", "pass/core/sync_copies.c",
     "(bytes < 0 || bytes > (long long)PYGRAPH_HOST_BYTES_MAX)", "(bytes < 0)",
     ["lit:h2d-snapshot.cu"]),
    ("copies: host-to-device size limit moved", "pass/core/sync_copies.c",
     "bytes > (long long)PYGRAPH_HOST_BYTES_MAX)", "bytes >= (long long)PYGRAPH_HOST_BYTES_MAX)",
     ["lit:h2d-snapshot.cu"]),
    ("copies: host-to-device routed in a file with host-visible memory", "pass/core/sync_copies.c",
     "  if (host_visible)\n    return PG_COPY_HOST_VISIBLE;\n", "",
     ["lit:api-table.cu", "lit:h2d-snapshot.cu"]),
    ("batchable: a host-to-device copy's source not read at the call", "pass/core/batchable.c",
     "  if (op == 1 && pg_sync_copy_reads_source_at_call(call, f))\n    return 1;\n", "",
     ["lit:h2d-snapshot.cu"]),
    ("whole-loop: a copy to a symbol an operation", "pass/core/loop_trace.c",
     "if (!sync && !symbol && !async && !to_symbol)", "if (!sync && !symbol && !async)",
     ["lit:h2d-snapshot.cu"]),
    ("classifier: unrouted stream ops deferred", "pass/core/call_classifier.c",
     "if (!pg_api_routed(api))\n      set_barrier(out, PG_WHY_API_NOT_ROUTED);\n"
     "    else if (copies_host_memory",
     "if (copies_host_memory", ["lit:api-table.cu"]),
    ("classifier: own capture calls harmless", "pass/core/call_classifier.c",
     "  case PG_API_OWN_CAPTURE:\n  case PG_API_UNCAPTURABLE:\n    set_barrier",
     "  case PG_API_UNCAPTURABLE:\n    set_barrier", ["lit:api-table.cu", "lit:own-capture.cu"]),
    ("classifier: unknown externals harmless", "pass/core/call_classifier.c",
     "else if (!pg_is_harmless_external(name) && !pg_is_throw_call(name))", "else if (0)",
     ["lit:api-table.cu", "lit:region-missed.cu"]),
    ("classifier: indirect calls harmless", "pass/core/call_classifier.c",
     "  set_barrier(out, LLVMIsAInlineAsm(LLVMGetCalledValue(inst)) ? PG_WHY_INLINE_ASM\n"
     "                                                              : PG_WHY_INDIRECT_CALL);\n",
     "", ["lit:region-missed.cu", "lit:kernel-pointers.cu"]),
    # ---- batchable loops
    ("batchable: atomic read-modify-write allowed", "pass/core/batchable.c",
     "  case LLVMAtomicRMW:\n  case LLVMAtomicCmpXchg:\n", "  case LLVMAtomicCmpXchg:\n",
     ["lit:batchable-refusals.cu"]),
    ("batchable: compare-exchange allowed", "pass/core/batchable.c",
     "  case LLVMAtomicRMW:\n  case LLVMAtomicCmpXchg:\n", "  case LLVMAtomicRMW:\n",
     ["lit:batchable-refusals.cu"]),
    ("batchable: memset/memcpy into escaping memory allowed", "pass/core/batchable.c",
     "    if (!is_private(LLVMGetOperand(call, 0)))\n      return found(v, PG_BATCH_WRITE, call);",
     "    if (0)\n      return found(v, PG_BATCH_WRITE, call);", ["lit:batchable-refusals.cu"]),
    ("batchable: stores allowed", "pass/core/batchable.c",
     "    return !is_private(LLVMGetOperand(i, 1)) && found(v, PG_BATCH_WRITE, i);",
     "    return 0;", ["lit:batchable-reasons.cu"]),
    ("batchable: volatile loads allowed", "pass/core/batchable.c",
     "return (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) &&",
     "return (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) &&",
     ["lit:batchable-reasons.cu"]),
    ("batchable: atomic loads allowed", "pass/core/batchable.c",
     "return (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) &&",
     "return (LLVMGetVolatile(i)) &&", ["lit:batchable-refusals.cu"]),
    ("batchable: throwing calls allowed", "pass/core/batchable.c",
     "      if (unwinds) {", "      if (0) {",
     ["lit:batchable-refusals.cu", "lit:batchable-reasons.cu"]),
    ("batchable: a caught call counts as throwing", "pass/core/batchable.c",
     "*unwinds = !LLVMIsAInvokeInst(call) && ", "*unwinds = ", ["lit:batchable-refusals.cu"]),
    ("batchable: callee verdicts ignored", "pass/core/batchable.c",
     "  if (ff->why != PG_BATCH_OK) {", "  if (0) {",
     ["lit:batchable-refusals.cu", "lit:batchable-reasons.cu"]),
    ("batchable: recursion allowed", "pass/core/batchable.c",
     "  if (ff->state == FACT_VISITING) {", "  if (0) {", ["lit:batchable-reasons.cu"]),
    ("batchable: escaped locals private", "pass/core/batchable.c",
     "  return pg_is_private_stack_slot_except(ptr, hands_off, NULL);",
     "  return LLVMIsAAllocaInst(pg_underlying_object(ptr)) != NULL;",
     ["lit:batchable-reasons.cu"]),
    # ---- whole-loop candidates (issue 17): effects the WHILE graph would skip
    ("whole-loop: host stores allowed", "pass/core/loop_trace.c",
     "  if (pg_batch_judge_effect(c->memo, i, &c->wl->batch))\n",
     "  if (0)\n", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: a second status copy allowed", "pass/core/loop_trace.c",
     "  if (wl->copy) {\n    wl->at2 = wl->copy;", "  if (0) {\n    wl->at2 = wl->copy;",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: status size unbounded", "pass/core/loop_trace.c",
     "  if (size > (long long)PYGRAPH_WL_MAX_STATUS_BYTES) {", "  if (0) {",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: calls with effects allowed", "pass/core/loop_trace.c",
     "  if (pg_call_only_reads_memory(call))\n    return 1;\n  c->wl->callee = f;",
     "  if (1)\n    return 1;\n  c->wl->callee = f;", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: CUDA queries write nothing", "pass/core/loop_trace.c",
     "  if (pg_api_lookup(name_of(f)))\n    return cuda_query(c, call, f);",
     "  if (pg_api_lookup(name_of(f)))\n    return 1;", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: an unsynchronized copy allowed", "pass/core/convergence_loops.c",
     "  if (c->pending)\n    return pg_wl_refuse(wl, PG_WL_UNSYNCED_COPY, c->pending);", "",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: host writes to the status allowed",
     [("pass/core/convergence_loops.c",
       "  if (obj == c->wl->dest_base)\n    return pg_wl_refuse(c->wl, PG_WL_STATUS_STORE, w);", ""),
      ("pass/core/loop_trace.c",
       "  if (writes_status(c, i)) /* named as such", "  if (0) /* named as such")],
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: locals read after the loop allowed", "pass/core/convergence_loops.c",
     "  LLVMValueRef reader = access_outside(c, obj, 0);",
     "  LLVMValueRef reader = NULL;", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: exits between operations allowed", "pass/core/convergence_loops.c",
     "  else\n    return pg_wl_refuse(c->wl, PG_WL_EXIT_BETWEEN, e->br);",
     "  else\n    *where = PYGRAPH_EXIT_AT_END;", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: live-outs unchecked", "pass/core/convergence_loops.c",
     "        if (!live_out_ok(c, i)) {", "        if (0) {", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: varying launch configurations allowed", "pass/core/convergence_loops.c",
     "    if (part >= 0 && !pg_wl_is_invariant(c, LLVMGetOperand(from, k))) {", "    if (0) {",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: any branch is an error check", "pass/core/loop_trace.c",
     "  if (!f || !pg_api_lookup(name_of(f)))\n    return 0;\n  *ok_on_true",
     "  *ok_on_true", ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: memory the loop writes is invariant", "pass/core/loop_values.c",
     "  return pg_wl_is_invariant(c, ptr) && !pg_wl_writes(c, ptr);",
     "  return pg_wl_is_invariant(c, ptr);",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: host values in exit tests taken as invariants", "pass/core/exit_test.c",
     "  c->wl->what = v;\n  c->wl->value_why = why;\n  return pg_wl_refuse(c->wl, PG_WL_EXIT_VALUE, b->br);",
     "  return leaf(b, PYGRAPH_EXIT_INVARIANT, PYGRAPH_TYPE_I32, pg_wl_invariant(c, v), 0);",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: node bound ignored", "pass/core/exit_test.c",
     "  if (wl->nnodes >= PYGRAPH_EXIT_MAX_NODES) {", "  if (0) {",
     ["lit:whole-loop-refusals.cu"]),
    ("whole-loop: a negated float compare forgets NaN", "pass/core/exit_test.c",
     "      pred = PYGRAPH_CMP_F_TRUE - pred; /* the unordered/ordered complement */",
     "      pred = (pred ^ 7) & 7;", ["lit:whole-loop-forms.cu"]),
    ("whole-loop: rotation position ignored", "pass/core/loop_values.c",
     "      if (cyc[k] == v)\n        out->a = k;", "      if (cyc[k] == v)\n        out->a = 0;",
     ["lit:whole-loop-forms.cu"]),
    ("exit test eval: NaN compares ordered", "runtime/src/recording/exit_eval.h",
     "  int uno = x != x || y != y;", "  int uno = 0;", ["unit:test_whole_loop"]),
    ("exit test eval: fields past the status read", "runtime/src/recording/exit_eval.h",
     "           n > wl->status_bytes - offset);", "           0);", ["unit:test_whole_loop"]),
    ("exit test eval: invariant types unchecked", "runtime/src/recording/exit_eval.h",
     "             wl->invariant_types[n->arg] != n->type || n->type > PYGRAPH_TYPE_PTR);",
     "             n->type > PYGRAPH_TYPE_PTR);", ["unit:test_whole_loop"]),
    ("exit test eval: counters start at 0", "runtime/src/recording/exit_eval.h",
     "    uint64_t base = arg == PYGRAPH_WL_NONE ? 0 : invariants[arg];",
     "    uint64_t base = 0;", ["unit:test_whole_loop"]),
    ("exit test eval: later tests at the position win", "runtime/src/recording/exit_eval.h",
     "    if (result == PYGRAPH_EVAL_CONTINUE && at == where && r == 1)",
     "    if (at == where && r == 1)", ["unit:test_whole_loop"]),
    ("while step: tests at the top made with the iteration that ran",
     "runtime/src/graphs/while_condition.h",
     "    e.iteration = where == PYGRAPH_EXIT_AT_TOP ? s->iteration : ran;",
     "    e.iteration = ran;", ["unit:test_while_graph", "unit:test_while_clauses"]),
    ("while step: the end's tests after the top's", "runtime/src/graphs/while_condition.h",
     "    uint32_t where = k == 0 ? PYGRAPH_EXIT_AFTER_COPY : k == 1 ? PYGRAPH_EXIT_AT_END",
     "    uint32_t where = k == 0 ? PYGRAPH_EXIT_AFTER_COPY : k == 2 ? PYGRAPH_EXIT_AT_END",
     ["unit:test_while_graph", "unit:test_while_clauses"]),
    ("while split: operations after the copy kept in the body under a test after it",
     "runtime/src/graphs/while_graph.c",
     "  return rq->status_op != PYGRAPH_WHILE_NO_STATUS && tests_after_copy(rq->wl) &&\n"
     "         nodes_after_copy(rq);",
     "  return rq->status_op != PYGRAPH_WHILE_NO_STATUS && tests_after_copy(rq->wl) &&\n"
     "         nodes_after_copy(rq) && 0;",
     ["unit:test_while_graph", "unit:test_whole_loop_run"]),
    ("while split: the block does not tell the step the body is split",
     "runtime/src/graphs/while_graph.c",
     "  if (split)\n    pygraph_while_block_split_after_copy(&wg->block);\n", "",
     ["unit:test_while_graph"]),
    ("while split: the step makes the tests after the copy again",
     "runtime/src/graphs/while_condition.h",
     "  for (uint32_t k = s->after_copy_first ? 1 : 0; k < 3; ++k) {",
     "  for (uint32_t k = 0; k < 3; ++k) {", ["unit:test_while_graph"]),
    ("while split: the step goes on after the after-copy test ended the loop",
     "runtime/src/graphs/while_condition.h",
     "  if (s->outcome != PYGRAPH_WHILE_RUNNING)\n    return 0;\n", "",
     ["unit:test_while_graph", "unit:test_whole_loop_run"]),
    ("while split: the iteration that left after the copy not counted",
     "runtime/src/graphs/while_condition.h",
     "  s->iteration++;                      /* the iteration that left ran up to its copy */\n",
     "", ["unit:test_while_graph", "unit:test_whole_loop_run"]),
    ("while split: the tests after the copy made with the next iteration's number",
     "runtime/src/graphs/while_condition.h",
     "  struct pygraph_eval_env e = {s->loop, s->status, s->iteration, s->invariants};",
     "  struct pygraph_eval_env e = {s->loop, s->status, s->iteration + 1, s->invariants};",
     ["unit:test_while_graph"]),
    ("while split (cuda): the IF body keeps dependencies on ops before the copy",
     "runtime/src/cuda/while_graph.c", "    if (pn->deps[d] >= first) {", "    if (1) {",
     ["unit:test_while_realise"]),
    ("while split (cuda): the after-copy kernel follows the status copy alone",
     "runtime/src/cuda/while_graph.c",
     "  err = add_kernel_after_sinks(g, plan, spec, cut, kernels, 1, if_handle, &tested);",
     "  err = add_condition_kernel(while_body, &g->nodes[spec->status_op], 1, kernels->after_copy,"
     " NULL, spec, if_handle, &tested);", ["unit:test_while_realise"]),
    ("while split (cuda): the condition kernel not after the IF node",
     "runtime/src/cuda/while_graph.c",
     "  err = add_step_kernel(while_body, &if_node, 1, kernels, spec, handle, &last);",
     "  err = add_step_kernel(while_body, &tested, 1, kernels, spec, handle, &last);",
     ["unit:test_while_realise"]),
    ("while split (cuda): the IF handle made on the top graph", "runtime/src/cuda/while_graph.c",
     "  err = cudaGraphConditionalHandleCreate(&if_handle, while_body, 0, cudaGraphCondAssignDefault);",
     "  err = cudaGraphConditionalHandleCreate(&if_handle, g->graph, 0, cudaGraphCondAssignDefault);",
     ["unit:test_while_realise"]),
    ("while graph: host memory copies in a conditional body", "runtime/src/graphs/while_graph.c",
     "  if (!copies_device_memory(backend, op))", "  if (0)", ["unit:test_while_graph"]),
    ("while graph: the status copy's size unchecked", "runtime/src/graphs/while_graph.c",
     "  if (!copy || copy->kind != PYGRAPH_OP_MEMCPY || copy->count != rq->wl->status_bytes ||",
     "  if (!copy || copy->kind != PYGRAPH_OP_MEMCPY ||", ["unit:test_while_graph"]),
    ("while block: slots past the argument block", "runtime/src/graphs/while_block.c",
     "      s->offset > args_size || s->bytes > args_size - s->offset || s->value >= wl->n_values)",
     "      s->value >= wl->n_values)", ["unit:test_while_graph"]),
    ("while graph (cuda): body roots wait for the loaders outside the body",
     "runtime/src/cuda/graph_realise.c",
     "  for (size_t e = 0; pn->n_deps == 0 && g->body == g->graph && e < g->n_loaders; e++)",
     "  for (size_t e = 0; pn->n_deps == 0 && e < g->n_loaders; e++)",
     ["unit:test_while_realise"]),
    ("while graph (cuda): the status copy left device-to-host", "runtime/src/cuda/while_graph.c",
     "      status_copy.memcpy_kind = cudaMemcpyDeviceToDevice;\n", "",
     ["unit:test_while_realise"]),
    # ---- whole loops at run time (issue 17, step 3): what is checked before a WHILE graph runs
    ("whole loop run: an exit's mask ignored", "runtime/src/abi/whole_loop.c",
     "    if (t < 0 || t >= 64 || !(tests >> t & 1ull)) {", "    if (t < 0 || t >= 64) {",
     ["unit:test_whole_loop_run"]),
    ("whole loop run: going on where a test says leave accepted", "runtime/src/abi/whole_loop.c",
     "    if (pygraph_wl_eval(st, where, j) != PYGRAPH_EXIT_CONTINUE)\n"
     "      return fail(st, \"an exit test says leave where the program went on\");",
     "    if (0)\n      return 0;", ["unit:test_whole_loop_run"]),
    ("whole loop run: evolving operands unchecked", "runtime/src/recording/loop_observe.c",
     "    if (seen != expected) {", "    if (0) {", ["unit:test_whole_loop_run"]),
    ("whole loop run: a ready loop's iteration 0 not compared with the graph's",
     "runtime/src/abi/whole_loop.c",
     "i > 0 ? st->first : st->matches_ref ? st->ref : NULL;", "i > 0 ? st->first : NULL;",
     ["unit:test_whole_loop_run"]),
    ("whole loop run: ready after fewer checked iterations", "runtime/src/abi/whole_loop.c",
     "  uint64_t n = PYGRAPH_WL_MIN_VERIFIED;", "  uint64_t n = 1;",
     ["unit:test_whole_loop_run"]),
    ("whole loop run: the status copy's destination unchecked", "runtime/src/abi/whole_loop.c",
     "        o->dst != pygraph_wl_status_dest(st) || o->count != st->wl->status_bytes)",
     "        o->count != st->wl->status_bytes)", ["unit:test_whole_loop_run"]),
    ("whole loop run: the last status not written back", "runtime/src/abi/whole_loop_run.c",
     "  memcpy(pygraph_wl_status_dest(st), state->status, st->wl->status_bytes);\n", "",
     ["unit:test_whole_loop_run"]),
    ("whole loop run: left at the top counted like the others", "runtime/src/abi/whole_loop_run.c",
     "  *left_in = state->exit_where == PYGRAPH_EXIT_AT_TOP ? state->iteration : state->iteration - 1;",
     "  *left_in = state->iteration - 1;", ["unit:test_whole_loop_run"]),
    ("whole loop run: a failed build leaves the loop ready", "runtime/src/abi/whole_loop_run.c",
     "  st->counts.fallbacks++;\n  pygraph_wl_turn_off(st, step, NULL);\n  return 0;",
     "  st->counts.fallbacks++;\n  return 0;", ["unit:test_whole_loop_run"]),
    # ---- library calls in whole loops
    ("whole-loop: a library call's changing operand accepted", "pass/core/convergence_loops.c",
     "    if (!written && library_invariant(c, v))", "    if (!written)",
     ["lit:whole-loop-library.cu"]),
    ("whole-loop: a library call's scalar the loop writes accepted",
     "pass/core/convergence_loops.c",
     "    int written = host && written_but_by_library(c, obj);", "    int written = 0;",
     ["lit:whole-loop-library.cu"]),
    ("whole-loop: library calls refused as before", "pass/core/loop_trace.c",
     "       ci->api->cls == PG_API_DEVICE_SET ||\n",
     "       ci->api->cls == PG_API_DEVICE_SET || ci->api->cls == PG_API_LIBRARY ||\n",
     ["lit:whole-loop-library.cu"]),
    ("whole loop run: a library call's arguments not compared", "runtime/src/recording/loop_observe.c",
     "    return memcmp(pygraph_op_args(ops, a), pygraph_op_args(ref, b), a->library_size) ? 0 : -1;",
     "    return -1;", ["unit:test_whole_loop_library"]),
    ("whole loop run: a library call made at once not noticed", "runtime/src/abi/whole_loop.c",
     "  if (!st->library_open)\n    return 0;\n  st->library_open = 0;\n  fail(",
     "  if (1)\n    return 0;\n  st->library_open = 0;\n  fail(", ["unit:test_whole_loop_library"]),
    ("whole loop run: a cuBLAS host scalar a kernel may write captured",
     "runtime/src/cuda/cublas_entry_points.c",
     "  if (!pygraph_whole_loop_host_scalar(src)) {", "  if (0) {",
     ["unit:test_whole_loop_library"]),
    ("while block: a NULL member of an evolving status source launched",
     "runtime/src/graphs/while_block.c",
     "    if (invariants[b->source_members[k]] == 0)", "    if (0)", ["unit:test_while_graph"]),
    ("whole-loop: NCCL calls accepted in a whole loop", "pass/core/loop_trace.c",
     "       (ci->api->cls == PG_API_LIBRARY && strncmp(ci->api->name, \"nccl\", 4) == 0)))",
     "       0))", ["lit:whole-loop-library.cu"]),
    ("while graph: a collective library call in a conditional body",
     "runtime/src/graphs/while_graph.c", "    return op->library->collective",
     "    return 0", ["unit:test_while_graph"]),
    ("while status fold: the condition step does not copy the status",
     "runtime/src/graphs/while_condition.h",
     "  pygraph_eval_copy_bytes(s->status, src, s->loop->status_bytes);\n", "",
     ["unit:test_whole_loop_run", "unit:test_while_graph", "unit:test_while_clauses"]),
    ("while status fold: folded with operations after the copy and no test there",
     "runtime/src/graphs/while_graph.c",
     "         (!nodes_after_copy(rq) || split_after_copy(rq));", "         1;",
     ["unit:test_while_graph"]),
    ("while status fold: an evolving source read as in the loop's first iteration",
     "runtime/src/graphs/while_condition.h",
     "  if (!pygraph_eval_value_at(s->loop, s->status_src_value, iteration, s->invariants, &v) ||",
     "  if (!pygraph_eval_value_at(s->loop, s->status_src_value, 0, s->invariants, &v) ||",
     ["unit:test_while_clauses"]),
    ("while status fold: the compiled form ignores an evolving source",
     "runtime/src/graphs/while_clauses.h", "  if (!c->source.bytes)\n    return status_src;",
     "  if (1)\n    return status_src;", ["unit:test_while_clauses", "unit:test_whole_loop_run"]),
    ("while status fold: a split body's compiled first kernel does not copy the status",
     "runtime/src/graphs/while_clauses.h",
     "  if (src)\n    pygraph_eval_copy_bytes(s->status, src, c->status_bytes);\n", "",
     ["unit:test_while_clauses", "unit:test_whole_loop_run"]),
    ("while status fold: the step copies again after a split body's first kernel",
     "runtime/src/graphs/while_condition.h",
     "  return s->after_copy_first == in_after_copy && (s->status_src || s->status_src_evolves);",
     "  return (!in_after_copy || s->after_copy_first) && (s->status_src || s->status_src_evolves);",
     ["unit:test_while_clauses"]),
    ("while status fold: an evolving source behind a copy node accepted",
     "runtime/src/graphs/while_graph.c",
     "  if (source != PYGRAPH_WL_NONE && !status_folded(rq))",
     "  if (0)", ["unit:test_while_graph"]),
    ("while status fold: the folded copy still has a body node", "runtime/src/cuda/while_graph.c",
     "  return plan->nodes[i].form != PYGRAPH_PLAN_NONE && !(spec->status_folded && i == spec->status_op);",
     "  return plan->nodes[i].form != PYGRAPH_PLAN_NONE;", ["unit:test_while_realise"]),
    ("whole loop choice: a tie keeps the WHILE graph", "runtime/src/abi/whole_loop_choice.c",
     "  if (pygraph_wl_side_us(&c->whole) < pygraph_wl_side_us(&c->written) * (1.0 - 1e-6)) {",
     "  if (pygraph_wl_side_us(&c->whole) <= pygraph_wl_side_us(&c->written) * (1.0 + 1e-6)) {",
     ["unit:test_whole_loop_run"]),
    ("whole loop choice: a slower WHILE graph stays on", "runtime/src/abi/whole_loop_choice.c",
     "  pygraph_wl_turn_off(st, \"the WHILE graph is slower than the loop as written\", NULL);\n",
     "", ["unit:test_whole_loop_run"]),
    ("whole loop choice: decided on one execution a side", "runtime/src/common/policy.h",
     "#define PYGRAPH_WL_CHOICE_SAMPLES 2u", "#define PYGRAPH_WL_CHOICE_SAMPLES 1u",
     ["unit:test_whole_loop_run"]),
    ("whole loop choice: an execution as written is never timed", "runtime/src/abi/whole_loop_choice.c",
     "  if (!choosing(st, backend) || st->choice.whole.samples < st->choice.written.samples)",
     "  if (1)", ["unit:test_whole_loop_run"]),
    ("whole loop choice: tried whole though as written is at the floor",
     "runtime/src/abi/whole_loop_choice.c",
     "  if (written_beats_floor(st)) {", "  if (0) {", ["unit:test_whole_loop_run"]),
    ("whole loop choice: the floor counts no node but the condition kernel",
     "runtime/src/abi/whole_loop_choice.c",
     "  return PYGRAPH_WL_NODE_FLOOR_US * (double)(wl->n_ops + 1);",
     "  return PYGRAPH_WL_NODE_FLOOR_US;", ["unit:test_whole_loop_run"]),
    ("whole loop run: the status destination compared with the graph's",
     "runtime/src/recording/loop_observe.c",
     "  for (unsigned j = index == wl->status_op ? 1 : 0; j < 4; j++) {",
     "  for (unsigned j = 0; j < 4; j++) {", ["unit:test_whole_loop_run"]),
    # ---- the whole-loop protocol the pass emits (whole-loops=2)
    ("whole loop instrument: rotation members swapped", "pass/core/whole_loop_instrument.c",
     "    v = LLVMBuildSelect(e->b, is, before(e, lo->members[j]), v, \"\");",
     "    v = LLVMBuildSelect(e->b, is, v, before(e, lo->members[j]), \"\");",
     ["lit:whole-loop-instrument.cu"]),
    ("whole loop instrument: an affine value's constant dropped", "pass/core/whole_loop_instrument.c",
     "  r = LLVMBuildAdd(e->b, r, LLVMConstInt(it, (unsigned long long)lo->val.a, 1), \"\");\n", "",
     ["lit:whole-loop-instrument.cu"]),
    ("whole loop instrument: the status copy not routed", "pass/core/host_pass.c",
     "        if (wl->instrumented && wl->copy)\n          pg_reroute_call(",
     "        if (0)\n          pg_reroute_call(", ["lit:whole-loop-instrument.cu"]),
    ("whole loop instrument: exits without their tests' mask", "pass/core/whole_loop_instrument.c",
     "        mask |= 1ull << t;", "        mask |= 0;", ["lit:whole-loop-instrument.cu"]),
    # ---- wait loops
    ("wait: compare-exchange not a shared read", "pass/core/wait_loops.c",
     '    return "atomic compare-exchange";', "    return NULL;", ["lit:wait-reads.cu"]),
    ("wait: read-modify-write not a shared read", "pass/core/wait_loops.c",
     '    return "atomic read-modify-write";', "    return NULL;", ["lit:wait-reads.cu"]),
    ("wait: volatile load not a shared read", "pass/core/wait_loops.c",
     'return LLVMGetVolatile(inst) ? "volatile load"', 'return 0 ? "volatile load"',
     ["lit:wait-reads.cu"]),
    ("wait: atomic load not a shared read", "pass/core/wait_loops.c",
     '? "atomic load" : NULL;', '? NULL : NULL;', ["lit:wait-reads.cu"]),
    ("wait: getters not followed", "pass/core/wait_loops.c",
     "return f && contains(w->returners, w->nret, f);", "return 0;", ["lit:wait-reads.cu"]),
    ("wait: private locals count as shared", "pass/core/wait_loops.c",
     "return shared_read_kind(inst) && !pg_is_private_stack_slot(LLVMGetOperand(inst, 0)) &&",
     "return shared_read_kind(inst) &&", ["lit:wait-reads.cu"]),
    ("wait: stack-slot spills not followed (-O0)", "pass/core/wait_loops.c",
     "if (LLVMGetOperand(user, 0) == v && LLVMIsAAllocaInst(slot))", "if (0)",
     ["lit:wait-reads.cu"]),
    ("wait: any branch is a loop exit", "pass/core/wait_loops.c",
     "      if (!pg_loop_contains_block(l, LLVMGetSuccessor(t, s)))\n        return 1;",
     "      return 1;", ["lit:host-device-flags.cu"]),
    ("wait: a walk limit of 512 values", "pass/core/wait_loops.c",
     "static void visit(value_walk *w, LLVMValueRef v) {\n",
     "static void visit(value_walk *w, LLVMValueRef v) {\n  if (w->n >= 512)\n    return;\n",
     ["lit:wait-far.cu"]),
    # ---- runtime: what may replay
    ("replay: memset value ignored", "runtime/src/recording/signature.c",
     "return op_a->dst != op_b->dst || (unsigned char)op_a->value != (unsigned char)op_b->value;",
     "return op_a->dst != op_b->dst;", ["unit:test_replay_rules"]),
    ("replay: copy destination ignored", "runtime/src/recording/signature.c",
     "return op_a->dst != op_b->dst || op_a->src != op_b->src;", "return op_a->src != op_b->src;",
     ["unit:test_replay_rules"]),
    # A shape field is compared and hashed (the hash finds the variant, the
    # comparison guards it): a field dropped from shape is dropped from both.
    ("replay: kernel shared memory not shape", [
        ("runtime/src/recording/signature.c",
         "same_dim3(a->block, b->block) && a->shmem == b->shmem &&",
         "same_dim3(a->block, b->block) &&"),
        ("runtime/src/recording/signature.c", "      h = mix(h, op->shmem);\n", "")],
     ["unit:test_replay_rules", "unit:test_signature"]),
    ("replay: z dimensions not shape", [
        ("runtime/src/recording/signature.c",
         "return a.x == b.x && a.y == b.y && a.z == b.z;", "return a.x == b.x && a.y == b.y;"),
        ("runtime/src/recording/signature.c", " ^\n                     op->grid.z);", ");"),
        ("runtime/src/recording/signature.c", "<< 16) ^ op->block.z);", "<< 16));")],
     ["unit:test_replay_rules"]),
    ("replay: memset size not shape", [
        ("runtime/src/recording/signature.c",
         "  case PYGRAPH_OP_MEMSET:\n    return a->count == b->count;",
         "  case PYGRAPH_OP_MEMSET:\n    return 1;"),
        ("runtime/src/recording/signature.c",
         "    case PYGRAPH_OP_MEMSET:\n      h = mix(h, op->count);\n", "    case PYGRAPH_OP_MEMSET:\n")],
     ["unit:test_replay_rules", "unit:test_signature"]),
    ("replay: copy kind not shape", [
        ("runtime/src/recording/signature.c",
         "return a->count == b->count && a->memcpy_kind == b->memcpy_kind;",
         "return a->count == b->count;"),
        ("runtime/src/recording/signature.c",
         "      h = mix(h, (unsigned long long)op->memcpy_kind);\n", "")],
     ["unit:test_replay_rules", "unit:test_signature"]),
    ("record: device-to-host copies deferred", "runtime/src/abi/record.c",
     "  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)\n    return 0;",
     "  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)\n    return 1;",
     ["unit:test_flush", "unit:test_sync_ops"]),
    ("record: cudaMemcpyDefault deferred with host memory", "runtime/src/abi/record.c",
     "|| device_memory(seg, dst, src);", "|| kind == cudaMemcpyDefault;",
     ["unit:test_flush", "unit:test_sync_ops"]),
    ("record: a synchronous copy taken at its device-to-device kind", "runtime/src/abi/record.c",
     "return (kind == cudaMemcpyDeviceToDevice && !synchronous) ||",
     "return kind == cudaMemcpyDeviceToDevice ||", ["unit:test_sync_ops"]),
    ("record: a synchronous memset's pointer not checked", "runtime/src/abi/record.c",
     "if (synchronous && !device_memory(seg, dst, dst))", "if (synchronous && 0)",
     ["unit:test_sync_ops"]),
    # ---- host-to-device copies read at the call (record.c, op_list.c, signature.c)
    ("record: host bytes over the limit snapshotted", "runtime/src/abi/record.c",
     "  if (count > PYGRAPH_HOST_BYTES_MAX)\n", "  if (0)\n", ["unit:test_h2d_snapshot"]),
    ("record: host bytes limit moved", "runtime/src/abi/record.c",
     "  if (count > PYGRAPH_HOST_BYTES_MAX)\n", "  if (count >= PYGRAPH_HOST_BYTES_MAX)\n",
     ["unit:test_h2d_snapshot"]),
    ("record: host bytes' source not checked", "runtime/src/abi/record.c",
     "!backend->host_bytes_source(src) ||", "0 ||", ["unit:test_h2d_snapshot"]),
    ("record: host bytes' destination not checked", "runtime/src/abi/record.c",
     "(!dst_in_device_memory && !backend->device_range(dst, count))", "0",
     ["unit:test_h2d_snapshot"]),
    ("record: a copy past a symbol's end snapshotted", "runtime/src/abi/record.c",
     "  if (offset > size || count > size - offset)\n", "  if (0)\n", ["unit:test_h2d_snapshot"]),
    ("record: a host-to-device copy judged as a device copy", "runtime/src/abi/record.c",
     "  if (kind == cudaMemcpyHostToDevice)\n    return host_bytes_op(seg, dst, src, count, stream, 0);",
     "  if (0)\n    return host_bytes_op(seg, dst, src, count, stream, 0);",
     ["unit:test_h2d_snapshot"]),
    ("segment: host bytes not copied into the recording", "runtime/src/segment/segment.c",
     "  if (op->kind == PYGRAPH_OP_HOST_BYTES && pygraph_op_list_copy_bytes(seg->current, &copy))\n"
     "    return \"out of memory\";\n", "", ["unit:test_h2d_snapshot"]),
    ("op list: host bytes read where the caller held them", "runtime/src/recording/op_list.c",
     "    if (op->kind == PYGRAPH_OP_HOST_BYTES)\n      op->src = list->arg_bytes + op->args_offset;\n",
     "", ["unit:test_h2d_snapshot"]),
    ("replay: changed host bytes not updated", "runtime/src/recording/signature.c",
     "    return op_a->dst != op_b->dst ||\n           memcmp(pygraph_op_args(a, op_a), "
     "pygraph_op_args(b, op_b), op_a->count) != 0;",
     "    return op_a->dst != op_b->dst;", ["unit:test_h2d_snapshot"]),
    ("replay: host bytes' size not shape", [
        ("runtime/src/recording/signature.c",
         "    return a->count == b->count;             /* the copy kernel's class and work */",
         "    return 1;"),
        ("runtime/src/recording/signature.c",
         "    case PYGRAPH_OP_HOST_BYTES:\n      h = mix(h, op->count);\n",
         "    case PYGRAPH_OP_HOST_BYTES:\n")],
     ["unit:test_h2d_snapshot"]),
    ("while: host bytes in a WHILE body", "runtime/src/graphs/while_graph.c",
     "  if (op->kind == PYGRAPH_OP_HOST_BYTES)\n", "  if (0)\n", ["unit:test_while_graph"]),
    ("verify: host bytes' destination not compared", "runtime/src/segment/verify_ranges.c",
     " ||\n             op->kind == PYGRAPH_OP_HOST_BYTES)", ")", ["unit:test_h2d_snapshot"]),
    ("segment: a failed launch drops its ops", "runtime/src/segment/segment.c",
     "    if (!ran)\n      execute_all(seg, list);", "    (void)ran;",
     ["unit:test_faults", "unit:test_batch"]),
    ("segment: a failed launch reruns its ops", "runtime/src/segment/segment.c",
     "    if (!ran)\n      execute_all(seg, list);", "    execute_all(seg, list);",
     ["unit:test_faults", "unit:test_batch"]),
    # ---- runtime: batching policy
    ("batch: trip count not divided by K", "runtime/src/segment/batch.c",
     "return b->trips >= 0 ? b->trips / b->k : -1;", "return b->trips >= 0 ? b->trips : -1;",
     ["unit:test_thresholds"]),
    ("batch: K not a power of 2", "runtime/src/segment/batch.c",
     "  k = floor_pow2(k);\n", "  (void)floor_pow2;\n", ["unit:test_thresholds"]),
    ("batch: PYGRAPH_BATCH ignored", "runtime/src/segment/batch.c",
     "  if (setting && setting < b->max)", "  if (0)", ["unit:test_thresholds"]),
    ("batch: cutoff 16 -> 64 ops", "runtime/src/segment/batch.h",
     "#define PYGRAPH_BATCH_MAX_ITER_OPS 16u", "#define PYGRAPH_BATCH_MAX_ITER_OPS 64u",
     ["unit:test_thresholds"]),
    ("batch: 8 units per run -> 4", "runtime/src/segment/batch.h",
     "#define PYGRAPH_BATCH_MIN_UNITS 8u", "#define PYGRAPH_BATCH_MIN_UNITS 4u",
     ["unit:test_thresholds"]),
    ("decide: GPU-bound ratio 1.25 -> 5.0", "runtime/src/selection/decide.h",
     "#define PYGRAPH_GPU_BOUND_RATIO 1.25", "#define PYGRAPH_GPU_BOUND_RATIO 5.0",
     ["unit:test_thresholds"]),
    ("decide: GPU-bound ratio 1.25 -> 1.0", "runtime/src/selection/decide.h",
     "#define PYGRAPH_GPU_BOUND_RATIO 1.25", "#define PYGRAPH_GPU_BOUND_RATIO 1.0",
     ["unit:test_thresholds"]),
    ("selection: host period from every unit, replayed ones too", "runtime/src/selection/selection.c",
     "pygraph_timing_unit_end(sel, 0);",
     "pygraph_timing_unit_end(sel, auto_mode(sel) && sel->decision == PYGRAPH_UNDECIDED);",
     ["unit:test_batch"]),
    # ---- runtime: what an undecided segment runs, and the floor of samples
    ("selection: an undecided graph runs without samples showing it faster",
     "runtime/src/selection/turns.c",
     "const struct pygraph_variant *fast = pygraph_verdicts_shown_faster(sel, s, *pv);",
     "const struct pygraph_variant *fast = *pv;",
     ["unit:test_undecided", "unit:test_verdict", "unit:test_selective"]),
    ("selection: shown faster without the margin", "runtime/src/selection/verdicts.c",
     "pygraph_faster_by_margin(sel->settings, eager_us, *us);", "*us < eager_us;",
     ["unit:test_undecided"]),
    ("samples: settled below the floor", "runtime/src/selection/samples.c",
     "if (s->n == 0 || s->n < floor)", "if (s->n == 0)",
     ["unit:test_undecided", "unit:test_verdict"]),
    ("verdicts: a clear case from 2 eager samples", "runtime/src/selection/verdicts.c",
     "if (eager->n < first || graph->n < first)\n    return 0;\n  /* Every",
     "if (eager->n < 2 || graph->n < first)\n    return 0;\n  /* Every",
     ["unit:test_selective", "unit:test_undecided"]),
    ("verdicts: a clear keep on medians of three", "runtime/src/selection/verdicts.c",
     "return pygraph_clear_verdict_bounds(elo, ehi, glo, warm_hi, verdict);",
     "return pygraph_clear_verdict_bounds(pygraph_samples_cost_us(eager), ehi, glo,\n"
     "                                      pygraph_samples_period_us(graph), verdict);",
     ["unit:test_undecided", "unit:test_selective"]),
    ("timing: the host period from the last unit, not the shortest", "runtime/src/selection/timing.c",
     "(sel->host_period_us <= 0 || p < sel->host_period_us))", "1)",
     ["unit:test_thresholds"]),
    # ---- runtime: a segment that stays eager costs nothing per op
    ("segment: probes of too few ops record them", "runtime/src/segment/segment.c",
     "seg->probe = seg->probe_counts ? PYGRAPH_PROBE_COUNT : PYGRAPH_PROBE_FIRST;",
     "seg->probe = PYGRAPH_PROBE_FIRST;", ["unit:test_verdict"]),
    ("segment: a counting probe never hands over to a recorded one", "runtime/src/segment/segment.c",
     "  if (seg->counted >= seg->probe_min_ops) {", "  if (0) {", ["unit:test_verdict"]),
    ("segment: a restarted warm-up never settles", "runtime/src/segment/segment.c",
     "seg->stats.iters - seg->warm_from >= PYGRAPH_SETTLE_ITERS", "seg->stats.iters >= PYGRAPH_SETTLE_ITERS",
     ["unit:test_verdict"]),
    ("settings: PYGRAPH_BATCH=1 ignored", "runtime/src/common/settings.c",
     '"PYGRAPH_BATCH", 1, 1000000ul, 0,', '"PYGRAPH_BATCH", 2, 1000000ul, 0,',
     ["unit:test_thresholds"]),
    ("settings: trailing text accepted", "runtime/src/common/settings.c",
     "if (*end || text[0] == '-'", "if (text[0] == '-'",
     ["unit:test_thresholds"]),
    ("fault: an injected launch failure claims its work ran", "runtime/src/port/fault_inject.c",
     "  if (fails(PYGRAPH_FAULT_LAUNCH)) {\n    *ran = 0;", "  if (fails(PYGRAPH_FAULT_LAUNCH)) {\n    *ran = 1;",
     ["unit:test_fault_inject"]),
    ("fault: PYGRAPH_FAULT's N ignored (first call fails)", "runtime/src/port/fault_inject.c",
     "if (!fail_at[step] || n != fail_at[step])", "if (!fail_at[step])",
     ["unit:test_fault_inject"]),
    ("settings: a flag word not understood turns it on", "runtime/src/common/settings.c",
     "  return v > 0;\n}", "  return v != 0;\n}",
     ["unit:test_settings_report"]),
    ("settings: off means on for PYGRAPH_INDIRECT", "runtime/src/common/settings.c",
     "out->indirect = v ? PYGRAPH_INDIRECT_ON : PYGRAPH_INDIRECT_OFF;",
     "out->indirect = PYGRAPH_INDIRECT_ON;",
     ["unit:test_settings_report"]),
    # ---- runtime: the report and the timeline
    ("report: a quote in a name left unescaped in the JSON", "runtime/src/common/json_write.c",
     "if (*p == '\"' || *p == '\\\\' || *p < 0x20)", "if (*p == '\\\\' || *p < 0x20)",
     ["unit:test_report_json"]),
    ("report: bytes that are not UTF-8 written as they are", "runtime/src/common/json_write.c",
     "        fputs(\"\\\\ufffd\", f);", "        putc(*p, f);",
     ["unit:test_report_json"]),
    ("timeline: an iteration's range left open", "runtime/src/segment/segment.c",
     "  pygraph_range_pop(&seg->ranges);            /* the iteration's (begin_iteration) */\n",
     "", ["unit:test_ranges"]),
    ("settings: a bad value taken silently (no warning)", "runtime/src/common/settings.c",
     "    problem(out, name, text, expected, used);\n    return fallback;",
     "    return fallback;",
     ["unit:test_settings_report"]),
    # ---- runtime: verify mode (the work shows once; differences are found)
    ("verify: the graph runs on the eager run's results", "runtime/src/segment/verify.c",
     "  err = copy_all(vf, FROM_SHADOW);\n", "  err = cudaSuccess;\n",
     ["unit:test_verify"]),
    ("verify: a failed save lets the graph run too", "runtime/src/segment/verify.c",
     '    stop(vf, "saving the eager results failed: %s", b->error_name(err));\n'
     "    return PYGRAPH_VERIFY_RAN_EAGERLY;",
     '    stop(vf, "saving the eager results failed: %s", b->error_name(err));\n'
     "    return PYGRAPH_VERIFY_ARMED;",
     ["unit:test_verify"]),
    ("verify: differences not seen", "runtime/src/segment/verify.c",
     "if (memcmp(vf->chunk, eager, n) == 0)", "if (1)", ["unit:test_verify"]),
    ("verify: host memory run twice", "runtime/src/segment/verify.c",
     "  if (vf->host_memory) {", "  if (0) {", ["unit:test_verify"]),
    ("verify: a verified iteration is a graph sample", "runtime/src/selection/selection.c",
     "sel->now.turn == TURN_GRAPH && !o->verified)", "sel->now.turn == TURN_GRAPH)",
     ["unit:test_verify"]),
    # ---- the allocation pool (segment/alloc_pool.h)
    ("pool: cudaFree deferred beside host memory kernels write", "pass/core/call_classifier.c",
     "else if (c->host_visible_memory && is_free(api))", "else if (0)",
     ["lit:alloc-pooled.cu", "lit:api-table.cu"]),
    ("pool: a block of another size handed out", "runtime/src/segment/alloc_pool.c",
     "!pool->blocks[i].in_use && pool->blocks[i].size == size",
     "!pool->blocks[i].in_use && pool->blocks[i].size >= size", ["unit:test_alloc_pool"]),
    ("pool: a second stream not drained", "runtime/src/segment/alloc_pool.c",
     "    if (pool->n_blocks && pool->backend->stream_synchronize)\n",
     "    if (0)\n", ["unit:test_alloc_pool"]),
    ("pool: blocks kept past their iteration handed out again", "runtime/src/segment/segment.c",
     "  pygraph_alloc_pool_disown_in_use(&seg->pool);\n  pygraph_range_pop(", "  pygraph_range_pop(",
     ["unit:test_alloc_pool"]),
    ("pool: a foreign cudaFree deferred", "runtime/src/abi/record.c",
     "  if (pygraph_segment_free(seg, ptr))\n    return PYGRAPH_DEFERRED;",
     "  (void)pygraph_segment_free(seg, ptr);\n  return PYGRAPH_DEFERRED;",
     ["unit:test_alloc_pool"]),
    # ---- kernel settings made at once in a region (abi/record.h)
    ("settings: a launch deferred before a changed setting not run first", "runtime/src/abi/record.c",
     "  if (!launched_this_iteration(seg, func))\n    return;", "  return;",
     ["unit:test_func_settings"]),
    ("settings: the kernel's current value taken for granted", "runtime/src/abi/record.c",
     "  if (attr >= 0 && backend->func_attribute_holds &&", "  if (backend->func_attribute_holds &&",
     ["unit:test_func_settings"]),
    ("api: cudaDestroyTextureObject harmless", "pass/core/cuda_api_table.c",
     '{"cudaDestroyTextureObject", PG_API_UNCAPTURABLE,', '{"cudaDestroyTextureObject", PG_API_HARMLESS,',
     ["lit:api-table.cu"]),
    ("api: cudaFuncSetAttribute harmless", "pass/core/cuda_api_table.c",
     '{"cudaFuncSetAttribute", PG_API_FUNC_SETTING,', '{"cudaFuncSetAttribute", PG_API_HARMLESS,',
     ["lit:api-table.cu", "lit:func-settings.cu"]),
    ("batch: multi-stream iterations batched like single-stream ones", "runtime/src/segment/batch.c",
     "  if (in->several_streams && k > PYGRAPH_BATCH_MULTISTREAM_K)", "  if (0)", ["unit:test_batch"]),
    # ---- launch attributes a graph kernel node holds (abi/record.c)
    ("attrs: any launch attribute deferred", "runtime/src/abi/record.c",
     "  default:\n    return 0;\n  }\n}", "  default:\n    return 1;\n  }\n}",
     ["unit:test_launch_attrs"]),
    ("attrs: left out of the signature", [
        ("runtime/src/recording/signature.c",
         " &&\n           a->n_attrs == b->n_attrs && a->attrs_hash == b->attrs_hash;", ";"),
        ("runtime/src/recording/signature.c",
         "      h = mix(h, op->attrs_hash ^ op->n_attrs);\n", "")],
     ["unit:test_launch_attrs"]),
    ("attrs: not set on the kernel node", "runtime/src/cuda/graph_realise.c",
     "  for (unsigned i = 0; err == cudaSuccess && i < op->n_attrs; i++)",
     "  for (unsigned i = 0; err == cudaSuccess && i < 0; i++)", ["unit:test_while_realise"]),
    # ---- driver-API launches recorded (record.c, driver_launch.c)
    ("driver: the extra form deferred", "runtime/src/abi/record.c",
     "  if (extra)\n    return pygraph_record_undeferrable(seg, kDriverExtra);\n", "",
     ["unit:test_driver_launch"]),
    ("driver: a launch of another context deferred", "runtime/src/abi/record.c",
     "if (!backend->driver_context_ok || !backend->driver_context_ok(stream))",
     "if (!backend->driver_context_ok)", ["unit:test_driver_launch"]),
    ("driver: a CUfunction given a twin", "runtime/src/graphs/indirect.c",
     "  if (op->driver)\n    return \"driver API launch: no indirect twin\";\n", "",
     ["unit:test_driver_launch"]),
    ("driver: kernelParams' pointers kept instead of their bytes", "runtime/src/recording/op_list.c",
     "    memcpy(block + layout->params[i].offset, args[i], layout->params[i].size);",
     "    memcpy(block + layout->params[i].offset, args[i], layout->params[i].size),\n"
     "        op->driver ? (void)(*(void **)(block + layout->params[i].offset) = args[i]) : (void)0;",
     ["unit:test_driver_launch"]),
    ("driver: node made by the runtime API", "runtime/src/cuda/graph_realise.c",
     "    if (op->driver)                        /* a CUfunction: the driver's node */\n"
     "      return pygraph_cuda_driver_node_add(node, g->body, deps, n_deps, op);\n", "",
     ["unit:test_driver_realise"]),
    ("driver: node updated by the runtime API", "runtime/src/cuda/graph_realise.c",
     "    if (op->driver)\n      return pygraph_cuda_driver_node_update(g->exec, node, op);\n", "",
     ["unit:test_driver_realise"]),
    ("driver: node attributes dropped", "runtime/src/cuda/driver_launch.c",
     "  if (r == CUDA_SUCCESS)\n    r = set_node_attrs(*node, op);\n", "",
     ["unit:test_driver_realise"]),
    ("driver: the stream's context not checked", "runtime/src/cuda/driver_launch.c",
     "         of_stream == current;", "         1;", ["unit:test_driver_realise"]),
    # ---- what the pass tells the runtime instead of error-probing CUDA
    ("facts: a site's argument slots dropped", "runtime/src/abi/record.c",
     "op->site ? op->site->arg_slots : 0", "0", ["unit:test_site_facts"]),
    ("facts: argument slots not computed", "pass/core/launch_args.c",
     "return (unsigned)(total / ptr_bytes);", "return 0;", ["lit:launch-arg-slots.cu"]),
    ("facts: driver kernelParams slots not computed", "pass/core/launch_args.c",
     "    return n_operands == 11 ? 9 : -1;", "    return -1;", ["lit:driver-arg-slots.cu"]),
    ("facts: DisableTiming flag ignored", "runtime/src/recording/event_kinds.c",
     "(flags & cudaEventDisableTiming) != 0", "0", ["unit:test_site_facts"]),
    ("facts: destroyed events stay untimed", "runtime/src/recording/event_kinds.c",
     "  set_untimed(event, 0);\n}", "  (void)event;\n}", ["unit:test_site_facts"]),
    ("decide: a GPU-bound loop weighed by host gains", "runtime/src/selection/decide.c",
     "return gaps < gain ? gaps : gain;", "return gain;",
     ["unit:test_batch", "unit:test_thresholds"]),
    ("decide: a sibling graph's measured gain ignored", "runtime/src/selection/decide.c",
     "double gaps = in->sibling_gain_ratio * in->eager_us;", "double gaps = 0.0;",
     ["unit:test_selective"]),
    ("decide: the gap prior weighs every capture of a GPU-bound loop",
     "runtime/src/selection/decide.c",
     "  if (in->captures == 0 && prior > gaps)", "  if (prior > gaps)",
     ["unit:test_selective", "unit:test_batch_cycle"]),
    ("selection: an undecided graph's gain counted before it is shown faster",
     "runtime/src/selection/verdicts.c",
     "  int shown = sel->decision == PYGRAPH_DECIDED_GRAPH ||", "  int shown = 1 ||",
     ["unit:test_batch_cycle"]),
    ("capture cost: the process's cold first capture learned from",
     "runtime/src/selection/capture_cost.c", "  if (!cold_seen) {", "  if (0) {",
     ["unit:test_selective", "unit:test_batch_cycle"]),
    ("decide: a GPU far behind the host not taken for a GPU-bound loop",
     "runtime/src/selection/decide.c",
     "    return in->backlog >= PYGRAPH_BACKLOG_EVENTS &&\n"
     "           !pygraph_sibling_clearly_faster(in->sibling_gain_ratio);",
     "    return 0;", ["unit:test_batch"]),
    ("decide: a sibling's clear gain does not lift the far-behind presumption",
     "runtime/src/selection/decide.c",
     "    return in->backlog >= PYGRAPH_BACKLOG_EVENTS &&\n"
     "           !pygraph_sibling_clearly_faster(in->sibling_gain_ratio);",
     "    return in->backlog >= PYGRAPH_BACKLOG_EVENTS;", ["unit:test_undecided"]),
    ("verdicts: a sibling's gain trusted after the new graph's floor is read",
     "runtime/src/selection/verdicts.c",
     "         g->samples.n < pygraph_measure_first(sel->settings) &&\n", "",
     ["unit:test_undecided"]),
    ("verdicts: a sibling's gain trusted without bound", "runtime/src/selection/verdicts.c",
     "         g->samples.iters < PYGRAPH_SIBLING_TRUST_ITERS &&\n", "",
     ["unit:test_undecided"]),
    ("verdicts: a sibling's gain from a segment without a kept graph",
     "runtime/src/selection/verdicts.c",
     "         pygraph_sibling_clearly_faster(pygraph_verdicts_sibling_gain(sel)) &&\n"
     "         kept_sibling(sel, v);",
     "         pygraph_sibling_clearly_faster(pygraph_verdicts_sibling_gain(sel));",
     ["unit:test_undecided"]),
    ("decide: a sibling clearly faster by any gain", "runtime/src/selection/decide.c",
     "  return sibling_gain_ratio > 0 && sibling_gain_ratio < 1 &&\n"
     "         pygraph_clear_verdict(1.0, 1.0 - sibling_gain_ratio, &verdict) &&\n"
     "         verdict == PYGRAPH_VERDICT_GRAPH;",
     "  (void)verdict;\n  return sibling_gain_ratio > 0;", ["unit:test_undecided"]),
    ("turns: a new sequence's graph not run meanwhile on a sibling's clear gain",
     "runtime/src/selection/turns.c",
     "  if (!fast && pygraph_verdicts_runs_on_sibling(sel, *pv))\n"
     "    fast = *pv;\n", "", ["unit:test_undecided"]),
    ("turns: eager's window taken before the new graph's floor is read",
     "runtime/src/selection/turns.c",
     " ||\n                   eager_waits_for_graphs(sel, &s->eager, side)))", "))",
     ["unit:test_undecided"]),
    ("decide: a GPU-bound loop never captured", "runtime/src/selection/decide.c",
     "  double hits = pygraph_expected_hits(in);\n  int gpu_bound = gpu_bound_loop(settings, in);\n",
     "  double hits = pygraph_expected_hits(in);\n  int gpu_bound = gpu_bound_loop(settings, in);\n"
     "  if (gpu_bound) {\n    *reason = GPU_BOUND_WHY;\n    return PYGRAPH_STAY_EAGER;\n  }\n",
     ["unit:test_batch"]),
    ("twins: read-only loads not kept", "pass/shim/clone_shim.cpp",
     "  keep_read_only_loads(*Old, *New, VMap);\n", "", ["lit:twins-read-only.cu"]),
    ("twins: every load marked read-only", "pass/shim/clone_shim.cpp",
     "if (!Objs.empty() && all_of(", "if (!Objs.empty() || all_of(", ["lit:twins-read-only.cu"]),
    ("facts: event creation not routed", "pass/core/instrumenter.c",
     "  if (pg_api_observed(ci->api))\n    return 1;", "", ["lit:api-table.cu"]),
    # ---- whole loops: invariant operands that differ between executions
    ("whole loop: an indirect kernel's invariant operands taken from the graph's iteration",
     "runtime/src/graphs/while_variant.c",
     "  if (v->ind.n_nodes)\n    pygraph_indirect_pack(&v->ind, iteration, v->args.host);\n",
     "  (void)iteration;\n", ["unit:test_whole_loop_run"]),
    ("whole loop: a direct kernel's invariant operands not compared", "runtime/src/recording/loop_observe.c",
     "  if (a->kind == PYGRAPH_OP_KERNEL && pygraph_whole_loop_op_evolves(wl, index))",
     "  if (a->kind == PYGRAPH_OP_KERNEL)", ["unit:test_whole_loop_run"]),
    ("whole loop: a nested loop's graph launched with its region's work deferred",
     "runtime/src/abi/whole_loop.c",
     "  if (wl->nested || pygraph_live_region() == r)\n    pygraph_region_close_live();\n", "",
     ["unit:test_whole_loop_run", "unit:test_whole_loop_counted"]),
    # ---- whole loops: counted loops (no status copy)
    ("counted loop: the WHILE graph launched with its batch unit held back",
     "runtime/src/abi/whole_loop.c",
     "  if (wl->nested || pygraph_live_region() == r)", "  if (wl->nested)",
     ["unit:test_whole_loop_counted"]),
    ("counted loop: a status-less descriptor may name status bytes",
     "runtime/src/recording/whole_loop.c",
     "    return wl->status_op == PYGRAPH_WL_NONE && wl->status_dest == PYGRAPH_WL_NONE &&\n"
     "           wl->status_bytes == 0;", "    return 1;", ["unit:test_whole_loop_counted"]),
    ("counted loop: a whole execution timed for auto's choice not waited for",
     "runtime/src/abi/whole_loop_run.c",
     "      since < 0.0 && pygraph_while_host_outcome(", "      pygraph_while_host_outcome(",
     ["unit:test_whole_loop_counted"]),
    ("counted loop: a float exit test answered on the host, not waited for",
     "runtime/src/graphs/while_variant.c",
     "    if (n->op == PYGRAPH_EXIT_FIELD || !pygraph_eval_is_int(n->type) ||\n"
     "        (n->op == PYGRAPH_EXIT_CMP && n->arg <= PYGRAPH_CMP_F_TRUE))",
     "    if (n->op == PYGRAPH_EXIT_FIELD)", ["unit:test_whole_loop_counted"]),
    ("counted loop: the block image rewritten before an unwaited launch's upload read it",
     "runtime/src/graphs/while_variant.c",
     "  if (!v->unwaited)\n    return 1;", "  if (1)\n    return 1;",
     ["unit:test_whole_loop_counted"]),
    ("counted loop: auto times the batched side without waiting for it",
     "runtime/src/abi/whole_loop_choice.c",
     "  st->choice.timing_written = 0;\n  wait_written(st);",
     "  st->choice.timing_written = 0;\n  (void)wait_written;", ["unit:test_whole_loop_counted"]),
    ("counted loop: an exit between operations taken as at the end",
     "pass/core/convergence_loops.c",
     "  else if ((e->after_copy || !copy) && e->ops_before == c->nops)",
     "  else if (e->after_copy || !copy)", ["lit:whole-loop-counted.cu"]),
    ("counted loop: the whole loop's exit before the batch's region exit",
     "pass/core/whole_loop_instrument.c",
     "    at = exit_call_point(exits[j]);", "    (void)exit_call_point;",
     ["lit:whole-loop-counted.cu"]),
    ("whole loop: a nested loop entered inside another region", "runtime/src/abi/whole_loop.c",
     "(!wl->nested || pygraph_live_region() != r)", "(!wl->nested)",
     ["unit:test_whole_loop_run"]),
    # ---- across files: a callee's barrier or an unmarked callee must split
    ("across: a noreturn call that may throw checked", "pass/core/external_calls.c",
     "  int ends_here = pg_call_no_return(call) && !pg_call_may_unwind(call);",
     "  int ends_here = pg_call_no_return(call);", ["lit:across-files.cu"]),
    ("across: library calls checked", "pass/core/external_calls.c",
     "!library_symbol(name);", "1;", ["lit:across-files.cu"]),
    ("across: no barrier points", "pass/core/external_calls.c",
     "      call_before(m, ci[k].inst, PG_PROTOCOL_barrier_point, NULL, 0);", "      ;",
     ["lit:across-files.cu"]),
    ("across: a file without CUDA instrumented", "pass/core/external_calls.c",
     "  if (!pg_opts()->across_files || !module_uses_cuda(m))", "  if (!pg_opts()->across_files)",
     ["lit:across-files-plain-cpp.cpp"]),
    ("across: no markers", "pass/core/external_calls.c",
     "      define_marker(m, fn);", "      ;", ["lit:across-files.cu"]),
    ("across: callee barriers split nothing", "runtime/src/abi/region_stack.c",
     "  if (tls_regions.recording)\n    split_live(", "  if (0)\n    split_live(",
     ["unit:test_across_files"]),
    ("across: unmarked callees split nothing", "runtime/src/abi/region_stack.c",
     "  if (!aware)\n    split_live(", "  if (0)\n    split_live(", ["unit:test_across_files"]),
    ("across: a split without reservation keeps deferring", "runtime/src/abi/region_stack.c",
     "  pygraph_stop_live(t->recording, reason);",
     "  (void)reason;", ["unit:test_across_files"]),
    ("across: another region's reservation taken",
     [("runtime/src/abi/region_stack.c",
       "if (region && region == t->stack[0].region && segment < region->n_segments)",
       "if (region && segment < region->n_segments)"),
      ("runtime/src/abi/region_stack.c",
       "if (t->split_region == live && live->kind != PYGRAPH_REGION_BATCH)",
       "if (t->split_region && live->kind != PYGRAPH_REGION_BATCH)")],
     ["unit:test_across_files"]),
    ("across: a module callee's checked call no barrier", "pass/core/call_classifier.c",
     "      } else if (ci.kind == PG_CALL_BARRIER || ci.kind == PG_CALL_EXTERNAL_CHECKED) {",
     "      } else if (ci.kind == PG_CALL_BARRIER) {", ["lit:across-files.cu"]),
    ("across: a module callee with a real barrier checked", "pass/core/call_classifier.c",
     "  int checked_only = may_sync && !hard;", "  int checked_only = may_sync;",
     ["lit:across-files.cu"]),
    ("across: a module callee's hook with no marker", "pass/core/external_calls.c",
     "  args[2] = LLVMIsDeclaration(callee) ? marker_ref(m, callee) : callee;",
     "  args[2] = marker_ref(m, callee);", ["lit:across-files.cu"]),
    # ---- launches through a kernel pointer, NVTX, CUB (issue 18)
    ("pointer launch: not recognised", "pass/core/kernel_pointers.c",
     "  return p->n && bsearch(&call, p->calls, p->n, sizeof *p->calls, pg_by_address) != NULL;",
     "  return 0;",
     ["lit:kernel-pointers.cu"]),
    ("pointer launch: any indirect call after a configuration", "pass/core/kernel_pointers.c",
     "      dominated = configured[k] == bb || pg_block_dominates(li, configured[k], bb);",
     "      dominated = 1;",
     ["lit:kernel-pointers.cu"]),
    ("pointer launch: checked without across-files", "pass/core/call_classifier.c",
     "    if (pg_opts()->across_files)\n      out->kind = PG_CALL_EXTERNAL_CHECKED;",
     "    out->kind = PG_CALL_EXTERNAL_CHECKED;", ["lit:kernel-pointers.cu"]),
    ("pointer launch: hook without the table", "pass/core/external_calls.c",
     "    args[3] = pg_kernel_stub_table(m, &n);",
     "    args[3] = LLVMConstNull(pg_abi_ir_type(m, PG_IR_PTR)); n = 0;",
     ["lit:kernel-pointers.cu"]),
    ("pointer launch: every pointer known", "runtime/src/abi/kernel_pointers.c",
     "  for (unsigned i = 0; i < n; ++i)\n    if (stubs[i] == fn) {",
     "  for (unsigned i = 0; i < n || 1; ++i)\n    if (1) {",
     ["unit:test_throws_and_pointers"]),
    ("pointer launch: a foreign pointer cached as known", "runtime/src/abi/kernel_pointers.c",
     "  if (known[s] == fn)\n    return 1;", "  if (known[s] == fn || known[s])\n    return 1;",
     ["unit:test_throws_and_pointers"]),
    ("pointer launch: callees' launches not the caller's", "pass/core/call_classifier.c",
     "        if (pg_runs_in_caller_region(c, &ci))\n          launches += "
     "pg_summary_of(c, ci.callee)->launches;\n", "", ["lit:kernel-pointers.cu"]),
    ("nvtx: table calls barriers", "pass/core/harmless_externals.c",
     "  return strncmp(name, \"nvtxGlobals_v\", 13) == 0;", "  return 0;",
     ["lit:kernel-pointers.cu"]),
    ("nvtx: any loaded pointer harmless", "pass/core/harmless_externals.c",
     "  return strncmp(name, \"nvtxGlobals_v\", 13) == 0;", "  return 1;",
     ["lit:kernel-pointers.cu"]),
    ("wait: CUB's cache rule takes any lock", "pass/core/wait_loops.c",
     "  return (strncmp(name, \"_ZN3cub\", 7) == 0 || strncmp(name, \"_ZZN3cub\", 8) == 0) &&\n"
     "         strstr(name, \"PerDeviceAttributeCache\") != NULL;", "  return 1;",
     ["lit:wait-reads.cu"]),
    ("pointer launch: a call returning a value taken for a stub", "pass/core/kernel_pointers.c",
     "         LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind;", "         1;",
     ["lit:kernel-pointers.cu"]),
    ("pointer launch: weak stubs in the table", "pass/core/kernel_pointers.c",
     "  case LLVMLinkOnceODRLinkage:\n    return 1;\n  default:\n    return 0;",
     "  case LLVMLinkOnceODRLinkage:\n    return 1;\n  default:\n    return 1;",
     ["lit:own-copies.cu"]),
    ("own copies: none kept", "pass/core/host_pass.c", "    pg_keep_own_copies(h->m);\n", "",
     ["lit:own-copies.cu"]),
    ("own copies: barrier points count", "pass/core/own_copies.c",
     "          strcmp(name + len, \"barrier_point\") != 0)", "          1)",
     ["lit:own-copies.cu"]),
    ("own copies: weak_odr made internal", "pass/core/own_copies.c",
     "  return l == LLVMLinkOnceODRLinkage || l == LLVMAvailableExternallyLinkage;",
     "  return l == LLVMLinkOnceODRLinkage || l == LLVMAvailableExternallyLinkage ||\n"
     "         l == LLVMWeakODRLinkage;", ["lit:own-copies.cu"]),
    # ---- throw points (issue 18)
    ("throw: throws are barriers", "pass/core/call_classifier.c",
     "else if (!pg_is_harmless_external(name) && !pg_is_throw_call(name))",
     "else if (!pg_is_harmless_external(name))", ["lit:throw-points.cu"]),
    ("throw: no throw points", "pass/core/host_pass.c",
     "    pg_insert_throw_points(h->m);\n", "", ["lit:throw-points.cu"]),
    ("throw: the exception's construction a barrier", "pass/core/call_classifier.c",
     "  if (pg_after_throw(&c->throws, inst))\n    return;",
     "  if (0)\n    return;", ["lit:throw-points.cu"]),
    ("throw: every path after a throw", "pass/core/throw_points.c",
     "    in[i] = i > 0;", "    in[i] = 1;", ["lit:throw-points.cu"]),
    ("throw: an allocation without a throw is a throw point", "pass/core/throw_points.c",
     "  return p < f->n && f->bound[p];\n}", "  return 1;\n}", ["lit:throw-points.cu"]),
    ("throw: no point before resume", "pass/core/throw_points.c",
     "  return LLVMIsAResumeInst(inst) || (name && is_raise_name(name));",
     "  return name && is_raise_name(name);", ["lit:throw-points.cu", "lit:region-batch-invoke.ll"]),
    ("throw: one path through a throw is enough", "pass/core/throw_points.c",
     "        if (p < f->n && !in[p] && !marker[p]) {", "        if (0) {",
     ["lit:throw-points.cu"]),
    ("throw: the point keeps the region open", "runtime/src/abi/region_stack.c",
     "void pygraph_region_close_live(void)\n{\n  if (tls_regions.depth)",
     "void pygraph_region_close_live(void)\n{\n  if (0)",
     ["unit:test_throws_and_pointers", "unit:test_whole_loop_run"]),
    ("dot: graphs never written", "runtime/src/cuda/graph_realise.c",
     "  write_dot(g->graph);\n", "", ["unit:test_while_realise"]),
    ("whole loop choice: no clear loss", "runtime/src/abi/whole_loop_choice.c",
     "  return c->whole.samples >= 1 && c->written.samples >= 1 &&",
     "  return 0 && c->written.samples >= 1 &&", ["unit:test_whole_loop_run"]),
    ("whole loop choice: any loss clear", "runtime/src/abi/whole_loop_choice.c",
     "pygraph_wl_side_us(&c->whole) >= PYGRAPH_WL_CLEAR_LOSS * pygraph_wl_side_us(&c->written);",
     "pygraph_wl_side_us(&c->whole) > pygraph_wl_side_us(&c->written);",
     ["unit:test_whole_loop_run"]),
    # ---- cuFFT (issue 18)
    ("cufft: executions barriers", "pass/core/library_api_table.c",
     "{#symbol, PG_API_LIBRARY, 0, CUFFT_WHY, 0},", "{#symbol, PG_API_LIBRARY_OTHER, 0, CUFFT_WHY, 0},",
     ["lit:library-cufft.cu"]),
    ("cufft: other cuFFT calls harmless", "pass/core/library_api_table.c",
     '{"cufft", PG_API_LIBRARY_OTHER,', '{"cufft", PG_API_HARMLESS,', ["lit:library-cufft.cu"]),
    ("cufft: plans not observed", "pass/core/library_api_table.c",
     "#define PYGRAPH_CUFFT_OBSERVED(symbol) #symbol,\n", "", ["lit:library-cufft.cu"]),
    ("cufft: a plan of unknown stream recorded", "runtime/src/cuda/cufft_entry_points.c",
     "  int known = e && e->known;", "  int known = 1;", ["unit:test_cufft_ops"]),
    ("cufft: the plan left on the capturing stream", "runtime/src/cuda/cufft_entry_points.c",
     "  cufftResult back = cufftSetStream(c->plan, c->stream);", "  cufftResult back = CUFFT_SUCCESS;",
     ["unit:test_cufft_ops"]),
    ("cufft: graphs replayed after a destroy", "runtime/src/cuda/cufft_entry_points.c",
     "  __atomic_add_fetch(&destroys, 1, __ATOMIC_RELEASE);\n", "", ["unit:test_cufft_ops"]),
    ("cufft: executions made at once", "runtime/src/cuda/cufft_entry_points.c",
     "  if (__builtin_expect(!seg, 1))\n    return make(c);\n  if (!plan_stream",
     "  if (1)\n    return make(c);\n  if (!plan_stream", ["unit:test_cufft_ops"]),
    # ---- cuSPARSE (issue 18)
    ("cusparse: a matrix's fill mode not in the signature", "runtime/src/cuda/cusparse_descriptors.c",
     "  out->fill = (int)fill;\n", "  out->fill = 0;\n", ["unit:test_cusparse_ops"]),
    ("cusparse: host scalars' addresses kept in the signature",
     "runtime/src/cuda/cusparse_entry_points.c",
     "    c->alpha = c->beta = NULL;", "    (void)0;", ["unit:test_cusparse_ops"]),
    ("cusparse: arguments cuSPARSE rejects recorded", "runtime/src/cuda/cusparse_entry_points.c",
     "  return checked_arguments(c);", "  return NULL;", ["unit:test_cusparse_ops"]),
    ("state arena: an arena block given to free()", "runtime/src/common/state_arena.c",
     "  if (at >= base && at - base < ARENA_BYTES)\n    return;", "  if (0)\n    return;",
     ["unit:test_state_arena"]),
    ("cusparse: rejected arguments remembered as accepted",
     "runtime/src/cuda/cusparse_entry_points.c",
     "  if (!why)\n    remember_accepted(&key);", "  remember_accepted(&key);",
     ["unit:test_cusparse_ops"]),
    ("cusparse: the query's memo outlives a destroy", "runtime/src/cuda/cusparse_entry_points.c",
     "  key->changes = __atomic_load_n(&changes, __ATOMIC_ACQUIRE);", "  key->changes = 0;",
     ["unit:test_cusparse_ops"]),
    ("cusparse: descriptors' contents not in the query's memo",
     "runtime/src/cuda/cusparse_entry_points.c",
     "  key->stream = 0;\n", "  key->stream = 0;\n  memset(&key->y, 0, sizeof key->y);\n",
     ["unit:test_cusparse_ops"]),
    ("cusparse: a missing workspace not noticed", "runtime/src/cuda/cusparse_entry_points.c",
     "return need && !c->buffer ?", "return 0 && !c->buffer ?", ["unit:test_cusparse_ops"]),
    ("cusparse: the handle left on the capturing stream when its mode cannot be set",
     "runtime/src/cuda/cusparse_entry_points.c",
     "      (void)cusparseSetStream(c->handle, now_stream);   /* as the program left it */\n",
     "      ;\n",
     ["unit:test_cusparse_ops"]),
    ("cusparse: executions barriers", "pass/core/library_api_table.c",
     "{#symbol, PG_API_LIBRARY, 0, CUSPARSE_WHY, 0},",
     "{#symbol, PG_API_LIBRARY_OTHER, 0, CUSPARSE_WHY, 0},", ["lit:library-cusparse.cu"]),
    ("cusparse: other cuSPARSE calls harmless", "pass/core/library_api_table.c",
     '{"cusparse", PG_API_LIBRARY_OTHER,', '{"cusparse", PG_API_HARMLESS,',
     ["lit:library-cusparse.cu"]),
    ("cusparse: destroys not observed", "pass/core/library_api_table.c",
     "#define PYGRAPH_CUSPARSE_OBSERVED(symbol) #symbol,\n", "", ["lit:library-cusparse.cu"]),
    ("cusparse: calls made at once", "runtime/src/cuda/cusparse_entry_points.c",
     "  if (LIKELY(!seg))\n    return make(c, c->alpha, c->beta);",
     "  if (1)\n    return make(c, c->alpha, c->beta);", ["unit:test_cusparse_ops"]),
    ("cusparse: host scalars not copied", "runtime/src/cuda/cusparse_entry_points.c",
     "    memcpy(c->alpha_host, c->alpha, bytes);\n", "", ["unit:test_cusparse_ops"]),
    ("cusparse: unsized compute types recorded", "runtime/src/cuda/cusparse_entry_points.c",
     "    if (bytes == 0 || bytes > SCALAR_MAX", "    if (bytes > SCALAR_MAX",
     ["unit:test_cusparse_ops"]),
    ("cusparse: dense vector values not in the signature", "runtime/src/cuda/cusparse_descriptors.c",
     "  out->cols = 1;\n", "  out->cols = 1;\n  out->values = NULL;\n", ["unit:test_cusparse_ops"]),
    ("cusparse: sparse matrix values not in the signature",
     "runtime/src/cuda/cusparse_descriptors.c",
     "  m->value_type = (int)type;\n", "  m->value_type = (int)type;\n  m->values = NULL;\n",
     ["unit:test_cusparse_ops"]),
    ("cusparse: batched matrices recorded", "runtime/src/cuda/cusparse_descriptors.c",
     "|| batches != 1)", "|| batches < 1)", ["unit:test_cusparse_ops"]),
    ("cusparse: the handle left on the capturing stream", "runtime/src/cuda/cusparse_entry_points.c",
     "    cusparseStatus_t back = cusparseSetStream(c->handle, now_stream);",
     "    cusparseStatus_t back = CUSPARSE_STATUS_SUCCESS;", ["unit:test_cusparse_ops"]),
    ("cusparse: recorded pointer mode not applied", "runtime/src/cuda/cusparse_entry_points.c",
     "    st = cusparseSetPointerMode(c->handle, c->mode);\n", "", ["unit:test_cusparse_ops"]),
    ("cusparse: graphs replayed after a destroy", "runtime/src/cuda/cusparse_entry_points.c",
     "static void note_change(void) { __atomic_add_fetch(&changes, 1, __ATOMIC_RELEASE); }",
     "static void note_change(void) {}", ["unit:test_cusparse_ops"]),
    # ---- library calls (issue 18): the pass's table of cuBLAS calls
    ("library: recorded cuBLAS calls harmless", "pass/core/library_api_table.c",
     "{#symbol, PG_API_LIBRARY, 0, LIBRARY_WHY, 0},", "{#symbol, PG_API_HARMLESS, 0, LIBRARY_WHY, 0},",
     ["lit:library-cublas.cu"]),
    ("library: recorded cuBLAS calls barriers", "pass/core/library_api_table.c",
     "{#symbol, PG_API_LIBRARY, 0, LIBRARY_WHY, 0},",
     "{#symbol, PG_API_LIBRARY_OTHER, 0, LIBRARY_WHY, 0},", ["lit:library-cublas.cu"]),
    ("library: other cuBLAS calls harmless", "pass/core/library_api_table.c",
     '{"cublas", PG_API_LIBRARY_OTHER,', '{"cublas", PG_API_HARMLESS,', ["lit:library-cublas.cu"]),
    ("library: cublasSetStream not observed", "pass/core/cuda_api_table.c",
     "    return pg_library_observed(e->name);", "    return 0;", ["lit:library-cublas.cu"]),
    ("library: calls weigh nothing toward min-launches", "pass/core/region_builder.c",
     "        seg->weight += repeated(w, bb) ? 2 : 1;\n        seg->library_calls++;",
     "        seg->library_calls++;", ["lit:library-cublas.cu"]),
    ("library: a call's host scalars keep a loop from batching", "pass/core/batchable.c",
     "api->cls == PG_API_UNCAPTURABLE || api->cls == PG_API_LIBRARY ||",
     "api->cls == PG_API_UNCAPTURABLE ||", ["lit:library-cublas.cu"]),
    # ---- library calls: the runtime (signature, adapter, capture)
    ("library: arguments not signature", [
        ("runtime/src/recording/signature.c",
         "  return a->library == b->library && a->library_size == b->library_size &&\n"
         "         a->library_hash == b->library_hash &&\n", "  return a->library == b->library && a->library_size == b->library_size &&\n"
         "         1 &&\n"),
        ("runtime/src/recording/signature.c",
         "memcmp(pygraph_op_args(la, a), pygraph_op_args(lb, b), a->library_size) == 0;", "1;"),
        ("runtime/src/recording/signature.c",
         "      h = mix(h, op->library_hash ^ op->library_size);\n", "")],
     ["unit:test_library_ops"]),
    ("library: a result to host memory deferred", "runtime/src/cuda/cublas_entry_points.c",
     "  if (writes_result && head->mode == CUBLAS_POINTER_MODE_HOST) {", "  if (0) {",
     ["unit:test_library_ops"]),
    ("library: host scalars not read at the call", "runtime/src/cuda/cublas_entry_points.c",
     "  memcpy(dst, src, bytes);\n  return 1;", "  (void)dst;\n  return 1;",
     ["unit:test_library_ops"]),
    ("library: the handle left on the capture stream", "runtime/src/cuda/cublas_handles.c",
     "  st = restore(head->handle, program_stream);", "  st = CUBLAS_STATUS_SUCCESS;",
     ["unit:test_library_ops"]),
    ("library: the program's workspace not re-applied", "runtime/src/cuda/cublas_handles.c",
     "  if (ws)\n    st = cublasSetWorkspace_v2(handle, ws, bytes);", "",
     ["unit:test_library_ops"]),
    ("library: a capture's call status ignored", "runtime/src/cuda/library_capture.c",
     "    err = status != 0 ? cudaErrorUnknown : end;", "    err = end;",
     ["unit:test_library_realise"]),
    ("library: a library node updated in place", "runtime/src/cuda/graph_realise.c",
     "     * what the library captured cannot be told other arguments. */\n"
     "    return cudaErrorNotSupported;",
     "     * what the library captured cannot be told other arguments. */\n    return cudaSuccess;",
     ["unit:test_library_realise"]),
    # ---- NCCL calls (issue 20): the pass's table, the adapter, collective segments
    ("devices: cudaSetDevice harmless", "pass/core/cuda_api_table.c",
     '{"cudaSetDevice", PG_API_DEVICE_SET,', '{"cudaSetDevice", PG_API_HARMLESS,',
     ["lit:multi-device.cu"]),
    ("devices: a peer copy recorded", "runtime/src/abi/record.c",
     "  if (peer_memory(seg, dst, src))\n", "  if (0)\n", ["unit:test_devices"]),
    ("devices: a fault on one device leaves the others graphed", "runtime/src/abi/devices.c",
     "  give_up_together(&tls_live);\n", "", ["unit:test_devices"]),
    ("devices: the program's device not restored at the iteration's end",
     "runtime/src/abi/devices.c",
     "  make_current(backend, program);\n  pygraph_devices_begin(-1);",
     "  pygraph_devices_begin(-1);", ["unit:test_devices"]),
    ("devices: a device change inside a batch unit switches state",
     "runtime/src/abi/region_stack.c",
     "      live->kind == PYGRAPH_REGION_BATCH\n          ? NULL",
     "      0\n          ? NULL", ["unit:test_devices"]),
    ("nccl: recorded calls harmless", "pass/core/library_api_table.c",
     "#define PYGRAPH_NCCL_CALL(symbol, params, fields, call) {#symbol, PG_API_LIBRARY,",
     "#define PYGRAPH_NCCL_CALL(symbol, params, fields, call) {#symbol, PG_API_HARMLESS,",
     ["lit:library-nccl.cu"]),
    ("nccl: group calls barriers", "pass/core/library_api_table.c",
     "#define PYGRAPH_NCCL_GROUP(symbol) {#symbol, PG_API_LIBRARY,",
     "#define PYGRAPH_NCCL_GROUP(symbol) {#symbol, PG_API_LIBRARY_OTHER,", ["lit:library-nccl.cu"]),
    ("nccl: other NCCL calls harmless", "pass/core/library_api_table.c",
     '{"nccl", PG_API_LIBRARY_OTHER,', '{"nccl", PG_API_HARMLESS,', ["lit:library-nccl.cu"]),
    ("nccl: a collective segment keeps timing", "runtime/src/segment/segment.c",
     "  seg->settings.mode = PYGRAPH_MODE_GRAPH;", "", ["unit:test_nccl_ops"]),
    ("nccl: a late collective recorded", "runtime/src/segment/segment.c",
     "  if (seg->stats.iters > 0) {\n    go_eager(", "  if (0) {\n    go_eager(",
     ["unit:test_nccl_ops"]),
    ("nccl: one communicator on two streams recorded", "runtime/src/cuda/nccl_entry_points.c",
     '          return "NCCL communicator used on two streams in one iteration";',
     "          continue;", ["unit:test_nccl_ops"]),
    ("nccl: another device's communicator recorded", "runtime/src/cuda/nccl_entry_points.c",
     "        comm_device != device)", "        0)", ["unit:test_nccl_ops"]),
    ("nccl: a group's calls made at once", "runtime/src/cuda/nccl_entry_points.c",
     "  if (g->held) {\n    if (!room_for_one(g))", "  if (0) {\n    if (!room_for_one(g))",
     ["unit:test_nccl_ops"]),
    ("nccl: a group outliving the iteration kept", "runtime/src/cuda/nccl_entry_points.c",
     "  if (tls_group.held)\n    (void)hand_over(&tls_group);", "", ["unit:test_nccl_ops"]),
    ("nccl: a non-blocking communicator not waited for", "runtime/src/cuda/nccl_calls.c",
     "  if (r != ncclInProgress || !ncclCommGetAsyncError)", "  if (1)", ["unit:test_nccl_ops"]),
    # ---- the WHILE step's compiled form (graphs/while_clauses.h): it must
    # answer and write as the generic step does
    ("while clauses: AND and OR swapped", "runtime/src/graphs/while_clauses.c",
     "a->table & b->table : a->table | b->table", "a->table | b->table : a->table & b->table",
     ["unit:test_while_clauses"]),
    ("while clauses: top tests read the iteration that ran", "runtime/src/graphs/while_clauses.c",
     "  tb.at_top = end->arg == PYGRAPH_EXIT_AT_TOP;", "  tb.at_top = 0;",
     ["unit:test_while_clauses"]),
    ("while clauses: the top's tests before the end's", "runtime/src/graphs/while_clauses.c",
     "  static const uint32_t order[3] = {PYGRAPH_EXIT_AFTER_COPY, PYGRAPH_EXIT_AT_END,\n"
     "                                    PYGRAPH_EXIT_AT_TOP};",
     "  static const uint32_t order[3] = {PYGRAPH_EXIT_AFTER_COPY, PYGRAPH_EXIT_AT_TOP,\n"
     "                                    PYGRAPH_EXIT_AT_END};", ["unit:test_while_clauses"]),
    ("while clauses: a compare of compares compiled", "runtime/src/graphs/while_clauses.c",
     "    if (a->is_bool || b->is_bool)\n      return \"a compare of compares\";", "",
     ["unit:test_while_clauses"]),
    ("while clauses: overlapping slots compiled", "runtime/src/graphs/while_clauses.c",
     "        return \"overlapping argument slots\";", "        continue;",
     ["unit:test_while_clauses"]),
    ("while clauses: the final status not copied back", "runtime/src/graphs/while_clauses.h",
     "  else if (src)                        /* the last copy", "  else if (0)  /* the last copy",
     ["unit:test_while_clauses"]),
    ("while clauses: the after-copy kernel makes every test", "runtime/src/graphs/while_clauses.h",
     "                                             s->invariants, 1u << PYGRAPH_EXIT_AFTER_COPY);",
     "                                             s->invariants, 7u);", ["unit:test_while_clauses"]),
    ("while clauses: the after-copy kernel leaves without counting the iteration",
     "runtime/src/graphs/while_clauses.h",
     "  s->iteration++;                      /* the iteration that left ran up to its copy */\n"
     "  return pygraph_while_end(s, PYGRAPH_WHILE_LEFT, (int)pygraph_clauses_first(c, leaving)",
     "  return pygraph_while_end(s, PYGRAPH_WHILE_LEFT, (int)pygraph_clauses_first(c, leaving)",
     ["unit:test_while_clauses"]),
    ("while clauses (cuda): the generic after-copy kernel over a compiled loop",
     "runtime/src/cuda/while_graph.c",
     "        spec->clauses ? kernels->after_copy_clauses : kernels->after_copy;",
     "        kernels->after_copy;", ["unit:test_while_realise"]),
    ("while clauses: a test reads one atom too many", "runtime/src/graphs/while_clauses.h",
     "  uint32_t k = (atoms >> t->first) & ((1u << t->n_atoms) - 1);",
     "  uint32_t k = (atoms >> t->first) & ((2u << t->n_atoms) - 1);", ["unit:test_while_clauses"]),
    ("while clauses (cuda): the generic kernel over a compiled loop",
     "runtime/src/cuda/while_graph.c",
     "  cudaKernel_t kernel = spec->clauses ? kernels->clauses : kernels->step;",
     "  cudaKernel_t kernel = kernels->step;", ["unit:test_while_realise"]),
    ("while clauses: the block does not hand its form over", "runtime/src/graphs/while_graph.c",
     "      folded, split, pygraph_while_block_clauses(&wg->block)};",
     "      folded, split, NULL};", ["unit:test_while_graph"]),
]


def run(cmd, cwd=None):
    """Runs cmd; returns (ok, output)."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")   # a failing test may print any bytes
    return p.returncode == 0, p.stdout


def tree_files(repo):
    """This checkout's tracked files and untracked ones git does not ignore."""
    ok, out = run(["git", "-C", str(repo), "ls-files", "-z", "-c", "-o", "--exclude-standard"])
    if not ok:
        sys.exit("mutate.py: git ls-files failed:\n" + out)
    return sorted({f for f in out.split("\0") if f and (repo / f).is_file()})


def sync(repo, src, scratch):
    """Makes src a copy of the checkout, writing only what changed (so that
    the scratch build stays incremental) and removing what is gone; nothing
    under the scratch folder itself is copied."""
    inside = scratch.is_relative_to(repo) and scratch.relative_to(repo).as_posix() + "/"
    files = [f for f in tree_files(repo) if not (inside and f.startswith(inside))]
    wanted = set(files)
    for f in files:
        a, b = repo / f, src / f
        if not b.exists() or not filecmp.cmp(a, b, shallow=False):
            b.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(a, b)
    for path in sorted(src.rglob("*"), reverse=True):
        rel = path.relative_to(src).as_posix()
        if path.is_file() and rel not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def locate(src, rel, text):
    """The file holding the mutation's text: `rel`, else the one file under
    rel's top folder (two levels: runtime/src, pass/core) that holds it.
    Returns (path, None) or (None, error)."""
    path = src / rel
    if path.is_file() and text in path.read_text(encoding="utf-8", errors="replace"):
        return path, None
    top = src / pathlib.Path(rel).parts[0]
    if len(pathlib.Path(rel).parts) > 2:
        top = top / pathlib.Path(rel).parts[1]
    hits = [p for p in sorted(top.rglob("*")) if p.is_file() and p.suffix in (".c", ".h", ".cpp")
            and text in p.read_text(encoding="utf-8", errors="replace")]
    if len(hits) == 1:
        return hits[0], None
    if not hits:
        return None, "STALE: its original text is in no file under %s" % top.relative_to(src)
    return None, "AMBIGUOUS: its original text is in %s" % ", ".join(
        str(h.relative_to(src)) for h in hits)


def targets_of(tests):
    targets = set()
    for t in tests:
        kind, name = t.split(":", 1)
        targets.add("pygraph" if kind == "lit" else "pygraph_" + name)
    return sorted(targets)


def run_tests(build, tests, jobs):
    """Names of the tests that failed (stops at the first failing group)."""
    failed = []
    for t in tests:
        kind, name = t.split(":", 1)
        if kind == "unit":
            ok, _ = run([str(build / "test" / "unit" / ("pygraph_" + name))])
            if not ok:
                failed.append(t)
    if failed:
        return failed
    lit = [t.split(":", 1)[1] for t in tests if t.startswith("lit:")]
    if lit:
        lit_bin = shutil.which("lit") or "/usr/lib/llvm-%s/bin/lit" % llvm_major(build)
        pattern = "|".join(re.escape(n) + "$" for n in lit)
        ok, out = run([lit_bin, "-q", "-j", str(jobs), "--filter", pattern,
                       str(build / "test" / "lit")])
        if not ok:
            failed += ["lit:" + n for n in lit if re.search(r"pygraph :: %s\b" % re.escape(n), out)]
            failed = failed or ["lit (%s)" % (out.strip().splitlines() or ["no output"])[-1]]
    return failed


def llvm_major(build):
    cache = (build / "CMakeCache.txt").read_text()
    for line in cache.splitlines():
        if line.startswith("PYGRAPH_LLVM_MAJOR:"):
            return line.split("=", 1)[1]
    return "22"


def configure(src, build):
    if (build / "build.ninja").exists():
        return
    cuda = os.environ.get("PYGRAPH_CUDA_PATH", "/usr/local/cuda")
    ok, out = run(["cmake", "-S", str(src), "-B", str(build), "-G", "Ninja",
                   "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_C_COMPILER=clang-22",
                   "-DCMAKE_CXX_COMPILER=clang++-22", "-DPYGRAPH_CUDA_PATH=" + cuda,
                   "-DPYGRAPH_BUILD_EXAMPLES=OFF"])
    if not ok:
        sys.exit("mutate.py: configuring the scratch build failed:\n" + out)


def build_targets(build, targets, jobs):
    return run(["cmake", "--build", str(build), "-j", str(jobs), "--target", *targets])


def edits_of(mutation):
    """[(file, original text, replacement)] of a mutation."""
    return mutation[1] if len(mutation) == 3 else [tuple(mutation[1:4])]


def tests_of(mutation):
    return mutation[-1]


def place_edits(src, mutation):
    """[(path, original text, replacement)] located in src, or an error."""
    placed = []
    for rel, before, after in edits_of(mutation):
        path, error = locate(src, rel, before)
        if error:
            return None, error
        n = path.read_text(encoding="utf-8").count(before)
        if n != 1:
            return None, "AMBIGUOUS: its original text occurs %d times in %s" % (
                n, path.relative_to(src))
        placed.append((path, before, after, path != src / rel))
    return placed, None


def check_mutant(src, build, mutation, jobs):
    """'killed by ...', 'SURVIVED', or an error text; the files are restored."""
    placed, error = place_edits(src, mutation)
    if error:
        return error
    originals = {path: path.read_text(encoding="utf-8") for path, _, _, _ in placed}
    try:
        for path, before, after, _ in placed:
            path.write_text(path.read_text(encoding="utf-8").replace(before, after),
                            encoding="utf-8")
        ok, _ = build_targets(build, targets_of(tests_of(mutation)), jobs)
        failed = ["the build (does not compile)"] if not ok else \
            run_tests(build, tests_of(mutation), jobs)
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")
    moved = sorted({str(p.relative_to(src)) for p, _, _, m in placed if m})
    note = " [found in %s]" % ", ".join(moved) if moved else ""
    return ("killed by " + ", ".join(failed) if failed else "SURVIVED") + note


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scratch", type=pathlib.Path,
                    default=pathlib.Path(tempfile.gettempdir()) / "pygraph-mutate")
    ap.add_argument("--only", help="comma-separated substrings of mutation names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    chosen = [m for m in MUTATIONS
              if not args.only or any(s in m[0] for s in args.only.split(","))]
    if args.list:
        for m in chosen:
            files = sorted({e[0] for e in edits_of(m)})
            print("%-55s %s -> %s" % (m[0], ", ".join(files), ", ".join(tests_of(m))))
        print("%d mutations" % len(chosen))
        return 0
    src, build = args.scratch.resolve() / "src", args.scratch.resolve() / "build"
    start = time.time()
    sync(REPO, src, args.scratch.resolve())
    configure(src, build)
    tests = sorted({t for m in chosen for t in tests_of(m)})
    ok, out = build_targets(build, targets_of(tests), args.jobs)
    if not ok:
        sys.exit("mutate.py: the unmutated scratch tree does not build:\n" + out[-3000:])
    baseline = run_tests(build, tests, args.jobs)
    if baseline:
        sys.exit("mutate.py: the unmutated tree fails %s" % ", ".join(baseline))
    print("baseline: %d tests pass (%.0f s)" % (len(tests), time.time() - start), flush=True)
    survivors, errors = [], []
    for m in chosen:
        t0 = time.time()
        verdict = check_mutant(src, build, m, args.jobs)
        print("%-55s %s (%.0f s)" % (m[0], verdict, time.time() - t0), flush=True)
        if verdict.startswith("SURVIVED"):
            survivors.append(m[0])
        elif not verdict.startswith("killed"):
            errors.append(m[0])
    build_targets(build, targets_of(tests), args.jobs)   # leave the scratch build unmutated
    print("%d mutations, %d killed, %d survived, %d errors, %.0f s" % (
        len(chosen), len(chosen) - len(survivors) - len(errors), len(survivors), len(errors),
        time.time() - start))
    for s in survivors:
        print("SURVIVOR: " + s)
    for e in errors:
        print("ERROR: " + e)
    return 1 if survivors or errors else 0


def self_test():
    """locate() finds a moved file, and reports stale and ambiguous text."""
    problems = []
    with tempfile.TemporaryDirectory() as d:
        src = pathlib.Path(d)
        (src / "runtime/src/new").mkdir(parents=True)
        (src / "runtime/src/new/moved.c").write_text("int rule = 16;\nint twice = 2;\n")
        (src / "runtime/src/new/other.c").write_text("int twice = 2;\n")
        path, err = locate(src, "runtime/src/old/moved.c", "int rule = 16;")
        if err or path != src / "runtime/src/new/moved.c":
            problems.append("a moved file was not found: %s %s" % (path, err))
        if not (locate(src, "runtime/src/old/moved.c", "int rule = 64;")[1] or "").startswith("STALE"):
            problems.append("text found nowhere was not reported as stale")
        if not (locate(src, "runtime/src/old/moved.c", "int twice = 2;")[1] or "").startswith("AMBIGUOUS"):
            problems.append("text found in two files was not reported as ambiguous")
    names = [m[0] for m in MUTATIONS]
    if len(set(names)) != len(names):
        problems.append("mutation names are not unique")
    for m in MUTATIONS:
        if place_edits(REPO, m)[1]:
            problems.append("%s: %s" % (m[0], place_edits(REPO, m)[1]))
        for t in tests_of(m):
            kind, name = t.split(":", 1)
            where = REPO / ("test/lit/" + name if kind == "lit" else "test/unit/%s.c" % name)
            if kind not in ("lit", "unit") or not where.is_file():
                problems.append("%s: no test %s" % (m[0], t))
    for p in problems:
        print("SELFTEST FAIL: " + p)
    print("self-test: %s (%d mutations)" % ("failed" if problems else "ok", len(MUTATIONS)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
