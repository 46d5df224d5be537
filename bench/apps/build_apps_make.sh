#!/usr/bin/env bash
# build_apps_make.sh [--prefix DIR] [--out DIR] [--jobs N] [--no-clang] [app ...] - the field
# corpus built by each application's own Makefile, unchanged: `make CC=nvcc ARCH=sm_90` gives
# `plain`, `make CC=pygraph-nvcc ARCH=sm_90` (in a fresh copy, nvcc not on PATH) gives
# `pygraph`, and the same with PYGRAPH_PLUGIN_ARGS=disable gives `clang` (clang's build, nothing
# of pygraph's: it tells the compiler's effect from pygraph's).  The bundle has the layout of
# build_apps.sh's (apps.tsv, run_apps.sh, table_apps.awk), so run_apps.sh compares them on a
# GPU as it compares the clang builds, plus a table against clang.  The recipes
# (recipes/*.sh) give repository, commit, path, data, run arguments and comparison; their
# `flags`, `sources`, `prepare` and chevron fixes are NOT used: the Makefile as it is.
#
#   --prefix DIR   a pygraph install (cmake --install build --prefix DIR): DIR/bin/pygraph-nvcc
#   --out DIR      bundle folder (default build/apps-make)
#   --no-clang     no `clang` build (two builds per app instead of three)
# The binary is the Makefile's `program = NAME` (HeCBench's convention), else `main`.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
prefix=$repo/build/adoption/prefix out=$repo/build/apps-make jobs=1 apps=() clang=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --prefix) prefix=$2; shift ;;
    --out) out=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --no-clang) clang=0 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "build_apps_make.sh: unknown option $1" >&2; exit 2 ;;
    *) apps+=("$1") ;;
  esac
  shift
done
[[ -x $prefix/bin/pygraph-nvcc ]] || { echo "build_apps_make.sh: no $prefix/bin/pygraph-nvcc (cmake --install build --prefix $prefix)" >&2; exit 1; }
command -v nvcc >/dev/null || { echo "build_apps_make.sh: nvcc not on PATH (the baseline)" >&2; exit 1; }
mkdir -p "$out/logs" "$out/rows" && out=$(cd "$out" && pwd)
export BM_PREFIX=$(cd "$prefix" && pwd) BM_OUT=$out BM_HERE=$here BM_CLANG=$clang
export BM_MIRRORS=${PYGRAPH_MIRRORS:-/work/.mirror} BM_SRC=$out/../apps-make-src
if [[ ${#apps[@]} -eq 0 ]]; then
  for r in "$here"/recipes/*.sh; do apps+=("$(basename "$r" .sh)"); done
fi
printf '%s\n' "${apps[@]}" | xargs -P "$jobs" -I{} bash "$here/build_one_make.sh" {}
bash "$here/finish_bundle.sh" "$out" "$here/recipes"
