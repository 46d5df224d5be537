#!/usr/bin/env bash
# build_one.sh APP - build one recipe (called by build_apps.sh, which exports PG_*).
# Writes $PG_OUT/<dir>/{plain,pygraph}, $PG_OUT/rows/APP.row, $PG_OUT/logs/APP.{status,log},
# $PG_OUT/APP.plugin.txt.
set -uo pipefail
app=$1
recipe=$PG_HERE/recipes/$app.sh
log=$PG_OUT/logs/$app.log status=$PG_OUT/logs/$app.status
mkdir -p "$PG_OUT/rows" "$PG_OUT/logs"
rm -f "$PG_OUT/rows/$app.row"
: > "$log"
fail() { echo "BUILD $app FAIL $1" > "$status"; echo "BUILD $app FAIL $1 (see logs/$app.log)" >&2; exit 1; }
[[ -f $recipe ]] || fail "no recipe"

# Recipe defaults (see README.md for each field).
repo="" commit="" path="" extra_paths="" sources="" flags="" libs="" data=""
args="" compare="exact" filter="" time_regex="" fix_chevrons=1
prepare() { :; }
# shellcheck source=/dev/null
source "$recipe"

mirror=$PG_MIRRORS/${repo/\//+}/repo
[[ -d $mirror ]] || fail "mirror $mirror missing"
src=$PG_SRC/$app
rm -rf "$src"; mkdir -p "$src"
for p in $path $extra_paths; do   # tree-ish form: reads only that subtree
  git -C "$mirror" archive --prefix="$p/" "$commit:$p" 2>>"$log" | tar -x -C "$src" 2>>"$log" \
    || fail "extract $p"
done
cd "$src/$path" || fail "no $path"
if [[ $fix_chevrons == 1 ]]; then   # nvcc-only spellings: '<< <' and '>> >(' of a launch
  find . -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \) \
    -exec sed -i -E 's/<<[[:space:]]+</<<</g; s/>>[[:space:]]+>[[:space:]]*\(/>>>(/g' {} +
fi
prepare >>"$log" 2>&1 || fail "prepare"

base=(-x cuda "--cuda-path=$PG_CUDA" "--cuda-gpu-arch=$PG_ARCH" -Wno-unknown-cuda-version -O2
      -std=c++17 -w -Wno-register "-I$PG_CUDA/include/cccl" -I.)
cudalibs=("-L$PG_CUDA/lib64" -lcudart_static -ldl -lrt -lpthread)
dest=$PG_OUT/$app/$path
mkdir -p "$dest"
# shellcheck disable=SC2086
echo "+ plain" >>"$log"
"$PG_CXX" "${base[@]}" $flags $sources -o "$dest/plain" $libs "${cudalibs[@]}" >>"$log" 2>&1 \
  || fail "plain compile"
remarks=$PG_OUT/logs/$app.remarks
echo "+ pygraph" >>"$log"
# shellcheck disable=SC2086
"$PG_CXX" "${base[@]}" $flags "-fplugin=$PG_PLUGIN" -Rpass=pygraph -Rpass-missed=pygraph \
  $sources -o "$dest/pygraph" "-L$PG_RTDIR" -lpygraph_rt $libs "${cudalibs[@]}" >"$remarks" 2>&1 \
  || { cat "$remarks" >>"$log"; fail "pygraph compile"; }
strip "$dest/plain" "$dest/pygraph"
bash "$PG_HERE/summarize_remarks.sh" "$remarks" > "$PG_OUT/$app.plugin.txt"
for d in $data; do   # data files/folders the app reads, relative to the repository root
  mkdir -p "$PG_OUT/$app/$(dirname "$d")"
  cp -r "$src/$d" "$PG_OUT/$app/$(dirname "$d")/" || fail "data $d"
done
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$app/$path" "${args:--}" "$compare" "${filter:--}" "${time_regex:--}" \
  > "$PG_OUT/rows/$app.row"
echo "BUILD $app OK $(head -1 "$PG_OUT/$app.plugin.txt")" > "$status"
echo "BUILD $app OK"
