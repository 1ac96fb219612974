#!/usr/bin/env bash
# Sim against a real kdamond: the gate of make test-kernel's live run, and
# of scripts/live-runs.sh's.  RUNDIR holds what the guest dumped
# (scripts/guest/live.sh): trace.txt (damon_aggregated and hs_sample
# events), damos_stats.txt and workload.txt.
#   1. hotscore convert: the trace into a damo record, real.json.gz, with
#      the intervals the kdamond really kept (measured from hs_sample);
#   2. hotscore sim of the run's own measurements: the rate each phase of
#      the workload achieved and the kdamond's measured intervals, the
#      guest's two schemes;
#      compare-records must find no counted row outside;
#   3. the same with --seed 2: no row outside either;
#   4. negative controls, each a simulator wrong in one way: --sample 2x
#      and 1/2x, --aggr 2x, the rate / 10, --minr 3x, the other workload;
#      compare-records must find each outside.
# Prints the table and one line per verdict ("sim against real:", "second
# seed:", "controls: N of 6 failed as they should"); exit 0 when all hold.
# Usage: scripts/live-gate.sh HOTSCORE RUNDIR
set -uo pipefail
hs=${1:?usage: live-gate.sh HOTSCORE RUNDIR}
d=${2:?usage: live-gate.sh HOTSCORE RUNDIR}
bad=0

# the guest's two schemes (scripts/guest/live.sh), as sim's options
schemes=(--damos_action pageout --damos_access_rate 0% 0% --damos_age 2s max
	--damos_quotas 0 8MiB 1s 0 0 1 --damos_action pageout
	--damos_access_rate 0% 100% --damos_age 0 max
	--damos_quotas 0 1MiB 1s 0 7 3)

if ! "$hs" convert "$d/trace.txt" --record "$d/real.json.gz" \
	--damos_stats "$d/damos_stats.txt" >"$d/convert.txt" 2>&1; then
	echo "sim against real: convert failed: $(head -c 300 "$d/convert.txt")"
	exit 1
fi
cat "$d/convert.txt"
sample=$(sed -n 's/.*measured: sample \([0-9]*\) us, aggr [0-9]* us (in the record).*/\1/p' "$d/convert.txt")
aggr=$(sed -n 's/.*measured: sample [0-9]* us, aggr \([0-9]*\) us (in the record).*/\1/p' "$d/convert.txt")
# "achieved R accesses per ms: hotscore sim --workload W --rate R ..."
read -r -a run <<<"$(sed -n 's/^achieved .*: hotscore sim \(--workload .*\)$/\1/p' "$d/workload.txt")"
if [ -z "$sample" ] || [ -z "$aggr" ] || [ ${#run[@]} -lt 4 ]; then
	echo "sim against real: no measured intervals (hs_sample events) or no workload line in $d"
	exit 1
fi
wl=${run[1]} rate=${run[3]}
# a config file the guest read (/live.cfg): the copy in RUNDIR
if [ "${wl#/}" != "$wl" ]; then
	wl=$d/${wl##*/}
	run[1]=$wl
	[ -f "$wl" ] || { echo "sim against real: no $wl beside the run"; exit 1; }
fi
# sim aggregates every aggr / sample samples, a whole number: the real
# run's mean, rounded, over the aggregation interval it kept
spa=$(( (aggr + sample / 2) / sample ))
[ "$spa" -ge 1 ] || spa=1
sample=$((aggr / spa))
# a sample sees the accesses made while it was open (hs_prepare to
# hs_sample), not those while kdamond worked: sim's sample is open all
# along, so its rates are the real ones times window / sample
window=$(sed -n 's/.*window was open \([0-9]*\) us on average.*/\1/p' "$d/convert.txt")
[ -n "$window" ] && [ "$window" -le "$sample" ] || window=$sample

# each phase's own rate, from the workload's table (a phase that never ran,
# or has no access lines, takes the run's): a TCG guest runs stairs' ten
# lines of the initial phase at a quarter of the others' speed
rates() {	# DIVISOR
	awk -v all="$rate" -v div="$1" -v w="$window" -v s="$sample" '
		/^  phase +ms +runs/ { on = 1; next }
		on && /^  all / { exit }
		on { v = $NF + 0; if (v <= 0) v = all; v = int(v * w / s / div)
		     r = r (r != "" ? "," : "") (v < 1 ? 1 : v) }
		END { print r }' "$d/workload.txt"
}
run[3]=$(rates 1)

# compare NAME SIM-OPTION...: sim with the run's measurements, the
# options after NAME overriding them; compare-records' exit status
compare() {
	local name=$1
	shift
	rm -f "$d/sim-$name.txt" "$d/cmp-$name.txt" "$d/cmp-$name.json"
	"$hs" sim "${run[@]}" --sample "${sample}us" --aggr "${aggr}us" \
		"${schemes[@]}" "$@" --record "$d/sim-$name.json.gz" \
		>"$d/sim-$name.txt" 2>&1 || {
		echo "sim failed: $(tail -1 "$d/sim-$name.txt")" >"$d/cmp-$name.txt"
		return 2
	}
	"$hs" compare-records "$d/real.json.gz" "$d/sim-$name.json.gz" \
		--json "$d/cmp-$name.json" >"$d/cmp-$name.txt" 2>&1
}

# the last line of a comparison: "N rows (K for information): M outside..."
verdict() { tail -1 "$d/cmp-$1.txt" 2>/dev/null; }

compare sim
rc=$?
echo "--- hotscore sim ${run[*]} --sample ${sample}us --aggr ${aggr}us ${schemes[*]}"
cat "$d/cmp-sim.txt"
if [ $rc -eq 0 ]; then
	echo "sim against real: $(verdict sim)"
else
	echo "sim against real: FAILED (exit $rc): $(verdict sim)"
	bad=1
fi
compare seed2 --seed 2
rc=$?
if [ $rc -eq 0 ]; then
	echo "second seed: $(verdict seed2)"
else
	echo "second seed: FAILED (exit $rc): $(verdict seed2)"
	bad=1
fi

other=zigzag
[ "$wl" = zigzag ] && other=stairs	# the other built-in
minr=10					# the guest's (scripts/guest/live.sh)
# with one sample an aggregation, a 2x sample needs a 2x aggregation too
sample2="--sample $((sample * 2))us"
[ "$spa" -ge 2 ] || sample2="$sample2 --aggr $((aggr * 2))us"
controls=("sample-2x $sample2"
	  "sample-half --sample $((sample / 2))us"
	  "aggr-2x --aggr $((aggr * 2))us"
	  "rate-10th --rate $(rates 10)"
	  "minr-3x --minr $((minr * 3))"
	  "workload-$other --workload $other --rate $(rates 1 | tr , '\n' |
		awk '{ s += $1 } END { print int(s / NR) }')")
failed=0 lines=()
for c in "${controls[@]}"; do
	read -r -a words <<<"$c"
	compare "${words[@]}"
	rc=$?
	if [ $rc -eq 1 ]; then
		failed=$((failed + 1))
		lines+=("  ${words[*]:1}: fails, as it should: $(verdict "${words[0]}")")
	else
		lines+=("  ${words[*]:1}: PASSED THE GATE (exit $rc): $(verdict "${words[0]}")")
	fi
done
echo "controls: $failed of ${#controls[@]} failed as they should"
printf '%s\n' "${lines[@]}"
[ "$failed" -eq ${#controls[@]} ] || bad=1
exit $bad
