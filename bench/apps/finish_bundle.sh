#!/usr/bin/env bash
# finish_bundle.sh OUT RECIPES - the end of a corpus bundle's build (build_apps.sh,
# build_apps_make.sh): OUT/apps.tsv from the rows the built apps left (recipe order),
# the runner beside it, the build statuses, how many apps have a `clang` binary (run_apps.sh
# runs it and compares with it), and OUT.tar.xz to carry to the GPU.
set -uo pipefail
out=$1 recipes=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cp "$here/run_apps.sh" "$here/table_apps.awk" "$out/"
{
  printf 'app\tdir\targs\tcompare\tfilter\ttime_regex\n'
  for r in "$recipes"/*.sh; do
    a=$(basename "$r" .sh)
    [[ -f $out/rows/$a.row ]] && cat "$out/rows/$a.row"
  done
} > "$out/apps.tsv"
nclang=$(tail -n +2 "$out/apps.tsv" | cut -f2 | while read -r d; do [[ -x $out/$d/clang ]] && echo; done | wc -l)
echo "== apps.tsv lists $(($(wc -l < "$out/apps.tsv") - 1)) built apps, $nclang with a clang build ($out, $(du -sh "$out" | cut -f1))"
cat "$out"/logs/*.status 2>/dev/null | sort -k3,3 -k2,2
tar -C "$(dirname "$out")" -cJf "$out.tar.xz" "$(basename "$out")"
echo "== carry $out.tar.xz ($(du -h "$out.tar.xz" | cut -f1)); on the GPU:"
echo "   tar -xJf $(basename "$out").tar.xz -C /tmp && bash /tmp/$(basename "$out")/run_apps.sh /tmp/$(basename "$out") OUTDIR"
