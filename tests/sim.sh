#!/usr/bin/env bash
# End-to-end tests of `hotscore sim`: the default run and its cost table,
# profile comparisons that agree and that differ, damo-format records that
# are valid and deterministic, the heatmap, JSON, an overrun, bad input.
# Usage: tests/sim.sh PATH/TO/hotscore PATH/TO/jsonq PATH/TO/damocheck
set -u
hs=${1:?usage: sim.sh HOTSCORE JSONQ DAMOCHECK}
jq=${2:?usage: sim.sh HOTSCORE JSONQ DAMOCHECK}
dc=${3:?usage: sim.sh HOTSCORE JSONQ DAMOCHECK}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# --- bad input: one line, exit 2 -------------------------------------
printf 'a, 4096\n\np\n100\nb, 0, 4096, 1\n' >"$tmp/badregion.cfg"
printf 'a, 4096\n\np\nsoon\n' >"$tmp/badtime.cfg"
printf 'a, 4096\n\np\n100\na, 0, 4096\n' >"$tmp/fields.cfg"
expect_bad "workload: unknown region" "" sim --workload "$tmp/badregion.cfg"
grep -q "badregion.cfg:5: no region named 'b'" "$tmp/err" &&
	ok "error names file and line" || fail "file:line" "$(cat "$tmp/err")"
expect_bad "workload: bad duration" "" sim --workload "$tmp/badtime.cfg"
grep -q "badtime.cfg:4:" "$tmp/err" && ok "duration error at line 4" ||
	fail "duration line" "$(cat "$tmp/err")"
expect_bad "workload: missing field" "" sim --workload "$tmp/fields.cfg"
expect_bad "workload: no such file" "" sim --workload "$tmp/nosuch.cfg"
expect_bad "unknown option" "" sim --frobnicate
expect_bad "unknown action" "" sim --damos_action hugepage
expect_bad "a scheme option twice for one action" "" sim --damos_action stat --damos_age 1s max --damos_age 2s max
grep -q -- "--damos_age is given twice, --damos_action once before it" "$tmp/err" &&
	ok "the message counts in words" || fail "counts" "$(cat "$tmp/err")"
expect_bad "a scheme option twice, no action" "" sim --damos_quotas 10ms --damos_quotas 20ms
expect_bad "one value short" "" sim --damos_action stat --damos_age 1s
expect_bad "bad time unit" "" sim --sample 5parsecs
expect_bad "bad size" "" sim --damos_action stat --damos_sz_region 4KiB lots
expect_bad "rate above 100%" "" sim --damos_action stat --damos_access_rate 0% 101%
expect_bad "sample > aggr" "" sim --sample 200ms --aggr 100ms
expect_bad "minr below 3" "" sim --minr 2
expect_bad "minr > maxr" "" sim --minr 50 --maxr 20
expect_bad "unknown profile" "" sim --profile v9
expect_bad "three profiles" "" sim --profile v6.6,hotfix,mm-new
expect_bad "bad ops" "" sim --ops kaddr
expect_bad "zero duration" "" sim --duration 0
expect_bad "sub-microsecond time" "" sim --sample 1500ns
expect_bad "u32 divisor divides by zero" "" sim --profile v5.16 --sample 1 --aggr 4294967296
printf 'a, 4096\n\np\n100\na, 0, 4096, 0\n' >"$tmp/zero.cfg"
expect_bad "workload: every probability 0" "" sim --workload "$tmp/zero.cfg"
grep -q "zero.cfg:5: phase 'p': every probability is 0" "$tmp/err" &&
	ok "zero probabilities named at their line" || fail "zero" "$(cat "$tmp/err")"
printf 'a, 70000000000\n\np\n100\n' >"$tmp/huge.cfg"
expect_bad "workload: above 64 GiB" "" sim --workload "$tmp/huge.cfg"
printf 'a, 4096\n\np\n2592000000\n\nq\n2592000000\n' >"$tmp/long.cfg"
expect_bad "workload pass above 30 days" "" sim --workload "$tmp/long.cfg"
expect_bad "duration above 30 days" "" sim --duration 721h
expect_bad "more than 10^9 samples" "" sim --sample 1 --aggr 1 --duration 2000s
expect_bad "a record too large" "" sim --sample 1ms --aggr 1ms --duration 1h --record "$tmp/r"
[ -e "$tmp/r" ] && fail "record size" "file created anyway" || ok "nothing written"
# the messages of bad schemes and settings fit 100 columns, the try hint too
: >"$tmp/msgs"
for a in "--damos_action hugepage" "--damos_action stat --damos_age 1s max --damos_age 2s max" \
	 "--damos_quotas 10ms --damos_quotas 20ms" "--scorer kernel,fast --capture 10" \
	 "--damos_quotas 10ms 8MiB 1s 0 0 4294967296" "--profile v5.16 --sample 1 --aggr 4294967296" \
	 "--sample 1ms --aggr 1ms --duration 1h --record $tmp/r"; do
	# shellcheck disable=SC2086
	"$hs" sim $a >/dev/null 2>>"$tmp/msgs"
done
[ "$(wc -l <"$tmp/msgs")" -eq 7 ] && [ -z "$(awk 'length($0) > 100' "$tmp/msgs")" ] &&
	[ -n "$(printf '%0101d\n' 0 | awk 'length($0) > 100')" ] &&
	ok "7 messages of bad schemes and settings fit 100 columns" ||
	fail "message width" "$(awk 'length($0) > 100' "$tmp/msgs")"
expect_bad "record into a directory, before the run" "" sim --record "$tmp"
grep -q "Is a directory" "$tmp/err" && ok "the record's error names the cause" ||
	fail "record errno" "$(cat "$tmp/err")"
expect_bad "unwritable --json, before the run" "" sim --json "$tmp/no/dir.json"
echo keep >"$tmp/keep.json"
expect_bad "a bad workload leaves an old --json alone" "" sim --duration 1s \
	--workload "$tmp/zero.cfg" --json "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = keep ] && ok "old output intact" ||
	fail "old output" "truncated"
expect_bad "a dividing profile leaves an old --record alone" "" sim \
	--profile v5.16 --sample 1 --aggr 4294967296 --duration 1s --record "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = keep ] && ok "old record intact" ||
	fail "old record" "truncated"
expect_bad "bad profile in a comparison" "" sim --compare-profiles v6.6,v9
grep -q -- "--profile: no profile 'v9'" "$tmp/err" && ok "names --profile" ||
	fail "option name" "$(cat "$tmp/err")"
expect_bad "unknown scorer" "" sim --scorer turbo
expect_bad "--capture with a prepared scorer" "" sim --scorer fast --capture 10
expect_bad "--capture with two scorers" "" sim --scorer kernel,fast --capture 10
HOTSCORE_SIMD=sse4 expect_bad "HOTSCORE_SIMD that names no scorer" "" sim
expect_bad "two scorers: one twice" "" sim --scorer fast,fast
expect_bad "two scorers: unknown" "" sim --scorer kernel,turbo
expect_bad "both comparisons" "" sim --profile v6.6,hotfix --scorer kernel,fast
expect_bad "both comparisons, old spellings" "" sim --compare-profiles v6.6,hotfix --compare-scorers kernel,fast
expect_bad "age min above max" "" sim --damos_action stat --damos_age 2s 1s
expect_bad "rate min above max" "" sim --damos_action stat --damos_access_rate 50% 10%
expect_bad "size min above max" "" sim --damos_action stat --damos_sz_region max min
expect_bad "too many decimals" "" sim --sample 1.0000000001s
expect_bad "--minr above the cap" "" sim --minr 67108864
expect_bad "--rate above the cap" "" sim --rate 2000000000
expect_bad "--rate: 2 rates for stairs' 11 phases" "" sim --rate 5,6
expect_bad "--rate: an empty rate in the list" "" sim --rate 5,,6
expect_bad "--rate: 0 in the list" "" sim --rate 5,0,5,5,5,5,5,5,5,5,5
# --rate per phase: all the same is the one rate; one phase's own changes it
r11=5000,5000,5000,5000,5000,5000,5000,5000,5000,5000,5000
one=$("$hs" sim --no-timing --duration 20s --rate 5000 | tail -1)
all=$("$hs" sim --no-timing --duration 20s --rate $r11 | tail -1)
own=$("$hs" sim --no-timing --duration 20s --rate 30,${r11#5000,} | tail -1)
[ "$one" = "$all" ] && [ "$one" != "$own" ] &&
	"$hs" sim --no-timing --duration 2s --rate 30,${r11#5000,} |
		grep -q "4172 accesses/ms (model; the phases'" &&
	ok "--rate per phase: 11 equal rates are --rate 5000 ($one); 30 for the initial phase is not" ||
	fail "--rate per phase" "'$one' '$all' '$own'"
# the mean over 8 phases of 30 days each at the cap does not wrap (2^64)
{ printf 'a, 4096\n'
  for k in 1 2 3 4 5 6 7 8; do printf '\np%d\n2592000000\na, 1, 4096, 1\n' $k; done
} >"$tmp/long.cfg"
r8=1073741824,1073741824,1073741824,1073741824,1073741824,1073741824,1073741824,1073741824
"$hs" sim --workload "$tmp/long.cfg" --rate $r8 --no-timing --duration 1s 2>&1 |
	grep -q '; 1073741824 accesses/ms (model' &&
	ok "--rate per phase: the mean of eight 30-day phases at 2^30 is 2^30" ||
	fail "--rate mean" "$("$hs" sim --workload "$tmp/long.cfg" --rate $r8 --no-timing --duration 1s 2>&1 | grep workload)"

# --- the default run ------------------------------------------------
"$hs" sim --json "$tmp/d.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "default run exits 0" || fail "default" "exit $rc: $(head -c 300 "$tmp/err")"
[ -s "$tmp/err" ] && fail "stderr" "not a terminal, yet: $(head -c 200 "$tmp/err")" ||
	ok "no progress output when stderr is not a terminal"
grep -q '^hotscore sim: stairs on vaddr, hotfix; seed 1' "$tmp/out" &&
	ok "stairs, vaddr, hotfix (the default profile) by default" || fail "header" "$(head -2 "$tmp/out")"
grep -q '^scheme 0: pageout; nr_accesses 0..0 samples, age 20..max' "$tmp/out" &&
	ok "a pageout scheme by default" || fail "scheme" "$(grep scheme "$tmp/out")"
grep -q 'qt_exceeds [1-9]' "$tmp/out" && ok "the default quota binds" ||
	fail "quota" "$(grep qt_exceeds "$tmp/out")"
for s in "sampling (prepare + check)" "score + histogram" "apply (walk + actions)" \
	 "aggregation (reset, ops update)" "merge (+ min_nr_regions)" "split" \
	 "kdamond total"; do
	grep -q "^  $s  *[0-9]" "$tmp/out" && ok "cost row: $s" ||
		fail "cost row" "$s missing"
done
grep -Eq '^score function \(hotfix\): [0-9]+ calls, [0-9.]+ ns per call in context' "$tmp/out" &&
	grep -Eq "[0-9.]+% of kdamond's time, [0-9.]+% of the score \+ histogram stage" "$tmp/out" &&
	ok "the score function's share" || fail "share" "$(grep -A1 '^score function' "$tmp/out")"
grep -q 'TSC-derived' "$tmp/out" && ok "TSC figures labelled" ||
	echo "SKIP TSC label: not an x86 TSC clock here"
expect_json "$tmp/d.json" "$jq"
[ "$("$jq" "$tmp/d.json" runs.0.profile)" = hotfix ] && ok "JSON profile" ||
	fail "JSON profile" "$("$jq" "$tmp/d.json" runs.0.profile)"
[ "$("$jq" "$tmp/d.json" runs.0.schemes.0.action)" = pageout ] &&
	ok "JSON scheme" || fail "JSON scheme" "$("$jq" "$tmp/d.json" runs.0.schemes.0)"
n=$("$jq" "$tmp/d.json" runs.0.aggregations)
[ "$n" -ge 590 ] && [ "$("$jq" "$tmp/d.json" runs.0.series)" = "array $n" ] &&
	ok "a series point per aggregation" ||
	fail "series" "$n aggregations, $("$jq" "$tmp/d.json" runs.0.series)"
set -- $("$jq" "$tmp/d.json" runs.0.cost_ns_per_aggregation.score runs.0.score_call.ps)
awk -v s="$1" -v p="$2" 'BEGIN { exit !(s > 0 && p > 0) }' &&
	ok "JSON stage and call costs" || fail "JSON costs" "$1 $2"

if command -v script >/dev/null; then
	script -qc "'$hs' sim --duration 20s" /dev/null >"$tmp/tty" 2>&1
	grep -aq 'sim: hotfix: [0-9.]* of 20.0 s simulated' "$tmp/tty" &&
		grep -aq 'timing the score function' "$tmp/tty" &&
		ok "progress on a terminal" || fail "progress" "none on a TTY"
else
	echo "SKIP progress on a terminal: no script(1)"
fi

# --- comparisons ------------------------------------------------------
"$hs" sim --profile v6.6,v2-ilog2 --no-timing >"$tmp/cmp" 2>&1
rc=$?
grep -q '^compare: A = v6.6, B = v2-ilog2, the same seed' "$tmp/cmp" &&
	grep -Eq '^  decisions: all [1-9][0-9]* actions the same' "$tmp/cmp" &&
	grep -q '^  decisions identical for this workload and scheme$' "$tmp/cmp" &&
	[ $rc -eq 0 ] && ok "v6.6 and v2-ilog2 decide identically" ||
	fail "compare" "exit $rc: $(tail -3 "$tmp/cmp")"
# schemes applied mid-aggregation: mm-new's moving sum against raw counts
"$hs" sim --profile hotfix,mm-new --no-timing --damos_action lru_prio \
	--damos_apply_interval 20ms --damos_quotas 0 4MiB 200 0 1 0 \
	--ops paddr >"$tmp/cmp2" 2>&1
rc=$?
grep -Eq '^  decided differently: [1-9][0-9]* of A.s [0-9]+ actions are not B.s' "$tmp/cmp2" &&
	! grep -q 'decisions identical' "$tmp/cmp2" &&
	grep -q 'first difference, action #' "$tmp/cmp2" && [ $rc -eq 1 ] &&
	ok "a real difference is shown, exit 1" ||
	fail "difference" "exit $rc: $(tail -4 "$tmp/cmp2")"

# --- scores call by call: a wrong candidate's differences are counted even
# where the decisions come out the same; an equal candidate's are none
export HOTSCORE_CACHE=$tmp/cache	# the candidates' objects, this run's own
cands=$(cd "$here/../examples/candidates" && pwd)
# a weight_age near 2^32: the signed division of wrong-signed-division.c
heavy=(--no-timing --duration 20s --damos_quotas 10ms 8MiB 1s 0 3 4294967295)
"$hs" sim "${heavy[@]}" --profile "hotfix,wrong=$cands/wrong-signed-division.c" \
	--json "$tmp/k.json" >"$tmp/k" 2>&1
rc=$?
k=$("$jq" "$tmp/k.json" scores.differ 2>&1)
n=$("$jq" "$tmp/k.json" scores.calls 2>&1)
[ $rc -eq 0 ] && [ "$k" -gt 0 ] 2>/dev/null && [ "$n" -ge "$k" ] &&
	grep -q "^  scores: differ on $k of $n calls of A's run" "$tmp/k" &&
	grep -q '^  decisions identical for this workload and scheme$' "$tmp/k" &&
	[ "$("$jq" "$tmp/k.json" identical_decisions)" = true ] &&
	ok "a wrong candidate: scores differ on $k of $n calls, decisions identical" ||
	fail "wrong candidate" "exit $rc, K '$k' of '$n': $(sed -n '/^compare/,$p' "$tmp/k")"
# the first difference, pasted: score shows the two values sim reports
cmd=$("$jq" "$tmp/k.json" scores.command)
want="$("$jq" "$tmp/k.json" scores.first.a) $("$jq" "$tmp/k.json" scores.first.b)"
# shellcheck disable=SC2086
got=$("$hs" ${cmd#* } 2>&1 |
	awk '$1 == "hot" { if ($2 == "*") print $3, $4; else print $2, $3 }')
[ "${cmd%% *}" = "$hs" ] && [ "$got" = "$want" ] && [ "${got% *}" != "${got#* }" ] &&
	ok "the first difference pasted as a score command: hot $got" ||
	fail "reproducer" "'$cmd' gives '$got', sim said '$want'"
# the negative control: an equal rewrite, the same run
"$hs" sim "${heavy[@]}" --profile "hotfix,$cands/hotfix-rewritten.c" \
	--json "$tmp/k0.json" >"$tmp/k0" 2>&1
rc=$?
k0=$("$jq" "$tmp/k0.json" scores.differ 2>&1)
[ $rc -eq 0 ] && [ "$k0" = 0 ] && [ "$("$jq" "$tmp/k0.json" scores.calls)" = "$n" ] &&
	grep -q "^  scores: equal on all $n calls of A's run" "$tmp/k0" &&
	! grep -q 'scores: differ' "$tmp/k0" &&
	ok "negative control: an equal rewrite differs on 0 of $n calls" ||
	fail "equal candidate" "exit $rc, K '$k0': $(sed -n '/^compare/,$p' "$tmp/k0")"
# decisions that differ are counted, each run's against the other's
only=$("$hs" sim --profile hotfix,mm-new --no-timing --damos_action lru_prio \
	--damos_apply_interval 20ms --damos_quotas 0 4MiB 200 0 1 0 --ops paddr \
	--json "$tmp/d2.json" >/dev/null 2>&1; "$jq" "$tmp/d2.json" actions_not_in_other.0 \
	actions_not_in_other.1 scores.differ | paste -sd' ')
grep -Eq "^  decided differently: ${only%% *} of A.s" "$tmp/cmp2" &&
	[ "${only%% *}" -gt 0 ] && [ "$(cut -d' ' -f3 <<<"$only")" -gt 0 ] &&
	[ "$("$jq" "$tmp/k.json" actions_not_in_other.0)" = 0 ] &&
	ok "hotfix and mm-new: $only (A's actions not B's, B's not A's, scores differing)" ||
	fail "decisions differ" "'$only': $(grep decided "$tmp/cmp2")"
# every line within 100 columns: timed, a long candidate path, both verdicts
"$hs" sim --duration 5s --profile "hotfix,$cands/wrong-signed-division.c" >"$tmp/wide" 2>&1
"$hs" sim --duration 5s --profile v6.6,hotfix >"$tmp/wide2" 2>&1
"$hs" sim --duration 5s --scorer kernel,fast-batch >"$tmp/wide3" 2>&1
# a line past 100 columns only for a path it cannot break (a deep
# checkout's candidate in a reproducer) is not too wide
wide() {
	awk 'length($0) > 100 { for (i = 1; i <= NF; i++)
		if (index($i, "/") && length($i) > 40) next; print }' "$@"
}
printf '%0101d\n' 0 >"$tmp/wide.ctl"
[ -z "$(wide "$tmp/wide" "$tmp/wide2" "$tmp/wide3" "$tmp/k" "$tmp/k0" "$tmp/cmp2")" ] &&
	[ -n "$(wide "$tmp/wide.ctl")" ] &&
	grep -q '^score function (hotfix): [0-9]* calls, [0-9.]* ns per call in context' "$tmp/wide" &&
	ok "sim fits 100 columns (the checker flags a 101-column line)" ||
	fail "width" "$(wide "$tmp/wide" "$tmp/wide2" "$tmp/wide3" "$tmp/k" "$tmp/k0" "$tmp/cmp2")"
# a candidate in a deep checkout: a labelled path of about 190 characters
# is taken whole (CI's clone is deeper than a developer's); a longer one, past what a
# spec keeps (255) is refused in one line, exit 2
deep=$tmp/$(printf 'd%.0s' {1..120})/$(printf 'e%.0s' {1..40})
mkdir -p "$deep" && cp "$cands/wrong-signed-division.c" "$deep/w.c"
long="wrong=$deep/w.c"
"$hs" sim --duration 2s --no-timing --profile "hotfix,$long" >"$tmp/deep" 2>&1
rc=$?
grep -q "^compare: A = hotfix, B =" "$tmp/deep" && [ $rc -eq 0 ] &&
	ok "a candidate path of ${#long} characters is taken whole" ||
	fail "deep path" "exit $rc (${#long} characters): $(head -2 "$tmp/deep")"
toolong="wrong=$deep/$(printf 'f%.0s' {1..100})/w.c"
mkdir -p "$(dirname "${toolong#wrong=}")" && cp "$deep/w.c" "${toolong#wrong=}"
"$hs" sim --duration 2s --no-timing --profile "hotfix,$toolong" >"$tmp/deep" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/deep")" -eq 1 ] &&
	grep -q "is too long" "$tmp/deep" &&
	ok "a path of ${#toolong} characters: refused in one line, exit 2" ||
	fail "too long" "exit $rc: $(head -2 "$tmp/deep")"
# a candidate's ns beside a built-in's carry a note; two built-ins' do not
grep -q "^note: a candidate's ns include its door" "$tmp/wide" &&
	! grep -q '^note:' "$tmp/wide2" &&
	ok "the candidate door's note, only beside a built-in" ||
	fail "door note" "$(grep -c '^note' "$tmp/wide" "$tmp/wide2")"

# --- one weight changed: the default scheme, not a new one to retype ---
"$hs" sim --damos_quotas 10ms 8MiB 1s 0 3 7 --duration 5s --no-timing >"$tmp/w" 2>&1
rc=$?
grep -q '^scheme 0: pageout; nr_accesses 0..0 samples, age 20..max' "$tmp/w" &&
	grep -q 'quota: 10 ms, 8388608 B per 1000 ms; weights sz 0 nr_accesses 3 age 7' "$tmp/w" &&
	! grep -q '^scheme 1' "$tmp/w" && [ $rc -eq 0 ] &&
	ok "--damos_quotas alone sets the default scheme's quota and weights" ||
	fail "default scheme" "exit $rc: $(grep -A1 '^scheme' "$tmp/w")"
"$hs" sim --damos_age 5s max --duration 2s --no-timing >"$tmp/w" 2>&1 &&
	grep -q '^scheme 0: pageout; nr_accesses 0..0 samples, age 50..max' "$tmp/w" &&
	grep -q 'quota: 10 ms, 8388608 B per 1000 ms; weights sz 0 nr_accesses 0 age 1' "$tmp/w" &&
	ok "--damos_age alone keeps the default quota" ||
	fail "default age" "$(grep -A1 '^scheme' "$tmp/w")"
"$hs" sim --damos_quotas 20ms --duration 2s --no-timing >"$tmp/w" 2>&1 &&
	grep -q 'quota: 20 ms, 8388608 B per 1000 ms; weights sz 0 nr_accesses 0 age 1' "$tmp/w" &&
	ok "--damos_quotas 20ms alone keeps the default scheme's size, window and weights" ||
	fail "partial quota" "$(grep -A1 '^scheme' "$tmp/w")"
"$hs" sim --damos_action stat --damos_quotas 20ms --duration 2s --no-timing >"$tmp/w" 2>&1 &&
	grep -q 'quota: 20 ms, 0 B per max; weights sz 0 nr_accesses 0 age 0' "$tmp/w" &&
	ok "in a new scheme, the fields left out are damo's defaults" ||
	fail "new scheme quota" "$(grep -A1 '^scheme' "$tmp/w")"
expect_bad "a weight above an unsigned int" "" sim --damos_quotas 10ms 8MiB 1s 0 0 4294967296
# the deprecated spelling of a documented example still compares
"$hs" sim --compare-profiles v6.6,v2-ilog2 --no-timing --duration 5s >"$tmp/cmp3" 2>&1 &&
	grep -q '^  decisions identical for this workload and scheme$' "$tmp/cmp3" &&
	ok "--compare-profiles (deprecated) = --profile A,B" ||
	fail "old spelling" "$(tail -2 "$tmp/cmp3")"

# --- records: valid, deterministic, seeded -----------------------------
# --record_format json, which damocheck and jsonq parse; damo's default,
# json_compressed, is the same text through zlib (tests/damo.sh runs damo)
"$hs" sim --no-timing --duration 20s --record "$tmp/a.rec" --record_format json >/dev/null 2>&1
"$hs" sim --no-timing --duration 20s --record "$tmp/b.rec" --record_format json >/dev/null 2>&1
"$hs" sim --no-timing --duration 20s --seed 2 --record "$tmp/c.rec" --record_format json >/dev/null 2>&1
out=$("$dc" "$tmp/a.rec" 2>&1) && ok "record is damo-format JSON: $out" ||
	fail "record" "$out"
cmp -s "$tmp/a.rec" "$tmp/b.rec" && ok "same seed, same record bytes" ||
	fail "determinism" "records differ"
cmp -s "$tmp/a.rec" "$tmp/c.rec" && fail "seed" "seed 2 gives the same record" ||
	ok "another seed, another record"
[ "$("$jq" "$tmp/a.rec" 0.intervals.aggr_us 0.snapshots)" = "$(printf '100000\narray %s' \
	"$("$jq" "$tmp/a.rec" 0.snapshots | sed 's/array //')")" ] &&
	[ "$("$jq" "$tmp/a.rec" 0.snapshots | sed 's/array //')" -ge 198 ] &&
	ok "one snapshot per aggregation" ||
	fail "snapshots" "$("$jq" "$tmp/a.rec" 0.intervals.aggr_us 0.snapshots)"
sed 's/"total_bytes": "[0-9]*"/"total_bytes": "1"/' "$tmp/a.rec" >"$tmp/bad.rec"
"$dc" "$tmp/bad.rec" >/dev/null 2>&1 && fail "damocheck" "accepts a wrong total" ||
	ok "damocheck rejects a wrong total_bytes"
"$hs" sim --no-timing --ops paddr --workload zigzag --duration 5s \
	--record "$tmp/z.rec" --record_format json >/dev/null 2>&1
out=$("$dc" "$tmp/z.rec" 2>&1) && ok "paddr zigzag record: $out" || fail "zigzag" "$out"
[ "$("$jq" "$tmp/a.rec" 0.target_id 0.kdamond_idx 0.scheme_idx 0.snapshots.0.damos_stats.sz_ops_filter_passed | paste -sd' ')" = "0 null null 0" ] &&
	ok "target_id 0 (not null), no kdamond or scheme index, damos_stats in each snapshot" ||
	fail "record ids" "$("$jq" "$tmp/a.rec" 0.target_id 0.kdamond_idx 0.scheme_idx 0.snapshots.0.damos_stats)"
last=$(($("$jq" "$tmp/a.rec" 0.snapshots | sed 's/array //') - 1))
"$hs" sim --no-timing --duration 20s --json "$tmp/a.json" >/dev/null 2>&1
[ "$("$jq" "$tmp/a.rec" 0.snapshots.$last.damos_stats.nr_tried 0.snapshots.$last.damos_stats.sz_applied)" = \
  "$("$jq" "$tmp/a.json" runs.0.schemes.0.stats.nr_tried runs.0.schemes.0.stats.sz_applied)" ] &&
	ok "the last snapshot's damos_stats are the run's" ||
	fail "damos_stats" "$("$jq" "$tmp/a.rec" 0.snapshots.$last.damos_stats)"
# the default: damo's json_compressed, a zlib stream (78 9c), deterministic
"$hs" sim --no-timing --duration 20s --record "$tmp/a.z" >/dev/null 2>&1
"$hs" sim --no-timing --duration 20s --record "$tmp/b.z" >/dev/null 2>&1
[ "$(od -An -tx1 -N2 "$tmp/a.z" | tr -d ' ')" = 789c ] && cmp -s "$tmp/a.z" "$tmp/b.z" &&
	[ "$(stat -c %s "$tmp/a.z")" -lt $(($(stat -c %s "$tmp/a.rec") / 10)) ] &&
	ok "--record writes json_compressed by default: $(stat -c %s "$tmp/a.z") bytes for $(stat -c %s "$tmp/a.rec") of JSON, the same for a seed" ||
	fail "compressed record" "$(od -An -tx1 -N2 "$tmp/a.z"), $(stat -c %s "$tmp/a.z") bytes"
expect_bad "unknown --record_format" "" sim --record "$tmp/r" --record_format perf_data
expect_bad "--record_format without --record" "" sim --record_format json
# a write error leaves nothing: no record, no temporary file
expect_bad "--record on a full disk" "" sim --no-timing --duration 5s --record /dev/full
grep -q "No space left on device" "$tmp/err" && ok "the full disk named" ||
	fail "ENOSPC" "$(cat "$tmp/err")"
expect_bad "--record json on a full disk" "" sim --no-timing --duration 5s \
	--record /dev/full --record_format json
mkdir "$tmp/lim"
(trap '' XFSZ; ulimit -f 64; "$hs" sim --no-timing --minr 1000 --maxr 1000 \
	--duration 20s --record "$tmp/lim/r" >"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 2 ] && grep -q "^hotscore sim: --record: .*: write error: File too large" "$tmp/err" &&
	[ -z "$(ls -A "$tmp/lim")" ] &&
	ok "a record past the file size limit: exit 2, no file left" ||
	fail "EFBIG" "exit $rc: $(cat "$tmp/err"); left: $(ls -A "$tmp/lim")"

# --- actions: what DAMOS acted on ----------------------------------------
# the default pageout scheme (a quota) and a stat scheme with none
acts="--no-timing --duration 30s --damos_action pageout --damos_access_rate 0% 0%
	--damos_age 2s max --damos_quotas 10ms 8MiB 1s 0 0 1 --damos_action stat
	--damos_access_rate 5% max"
# shellcheck disable=SC2086
"$hs" sim $acts --json "$tmp/ac.json" --actions "$tmp/ac.csv" >"$tmp/ac.out" 2>&1
rc=$?
# shellcheck disable=SC2086
"$hs" sim $acts --actions "$tmp/acts.json" >/dev/null 2>&1
[ $rc -eq 0 ] && [ "$(head -1 "$tmp/ac.csv")" = "t_us,scheme,start,end,score,min_score,sz_applied" ] &&
	ok "--actions FILE.csv: the header" || fail "actions" "exit $rc: $(head -2 "$tmp/ac.csv")"
for k in 0 1; do
	want=$("$jq" "$tmp/ac.json" runs.0.schemes.$k.stats.nr_tried \
		runs.0.schemes.$k.stats.sz_tried runs.0.schemes.$k.stats.sz_applied | paste -sd' ')
	got=$(awk -F, -v k=$k 'NR > 1 && $2 == k { n++; sz += $4 - $3; ap += $7 }
		END { printf "%d %.0f %.0f", n, sz, ap }' "$tmp/ac.csv")
	[ "$got" = "$want" ] && [ "${got%% *}" -gt 10 ] &&
		ok "scheme $k: the rows add up to nr_tried, sz_tried, sz_applied ($got)" ||
		fail "scheme $k sums" "rows '$got', stats '$want'"
done
awk -F, 'NR > 1 && $2 == 0 && ($5 == "" || $5 + 0 < $6 + 0 || $5 > 99) { bad++ }
	NR > 1 && $2 == 1 && ($5 != "" || $6 != 0) { bad++ }
	END { exit bad > 0 }' "$tmp/ac.csv" &&
	ok "under the quota every score >= its min_score; without one, no score" ||
	fail "scores" "$(awk -F, 'NR > 1 && $2 == 0 && $5 + 0 < $6 + 0' "$tmp/ac.csv" | head -3)"
n=$(($(wc -l <"$tmp/ac.csv") - 1))
grep -q "^decisions: $n actions taken" "$tmp/ac.out" &&
	ok "one row per action: $n" || fail "rows" "$n rows; $(grep '^decisions' "$tmp/ac.out")"
paths=$(for i in $(seq 0 $((n - 1))); do
	for f in t_us scheme start end score min_score sz_applied; do
		echo "actions.$i.$f"; done; done)
# shellcheck disable=SC2086
"$jq" "$tmp/acts.json" $paths | sed 's/^null$//' | paste -d, - - - - - - - >"$tmp/ac.rows"
[ "$("$jq" "$tmp/acts.json" actions)" = "array $n" ] &&
	tail -n +2 "$tmp/ac.csv" | cmp -s - "$tmp/ac.rows" &&
	ok "--actions FILE.json carries the same $n rows" ||
	fail "JSON rows" "$("$jq" "$tmp/acts.json" actions); $(tail -n +2 "$tmp/ac.csv" | diff - "$tmp/ac.rows" | head -4)"
grep -Eq '^  picked [0-9]+ regions \([0-9.]+ [KMG]iB\) in [0-9]+ of [0-9]+ applications; scores [0-9]+\.\.[0-9]+, min_score [0-9]+\.\.[0-9]+$' "$tmp/ac.out" &&
	grep -Eq '^  picked [0-9]+ regions .* applications; no quota, no scores$' "$tmp/ac.out" &&
	[ "$(grep -Ec '^ +[0-9]+\.[0-9]{3} s  0x[0-9a-f]+-0x[0-9a-f]+ \(' "$tmp/ac.out")" -eq 6 ] &&
	ok "the summary: what each scheme picked, its first 3 actions" ||
	fail "summary" "$(grep -A3 '^  picked' "$tmp/ac.out")"
[ "$(awk 'length($0) > 100' "$tmp/ac.out" | wc -l)" -eq 0 ] &&
	ok "the summary fits 100 columns" || fail "width" "$(awk 'length($0) > 100' "$tmp/ac.out")"
expect_bad "--actions with no format's extension" "" sim --actions "$tmp/acts.txt"
grep -q -- "--actions: '.*acts.txt': the name ends in neither .csv nor .json" "$tmp/err" &&
	ok "the message says which extensions" || fail "extension" "$(cat "$tmp/err")"
expect_bad "--actions with no extension" "" sim --actions "$tmp/acts"
expect_bad "--actions to standard output" "" sim --actions -
[ ! -e "$tmp/acts.txt" ] && [ ! -e "$tmp/acts" ] && ok "nothing written" ||
	fail "bad --actions" "a file was written"
ln -s /dev/full "$tmp/full.csv"
expect_bad "--actions on a full disk" "" sim --no-timing --actions "$tmp/full.csv"
mkdir "$tmp/alim"
(trap '' XFSZ; ulimit -f 4; "$hs" sim $acts --actions "$tmp/alim/a.json" \
	>"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 2 ] && grep -q "^hotscore sim: --actions: .*: write error: File too large" "$tmp/err" &&
	[ -z "$(ls -A "$tmp/alim")" ] &&
	ok "--actions past the file size limit: exit 2, no file left" ||
	fail "actions EFBIG" "exit $rc: $(cat "$tmp/err"); left: $(ls -A "$tmp/alim")"

# --- heatmap --------------------------------------------------------
"$hs" sim --no-timing --duration 20s --heatmap "$tmp/h.svg" >/dev/null 2>&1
head -c 4 "$tmp/h.svg" | grep -q '<svg' && tail -1 "$tmp/h.svg" | grep -q '</svg>' &&
	[ "$(grep -c '<rect' "$tmp/h.svg")" -ge 12800 ] &&
	ok "heatmap SVG with a cell per time and address bin" ||
	fail "heatmap" "$(head -c 200 "$tmp/h.svg")"
grep -q 'fill="#ffffff"' "$tmp/h.svg" && grep -q 'fill="#000000"' "$tmp/h.svg" &&
	ok "heatmap shows hot and cold cells" || fail "heatmap colours" "no contrast"
cp "$here/data/mix.cfg" "$tmp/a<b&c.cfg"
"$hs" sim --no-timing --duration 2s --workload "$tmp/a<b&c.cfg" --heatmap "$tmp/x.svg" >/dev/null 2>&1
grep -q 'a&lt;b&amp;c.cfg' "$tmp/x.svg" && ! grep -q 'a<b' "$tmp/x.svg" &&
	ok "heatmap escapes XML in the workload's name" || fail "XML" "$(sed -n 2p "$tmp/x.svg")"

# --- a score the kernel would write past the histogram with -------------
# weights of 2^31 wrap their u32 sum to 0: v6.6 does not divide, hot < 0
"$hs" sim --no-timing --profile v6.6 --ops paddr --damos_action lru_prio \
	--damos_quotas 0 8MiB 1000 0 2147483648 2147483648 >"$tmp/o" 2>"$tmp/oe"
rc=$?
[ $rc -eq 1 ] && joined "$tmp/oe" | grep -q 'would write past regions_score_histogram' &&
	[ -z "$(awk 'length($0) > 100' "$tmp/oe")" ] &&
	ok "overrun stops the run, exit 1, within 100 columns" || fail "overrun" "exit $rc: $(cat "$tmp/oe")"
cmd=$(reproducer "$tmp/oe")
if [ -n "$cmd" ]; then
	# shellcheck disable=SC2086
	out=$("$hs" $cmd)
	echo "$out" | grep -Eq 'out of range|OUT_OF_RANGE|out-of-range' &&
		ok "the reproducer reproduces: $cmd" || fail "reproducer" "$out"
else
	fail "reproducer" "none printed"
fi

# --- golden runs: the decisions and stats of representative setups ----
# Any change to the simulator's semantics changes these; regenerate with
# HS_UPDATE_GOLDEN=1 tests/sim.sh ... after checking that it should.
mix=$here/data/mix.cfg
golden() {
	local args
	while IFS= read -r args; do
		echo "## hotscore sim --no-timing $args"
		# shellcheck disable=SC2086
		"$hs" sim --no-timing $args 2>&1 | sed '2d'
		echo "exit $?"
	done <<-RUNS
	--duration 30s --profile mm-new
	--workload zigzag --ops paddr --damos_action lru_prio --damos_quotas 0 4MiB 200 0 1 0 --damos_apply_interval 20ms --profile v6.6 --duration 30s
	--ops paddr --damos_action migrate_hot --damos_access_rate 5% max --damos_quotas 10 0 1000 0 1 1 --duration 30s --profile mm-new
	--damos_action stat --damos_quotas 0 1MiB 100 --duration 20s --profile mm-new
	--workload $mix --minr 100 --maxr 150 --damos_action pageout --damos_age 1s max --damos_quotas 5 2MiB 300 0 1 1 --duration 20s --profile mm-new
	--workload $mix --ops paddr --rate 3000 --sample 4ms --aggr 40ms --damos_action migrate_cold --damos_quotas 2 0 50 0 1 1 --damos_action lru_deprio --damos_access_rate 0% 10% --damos_quotas 0 512KiB 30 0 3 1 --duration 20s --profile mm-new
	--workload $mix --minr 20 --maxr 40 --updr 1s --damos_action pageout --damos_sz_region 8KiB max --damos_quotas 0 3MiB 250 --duration 15s --profile mm-new
	RUNS
}
golden | sed "s|$here/data/||g" >"$tmp/golden"
if [ -n "${HS_UPDATE_GOLDEN:-}" ]; then
	cp "$tmp/golden" "$here/data/sim-golden.txt"
	ok "golden runs written to tests/data/sim-golden.txt"
elif diff -u "$here/data/sim-golden.txt" "$tmp/golden" >"$tmp/gdiff"; then
	ok "golden runs: 7 setups decide as recorded"
else
	fail "golden runs" "$(head -20 "$tmp/gdiff")"
fi

# --- the prepared scorers decide as the kernel's form, golden runs too --
n=0
while IFS= read -r line; do
	case $line in "## hotscore sim --no-timing "*) ;; *) continue ;; esac
	args=${line#"## hotscore sim --no-timing "}
	args=${args//mix.cfg/$mix}
	want=$(awk -v h="$line" '$0 == h { on = 1; next } /^## / { on = 0 }
		on && /^decisions: / { print $NF; exit }' "$here/data/sim-golden.txt")
	for sc in fast fast-batch; do
		# shellcheck disable=SC2086
		got=$("$hs" sim --no-timing $args --scorer $sc 2>&1 |
		      sed -n 's/^decisions: .* hash \([0-9a-f]*\)$/\1/p')
		[ -n "$want" ] && [ "$got" = "$want" ] && n=$((n + 1)) ||
			fail "--scorer $sc" "$args: hash '$got', golden '$want'"
	done
done <"$here/data/sim-golden.txt"
[ "$n" -eq 14 ] && ok "7 golden setups: fast and fast-batch decide as recorded" ||
	fail "prepared golden runs" "$n of 14 agree"
# the moving sum mid-window, where the vector batch hands over to the loop
"$hs" sim --scorer kernel,fast-batch --profile mm-new --no-timing \
	--damos_action lru_prio --damos_apply_interval 20ms \
	--damos_quotas 0 4MiB 200 0 1 0 --ops paddr >"$tmp/cs" 2>&1
rc=$?
grep -q '^compare: A = mm-new, B = mm-new/fast-batch' "$tmp/cs" &&
	grep -Eq '^  decisions: all [1-9][0-9]* actions the same' "$tmp/cs" &&
	[ $rc -eq 0 ] && ok "mm-new mid-window: fast-batch decides as the kernel" ||
	fail "compare-scorers mid-window" "exit $rc: $(tail -3 "$tmp/cs")"
"$hs" sim --compare-scorers kernel,fast --duration 20s --json "$tmp/cs.json" \
	>"$tmp/cs2" 2>&1
rc=$?
grep -qE '^score \+ histogram stage: kernel [0-9]+ ns -> fast [0-9]+ ns per aggregation: [0-9.]+x' "$tmp/cs2" &&
	grep -q '^compare: A = hotfix, B = hotfix/fast' "$tmp/cs2" &&
	grep -q '^  decisions identical for this workload and scheme$' "$tmp/cs2" &&
	[ $rc -eq 0 ] && ok "--compare-scorers: the score stage before and after" ||
	fail "compare-scorers stage" "exit $rc: $(tail -4 "$tmp/cs2")"
[ "$("$jq" "$tmp/cs.json" runs.0.scorer runs.1.scorer | paste -sd' ')" = "kernel fast" ] &&
	ok "JSON: each run's scorer" ||
	fail "JSON scorer" "$("$jq" "$tmp/cs.json" runs.0.scorer runs.1.scorer)"

# --- quota goals: a user_input goal's script, window by window; the record
# and the report carry each effective size; bad goals are refused
goal=(--duration 6s --no-timing --damos_action stat --damos_quotas 0 0 1s)
"$hs" sim "${goal[@]}" --damos_quota_goal user_input 10000 0,0,15000,5000 \
	--json "$tmp/goal.json" --record "$tmp/goal.rec" --record_format json >"$tmp/goal.txt" 2>&1
rc=$?
# esz_bp 10000 doubles twice, halves (15000), then grows by half (5000,
# held): 2, 4, 2, 3, 4, 6 bytes
got=$(grep -o '"effective_sz_bytes": [0-9]*' "$tmp/goal.json" | awk '{ print $2 }' | paste -sd' ')
[ $rc -eq 0 ] && [ "$got" = "2 4 2 3 4 6" ] &&
	tr -s ' \n' ' ' <"$tmp/goal.txt" |
	grep -q ' quota goal: user_input, target 10000: 6 charge windows; current value -> effective size in bytes: 0 -> 2, 0 -> 4, 15000 -> 2, 5000 -> 3, 5000 -> 4, 5000 -> 6 ' &&
	ok "user_input goal: the effective sizes $got, window by window" ||
	fail "quota goal" "exit $rc, sizes '$got': $(grep -A2 'quota goal' "$tmp/goal.txt")"
"$dc" "$tmp/goal.rec" >"$tmp/goal.dc" 2>&1 &&
	grep -q '"damos_quota": {"effective_sz_bytes": 6, "goal_current_value": 5000}' "$tmp/goal.rec" &&
	ok "the record carries the effective size: $(head -1 "$tmp/goal.dc")" ||
	fail "goal record" "$(head -3 "$tmp/goal.dc")"
# its control: the same script, each value a window late, must give others
"$hs" sim "${goal[@]}" --damos_quota_goal user_input 10000 0,0,0,15000,5000 \
	--json "$tmp/goal2.json" >/dev/null 2>&1
got2=$(grep -o '"effective_sz_bytes": [0-9]*' "$tmp/goal2.json" | awk '{ print $2 }' | paste -sd' ')
[ -n "$got2" ] && [ "$got2" != "$got" ] && ok "control: a window late, $got2" ||
	fail "goal control" "'$got2'"
"$hs" sim "${goal[@]}" --damos_quota_goal some_mem_psi_us 1000 \
	--json "$tmp/psi.json" >/dev/null 2>&1 &&
	[ "$("$jq" "$tmp/psi.json" runs.0.quota_goals.0.windows.0.current_value)" = 1000 ] &&
	ok "some_mem_psi_us: the first window's value is the target, as 6.12's" ||
	fail "psi goal" "$(head -c 300 "$tmp/psi.json")"
expect_bad "goal: a metric not simulated" "" sim --damos_quota_goal node_mem_used_bp 5000
expect_bad "goal: target 0" "" sim --damos_quota_goal user_input 0
expect_bad "goal: CURRENT for pressure" "" sim --damos_quota_goal some_mem_psi_us 10 5
expect_bad "goal: CURRENT not a list" "" sim --damos_quota_goal user_input 10 5,x
expect_bad "goal: CURRENT with a gap" "" sim --damos_quota_goal user_input 10 5,,6
expect_bad "goal: CURRENT too long" "" sim --damos_quota_goal user_input 10 "$(seq -s, 0 300)"

report_counts
