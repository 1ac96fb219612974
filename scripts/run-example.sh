#!/usr/bin/env bash
# `make run`: a worked example through `hotscore score` (the bench takes this
# over once it lands).  Usage: scripts/run-example.sh BUILD_DIR
set -eu
hs=${1:-build}/hotscore
here=$(cd "$(dirname "$0")/.." && pwd)

echo "== The profiles: which kernel computes the score how"
"$hs" score --list-profiles
echo
echo "== damon-scoring.md's worked example, step by step (5 ms / 100 ms, nr 10, age 50)"
"$hs" score --profile hotfix --nr-accesses 10 --age 50
echo
echo "== Every profile on the worked examples and the edge cases (tests/data)"
"$hs" score --csv <"$here/tests/data/worked-examples.csv" | awk -F, '
	{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i
		if (length($i) > w[i]) w[i] = length($i) } nf = NF }
	END { for (r = 1; r <= NR; r++) { line = ""
		for (i = 1; i <= nf; i++) line = line sprintf("%-*s ", w[i], cell[r, i])
		sub(/ +$/, "", line); print line } }' 
