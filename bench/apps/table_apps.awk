# table_apps.awk runs.tsv - per-app table of the corpus runs (run_apps.sh's runs.tsv).
# own = the app's own GPU-phase time (its units), wall = seconds; med = median over rounds,
# sp = spread (max-min)/median in %; x = ratio to plain's median (<1 is faster);
# match = runs whose output matched plain's / runs; share = in-graph launch share (%).
BEGIN { FS = "\t" }
NR == 1 { next }
{
  if (!($1 in seen)) { seen[$1] = 1; order[++napps] = $1 }
  k = $1 SUBSEP $2
  n[k]++; if ($8 == "yes") ok[k]++; if ($4 != 0) bad[k]++
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
}
