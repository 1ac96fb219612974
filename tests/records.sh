#!/usr/bin/env bash
# hotscore convert and compare-records: a damon_aggregated trace made
# from a sim record (tests/records_trace.awk) converts back to a record
# with the sim's regions, snapshot by snapshot; two sims of one config
# are within the bounds, other workloads and rates outside on named rows;
# damo reads what convert writes; bad input is one line and exit 2.
# Usage: tests/records.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: records.sh HOTSCORE JSONQ}
jq=${2:?usage: records.sh HOTSCORE JSONQ}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
jq=$(cd "$(dirname "$jq")" && pwd)/$(basename "$jq")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data/records
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
cd "$tmp" || exit 1

# rows JSON: "metric real sim result" a line, from compare-records --json
rows() {
	local n i
	n=$("$jq" "$1" rows | sed 's/^array //')
	for ((i = 0; i < n; i++)); do
		"$jq" "$1" rows.$i.metric rows.$i.real rows.$i.sim rows.$i.result |
			paste -sd'|'
	done
}

# --- the hand-written trace of tests/data/records: what the spec says ----
"$hs" convert "$data/trace-6.1.txt" --record fix.json --record_format json \
	--damos_stats "$data/stats.txt" >fix.out 2>&1 &&
	grep -q '^hotscore convert: 3 snapshots of target_id 0, 3..4 regions' fix.out &&
	grep -q '1 line of other events ignored' fix.out &&
	ok "the fixture: 3 snapshots, 3..4 regions, the sched line ignored" ||
	fail "fixture" "$(cat fix.out)"
# snapshot 1 ends at its first line's timestamp and starts where 0 ended;
# snapshot 0 starts one aggregation (100 ms) before its end
got=$("$jq" fix.json 0.snapshots.0.start_time 0.snapshots.0.end_time \
	0.snapshots.1.start_time 0.snapshots.1.end_time \
	0.snapshots.1.regions.1.nr_accesses.samples \
	0.snapshots.1.regions.1.age.aggr_intervals \
	0.snapshots.2.damos_stats.qt_exceeds 0.snapshots.1.damos_stats | paste -sd' ')
[ "$got" = "120404117000 120504117000 120504117000 120604409000 18 0 2 missing" ] &&
	ok "times from the first line of each snapshot; stats in the last only" ||
	fail "fixture fields" "$got"

# --- round trip: sim record -> trace text -> convert -> the same record ---
"$hs" sim --no-timing --duration 20s --record sim.json --record_format json \
	>/dev/null 2>&1 || fail "sim" "exit $?"
awk -v base=1234 -f "$here/records_trace.awk" sim.json >trace.txt
nsnap=$(grep -c '^{"start_time"' sim.json)
"$hs" convert trace.txt --record conv.data >conv.out 2>&1 &&
	grep -q "^hotscore convert: $nsnap snapshots" conv.out &&
	grep -q "  $nsnap lines of other events ignored" conv.out &&
	[ "$(file -b conv.data)" = "zlib compressed data" ] &&
	ok "$nsnap snapshots converted into json_compressed, $nsnap other lines ignored" ||
	fail "convert" "$(cat conv.out)"
"$hs" compare-records sim.json conv.data --json rt.json >rt.out 2>&1
rc=$?
rows rt.json >rt.rows
# every metric the trace carries is the sim's exactly; stats: not in both
bad=$(awk -F'|' '$2 != $3 && $4 != "n/a"' rt.rows)
[ $rc -eq 0 ] && [ -z "$bad" ] && [ "$(grep -c "|within$" rt.rows)" -eq 12 ] &&
	[ "$(grep -c "|info$" rt.rows)" -eq 14 ] &&
	[ "$(grep -c '|n/a$' rt.rows)" -eq 5 ] &&
	ok "round trip: schedule, nr_regions, WSS, ages, nr_accesses, scores equal the sim's (12 rows counted, 14 shown)" ||
	fail "round trip" "exit $rc; $bad; $(tail -3 rt.out)"
grep -q "^compared over the first 19.9 s of each ($nsnap and $nsnap snapshots)" rt.out &&
	ok "both timed from their first snapshot: $nsnap and $nsnap compared" ||
	fail "window" "$(head -4 rt.out)"
# the stats, as a sysfs directory would show them, land in the last snapshot
last=$(grep '^{"start_time"' sim.json | tail -1 |
	sed 's/.*"damos_stats": {\([^}]*\)}.*/\1/; s/"//g; s/, /\n/g; s/: / /g')
printf '%s\n' "$last" >stats.txt
"$hs" convert - --record conv2.data --damos_stats stats.txt <trace.txt >/dev/null 2>&1 &&
	"$hs" compare-records sim.json conv2.data --json rt2.json >/dev/null 2>&1 &&
	rows rt2.json | grep -E '^(nr|sz)_(tried|applied)|^qt_exceeds' >st.rows &&
	[ "$(wc -l <st.rows)" -eq 5 ] && [ -z "$(awk -F'|' '$2 != $3' st.rows)" ] &&
	ok "--damos_stats from stdin's trace: the 5 stats equal the sim's" ||
	fail "stats" "$(cat st.rows stats.txt)"
# a kernel before 5.16: no ages, written as 0
awk -v base=5 -v noage=1 -f "$here/records_trace.awk" sim.json >noage.txt
"$hs" convert noage.txt --record noage.json --record_format json >noage.out 2>&1 &&
	grep -q 'no ages' noage.out &&
	[ "$("$jq" noage.json 0.snapshots.5.regions.0.age.aggr_intervals)" = 0 ] &&
	ok "a trace without ages: age 0, and said" || fail "no age" "$(cat noage.out)"

# hs_sample events: the intervals the kdamond kept, measured into the record
awk -v base=1234 -v samples=14 -f "$here/records_trace.awk" sim.json >smp.txt
"$hs" convert smp.txt --record smp.json --record_format json >smp.out 2>&1
smp_us=$("$jq" smp.json 0.intervals.sample_us)
aggr_us=$("$jq" smp.json 0.intervals.aggr_us)
got="$smp_us $aggr_us"
# the sim's aggregations end a little past 100 ms apart (its clock reads);
# 14 samples an aggregation: the sample interval about a 14th of that
grep -q "^  $((14 * nsnap)) hs_sample events, 14..14 an aggregation; measured: sample $smp_us us, aggr $aggr_us us (in the record)$" smp.out &&
	[ "$aggr_us" -ge 100000 ] && [ "$aggr_us" -le 100500 ] &&
	[ $((aggr_us / 14 - smp_us)) -ge -8 ] && [ $((aggr_us / 14 - smp_us)) -le 8 ] &&
	ok "hs_sample events: 14 an aggregation, measured and written: sample_us aggr_us $got" ||
	fail "hs_sample" "'$got'; $(cat smp.out)"
"$hs" compare-records smp.json sim.json >smp.cmp 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^samples per aggregation .* 14 .* 20 .*OUTSIDE$' smp.cmp &&
	grep -q '^aggregation interval (us) .*within$' smp.cmp &&
	ok "14 samples an aggregation against sim's 20: outside, exit 1" ||
	fail "samples row" "exit $rc; $(grep -E '^(samples|aggregation)' smp.cmp)"
"$hs" sim --no-timing --duration 20s --sample 7153us --aggr 100142us \
	--record smp-sim.json >/dev/null 2>&1
"$hs" compare-records smp.json smp-sim.json >smp2.cmp 2>&1 &&
	grep -q '^samples per aggregation .*within$' smp2.cmp &&
	ok "against a sim of the measured intervals: $(tail -1 smp2.cmp)" ||
	fail "measured sim" "$(grep -E 'OUTSIDE|^samples' smp2.cmp)"
"$hs" convert - --record smp3.json <smp.txt >smp3.out 2>&1 &&
	grep -q "measured: sample $smp_us us, aggr $aggr_us us (not in the record: a stream is read once)\$" smp3.out &&
	"$hs" convert smp.txt --sample 4ms --record smp4.json --record_format json >smp4.out 2>&1 &&
	grep -q '(not in the record: --sample or --aggr given)$' smp4.out &&
	[ "$("$jq" smp4.json 0.intervals.sample_us)" = 4000 ] &&
	ok "stdin, or --sample given: measured, said, not written" ||
	fail "hs_sample not written" "$(cat smp3.out smp4.out)"
awk -v base=1234 -v samples=14 -v prepare=1 -f "$here/records_trace.awk" \
	sim.json >win.txt
"$hs" convert win.txt --record win.json >win.out 2>&1 &&
	grep -q "^  $((14 * nsnap)) hs_prepare events: a sample's window was open 3339 us on average, 46.7 % of its interval$" win.out &&
	! grep -q 'window' smp.out &&
	ok "hs_prepare events: $(grep -o 'window .*' win.out)" ||
	fail "hs_prepare" "$(cat win.out)"

# --- damo reads what convert writes ---------------------------------------
damo=${HS_DAMO:-$here/../../shared/tools/damo}/src/damo.py	# as tests/damo.sh
. "$here/../scripts/pkgs.sh"	# python3 and file(1), as tests/damo.sh
[ -f "$damo" ] && pkgs_need python3 file
if [ -f "$damo" ] && command -v python3 >/dev/null && command -v file >/dev/null; then
	python3 "$damo" validate --input conv.data >d.out 2>&1 &&
		! grep -qi 'error\|traceback' d.out &&
		ok "damo validate reads the converted record" ||
		fail "damo validate" "$(tail -3 d.out)"
	# the same sim run, json_compressed, which damo reads (tests/damo.sh)
	"$hs" sim --no-timing --duration 20s --record simz.rec >/dev/null 2>&1
	for f in simz.rec conv.data; do
		python3 "$damo" report wss --raw_number --all_wss --sortby time \
			--exclude_samples 0 --input "$f" 2>&1 |
			awk '!/^#/ { print $2 }' >"$f.wss"
	done
	[ "$(wc -l <conv.data.wss)" -eq "$nsnap" ] &&
		cmp -s simz.rec.wss conv.data.wss &&
		ok "damo report wss: the converted record's $nsnap working sets are the sim's" ||
		fail "damo wss" "$(diff simz.rec.wss conv.data.wss | head -4)"
elif [ -n "${HS_REQUIRE_DAMO:-}" ]; then
	fail "damo" "no damo, python3 or file (HS_REQUIRE_DAMO is set)"
else
	echo "SKIP damo: no ../shared/tools/damo, python3 or file"
fi

# --- two sims of one config: within; others: outside on named rows -------
"$hs" sim --no-timing --record s1.rec >/dev/null 2>&1
"$hs" sim --no-timing --seed 2 --record s2.rec >/dev/null 2>&1
"$hs" compare-records s1.rec s2.rec >seeds.out 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^31 rows (14 for information): 0 outside the bounds$' seeds.out &&
	ok "stairs, seeds 1 and 2: every counted row within" ||
	fail "seeds" "exit $rc; $(grep OUTSIDE seeds.out)"
"$hs" sim --no-timing --workload zigzag --record z.rec >/dev/null 2>&1
"$hs" compare-records s1.rec z.rec >zig.out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^wss p50 .*OUTSIDE$' zig.out &&
	grep -q '^nr_accesses p50 (samples) .*OUTSIDE$' zig.out &&
	ok "stairs against zigzag: exit 1, $(tail -1 zig.out)" ||
	fail "zigzag" "exit $rc; $(tail -1 zig.out)"
"$hs" sim --no-timing --rate 100 --record slow.rec >/dev/null 2>&1
"$hs" compare-records s1.rec slow.rec --json slow.json >slow.out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^nr_accesses p90 (samples) .*OUTSIDE$' slow.out &&
	grep -q '^wss p90 .* info$' slow.out &&
	[ "$("$jq" slow.json outside)" -ge 1 ] &&
	ok "rate 100000 against 100 accesses/ms: exit 1, $(tail -1 slow.out)" ||
	fail "rate" "exit $rc; $(tail -1 slow.out)"
# the bounds are symmetric: either record as REAL gives the same verdicts
"$hs" compare-records s1.rec z.rec --json sym1.json >/dev/null 2>&1
"$hs" compare-records z.rec s1.rec --json sym2.json >/dev/null 2>&1
rows sym1.json | cut -d'|' -f1,4 >sym1.rows
rows sym2.json | cut -d'|' -f1,4 >sym2.rows
cmp -s sym1.rows sym2.rows && [ "$(grep -c 'OUTSIDE' sym1.rows)" -ge 2 ] &&
	ok "the other way round, the same $(grep -c OUTSIDE sym1.rows) rows outside" ||
	fail "symmetric" "$(diff sym1.rows sym2.rows | head -5)"

# --- bad input: one line, exit 2 --------------------------------------------
ev='k-1 [0] ..... 1.000001: damon_aggregated: target_id=0'
expect_bad "malformed event line" "$ev nr_regions=1 4096-8192 0 0
" convert - --record x
expect_bad "end <= start" "$ev nr_regions=1 8192-8192: 0 0
" convert - --record x
expect_bad "cut short at EOF" "$ev nr_regions=3 4096-8192: 0 0
$ev nr_regions=3 8192-12288: 0 0
" convert - --record x
expect_bad "too many regions" "$ev nr_regions=99999999 4096-8192: 0 0
" convert - --record x
expect_bad "regions out of order" "$ev nr_regions=2 8192-12288: 0 0
$ev nr_regions=2 4096-8192: 0 0
" convert - --record x
expect_bad "a second target" "$ev nr_regions=1 4096-8192: 0 0
${ev%0}1 nr_regions=1 4096-8192: 0 0
" convert - --record x
expect_bad "lost events" "$ev nr_regions=1 4096-8192: 0 0
CPU:0 [LOST 12 EVENTS]
" convert - --record x
sm='k-1 [0] d.... 2.000000: hs_sample: (damon_va_check_accesses+0x0/0x1c0)'
expect_bad "samples out of time order" "$sm
${sm/2.000000/1.500000}
" convert - --record x
expect_bad "a sample's start before the sample before" "$sm
${sm/hs_sample/hs_prepare}
${sm/2.000000: hs_sample/1.000000: hs_prepare}
" convert - --record x
expect_bad "a sample without a timestamp" "k-1 [0] d.... hs_sample: (x)
" convert - --record x
expect_bad "no events at all" "# tracer: nop
" convert - --record x
sed 's/^nr_tried/nr_tires/' "$data/stats.txt" >typo.txt
expect_bad "stats: a name DAMON has not" "" convert "$data/trace-6.1.txt" \
	--record x --damos_stats typo.txt
sed '/^qt_exceeds/d' "$data/stats.txt" >short.txt
expect_bad "stats: one missing" "" convert "$data/trace-6.1.txt" \
	--record x --damos_stats short.txt
expect_bad "compare: one record" "" compare-records s1.rec
expect_bad "compare: not a record" "" compare-records "$data/trace-6.1.txt" s1.rec
expect_bad "compare: a candidate file as --profile" "" compare-records s1.rec s1.rec \
	--profile "$here/../examples/candidates/hotfix.c"
printf '%s\n' "$ev nr_regions=3 4096-8192: 0 0" "$ev nr_regions=3 8192-12288: 0 0" |
	"$hs" convert - --record x 2>&1 | grep -q '^hotscore convert: -: line 2: the trace ends inside the snapshot of line 1: 2 of its 3 regions$' &&
	ok "a cut-short snapshot names its line and its count" || fail "cut message" ""
[ ! -e x ] && ok "no record left behind by a failed convert" || fail "x" "exists"

report_counts
