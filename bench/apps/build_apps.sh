#!/usr/bin/env bash
# build_apps.sh - build the field corpus (bench/apps/recipes/*.sh) on a machine without a GPU.
#
#   bench/apps/build_apps.sh [--build DIR] [--out DIR] [--jobs N] [app ...]
#
# For every recipe (or only the apps named): extract the app's source from the
# local git mirror of its repository into DIR/apps-src (never into the
# checkout), apply the recipe's fixes, and build two binaries with clang:
#   plain    clang++ -O2, static cudart
#   pygraph  the same + the pygraph plugin and runtime, with -Rpass/-Rpass-missed
#            remarks kept (summarised per app in <app>.plugin.txt)
# into OUT (default DIR/apps-gpu), a folder that carries to the GPU machine as
# one piece: apps.tsv (the run table), run_apps.sh (the runner), per-app
# binaries and the data the apps read, laid out as in the source repository
# (so relative paths like ../data/x keep working), and OUT.tar.xz of it to carry.
#
# DIR defaults to <repo>/build (needs DIR/pass/libpygraph.so and
# DIR/runtime/libpygraph_rt.a).  Mirrors: PYGRAPH_MIRRORS (default
# /work/.mirror), holding <owner>+<name>/repo.  PYGRAPH_CLANG, PYGRAPH_CUDA_PATH,
# PYGRAPH_CUDA_ARCH as in test/gpu/build_gpu.sh.  An app that fails to build is
# reported and left out of apps.tsv; the others still build.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$repo/build out="" jobs=1 apps=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "build_apps.sh: unknown option $1" >&2; exit 2 ;;
    *) apps+=("$1") ;;
  esac
  shift
done
build=$(cd "$build" && pwd)
out=${out:-$build/apps-gpu}
# Absolute: build_one.sh works inside each app's source folder.
mkdir -p "$out" && out=$(cd "$out" && pwd)
export PG_CXX=${PYGRAPH_CLANG:-clang++-22}
export PG_CUDA=${PYGRAPH_CUDA_PATH:-/usr/local/cuda}
export PG_ARCH=${PYGRAPH_CUDA_ARCH:-sm_90}
export PG_MIRRORS=${PYGRAPH_MIRRORS:-/work/.mirror}
export PG_PLUGIN=$build/pass/libpygraph.so PG_RTDIR=$build/runtime
export PG_SRC=$build/apps-src PG_OUT=$out PG_HERE=$here
for f in "$PG_PLUGIN" "$PG_RTDIR/libpygraph_rt.a"; do
  [[ -f $f ]] || { echo "build_apps.sh: missing $f (cmake --build $build --target pygraph pygraph_rt)" >&2; exit 1; }
done
if [[ ${#apps[@]} -eq 0 ]]; then
  for r in "$here"/recipes/*.sh; do apps+=("$(basename "$r" .sh)"); done
fi
mkdir -p "$out/logs" "$PG_SRC"

printf '%s\n' "${apps[@]}" | xargs -P "$jobs" -I{} bash "$here/build_one.sh" {}

# The run table: one line per app that built (written by build_one.sh as <app>.row).
echo "== built now: ${#apps[@]} recipes"
bash "$here/finish_bundle.sh" "$out" "$here/recipes"
