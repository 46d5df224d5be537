# table_apps.awk runs.tsv - per-app table of the corpus runs (run_apps.sh's runs.tsv).
# own = the app's own GPU-phase time (its units), wall = seconds; med = median over rounds,
# sp = spread (max-min)/median in %; x = ratio to plain's median (<1 is faster);
# match = runs whose output matched plain's / runs; share = in-graph launch share (%).
# Apps that also ran a `clang` build (clang's compile with nothing of pygraph's) get a second
# table: clang against plain (the compiler's effect) and auto/graph against clang (pygraph's
# own): output matches with clang's first run, and the ratios of the medians.
BEGIN { FS = "\t" }
NR == 1 { next }
{
  if (!($1 in seen)) { seen[$1] = 1; order[++napps] = $1 }
  k = $1 SUBSEP $2
  n[k]++; if ($8 == "yes") ok[k]++; if ($4 != 0) bad[k]++
  if ($9 == "yes") okc[k]++
  if ($2 == "clang" && !($1 in clang)) { clang[$1] = 1; nclang++ }
  wall[k, n[k]] = $5
  if ($6 != "-") { nown[k]++; own[k, nown[k]] = $6 }
  if ($7 != "-") share[k] = $7
}
function med(arr, k, cnt,    i, j, t, v) {
  if (cnt == 0) return "-"
  for (i = 1; i <= cnt; i++) v[i] = arr[k, i] + 0
  for (i = 2; i <= cnt; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
  lo = v[1]; hi = v[cnt]
  return (cnt % 2) ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
}
function ratio(arr, k, cnt, ref,    m) {  # "xR" of k's median to ref, or "-"
  m = med(arr, k, cnt)
  return (m == "-" || ref == "-" || ref <= 0) ? "-" : sprintf("x%.3f", m / ref)
}
function cell(arr, k, cnt, ref,    m) {
  m = med(arr, k, cnt)
  if (m == "-") return "-"
  if (ref == "") return sprintf("%.4g sp%.0f%%", m, m > 0 ? 100 * (hi - lo) / m : 0)
  return sprintf("%.4g x%.3f sp%.0f%%", m, (ref > 0 ? m / ref : 0), m > 0 ? 100 * (hi - lo) / m : 0)
}
END {
  printf "%-24s %-9s %-11s %-18s %-24s %-24s %-14s %-20s %-20s\n", "app", "match a/g", "share a/g",
         "own plain", "own auto", "own graph", "wall plain", "wall auto", "wall graph"
  for (i = 1; i <= napps; i++) {
    a = order[i]; p = a SUBSEP "plain"; u = a SUBSEP "auto"; g = a SUBSEP "graph"
    po = med(own, p, nown[p]); pw = med(wall, p, n[p])
    flag = (bad[p] + bad[u] + bad[g] > 0) ? sprintf(" rc!=0: p%d a%d g%d", bad[p], bad[u], bad[g]) : ""
    printf "%-24s %-9s %-11s %-18s %-24s %-24s %-14s %-20s %-20s%s\n", a,
      sprintf("%d/%d %d/%d", ok[u], n[u], ok[g], n[g]),
      sprintf("%s/%s", (u in share) ? share[u] : "-", (g in share) ? share[g] : "-"),
      cell(own, p, nown[p], ""), cell(own, u, nown[u], po == "-" ? "" : po), cell(own, g, nown[g], po == "-" ? "" : po),
      cell(wall, p, n[p], ""), cell(wall, u, n[u], pw), cell(wall, g, n[g], pw), flag
  }
  against_clang()
}
function against_clang(    i, a, p, c, u, g, po, pw, co, cw, flag) {
  if (!nclang) return
  printf "\nagainst clang (clang's build of the same program, nothing of pygraph's): clang/plain is the compiler's effect, auto/clang and graph/clang pygraph's own\n"
  printf "%-24s %-11s %-18s %-16s %-11s %-10s %-11s %-16s %-11s %-10s %s\n", "app", "clang=plain",
         "match vs clang a/g", "own clang", "clang/plain", "auto/clang", "graph/clang",
         "wall clang", "clang/plain", "auto/clang", "graph/clang"
  for (i = 1; i <= napps; i++) {
    a = order[i]
    if (!(a in clang)) continue
    p = a SUBSEP "plain"; c = a SUBSEP "clang"; u = a SUBSEP "auto"; g = a SUBSEP "graph"
    po = med(own, p, nown[p]); pw = med(wall, p, n[p]); co = med(own, c, nown[c]); cw = med(wall, c, n[c])
    flag = bad[c] ? sprintf(" rc!=0: c%d", bad[c]) : ""
    printf "%-24s %-11s %-18s %-16s %-11s %-10s %-11s %-16s %-11s %-10s %s%s\n", a,
      sprintf("%d/%d", ok[c], n[c]), sprintf("%d/%d %d/%d", okc[u], n[u], okc[g], n[g]),
      cell(own, c, nown[c], ""), ratio(own, c, nown[c], po), ratio(own, u, nown[u], co), ratio(own, g, nown[g], co),
      cell(wall, c, n[c], ""), ratio(wall, c, n[c], pw), ratio(wall, u, n[u], cw), ratio(wall, g, n[g], cw), flag
  }
}
