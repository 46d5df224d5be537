#!/usr/bin/env bash
# while_cond_variants.sh BUILD OUTDIR [NAME=FLAGS ...]: bench/while_vs_pygraph built against
# variants of the runtime's WHILE condition module, each compiled from
# runtime/device/while_condition.cu with extra clang flags (default variants: base, nojt =
# -fno-jump-tables, os = -Os, os_nojt; prof = -DPYGRAPH_WHILE_PROFILE, which prints thread 0's
# cycles a step in the kernel's phases when the loop ends; noframe = -DPYGRAPH_EVAL_STACK_SHARED,
# the exit tests' evaluation stack in shared memory instead of a local-memory frame;
# -DPYGRAPH_WHILE_PROFILE_WARM with prof: the step made once untimed first, so the timed one runs
# with its code in the instruction caches; -DPYGRAPH_WHILE_PROFILE_PARTS with prof: the step's
# operand slots and exit tests made again alone, warm, and their cycles printed).  Each variant's module (PTX + sm_90 machine code) is
# linked ahead of BUILD/runtime/libpygraph_rt.a, whose own module objects it replaces; the
# programs go to OUTDIR/while_vs_pygraph_<name>.  Run each on the GPU with
# `PYGRAPH_MODE=graph OUTDIR/while_vs_pygraph_<name> 16384 4000 3`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd); out=$2; shift 2
mkdir -p "$out"; out=$(cd "$out" && pwd)
cuda=${PYGRAPH_CUDA_PATH:-/usr/local/cuda}; cxx=${PYGRAPH_CLANG:-clang++-22}; cc=${PYGRAPH_CC:-clang-22}
variants=("$@"); ((${#variants[@]})) || variants=(base= nojt=-fno-jump-tables os=-Os "os_nojt=-Os -fno-jump-tables" prof=-DPYGRAPH_WHILE_PROFILE noframe=-DPYGRAPH_EVAL_STACK_SHARED)
for v in "${variants[@]}"; do
  name=${v%%=*}; flags=${v#*=}; w=$out/work_$name; mkdir -p "$w"
  # shellcheck disable=SC2086
  "$cxx" --cuda-device-only -S --cuda-gpu-arch=sm_90 -O2 $flags --cuda-path="$cuda" \
    -Wno-unknown-cuda-version -std=c++17 -I"$repo/runtime/include" -I"$repo/runtime/src" \
    "$repo/runtime/device/while_condition.cu" -o "$w/wc.ptx"
  "$cuda/bin/ptxas" -v -arch=sm_90 "$w/wc.ptx" -o "$w/wc_sm90.cubin" 2> "$w/ptxas.txt"
  "$cuda/bin/fatbinary" --create="$w/wc.fatbin" --compress-all \
    --image3=kind=ptx,sm=90,file="$w/wc.ptx" --image3=kind=elf,sm=90,file="$w/wc_sm90.cubin"
  cmake -DIN="$w/wc.ptx" -DOUT="$w/wc_ptx.c" -DSYMBOL=pygraph_while_condition_ptx \
    -P "$repo/cmake/PygraphEmbedText.cmake"
  cmake -DIN="$w/wc.fatbin" -DOUT="$w/wc_fatbin.c" -DSYMBOL=pygraph_while_condition_ptx_fatbin \
    -P "$repo/cmake/PygraphEmbedBinary.cmake"
  "$cc" -O2 -c "$w/wc_ptx.c" -o "$w/wc_ptx.o"; "$cc" -O2 -c "$w/wc_fatbin.c" -o "$w/wc_fatbin.o"
  "$cxx" -x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -O2 \
    -std=c++17 -I"$repo/examples" -I"$repo/bench" -fplugin="$build/pass/libpygraph.so" \
    -fplugin-arg-pygraph-whole-loops=2 "$repo/bench/while_vs_pygraph.cu" \
    -o "$out/while_vs_pygraph_$name" -x none "$w/wc_ptx.o" "$w/wc_fatbin.o" \
    "$build/runtime/libpygraph_rt.a" -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread
  echo "$name ($flags): $(grep -E 'registers|stack frame' "$w/ptxas.txt" | head -2 | tr -s ' ' | tr '\n' ' ')"
done
