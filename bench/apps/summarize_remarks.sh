#!/usr/bin/env bash
# summarize_remarks.sh REMARKS - one-line summary of the plugin's -Rpass/-Rpass-missed output:
#   regions=N eager=M [reason xK; ...]
# Reasons are the text after "stays eager: ", with names and numbers generalised (the
# remark's closing [reason keyword] and the allow= option it suggests left out).
f=$1
regions=$(grep -c 'remark: formed graph region' "$f")
missed=$(grep -c 'stays eager:' "$f")
reasons=$(grep -o 'stays eager: .*' "$f" | sed -E \
  -e 's/^stays eager: //' -e 's/ \[-Rpass.*//' -e 's/ \[[a-z0-9=.-]*\]$//' \
  -e 's/ \(if it does not, add [^)]*\)//' -e "s/'[^']*'/'F'/g" \
  -e 's/ before the next barrier.*//' -e 's/;.*//' -e 's/[0-9]+/N/g' -e 's/ at [^ ]*:N:N.*//' -e 's/ \(line[^)]*\)//' | cut -c1-90 |
  sort | uniq -c | sort -rn | awk '{n=$1; $1=""; printf "%s%s x%d", (NR>1?"; ":""), substr($0,2), n}')
echo "regions=$regions eager=$missed${reasons:+ [$reasons]}"
