#!/usr/bin/env bash
# demo.sh - the main job: set up pygraph, rebuild an example with the plugin
# (showing what was graphed), and, when a GPU is present, run the plain and
# the pygraph build and print both times, the speedup and the runtime report.
#
#   utils/demo.sh [example-name] [args...]     (default: jacobi2d)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PYGRAPH_BUILD:-$repo/build}
name=${1:-jacobi2d}
shift || true
src=$repo/examples/$name.cu
[[ -f $src ]] || { echo "demo.sh: no example $src" >&2; exit 2; }

[[ -f $build/pass/libpygraph.so && -f $build/runtime/libpygraph_rt.a ]] || "$repo/utils/setup.sh"

cuda=${PYGRAPH_CUDA_PATH:-/usr/local/cuda}
flags=(-x cuda "--cuda-path=$cuda" "--cuda-gpu-arch=${PYGRAPH_CUDA_ARCH:-sm_90}"
       -Wno-unknown-cuda-version -O2 -std=c++17 "-I$repo/examples")
out=$build/demo
mkdir -p "$out"

echo "== plain build: clang++-22 ... $name.cu"
clang++-22 "${flags[@]}" "$src" -o "$out/${name}_plain" -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread
echo "== pygraph build: utils/pygraph-clang++ -Rpass=pygraph -Rpass-missed=pygraph ... $name.cu"
PYGRAPH_BUILD=$build "$repo/utils/pygraph-clang++" "${flags[@]}" -Rpass=pygraph -Rpass-missed=pygraph \
  "$src" -o "$out/${name}_pygraph" 2>&1 | grep -E "remark:" || true

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "== no CUDA GPU here: built $out/${name}_plain and $out/${name}_pygraph; run them on a GPU machine"
  exit 0
fi
echo "== running on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
"$out/${name}_plain" "$@" >"$out/plain.out"
PYGRAPH_REPORT=1 "$out/${name}_pygraph" "$@" >"$out/pygraph.out" 2>"$out/pygraph.err"
grep "^pygraph:" "$out/pygraph.err" || true
p=$(awk '/^loop_ms:/{print $2}' "$out/plain.out"); g=$(awk '/^loop_ms:/{print $2}' "$out/pygraph.out")
cp=$(awk '/^checksum:/{print $2}' "$out/plain.out"); cg=$(awk '/^checksum:/{print $2}' "$out/pygraph.out")
echo "plain:   ${p} ms  checksum ${cp}"
echo "pygraph: ${g} ms  checksum ${cg}"
awk -v p="$p" -v g="$g" 'BEGIN { printf "speedup: %.2fx\n", p / g }'
[[ $cp == "$cg" ]] && echo "checksums: identical" || { echo "checksums: DIFFER"; exit 1; }
