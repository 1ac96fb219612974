#!/usr/bin/env bash
# make bench (and make bench-fast): the prepared scorer (score_fast.h) against
# the kernel's forms, in isolation and in the simulated kdamond; rewrites
# the fast section of docs/PERFORMANCE.md (between its fast:begin/fast:end
# markers).  Usage: scripts/bench-fast.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$build/hotscore
jq=$build/tests/jsonq
out=$build/bench-fast
doc=$root/docs/PERFORMANCE.md
mkdir -p "$out"
. "$root/scripts/doc-section.sh"

dists=seed,uniform,young,zero,worst
vs_hotfix=(--profile hotfix,fast,fast-batch,fast-batch-scalar,hotfix-batch
	   --dist $dists --mode throughput,latency --seed 1)
# inputs too many for the branch predictor to learn (docs/bench.md, Limits)
big=(--profile hotfix,fast,fast-batch,fast-batch-scalar --dist uniform,young
     --mode throughput --pool 262144 --iterations 4000000 --seed 1)
# a preparation costs about 1500 score calls: far fewer of them
prep=(--profile hotfix,fast-prepare --dist seed,uniform --mode throughput
      --iterations 24000 --runs 6 --seed 1)
vs_v2=(--profile v2-ilog2,fast,fast-batch --dist $dists
       --mode throughput,latency --seed 1)
# the AVX2 scorer, insisted on: on a CPU with AVX-512 too, it stands in
# for one without (AMD before Zen 4, Intel's client cores)
avx2=(--profile hotfix,fast-batch,fast-batch-scalar --dist $dists
      --mode throughput --seed 1)
has_avx2=false
grep -qw avx2 /proc/cpuinfo 2>/dev/null && has_avx2=true

echo "bench-fast: against hotfix, 5 distributions x 2 modes" >&2
"$hs" bench "${vs_hotfix[@]}" --format markdown --json "$out/hotfix.json" \
	>"$out/hotfix.md"
echo "bench-fast: a pool of 262144" >&2
"$hs" bench "${big[@]}" --format markdown >"$out/big.md"
echo "bench-fast: the preparation" >&2
"$hs" bench "${prep[@]}" --json "$out/prep.json" >"$out/prep.txt"
echo "bench-fast: against v2-ilog2" >&2
"$hs" bench "${vs_v2[@]}" --format markdown --json "$out/v2.json" \
	>"$out/v2.md"
if $has_avx2; then
	echo "bench-fast: the AVX2 scorer (HOTSCORE_SIMD=avx2)" >&2
	HOTSCORE_SIMD=avx2 "$hs" bench "${avx2[@]}" --format markdown \
		--json "$out/avx2.json" >"$out/avx2.md"
fi

# ratio [CI] of VARIANT against the file's baseline, per dist and mode
ratio() {	# JSON VARIANT DIST MODE
	local i n
	n=$("$jq" "$1" comparisons | cut -d' ' -f2)
	for ((i = 0; i < n; i++)); do
		set -- "$1" "$2" "$3" "$4" $("$jq" "$1" comparisons.$i.variant \
			comparisons.$i.dist comparisons.$i.mode)
		if [ "$5" = "$2" ] && [ "$6" = "$3" ] && [ "$7" = "$4" ]; then
			"$jq" "$1" comparisons.$i.ratio comparisons.$i.ci_low \
				comparisons.$i.ci_high | paste -sd' ' |
				awk '{ printf "%.2f [%.2f-%.2f]", $1, $2, $3 }'
			return
		fi
	done
	echo "-"
}

summary() {	# MODE
	local d
	for d in ${dists//,/ }; do
		echo "| $d | $(ratio "$out/hotfix.json" fast "$d" "$1") |" \
		     "$(ratio "$out/hotfix.json" fast-batch "$d" "$1") |" \
		     "$(ratio "$out/hotfix.json" fast-batch-scalar "$d" "$1") |" \
		     "$(ratio "$out/hotfix.json" hotfix-batch "$d" "$1") |" \
		     "$(ratio "$out/v2.json" fast "$d" "$1") |" \
		     "$(ratio "$out/v2.json" fast-batch "$d" "$1") |"
	done
}

# "X ns (dist), Y ns (dist)": VARIANT's throughput medians
ns_by_dist() {	# JSON VARIANT
	local i n
	n=$("$jq" "$1" results | cut -d' ' -f2)
	for ((i = 0; i < n; i++)); do
		set -- "$1" "$2" $("$jq" "$1" results.$i.variant results.$i.mode \
			results.$i.ns_per_call.median results.$i.dist)
		[ "$3" = "$2" ] && [ "$4" = throughput ] &&
			printf '%.0f ns (%s)\n' "$5" "$6"
	done | paste -sd, | sed 's/,/, /g'
}

# what fast-batch scored with, over the distributions of a run
vector_used() {	# JSON
	local i n
	n=$("$jq" "$1" results | cut -d' ' -f2)
	for ((i = 0; i < n; i++)); do
		[ "$("$jq" "$1" results.$i.variant)" = fast-batch ] &&
			"$jq" "$1" results.$i.vector
	done | sort -u | paste -sd/
}

# The AVX2 section: what the run stands for on this CPU, its ratios, its
# table; one line where the CPU has no AVX2.
avx2_section() {
	local j=$out/avx2.json d flags
	echo "### AVX2: a CPU without AVX-512"
	echo
	if ! $has_avx2; then
		echo "This CPU has no AVX2: no AVX2 figure."
		return
	fi
	flags=$("$jq" "$j" environment.cpu_flags)
	echo "\`HOTSCORE_SIMD=avx2 hotscore bench ${avx2[*]}\`:"
	echo "\`fast-batch\` scored with **$(vector_used "$j")**, the AVX2 scorer (8"
	echo "regions a vector, one gather a vector), which \`auto\` picks on x86-64"
	echo "CPUs with AVX2 but without AVX-512 (AMD EPYC before Zen 4, Intel's"
	echo "client cores)."
	case " $flags " in
	*" avx512f "*)
		echo "This CPU has AVX-512 too (CPU flags: $flags), so the run"
		echo "*emulates* such a CPU: HOTSCORE_SIMD=avx2 makes \`fast-batch\`"
		echo "use only AVX2 instructions. The instructions are those a CPU"
		echo "without AVX-512 runs; their costs are this CPU's (a gather,"
		echo "for one, is several times dearer on AMD's cores)." ;;
	*)
		echo "This CPU has no AVX-512 (CPU flags: $flags): \`auto\`"
		echo "chooses the AVX2 scorer too." ;;
	esac
	echo "Target: 5x hotfix per region."
	echo
	echo "| dist | fast-batch (avx2) vs hotfix | fast-batch-scalar vs hotfix |"
	echo "|---|---|---|"
	for d in ${dists//,/ }; do
		echo "| $d | $(ratio "$j" fast-batch "$d" throughput) |" \
		     "$(ratio "$j" fast-batch-scalar "$d" throughput) |"
	done
	echo
	cat "$out/avx2.md"
}

clock_note() {
	local j=$out/hotfix.json
	if [ "$("$jq" "$j" environment.tsc)" = true ]; then
		echo "Cycle figures are TSC ticks (TSC-derived); counters: $("$jq" "$j" environment.counters)."
	else
		echo "Clock: $("$jq" "$j" environment.clock)."
	fi
}

# in context: 1000 regions, the score + histogram stage before and after
ctx=(--minr 1000 --maxr 1000 --duration 60s)
stage_runs() {	# PROFILE SCORER: 5 invocations, the stage line of each
	local k
	for k in 1 2 3 4 5; do
		echo "bench-fast: in context, $1, kernel vs $2, invocation $k of 5" >&2
		"$hs" sim "${ctx[@]}" --profile "$1" --scorer "kernel,$2" \
			>"$out/sim-$1-$2-$k.txt"
		grep -q '^  decisions identical for this workload' "$out/sim-$1-$2-$k.txt" || {
			echo "bench-fast: $1: kernel and $2 decided differently" >&2
			exit 1
		}
	done
}
stage_row() {	# PROFILE SCORER
	local k
	for k in 1 2 3 4 5; do
		sed -n 's/^score + histogram stage: kernel \([0-9]*\) ns -> [a-z-]* \([0-9]*\) ns per aggregation: \([0-9.]*\)x.*/\1 \2 \3/p' \
			"$out/sim-$1-$2-$k.txt"
	done | sort -k3 -g | awk -v p="$1" -v s="$2" '
		{ a[NR] = $1; b[NR] = $2; r[NR] = $3 }
		END { m = int((NR + 1) / 2)
		      printf "| %s | %s | %d | %d | %.2fx | %.2f-%.2fx |\n",
			p, s, a[m], b[m], r[m], r[1], r[NR] }'
}
for p in hotfix mm-new; do
	for s in fast fast-batch; do
		stage_runs "$p" "$s"
	done
done

section=$(mktemp)
trap 'rm -f "$section"' EXIT
{
	echo "<!-- fast:begin (written by make bench; edits here are lost) -->"
	echo "## The prepared scorer (\`fast\`, \`fast-batch\`)"
	echo
	echo "Measured $(date -u +%Y-%m-%d) by \`make bench\` (scripts/bench-fast.sh) on"
	echo "$("$jq" "$out/hotfix.json" environment.cpu_model), CPU $("$jq" "$out/hotfix.json" environment.cpu) pinned,"
	echo "Linux $("$jq" "$out/hotfix.json" environment.kernel), $("$jq" "$out/hotfix.json" environment.compiler)."
	echo "\`fast-batch\` scored with **$(vector_used "$out/hotfix.json")**; a prepared"
	echo "scheme is $("$jq" "$out/hotfix.json" config.prepared_bytes) bytes (\`sizeof(struct hs_prep)\`)."
	echo "$(clock_note) \`fast\` is one"
	echo "region per call through a function pointer, as the kernel calls"
	echo "\`damon_hot_score()\`; the batches score $("$jq" "$out/hotfix.json" config.batch_regions) regions a call and are"
	echo "reported **per region**. In latency mode a batch's calls are chained,"
	echo "not its regions, so its throughput row is the one to read. See"
	echo "[proposal-prepared-score.md](proposal-prepared-score.md)."
	echo
	echo "### Ratios, throughput (time of the baseline / time of the variant, per region)"
	echo
	echo "Paired ratios with the 95 % interval of a re-run, from the two runs below."
	echo "Target: 5x per region in a batch."
	echo
	echo "| dist | fast vs hotfix | fast-batch vs hotfix | fast-batch-scalar vs hotfix | hotfix-batch vs hotfix | fast vs v2-ilog2 | fast-batch vs v2-ilog2 |"
	echo "|---|---|---|---|---|---|---|"
	summary throughput
	echo
	echo "The same in latency mode:"
	echo
	echo "| dist | fast vs hotfix | fast-batch vs hotfix | fast-batch-scalar vs hotfix | hotfix-batch vs hotfix | fast vs v2-ilog2 | fast-batch vs v2-ilog2 |"
	echo "|---|---|---|---|---|---|---|"
	summary latency
	echo
	echo "Preparing a scheme (\`fast-prepare\`: prepare, then score one"
	echo "region) costs $(ns_by_dist "$out/prep.json" fast-prepare)"
	echo "(\`hotscore bench ${prep[*]}\`): once per change of a scheme's"
	echo "weights or of the context's intervals."
	echo
	echo "### Against hotfix"
	echo
	echo "\`hotscore bench ${vs_hotfix[*]}\`:"
	echo
	cat "$out/hotfix.md"
	echo
	echo "### A pool too large for the branch predictor"
	echo
	echo "\`hotscore bench ${big[*]}\`: the same figures as with the"
	echo "default pool of 1000 mean that no branch of the scorer lives on"
	echo "patterns the predictor learned from a cycled pool."
	echo
	cat "$out/big.md"
	echo
	echo "### Against v2-ilog2"
	echo
	echo "\`hotscore bench ${vs_v2[*]}\`:"
	echo
	cat "$out/v2.md"
	echo
	avx2_section
	echo
	echo "### In context: the score + histogram stage"
	echo
	echo "\`hotscore sim ${ctx[*]} --profile P --scorer kernel,S\`,"
	echo "5 invocations each; every one made identical decisions with both"
	echo "scorers. ns per aggregation (TSC-derived), the median invocation by"
	echo "ratio, and the range of the ratio:"
	echo
	echo "| profile | scorer | kernel ns | prepared ns | ratio | range |"
	echo "|---|---|---|---|---|---|"
	for p in hotfix mm-new; do
		for s in fast fast-batch; do
			stage_row "$p" "$s"
		done
	done
	echo
	echo "One of them in full (hotfix, fast-batch, invocation 1):"
	echo
	sed -n '/^cost per aggregation/,$p' \
		"$out/sim-hotfix-fast-batch-1.txt" | grep -v '^$' | sed 's/^/    /'
	echo
	echo "<!-- fast:end -->"
} >"$section"

splice_section "$doc" fast "$section"
echo "bench-fast: wrote $doc" >&2
