#!/usr/bin/env bash
# build_gpu.sh - build the GPU test/benchmark bundle on a machine without a GPU.
#
#   test/gpu/build_gpu.sh [build-dir] [--no-pygraph] [--tar]
#
# Builds every examples/*.cu as
#   <name>_plain    plain clang++ -O2
#   <name>_pygraph  clang++ -O2 with the pygraph plugin + runtime
#   <name>_hand     -DHAND_GRAPH (only examples that have a hand-written graph)
#   <name>_pygraph_b0  the pygraph build with -fplugin-arg-pygraph-batch=0
#                   (one-iteration regions, no multi-iteration graphs), for
#                   the examples in $b0_examples below (issue 16's loops and
#                   tiny_chain, jacobi2d, big_grid), so the bench can show
#                   plain / per-iteration / batched.  Skipped, with a note,
#                   when the plugin does not know batch= (a probe compile
#                   says "unknown option 'batch'").
# into <build-dir>/gpu/bin/, and copies run_gpu.sh, run_bench.sh and
# utils/pygraph-report (run_bench.sh draws its plot with it) next to
# them, so <build-dir>/gpu can be carried to the GPU machine as one folder:
#
#   bash <build-dir>/gpu/run_gpu.sh   <build-dir>/gpu [outdir]
#   bash <build-dir>/gpu/run_bench.sh <build-dir>/gpu [outdir]
#
# The plugin and runtime are taken from <build-dir>/pass/libpygraph.so and
# <build-dir>/runtime/libpygraph_rt.a; if they are missing and <build-dir> is a
# configured CMake build, they are built first.  --no-pygraph skips the
# pygraph variants (to test the harness before the pass exists).  --tar also
# writes <build-dir>/gpu.tar.gz (about a third of the folder's size, which is
# over 50 MiB with the b0 variants): carry that and unpack it on the GPU
# machine with  tar -xzf <build-dir>/gpu.tar.gz -C <build-dir>.
#
# Environment: PYGRAPH_CLANG (default clang++-22), PYGRAPH_CUDA_PATH
# (default /usr/local/cuda), PYGRAPH_CUDA_ARCH (default sm_90),
# PYGRAPH_PLUGIN_ARGS (extra -fplugin-arg-pygraph-* options, space separated,
# e.g. "min-launches=3"), JOBS (parallel compiles, default nproc).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

build=""
with_pygraph=1
with_tar=0
for a in "$@"; do
  case $a in
    --no-pygraph) with_pygraph=0 ;;
    --tar) with_tar=1 ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    -*) echo "build_gpu.sh: unknown option $a" >&2; exit 2 ;;
    *) build=$a ;;
  esac
done
build=${build:-$repo/build}
mkdir -p "$build"
build=$(cd "$build" && pwd)

cxx=${PYGRAPH_CLANG:-clang++-22}
cuda=${PYGRAPH_CUDA_PATH:-/usr/local/cuda}
arch=${PYGRAPH_CUDA_ARCH:-sm_90}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
plugin=$build/pass/libpygraph.so
rtlib=$build/runtime/libpygraph_rt.a

command -v "$cxx" >/dev/null || { echo "build_gpu.sh: $cxx not found (set PYGRAPH_CLANG)" >&2; exit 1; }

if [[ $with_pygraph -eq 1 && ( ! -f $plugin || ! -f $rtlib ) ]]; then
  if [[ -f $build/CMakeCache.txt ]]; then
    echo "== building pygraph plugin and runtime in $build"
    cmake --build "$build" --target pygraph pygraph_rt -j "$jobs"
  fi
  if [[ ! -f $plugin || ! -f $rtlib ]]; then
    echo "build_gpu.sh: error: need $plugin and $rtlib" >&2
    echo "  configure and build first:  cmake -S $repo -B $build && cmake --build $build" >&2
    echo "  or pass --no-pygraph to build only the plain and hand-graph variants" >&2
    exit 1
  fi
fi

gpu=$build/gpu
rm -rf "$gpu"
mkdir -p "$gpu/bin" "$gpu/build-logs"

# CUB and Thrust live in the toolkit's include/cccl (nvcc searches it itself).
cflags=(-x cuda "--cuda-path=$cuda" "--cuda-gpu-arch=$arch" -Wno-unknown-cuda-version -O2 -std=c++17
        "-I$repo/examples" -isystem "$cuda/include/cccl")
libs=("-L$cuda/lib64" -lcudart_static -ldl -lrt -lpthread)
plugin_args=()
for a in ${PYGRAPH_PLUGIN_ARGS:-}; do plugin_args+=("-fplugin-arg-pygraph-$a"); done

# compile <source> <output> [flags...] -- [inputs after the source...]
# (the CUDA runtime libraries are always appended last)
compile() {
  local src=$1 out=$2; shift 2
  local pre=() post=()
  while [[ $# -gt 0 && $1 != -- ]]; do pre+=("$1"); shift; done
  [[ $# -gt 0 ]] && shift
  post=("$@")
  local log=$gpu/build-logs/$(basename "$out").log
  if "$cxx" "${cflags[@]}" "${pre[@]}" "$src" -o "$out" "${post[@]}" "${libs[@]}" >"$log" 2>&1; then
    return 0
  fi
  echo "FAILED: $(basename "$out") (see $log)" >&2
  tail -n 20 "$log" >&2
  return 1
}

# The order here is the order the GPU scripts run them in.
order=(jacobi2d cg_solver default_stream tiny_chain multistream transformer
       mlp_train md_step bfs long_kernel tiny_loop pingpong big_loop early_exit sync_copies alloc_loop
       h2d_params converge launch_forms across_files cublas_loop whole_loop_forms counted_loop driver_launch
       multi_gpu_loop nccl_single nccl_step cub_loop cufft_loop cusparse_loop)
# Also built as <name>_pygraph_b0 (plugin arg batch=0: per-iteration regions).
b0_examples=(tiny_loop pingpong big_loop early_exit tiny_chain jacobi2d big_grid)
examples=()
for n in "${order[@]}"; do [[ -f $repo/examples/$n.cu ]] && examples+=("$n"); done
for f in "$repo"/examples/*.cu; do
  n=$(basename "$f" .cu)
  [[ $n == *_helpers ]] && continue   # the second file of <name>.cu, not an example
  [[ " ${examples[*]} " == *" $n "* ]] || examples+=("$n")
done

# Does the plugin know batch=?  (Before issue 16's pass it rejects it as an
# unknown option; then the b0 variants are skipped, which is no failure.)
b0=0
b0_info="not built (--no-pygraph)"
if [[ $with_pygraph -eq 1 ]]; then
  probe=$gpu/build-logs/batch0_probe
  printf '%s\n' '__global__ void k(int *p) { *p += 1; }' \
    'void f(int *p) { for (int i = 0; i < 8; ++i) { k<<<1, 1>>>(p); k<<<1, 1>>>(p); } }' >"$probe.cu"
  if "$cxx" "${cflags[@]}" --cuda-host-only "-fplugin=$plugin" "${plugin_args[@]}" \
       -fplugin-arg-pygraph-batch=0 -c "$probe.cu" -o "$probe.o" >"$probe.log" 2>&1; then
    b0=1
    b0_info="batch=0 for ${b0_examples[*]}"
  elif grep -q "unknown option 'batch'" "$probe.log"; then
    b0_info="not built: the plugin does not know batch= (issue 16's pass not merged yet)"
    echo "build_gpu.sh: note: the plugin rejects -fplugin-arg-pygraph-batch=0 (unknown option);" \
         "skipping the <name>_pygraph_b0 variants (see $probe.log)" >&2
  else
    # Another failure: build them anyway, so that the real error is reported.
    b0=1
    b0_info="batch=0 for ${b0_examples[*]} (the probe compile failed: $probe.log)"
    echo "build_gpu.sh: warning: the batch=0 probe compile failed (see $probe.log)" >&2
  fi
  rm -f "$probe.o"
fi

pids=()
names=()
launch() {  # run compile in the background, at most $jobs at a time
  while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
  compile "$@" &
  pids+=($!)
  names+=("$(basename "$2")")
}

: >"$gpu/examples.txt"
# has_headers <src>: every header its "// example-needs: a.h b.h" lines name
# is in the CUDA toolkit's include folder or /usr/include (nccl.h: the NCCL
# examples are built only where NCCL is).
has_headers() {
  local h
  for h in $(sed -n 's|^// example-needs: ||p' "$1"); do
    [[ -f $cuda/include/$h || -f /usr/include/$h ]] || { echo "$h"; return 1; }
  done
}

for n in "${examples[@]}"; do
  src=$repo/examples/$n.cu
  if ! miss=$(has_headers "$src"); then
    echo "build_gpu.sh: note: $n not built (no $miss)" >&2
    continue
  fi
  # <name>_helpers.cu, when there is one, is compiled into the same program
  # (a second translation unit, which the pass compiling <name>.cu cannot see).
  more=()
  [[ -f $repo/examples/${n}_helpers.cu ]] && more=("$repo/examples/${n}_helpers.cu")
  # A source line "// pygraph-plugin-args: a=1 b" adds those plugin options
  # to its pygraph builds (before PYGRAPH_PLUGIN_ARGS, which therefore win).
  own=()
  for a in $(sed -n 's|^// pygraph-plugin-args: ||p' "$src"); do own+=("-fplugin-arg-pygraph-$a"); done
  # A source line "// example-libs: cublas" links those toolkit libraries
  # (shared: a static cuBLAS is ~500 MB) into every build of it; "cuda" is
  # the driver's libcuda, linked against the toolkit's stub (the GPU
  # machine's driver provides libcuda.so.1).
  xlibs=()
  for a in $(sed -n 's|^// example-libs: ||p' "$src"); do
    [[ $a == cuda ]] && xlibs+=("-L$cuda/lib64/stubs")
    xlibs+=("-l$a")
  done
  echo "$n" >>"$gpu/examples.txt"
  launch "$src" "$gpu/bin/${n}_plain" -- "${more[@]}" "${xlibs[@]}"
  if [[ $with_pygraph -eq 1 ]]; then
    # -x none: the runtime archive must not be read as CUDA source.
    launch "$src" "$gpu/bin/${n}_pygraph" "-fplugin=$plugin" "${own[@]}" "${plugin_args[@]}" -- \
      "${more[@]}" -x none "$rtlib" "${xlibs[@]}"
    if [[ $b0 -eq 1 && " ${b0_examples[*]} " == *" $n "* ]]; then
      launch "$src" "$gpu/bin/${n}_pygraph_b0" "-fplugin=$plugin" "${own[@]}" "${plugin_args[@]}" \
        -fplugin-arg-pygraph-batch=0 -- "${more[@]}" -x none "$rtlib" "${xlibs[@]}"
    fi
  fi
  if grep -q 'HAND_GRAPH' "$src"; then
    launch "$src" "$gpu/bin/${n}_hand" -DHAND_GRAPH -- "${more[@]}" "${xlibs[@]}"
  fi
done

fail=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { fail=1; echo "build_gpu.sh: ${names[$i]} failed" >&2; }
done

# Optional extra benchmark program.
if [[ -f $repo/bench/tiny_chain_bench.cu ]]; then
  compile "$repo/bench/tiny_chain_bench.cu" "$gpu/bin/tiny_chain_bench" || fail=1
fi
# Whole-loop benches: what a WHILE body's nodes cost (hand-made variants),
# and pygraph's WHILE graph against a hand-made one over the same kernels.
compile "$repo/bench/while_body_bench.cu" "$gpu/bin/while_body_bench" || fail=1
if [[ $with_pygraph -eq 1 ]]; then
  compile "$repo/bench/while_vs_pygraph.cu" "$gpu/bin/while_vs_pygraph" "-fplugin=$plugin" \
    -fplugin-arg-pygraph-whole-loops=2 "${plugin_args[@]}" -- -x none "$rtlib" || fail=1
fi

# The host's cost of a region's first iteration (a CPU program on the fake
# backend, built with the unit tests): run on the GPU machine's CPU too.
if [[ -x $build/test/unit/pygraph_bench_first_iteration ]]; then
  cp "$build/test/unit/pygraph_bench_first_iteration" "$gpu/bin/"
fi

cp "$here/run_gpu.sh" "$gpu/run_gpu.sh"
cp "$here/cublas_path.sh" "$gpu/cublas_path.sh"
cp "$repo/bench/run_bench.sh" "$gpu/run_bench.sh"
cp "$repo/utils/pygraph-report" "$gpu/pygraph-report"
cp "$repo/bench/indirection_bench.sh" "$gpu/indirection_bench.sh"
cp "$here/run_all_gpu.sh" "$gpu/run_all.sh"
chmod +x "$gpu"/*.sh
{
  echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "compiler: $("$cxx" --version | head -n1)"
  echo "cuda: $cuda  arch: $arch"
  echo "pygraph: $([[ $with_pygraph -eq 1 ]] && echo "$plugin" || echo 'not built (--no-pygraph)')"
  echo "plugin args: ${PYGRAPH_PLUGIN_ARGS:-}"
  echo "b0 variants: $b0_info"
  echo "git: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$repo" status --porcelain 2>/dev/null | grep -q . && echo ' (dirty)')"
} >"$gpu/BUILD_INFO"

size_kb=$(du -sk "$gpu" | cut -f1)
echo "== $gpu: $(ls "$gpu/bin" | wc -l) binaries, $((size_kb / 1024)) MiB"
if [[ $with_tar -eq 1 ]]; then
  rm -f "$build/gpu.tar.gz"
  tar -czf "$build/gpu.tar.gz" -C "$build" gpu
  echo "== $build/gpu.tar.gz: $(( $(du -sk "$build/gpu.tar.gz" | cut -f1) / 1024 )) MiB" \
       "(unpack with: tar -xzf $build/gpu.tar.gz -C $build)"
elif (( size_kb > 50 * 1024 )); then
  echo "build_gpu.sh: warning: bundle is over 50 MiB (--tar packs it into gpu.tar.gz)" >&2
fi
if [[ $fail -ne 0 ]]; then
  echo "build_gpu.sh: some builds failed" >&2
  exit 1
fi
echo "== run on the GPU machine:  bash $gpu/run_gpu.sh $gpu [outdir]"
