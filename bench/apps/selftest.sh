#!/usr/bin/env bash
# selftest.sh - check run_apps.sh and table_apps.awk without a GPU: a fake bundle of three "apps"
# (shell scripts standing in for plain/pygraph, and for clang in a3, as the Makefile-built bundle
# has it) whose outputs match, differ within and beyond a tolerance, and time themselves; asserts
# the match, own-time and share columns, and the table against clang (matches with clang's output,
# clang/plain and auto|graph/clang ratios) that only apps with a clang build get; and
# summarize_remarks.sh on remark lines of the plugin. Exit 0 = pass.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
b=$t/bundle; mkdir -p "$b/a1" "$b/a2" "$b/a3"
cp "$here/run_apps.sh" "$here/table_apps.awk" "$b/"
printf 'app\tdir\targs\tcompare\tfilter\ttime_regex\n' > "$b/apps.tsv"
printf 'a1\ta1\t7\texact\t-\tkernel time ([0-9.]+)\n' >> "$b/apps.tsv"
printf 'a2\ta2\t-\ttol:1e-3\twall\tkt=([0-9.]+)\n' >> "$b/apps.tsv"
printf 'a3\ta3\t-\texact\t-\tt=([0-9.]+)\n' >> "$b/apps.tsv"
printf '#!/bin/bash\necho "result $1"; echo "kernel time 2.0"\n' > "$b/a1/plain"
# its report goes to stderr in the middle of a stdout line (as an exit report
# meets a stdout buffer the app has not flushed): still a match
printf '#!/bin/bash\necho "result $1"; printf "kernel "\necho "pygraph: total launches=10 in_graphs=5 (50.0%%)" >&2\necho "time 1.0"\n' > "$b/a1/pygraph"
printf '#!/bin/bash\necho "v 1.0000"; echo kt=2; echo kt=3; echo "wall $RANDOM"\n' > "$b/a2/plain"
printf '#!/bin/bash\n[ "$PYGRAPH_MODE" = graph ] && echo "v 1.01" || echo "v 1.0001"\necho kt=2; echo kt=3; echo "wall 1"\n' > "$b/a2/pygraph"
# a3: clang's output differs from plain's (the compiler's effect), auto gives clang's, graph not
printf '#!/bin/bash\necho "v 1.0"; echo t=4\n' > "$b/a3/plain"
printf '#!/bin/bash\necho "v 1.1"; echo t=2\n' > "$b/a3/clang"
printf '#!/bin/bash\n[ "$PYGRAPH_MODE" = graph ] && echo "v 1.2" || echo "v 1.1"; echo t=1\n' > "$b/a3/pygraph"
echo 'regions=1 eager=0' > "$b/a1.plugin.txt"
chmod +x "$b"/a*/*
bash "$b/run_apps.sh" "$b" "$t/out" > "$t/stdout" 2>/dev/null
fail() { echo "selftest: FAIL: $1"; cat "$t/out/table.txt"; exit 1; }
[[ -f $t/out/table.txt && -f $t/out/runs.tsv && -f $t/out/logs.tar.xz ]] || fail "missing output files"
[[ $(grep -c . "$t/out/runs.tsv") == 31 ]] || fail "expected 30 runs (a3 with clang: 12)"
grep -qE '^a1 +3/3 3/3 +50.0/50.0 +2 sp0% +1 x0.500 sp0% +1 x0.500' "$t/out/table.txt" || fail "a1 row"
grep -qE '^a2 +3/3 0/3 +-/- +5 sp0%' "$t/out/table.txt" || fail "a2 row (tolerance, summed own time)"
grep -qE '^a3 +0/3 0/3 +-/- +4 sp0% +1 x0.250 sp0% +1 x0.250' "$t/out/table.txt" || fail "a3 row (against plain)"
sed -n '/^against clang/,$p' "$t/out/table.txt" > "$t/clang.txt"
grep -qE '^app +clang=plain +match vs clang a/g +own clang +clang/plain +auto/clang +graph/clang' "$t/clang.txt" \
  || fail "table against clang: header"
grep -qE '^a3 +0/3 +3/3 0/3 +2 sp0% +x0.500 +x0.500 +x0.500 +[0-9.]+ sp[0-9]+% +x[0-9.]+ +x[0-9.]+ +x[0-9.]+$' \
  "$t/clang.txt" || fail "a3 row against clang"
! grep -qE '^a[12] ' "$t/clang.txt" || fail "apps without a clang build are not against clang"
[[ $(awk -F'\t' '$1 == "a3" && $2 == "clang" && $4 == 0' "$t/out/runs.tsv" | wc -l) == 3 ]] || fail "a3 clang runs"
[[ $(awk -F'\t' '$1 == "a3" && $2 == "auto" && $9 == "yes"' "$t/out/runs.tsv" | wc -l) == 3 ]] || fail "match_clang"
[[ $(awk -F'\t' '$1 == "a1" && $9 != "-"' "$t/out/runs.tsv" | wc -l) == 0 ]] || fail "a1 has no clang build"
grep -q 'a1 .*regions=1 eager=0' "$t/out/table.txt" || fail "plugin summary"
tar -tJf "$t/out/logs.tar.xz" > "$t/list"; grep -q 'logs/a2.graph.2.out' "$t/list" || fail "logs tarball"
grep -q 'logs/a3.clang.2.out' "$t/list" || fail "logs of the clang runs"
# a bundle without clang builds (build_apps.sh's) gets no table against clang
bash "$b/run_apps.sh" "$b" "$t/out3" a1 a2 > /dev/null 2>&1
! grep -q 'against clang' "$t/out3/table.txt" || fail "table against clang without clang builds"
[[ $(grep -c . "$t/out3/runs.tsv") == 19 ]] || fail "expected 18 runs of a1, a2"
BUDGET_S=-1 bash "$b/run_apps.sh" "$b" "$t/out2" > /dev/null 2>&1
grep -q 'skipped (BUDGET_S=-1 reached): a1 a2 a3' "$t/out2/table.txt" || fail "time budget"
# summarize_remarks.sh: remark lines as the plugin prints them (a region remark of the older form
# too); reason keywords and allow= hints do not split the reasons.
cat > "$t/remarks.txt" <<'EOF'
a.cu:3:5: remark: formed graph region in 'f(float*)': loop iteration (lines 2-6), 2 launch sites [-Rpass=pygraph]
a.cu:9:5: remark: formed graph region in 'g(float*)': loop iteration (lines 8-12), segment 0 of 1, 2 launch sites [-Rpass=pygraph]
a.cu:14:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'opaque(float*)' at a.cu:13, which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=opaque) before the next barrier; a graph region needs at least 2 (min-launches) [external-call] [-Rpass-missed=pygraph]
a.cu:20:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'other(int)' at a.cu:19, which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=other) before the next barrier; a graph region needs at least 2 (min-launches) [external-call] [-Rpass-missed=pygraph]
a.cu:30:5: remark: launch of 'k(float*)' stays eager: inside the program's own stream capture (begun at a.cu:28) [own-capture] [-Rpass-missed=pygraph]
EOF
want="regions=2 eager=3 [only N launch site after external call 'F' at a.cu:N, which may synchronize x2; inside the program's own stream capture (begun at a.cu:N) x1]"
got=$(bash "$here/summarize_remarks.sh" "$t/remarks.txt")
[[ $got == "$want" ]] || { echo "selftest: FAIL: summarize_remarks.sh gave: $got"; exit 1; }
echo "selftest: PASS"
