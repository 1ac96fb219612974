#!/usr/bin/env bash
# make bench (and make bench-sim): the simulator's speed, its scaling up to
# 1,000,000 regions, and scoring's cost in context; rewrites the sim section
# of docs/PERFORMANCE.md (between its sim:begin/sim:end markers).
# Usage: scripts/bench-sim.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$build/hotscore
jq=$build/tests/jsonq
out=$build/bench-sim
doc=$root/docs/PERFORMANCE.md
mkdir -p "$out"
. "$root/scripts/doc-section.sh"

# 4 GiB in two halves, one random, one swept: at 1,000,000 regions the size
# limit (total / min_nr_regions) is exactly one page.
printf 'a, 2147483648\nb, 2147483648\n\nrandom a\n1000\na, 1, 4096, 1\n\nsweep b\n1000\nb, 0, 4096, 1\n' \
	>"$out/scale.cfg"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# speed: simulated seconds per wall second, 5 invocations
speed() {	# NAME ARGS...
	local name=$1 k
	shift
	for k in 1 2 3 4 5; do
		echo "bench-sim: $name, invocation $k of 5" >&2
		"$hs" sim "$@" --json "$out/speed.json" >/dev/null
		"$jq" "$out/speed.json" runs.0.simulated_us runs.0.wall_ns |
			paste -sd' ' | awk '{ printf "%.0f\n", $1 * 1000 / $2 }'
	done >"$out/speed-$name.txt"
}

# ten passes of stairs (600 s), so that a run lasts long enough to time
# --profile mm-new: as measured before hotfix became the default profile
speed1000=(--minr 1000 --maxr 1000 --duration 600s --no-timing --profile mm-new)
speed "1000" "${speed1000[@]}"
speed "1000-clock" --minr 1000 --maxr 1000 --duration 600s --profile mm-new
speed "default" --duration 600s --no-timing --profile mm-new

scale_rows() {
	local n
	# 2^20: the 4 GiB over min_nr_regions is exactly one page
	for n in 1000 3000 10000 30000 100000 300000 1048576; do
		echo "bench-sim: scale, $n regions" >&2
		"$hs" sim --workload "$out/scale.cfg" --ops paddr --minr "$n" \
			--maxr "$n" --duration 2s --no-timing --profile mm-new \
			--json "$out/scale-$n.json" >/dev/null
		"$jq" "$out/scale-$n.json" runs.0.regions_min runs.0.regions_max \
			runs.0.region_samples runs.0.wall_ns runs.0.simulated_us \
			max_rss_kb | paste -sd' ' |
			awk -v n="$n" '{ printf "| %d | %d..%d | %.3f | %.2f | %.1f | %.0f | %.0f |\n",
				n, $1, $2, $4 / 1e9, $4 / $3, $5 * 1000 / $4,
				$6, $6 * 1024 / $2 }'
	done
}
scale=$(scale_rows)

echo "bench-sim: cost in context, default run, v6.6 against v2-ilog2" >&2
"$hs" sim --profile v6.6,v2-ilog2 >"$out/compare.txt"
echo "bench-sim: cost in context, 1000 regions, hotfix against mm-new" >&2
"$hs" sim --minr 1000 --maxr 1000 --profile hotfix,mm-new \
	>"$out/compare-1000.txt" || true

cost_table() {	# FILE: the cost table and share lines of a sim summary
	sed -n '/^cost per aggregation/,/^decisions:/p' "$1" |
		grep -v -e '^decisions:' -e '^$' | sed 's/^/    /'
}

section=$(mktemp)
trap 'rm -f "$section"' EXIT
{
	echo "<!-- sim:begin (written by make bench; edits here are lost) -->"
	echo "## \`hotscore sim\`"
	echo
	echo "Measured $(date -u +%Y-%m-%d) by \`make bench\` (scripts/bench-sim.sh) on"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
	echo "$(nproc) CPUs, Linux $(uname -r). Wall time is CLOCK_MONOTONIC around"
	echo "the simulation loop; the stage costs are TSC-derived (no PMU here)."
	echo
	echo "### Speed"
	echo
	echo "Simulated time per wall time (x real time), median and range of 5"
	echo "invocations. Target: at least 2000x with 1000 regions and the"
	echo "default intervals (5 ms sampling, 100 ms aggregation)."
	echo
	echo "| run | command | median | range |"
	echo "|---|---|---|---|"
	for name in 1000 1000-clock default; do
		case $name in
		1000) cmd="hotscore sim ${speed1000[*]}" ;;
		1000-clock) cmd="hotscore sim --minr 1000 --maxr 1000 --duration 600s --profile mm-new" ;;
		default) cmd="hotscore sim --duration 600s --no-timing --profile mm-new" ;;
		esac
		echo "| $name | \`$cmd\` | **$(median <"$out/speed-$name.txt")x** | $(sort -g "$out/speed-$name.txt" | head -1)x - $(sort -g "$out/speed-$name.txt" | tail -1)x |"
	done
	echo
	echo "\`1000\` is stairs with exactly 1000 regions (\`--minr 1000 --maxr 1000\`),"
	echo "600 s simulated (ten passes); \`1000-clock\` the same with the stage clock and the"
	echo "score-input capture on; \`default\` is stairs with 10..1000 regions,"
	echo "where DAMON settles at about a dozen."
	echo
	echo "### Scale: up to 1,048,576 regions"
	echo
	echo "\`hotscore sim --workload scale.cfg --ops paddr --minr N --maxr N"
	echo "--duration 2s --no-timing --profile mm-new\` (scale.cfg: two 2 GiB regions, one random,"
	echo "one swept, as written by scripts/bench-sim.sh), 400 samples and 20"
	echo "aggregations each. Linear cost is a flat ns per region-sample; memory"
	echo "is the process' peak RSS. The size limit is total / N aligned up to a"
	echo "page, so N = 300000 starts from 262,144 4-page regions, which splits"
	echo "bring near 290,000; at 2^20 every region is one page. Each 1 s phase touches one half: the regions"
	echo "of that half ask the oracle (a hash or a sweep test), those of the idle"
	echo "half cost about 1 ns, as stairs' regions do."
	echo
	echo "| N | regions | wall s | ns per region-sample | x real time | max RSS KiB | bytes per region |"
	echo "|---|---|---|---|---|---|---|"
	echo "$scale"
	echo
	echo "### Scoring in context"
	echo
	echo "The default run (stairs, the pageout scheme under an 8 MiB/s quota),"
	echo "\`hotscore sim --profile v6.6,v2-ilog2\`:"
	echo
	cost_table "$out/compare.txt"
	echo
	sed -n '/^compare:/,$p' "$out/compare.txt" | sed 's/^/    /'
	echo
	echo "With 1000 regions, where the histogram sees hundreds of regions per"
	echo "aggregation, \`hotscore sim --minr 1000 --maxr 1000"
	echo "--profile hotfix,mm-new\`:"
	echo
	cost_table "$out/compare-1000.txt"
	echo
	sed -n '/^compare:/,$p' "$out/compare-1000.txt" | sed 's/^/    /'
	echo
	echo "<!-- sim:end -->"
} >"$section"

splice_section "$doc" sim "$section"
echo "bench-sim: wrote $doc" >&2
