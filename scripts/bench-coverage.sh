#!/usr/bin/env bash
# Does a printed re-run interval cover what the next run shows?  Runs each
# command RUNS times (default 20), one after another, each writing --json;
# then, for every ratio, holds each run's 95 % re-run interval
# (rerun_low, rerun_high) against the other runs' point estimates (cover(),
# below, says what it prints).  Writes the table to stdout and,
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

# One TSV row per comparison of one run: name, estimate, and its re-run
# interval's low and high ends.
rows() {
	local j=$1 i=0 n
	n=$("$jq" "$j" comparisons | awk '{ print $2 }')
	for ((i = 0; i < n; i++)); do
		"$jq" "$j" comparisons.$i.variant comparisons.$i.dist \
			comparisons.$i.mode comparisons.$i.ratio \
			comparisons.$i.rerun_low comparisons.$i.rerun_high |
			paste -sd' ' | awk '{ printf "%s/%s/%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, $6 }'
	done
}

# For each ratio, over the runs' intervals and every other run's estimate
# (a run's own estimate left out: it lies inside its own interval by
# construction):
#  - the pooled coverage: the share of (interval, other run) pairs held;
#  - the standardised differences' SD: (other - own) / (half-width / 1.96),
#    about 1 for an interval as wide as re-runs scatter;
#  - the median half-width in SDs of the estimates (t x sqrt(2), 3.2 at
#    12 invocations, when calibrated);
#  - the estimates' range and SD.
# Target (issue 30): pooled coverage in [90 %, 99 %], half-width <= 3.5 SD.
cover() {
	awk -F'\t' '
	function isort(a, n,   i, j, t) {	# mawk has no asort()
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
	}
	$3 == "null" { next }	# the baseline: no interval
	{ k = $1; n[k]++; est[k, n[k]] = $2; lo[k, n[k]] = $3; hi[k, n[k]] = $4 }
	END {
		for (k in n) {
			m = n[k]; emin = 1e9; emax = 0; mean = 0
			for (i = 1; i <= m; i++) {
				mean += est[k, i] / m
				if (est[k, i] < emin) emin = est[k, i]
				if (est[k, i] > emax) emax = est[k, i]
			}
			ss = 0
			for (i = 1; i <= m; i++)
				ss += (est[k, i] - mean) ^ 2
			sd = m > 1 ? sqrt(ss / (m - 1)) : 0
			held = 0; pairs = 0; zs = 0
			for (i = 1; i <= m; i++) {
				half = (hi[k, i] - lo[k, i]) / 2
				w[i] = half
				for (j = 1; j <= m; j++) {
					if (j == i)
						continue
					pairs++
					if (est[k, j] >= lo[k, i] && est[k, j] <= hi[k, i])
						held++
					if (half > 0)
						zs += ((est[k, j] - est[k, i]) / (half / 1.96)) ^ 2
				}
			}
			isort(w, m)
			med = m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2
			cov = pairs ? 100 * held / pairs : 0
			wsd = (sd > 0) ? med / sd : 0	# ( ): > is a redirection in print
			zsd = pairs ? sqrt(zs / pairs) : 0
			ok = (cov >= 90 && cov <= 99 && sd > 0 && wsd <= 3.5) ? "within" : "outside"
			printf "| %s | %.4f – %.4f | %.4f | %.2f | %.1f %% | %.2f | %s |\n", k,
				emin, emax, sd, wsd, cov, zsd, ok
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
	echo "for each ratio, each run's 95 % re-run interval was checked against the other $((runs - 1))"
	echo "runs' point estimates (full precision, from \`--json\`; a run's own left out).  Target"
	echo "(issue 30): pooled coverage in [90 %, 99 %] and a median half-width of at most 3.5 SDs of"
	echo "the estimates; the standardised differences' SD is about 1 for an interval as wide as"
	echo "re-runs scatter.  \`scripts/bench-coverage.sh --doc build $runs\`."
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
		echo "| ratio | estimates, min – max | SD | median half-width, SDs | pooled coverage | standardised differences' SD | target |"
		echo "|---|---|---|---|---|---|---|"
		cover "$out/$tag.tsv"
	} >>"$report"
done
echo "<!-- coverage:end -->" >>"$report"
cat "$report"
if [ "$doc" = 1 ]; then
	splice_section "$root/docs/PERFORMANCE.md" coverage "$report"
fi
