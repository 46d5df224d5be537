#!/usr/bin/env bash
# build_one_make.sh APP - one recipe's application built by its own Makefile: plain (nvcc),
# pygraph (pygraph-nvcc) and, unless BM_CLANG=0, clang (pygraph-nvcc with
# PYGRAPH_PLUGIN_ARGS=disable), each in a fresh copy (called by build_apps_make.sh, which
# exports BM_*).
set -uo pipefail
app=$1
recipe=$BM_HERE/recipes/$app.sh
log=$BM_OUT/logs/$app.log status=$BM_OUT/logs/$app.status
: > "$log"
fail() { echo "BUILD $app FAIL $1" > "$status"; echo "BUILD $app FAIL $1" >&2; exit 1; }
repo="" commit="" path="" extra_paths="" data="" args="" compare="exact" filter="" time_regex=""
prepare() { :; }
# shellcheck source=/dev/null
source "$recipe"
mirror=$BM_MIRRORS/${repo/\//+}/repo
pristine=$BM_SRC/$app/pristine
rm -rf "$BM_SRC/$app"; mkdir -p "$pristine"
for p in $path $extra_paths; do
  git -C "$mirror" archive --prefix="$p/" "$commit:$p" 2>>"$log" | tar -x -C "$pristine" 2>>"$log" \
    || fail "extract $p"
done
[[ -f $pristine/$path/Makefile ]] || fail "no Makefile"
arch=sm_90
grep -qE '^ARCH[[:space:]]*[:?]?=[[:space:]]*[0-9]+' "$pristine/$path/Makefile" && arch=90
prog=$(sed -nE 's/^program[[:space:]]*[:?]?=[[:space:]]*([A-Za-z0-9_.-]+).*/\1/p' \
       "$pristine/$path/Makefile" | head -n 1)
prog=${prog:-main}
nvcc_free_path=$(tr ':' '\n' <<<"$PATH" | while read -r d; do [[ -x $d/nvcc ]] || printf '%s:' "$d"; done)
dest=$BM_OUT/$app/$path
mkdir -p "$dest"
variants=(plain pygraph)
[[ ${BM_CLANG:-1} == 1 ]] && variants+=(clang)
for variant in "${variants[@]}"; do
  work=$BM_SRC/$app/$variant
  cp -a "$pristine" "$work"
  echo "== $variant build" >> "$log"
  case $variant in
    plain) (cd "$work/$path" && make CC=nvcc ARCH=$arch) >>"$log" 2>&1 || fail "make CC=nvcc" ;;
    pygraph) (cd "$work/$path" && PATH=$BM_PREFIX/bin:$nvcc_free_path make CC=pygraph-nvcc ARCH=$arch) \
      >>"$log" 2>&1 || fail "make CC=pygraph-nvcc" ;;
    clang) (cd "$work/$path" && PYGRAPH_PLUGIN_ARGS=disable PATH=$BM_PREFIX/bin:$nvcc_free_path \
      make CC=pygraph-nvcc ARCH=$arch) >>"$log" 2>&1 || fail "PYGRAPH_PLUGIN_ARGS=disable make CC=pygraph-nvcc" ;;
  esac
  [[ -x $work/$path/$prog ]] || fail "no $prog after the $variant build"
  # an install older than PYGRAPH_PLUGIN_ARGS would build pygraph again under the name clang
  if [[ $variant == clang ]] && nm "$work/$path/$prog" 2>/dev/null | grep -q ' __pygraph_'; then
    fail "the clang build has pygraph's runtime (is $BM_PREFIX older than PYGRAPH_PLUGIN_ARGS?)"
  fi
  cp "$work/$path/$prog" "$dest/$variant" && strip "$dest/$variant" 2>/dev/null
done
for d in $data; do
  mkdir -p "$BM_OUT/$app/$(dirname "$d")"
  cp -r "$pristine/$d" "$BM_OUT/$app/$(dirname "$d")/" || fail "data $d"
done
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$app/$path" "${args:--}" "$compare" "${filter:--}" \
  "${time_regex:--}" > "$BM_OUT/rows/$app.row"
echo "BUILD $app OK $(grep -m1 '^pygraph: ' "$log" || true)" > "$status"
echo "BUILD $app OK"
