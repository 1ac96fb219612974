#!/usr/bin/env bash
# make bench: run the benchmark suite and rewrite the bench section of
# docs/PERFORMANCE.md (between its bench:begin/bench:end markers) with the
# machine, the commands and the figures.  Usage: scripts/bench.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$build/hotscore
jq=$build/tests/jsonq
out=$build/bench
doc=$root/docs/PERFORMANCE.md
mkdir -p "$out"

suite=(--dist seed,uniform,young,zero,worst --mode throughput,latency
       --profile loop,fls,ilog2 --accuracy --seed 1)
all=(--dist uniform --mode throughput --iterations 2000000 --seed 1
     --profile loop,fls,ilog2,fls-generic,fls-bsr,fls-builtin,ilog2-generic,ilog2-bsr,ilog2-builtin,v5.16,hotfix,debian-6.1.192,mm-new)

echo "bench: the suite (5 distributions x 2 modes)" >&2
"$hs" bench "${suite[@]}" --format markdown --json "$out/suite.json" \
	>"$out/suite.md"
echo "bench: every variant, uniform ages" >&2
"$hs" bench "${all[@]}" --format markdown --json "$out/all.json" \
	>"$out/all.md"
for k in 1 2 3; do
	echo "bench: the default benchmark, invocation $k of 3" >&2
	"$hs" bench --seed 1 --json "$out/default-$k.json" >"$out/default-$k.txt"
done

echo "bench: hotscore verify, the full proof" >&2
t0=$(date +%s.%N)
"$hs" verify --json "$out/verify.json" >"$out/verify.txt"
t1=$(date +%s.%N)
verify_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')

env() { "$jq" "$out/suite.json" "environment.$1"; }

verify_rows() {
	local d
	for d in agelog grid random; do
		"$jq" "$out/verify.json" domains.$d.inputs domains.$d.seconds \
			domains.$d.per_second_per_thread | paste -sd' ' |
			awk -v d="$d" '{ printf "| %s | %s | %.2f | %.1f M |\n",
				d, $1, $2, $3 / 1e6 }'
	done
}

# Run-to-run spread: each figure's (max - min) / median over 3 invocations.
spread() {
	local i k
	for i in 0 1 2 3 4 5 6 7; do
		for k in 1 2 3; do
			"$jq" "$out/default-$k.json" results.$i.variant \
				results.$i.mode results.$i.ns_per_call.median |
				paste -sd' '
		done
	done | awk '
		{ key = $1 " | " $2; v[key, ++n[key]] = $3; order[key] = NR }
		END {
			for (key in n) {
				lo = hi = v[key, 1]
				for (j = 1; j <= n[key]; j++) {
					if (v[key, j] < lo) lo = v[key, j]
					if (v[key, j] > hi) hi = v[key, j]
				}
				a = v[key, 1]; b = v[key, 2]; c = v[key, 3]
				med = (a <= b) ? ((b <= c) ? b : (a <= c ? c : a)) \
					       : ((a <= c) ? a : (b <= c ? c : b))
				printf "%d\t| %s | %.3f | %.3f | %.3f | %.2f %% |\n",
					order[key], key, a, b, c, 100 * (hi - lo) / med
			}
		}' | sort -n | cut -f2-
}

ratios() {
	local i k
	for i in 0 1 2 3; do
		for k in 1 2 3; do
			"$jq" "$out/default-$k.json" comparisons.$i.variant \
				comparisons.$i.mode comparisons.$i.ratio | paste -sd' '
		done
	done | awk '{ key = "| " $1 " vs loop | " $2 " |"; r[key] = r[key] sprintf(" %.3f |", $3) }
		END { for (k in r) print k r[k] }' | sort
}

section=$(mktemp)
trap 'rm -f "$section"' EXIT
{
	echo "<!-- bench:begin (written by make bench; edits here are lost) -->"
	echo "## \`hotscore bench\`"
	echo
	echo "Measured $(date -u +%Y-%m-%d) by \`make bench\` (scripts/bench.sh)."
	echo
	echo "| machine | |"
	echo "|---|---|"
	echo "| CPU | $(env cpu_model), CPU $(env cpu) pinned; hypervisor: $(env hypervisor) |"
	echo "| clock | $(env clock), $(awk -v h="$(env tsc_hz)" 'BEGIN { printf "%.3f", h / 1e6 }') MHz calibrated against CLOCK_MONOTONIC_RAW; invariant TSC: $(env invariant_tsc) |"
	echo "| counters | $(env counters) |"
	echo "| governor | $(env governor) |"
	echo "| kernel | Linux $(env kernel) |"
	echo "| compiler | $(env compiler), \`$(env cflags)\` |"
	echo
	echo "No hardware counters here: every cycle figure is TSC ticks per call"
	echo "(TSC-derived), not core cycles. Figures are medians of paired"
	echo "N/2N-differenced batch samples; ratios are paired, each with its 95 %"
	echo "confidence interval and the interval a re-run lands in, over the"
	echo "invocations that the budget chose, the 4 code placements a fixed factor"
	echo "(see [bench.md](bench.md), \"Intervals\")."
	echo
	echo "### loop, fls and ilog2 per distribution and mode"
	echo
	echo "\`hotscore bench ${suite[*]}\`"
	echo "(10,000,000 calls per variant per distribution and mode in each invocation):"
	echo
	cat "$out/suite.md"
	echo
	echo "### Every variant, uniform ages"
	echo
	echo "\`hotscore bench ${all[*]}\`:"
	echo
	cat "$out/all.md"
	echo
	echo "### Run-to-run spread of the default benchmark"
	echo
	echo "\`hotscore bench --seed 1\` (the seed's scenario), invoked 3 times in a"
	echo "row; ns/call medians, and their spread (max - min) / median. Target: 2 %."
	echo
	echo "| variant | mode | 1st | 2nd | 3rd | spread |"
	echo "|---|---|---|---|---|---|"
	spread
	echo
	echo "The paired ratios of the same three invocations:"
	echo
	echo "| comparison | mode | 1st | 2nd | 3rd |"
	echo "|---|---|---|---|---|"
	ratios
	echo
	echo "## \`hotscore verify\`"
	echo
	echo "\`hotscore verify\`, the full default run"
	echo "($("$jq" "$out/verify.json" profiles | cut -d' ' -f2) profiles, $("$jq" "$out/verify.json" threads) threads, verdict ok: $("$jq" "$out/verify.json" ok)):"
	echo "**$verify_wall s** wall time. Target: at most 30 s; limit: 60 s."
	echo
	echo "Per domain, checks per second per thread. An agelog check is one"
	echo "age_in_sec through every age_in_log way; a grid or random check is one"
	echo "input through every profile, its pairs and its invariants."
	echo
	echo "| domain | inputs | seconds | per second per thread |"
	echo "|---|---|---|---|"
	verify_rows
	echo
	echo "<!-- bench:end -->"
} >"$section"

if [ -f "$doc" ] && grep -q '<!-- bench:begin' "$doc"; then
	awk -v f="$section" '
		/<!-- bench:begin/ { while ((getline l < f) > 0) print l; skip = 1 }
		!skip { print }
		/<!-- bench:end -->/ { skip = 0 }' "$doc" >"$doc.new"
else
	{
		echo "# Performance"
		echo
		echo "Benchmarks, not tests: each section is rewritten by the make"
		echo "target named in it, with the machine and the command."
		echo
		cat "$section"
	} >"$doc.new"
fi
mv "$doc.new" "$doc"
echo "bench: wrote $doc" >&2
