#!/usr/bin/env bash
# Does a printed interval cover what the next invocation shows?  Runs each
# command RUNS times (default 20), one after another, each writing --json;
# then, for every ratio, counts how many of the RUNS point estimates lie
# inside each run's printed 95 % interval.  The target (issue 18): every
# interval holds at least 18 of the 20.  Writes the table to stdout and,
# with --doc, to the coverage section of docs/PERFORMANCE.md.
#
# Usage: scripts/bench-coverage.sh [--doc] BUILD_DIR [RUNS]
set -euo pipefail
doc=0
if [ "${1:-}" = --doc ]; then
	doc=1
	shift
fi
build=${1:-build}
runs=${2:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$build/hotscore
jq=$build/tests/jsonq
out=$build/bench-coverage
mkdir -p "$out"
. "$root/scripts/doc-section.sh"

# the two commands issue 18 names
cmds=("${HS_COVERAGE_CMD:-bench}"
      "bench --variants hotfix,fast-batch-scalar --dist uniform --modes throughput")

# One TSV row per comparison of one run: name, estimate, low, high.
rows() {
	local j=$1 i=0 n
	n=$("$jq" "$j" comparisons | awk '{ print $2 }')
	for ((i = 0; i < n; i++)); do
		"$jq" "$j" comparisons.$i.variant comparisons.$i.dist \
			comparisons.$i.mode comparisons.$i.ratio \
			comparisons.$i.ci_low comparisons.$i.ci_high |
			paste -sd' ' | awk '{ printf "%s/%s/%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, $6 }'
	done
}

# For each ratio: the fewest estimates any interval held, how many
# intervals held at least 18/20 of them, the estimates' range, the
# median interval width.
cover() {
	awk -F'\t' -v runs="$runs" '
	function isort(a, n,   i, j, t) {	# mawk has no asort()
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
	}
	$3 == "null" { next }	# the baseline: no interval
	{ k = $1; n[k]++; est[k, n[k]] = $2; lo[k, n[k]] = $3; hi[k, n[k]] = $4 }
	END {
		need = int(runs * 0.9 + 0.999)
		for (k in n) {
			min = n[k]; good = 0; emin = 1e9; emax = 0
			for (i = 1; i <= n[k]; i++) {
				c = 0
				for (j = 1; j <= n[k]; j++)
					if (est[k, j] >= lo[k, i] && est[k, j] <= hi[k, i])
						c++
				if (c < min) min = c
				if (c >= need) good++
				if (est[k, i] < emin) emin = est[k, i]
				if (est[k, i] > emax) emax = est[k, i]
				w[i] = hi[k, i] - lo[k, i]
			}
			isort(w, n[k])
			printf "| %s | %.4f – %.4f | %.4f | %d of %d | %d/%d |\n", k,
				emin, emax, w[int((n[k] + 1) / 2)], good, n[k], min, n[k]
		}
	}' "$1" | sort
}

report=$out/coverage.md
{
	echo "<!-- coverage:begin (scripts/bench-coverage.sh --doc; do not edit) -->"
	echo "### Do the intervals hold the next invocation?"
	echo
	echo "Each command was run $runs times, one after another, on the machine above"
	echo "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) vCPUs);"
	echo "for each ratio, each run's printed 95 % interval was checked against all $runs point"
	echo "estimates (full precision, from \`--json\`).  Target: every interval holds at least"
	echo "$(awk -v r="$runs" 'BEGIN { print int(r * 0.9 + 0.999) }') of them.  \`scripts/bench-coverage.sh --doc build $runs\`."
} >"$report"
for c in "${cmds[@]}"; do
	tag=$(echo "$c" | tr -c 'a-z0-9\n' '_' | cut -c1-40)
	: >"$out/$tag.tsv"
	t0=$(date +%s.%N)
	for ((r = 1; r <= runs; r++)); do
		[ -t 2 ] && printf '\r\033[Kcoverage: %s: run %d/%d' "$c" "$r" "$runs" >&2
		# shellcheck disable=SC2086
		"$hs" $c --json "$out/$tag.$r.json" >"$out/$tag.$r.txt"
		rows "$out/$tag.$r.json" >>"$out/$tag.tsv"
	done
	t1=$(date +%s.%N)
	[ -t 2 ] && printf '\r\033[K' >&2
	{
		echo
		echo "\`hotscore $c\` ($(awk -v a="$t0" -v b="$t1" -v r="$runs" 'BEGIN { printf "%.1f", (b - a) / r }') s a run):"
		echo
		echo "| ratio | estimates, min – max | median interval width | intervals holding ≥ 90 % | fewest held |"
		echo "|---|---|---|---|---|"
		cover "$out/$tag.tsv"
	} >>"$report"
done
echo "<!-- coverage:end -->" >>"$report"
cat "$report"
if [ "$doc" = 1 ]; then
	splice_section "$root/docs/PERFORMANCE.md" coverage "$report"
fi
