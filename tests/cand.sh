#!/usr/bin/env bash
# A damon_hot_score() of the user's own: examples/candidates/ through score
# and verify; bad candidates refused with one line; traps caught, and a
# call that does not return stopped (tests/data/hang-nr7.c).
# Usage: tests/cand.sh PATH/TO/hotscore
set -u
hs=${1:?usage: cand.sh HOTSCORE}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
ex=$(cd "$here/../examples/candidates" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
export HOTSCORE_CACHE=$tmp/cache	# a cache of this run's own
cd "$tmp" || exit 1
cp "$ex"/*.c .

# --- score: a candidate beside its profile, from flags and from CSV
out=$("$hs" score --profile v2-ilog2,./v2-ilog2.c --nr_accesses 21 --weight_age 0 2>&1)
grep -Eq '^hot +103 +103$' <<<"$out" && grep -Eq '^status +out-of-range +out-of-range$' <<<"$out" &&
	ok "score: the v2 candidate beside v2-ilog2" || fail "score" "$out"
out=$("$hs" score --profile hotfix,mine=./div0-sample.c --sample 0 2>&1)
grep -Eq '^profile +hotfix +mine$' <<<"$out" && grep -Eq '^status +ok +trap\(SIGFPE\)$' <<<"$out" &&
	ok "score: a trap is a status, NAME=FILE a label" || fail "trap" "$out"
printf 'profile,sample_us,nr_accesses\nhotfix,0,5\n./div0-sample.c,0,5\n./hotfix-rewritten.c,5000,30\n' |
	"$hs" score --input - >"$tmp/c.csv" 2>"$tmp/err"
[ "$(field "$tmp/c.csv" 2 status)/$(field "$tmp/c.csv" 2 hot)" = "trap(SIGFPE)/undef" ] &&
	[ "$(field "$tmp/c.csv" 3 hot)" = "$(printf 'nr_accesses\n30\n' | "$hs" score --input - | field /dev/stdin 1 hot)" ] &&
	ok "score --input: candidates in the profile column" || fail "csv" "$(cat "$tmp/c.csv" "$tmp/err")"
ls "$tmp/cache/cand/"*.so >/dev/null 2>&1 && ok "compiled objects are cached" ||
	fail "cache" "$(ls -la "$tmp/cache" 2>&1)"
cp v2-ilog2.c "$tmp/keep.c"
"$hs" score --profile ./v2-ilog2.c >/dev/null 2>&1
cmp -s v2-ilog2.c "$tmp/keep.c" && ok "the candidate file is only read" || fail "modified" "v2-ilog2.c"
n=$(ls "$tmp/cache/cand/" | wc -l)
"$hs" score --profile ./v2-ilog2.c >/dev/null 2>&1
[ "$(ls "$tmp/cache/cand/" | wc -l)" -eq "$n" ] && ok "the same file again: from the cache" ||
	fail "cache" "recompiled"

# --- bad candidates: the compiler's words where they help, one line, exit 2
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn r->nr_acceses;\n}\n' >typo.c
"$hs" score --profile ./typo.c >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q '^\./typo\.c:3:[0-9]*: error' "$tmp/err" &&
	[ "$(tail -n 1 "$tmp/err")" = "hotscore score: --profile: ./typo.c: does not compile (cc, exit 1)" ] &&
	[ ! -s "$tmp/out" ] && ok "a compile error: the compiler at the user's file:line, then one line" ||
	fail "compile error" "exit $rc: $(cat "$tmp/err")"
printf 'int helper(void)\n{\n\treturn 1;\n}\n' >none.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r)\n{\n\treturn 0;\n}\n' >sig.c
expect_bad "no damon_hot_score()" "" score --profile ./none.c
grep -q "none.c: defines no damon_hot_score()" "$tmp/err" || fail "none" "$(cat "$tmp/err")"
expect_bad "another signature" "" score --profile ./sig.c
grep -q "sig.c: line 1: another signature than the kernel's" "$tmp/err" || fail "sig" "$(cat "$tmp/err")"
expect_bad "no such file" "" score --profile ./nosuch.c
expect_bad "unreadable: a directory" "" score --profile "$tmp/cache/"
CC=no-such-compiler expect_bad "no compiler" "" score --profile ./typo2.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s) { return 0; }\n' >typo2.c
CC=no-such-compiler expect_bad "no compiler, a new file" "" score --profile ./typo2.c
grep -q "cannot run the C compiler 'no-such-compiler'" "$tmp/err" || fail "cc" "$(cat "$tmp/err")"
expect_bad "a file in verify's --profile" "" verify --profile hotfix,./v2-ilog2.c

# --- verify: equal, wrong, trapping
"$hs" verify --quick --candidate ./v2-ilog2.c --against v2-ilog2 >"$tmp/v" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^\./v2-ilog2\.c = v2-ilog2: agree on all [0-9]* inputs$' "$tmp/v" &&
	ok "verify --candidate v2-ilog2.c --against v2-ilog2: equal, exit 0" ||
	fail "equal" "exit $rc: $(tail -3 "$tmp/v")"
"$hs" verify --quick --candidate ./rfc-fls.c --against rfc-fls >/dev/null 2>&1 &&
	"$hs" verify --quick --candidate ./hotfix-rewritten.c >/dev/null 2>&1 &&
	ok "rfc-fls.c = rfc-fls, hotfix-rewritten.c = hotfix" || fail "equal examples" "exit $?"
"$hs" verify --quick --candidate ./wrong-signed-division.c >"$tmp/w" 2>&1
rc=$?
# the first reproducer, its backslash continuations joined
cmd=$(awk '/^    e\.g\. hotscore / { on = 1 }
	on { line = $0; sub(/^ +/, "", line); more = sub(/ *\\$/, "", line)
	     c = c (c == "" ? "" : " ") line; if (!more) { print c; exit } }' "$tmp/w" |
      sed 's/^e\.g\. hotscore //')
# shellcheck disable=SC2086
got=$("$hs" $cmd 2>&1 | grep -E '^hot ')
[ $rc -eq 1 ] && [ -n "$cmd" ] && grep -Eq '^hot +(-?[0-9]+) +(-?[0-9]+)$' <<<"$got" &&
	[ "$(awk '{ print ($2 != $3) }' <<<"$got")" = 1 ] &&
	ok "the wrong example: exit 1, a reproducer that shows the difference: $cmd" ||
	fail "wrong" "exit $rc, '$cmd' gives '$got': $(tail -4 "$tmp/w")"
# --base other than --against: the reproducer names it, or score would
# compile the candidate with the hotfix's safe divisor and see no trap
"$hs" verify --quick --candidate ./wrong-signed-division.c --base v6.6 >"$tmp/w" 2>&1
cmd=$(grep -A1 'trap(SIGFPE): [0-9]* inputs' "$tmp/w" |
      sed -n 's/^    e\.g\. hotscore //p' | head -n 1)
# shellcheck disable=SC2086
[ "${cmd#*--base v6.6 }" != "$cmd" ] &&
	"$hs" $cmd | grep -Eq '^status +ok +trap\(SIGFPE\)$' &&
	ok "verify --candidate --base: the reproducer keeps the base: $cmd" ||
	fail "reproducer --base" "'$cmd': $(tail -4 "$tmp/w")"
"$hs" verify --quick --candidate ./div0-sample.c --against hotfix >"$tmp/d" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'hotfix ok, \./div0-sample\.c trap(SIGFPE): [0-9]* input' "$tmp/d" &&
	grep -q 'hotscore score --profile hotfix,\./div0-sample\.c --sample 0us' "$tmp/d" &&
	ok "a candidate that divides by zero: the trap named, a reproducer, exit 1" ||
	fail "div0" "exit $rc: $(tail -6 "$tmp/d")"
"$hs" verify --quick --candidate ./div0-sample.c --against v5.16 >"$tmp/d" 2>&1
grep -q '^hotscore verify: candidate' "$tmp/d" &&
	! grep -q 'div0(sample_interval), \./div0-sample\.c trap' "$tmp/d" &&
	ok "a division by zero agrees with a profile that divides by zero there" ||
	fail "div0 vs v5.16" "$(tail -6 "$tmp/d")"
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\tif (r->nr_accesses == 7)\n\t\treturn *(volatile int *)0;\n\treturn 0;\n}\n' >segv.c
"$hs" verify --quick --candidate ./segv.c --against hotfix >"$tmp/s" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'trap(SIGSEGV...)' "$tmp/s" && grep -q -- '--nr_accesses 7' "$tmp/s" &&
	ok "a NULL dereference is a trap, shrunk, and verify goes on" ||
	fail "segv" "exit $rc: $(tail -6 "$tmp/s")"
"$hs" verify --quick --candidate ./v2-ilog2.c --against v2-ilog2 --json v.json >/dev/null 2>&1 &&
	grep -q '"equal":true' v.json && grep -q '"candidate":"./v2-ilog2.c"' v.json &&
	ok "verify --candidate --json" || fail "json" "$(head -c 300 v.json)"
expect_bad "--against without --candidate" "" verify --against hotfix
expect_bad "--candidate with --profile" "" verify --candidate ./v2-ilog2.c --profile v6.6
expect_bad "an unknown --against" "" verify --candidate ./v2-ilog2.c --against v9

# --- bench: a candidate timed like a variant, after it proves equal
"$hs" bench --profile hotfix,./hotfix-rewritten.c --dist uniform --mode throughput \
	--iterations 100000 --runs 2 >"$tmp/b" 2>"$tmp/err"
rc=$?
grep -Eq '^\./hotfix-rewritten\.c +uniform +throughput +[0-9.]+ \[.*\] +.* [0-9]\.[0-9]+ (\[[0-9.]+ - [0-9.]+\]|\([0-9]+ rounds?\))' "$tmp/b" &&
	[ $rc -eq 0 ] && ok "bench times a candidate beside hotfix, paired" ||
	fail "bench" "exit $rc: $(grep -A3 '^variant' "$tmp/b" | head -5; cat "$tmp/err")"
# its copies at the four code placements: objects of their own, whose
# functions enter at bytes 0, 16, 32 and 48 of a 64-byte line
offsets=$(for so in "$tmp/cache/cand/"*.so; do
	nm "$so" | awk '$3 == "hs_cand_hot" { print $1 }'
done | while read -r a; do echo $((16#$a % 64)); done | sort -n | uniq | paste -sd' ')
missing=$(for o in 0 16 32 48; do
	echo " $offsets " | grep -q " $o " || echo "$o"
done)
[ -z "$missing" ] && ok "bench times a candidate at the placements 0, 16, 32 and 48" ||
	fail "candidate placements" "entries at $offsets mod 64"
"$hs" bench --profile hotfix,./div0-sample.c --dist uniform --iterations 100000 --runs 1 >"$tmp/b" 2>"$tmp/err"
rc=$?
cmd=$(sed -n 's/.*so it is not timed: hotscore //p' "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && [ ! -s "$tmp/b" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ -n "$cmd" ] &&
	[ "$("$hs" $cmd | grep -E '^hot ' | awk '{ print ($2 != $3) }')" = 1 ] &&
	ok "bench refuses to time a candidate that differs: one line, exit 1, a reproducer" ||
	fail "bench refuses" "exit $rc: $(cat "$tmp/err")"
"$hs" bench --profile loop,raw+safe+loop+clamp --iterations 100000 --runs 1 --mode throughput >"$tmp/b" 2>&1 &&
	grep -q '^debian-6.1.192 ' "$tmp/b" && ok "bench takes a component combination" ||
	fail "combination" "$(tail -3 "$tmp/b")"
expect_bad "a combination with no compiled variant" "" bench --profile loop,mvsum+max-nr+fls+none

# --- sim: a candidate in the simulated kdamond; a trap stops it, reported
"$hs" sim --profile hotfix,./hotfix-rewritten.c --no-timing --duration 20s >"$tmp/s" 2>&1 &&
	grep -q '^compare: hotfix and \./hotfix-rewritten\.c made identical decisions' "$tmp/s" &&
	ok "sim: hotfix and its rewrite decide identically" || fail "sim" "$(tail -2 "$tmp/s")"
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\tvolatile int zero = 0;\n\n\tif (r->age >= 21)\n\t\treturn 1000 / zero;\n\treturn 50;\n}\n' >agetrap.c
"$hs" sim --profile hotfix,./agetrap.c --no-timing --duration 20s >"$tmp/s" 2>"$tmp/err"
rc=$?
cmd=$(sed -n 's/.*Reproduce: hotscore //p' "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && grep -q 'damon_hot_score() trapped (SIGFPE)' "$tmp/err" && [ -n "$cmd" ] &&
	"$hs" $cmd | grep -Eq '^status +ok +trap\(SIGFPE\)$' &&
	ok "sim: a candidate's trap stops its run, exit 1, and the reproducer traps" ||
	fail "sim trap" "exit $rc: $(cat "$tmp/err")"
# timed: the cost replay's inputs hold the one that trapped, so none runs
"$hs" sim --profile hotfix,./agetrap.c --duration 20s >"$tmp/s" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'damon_hot_score() trapped (SIGFPE)' "$tmp/err" &&
	ok "sim, timed: a trap stops the run, and no cost replay calls the candidate again" ||
	fail "sim trap, timed" "exit $rc: $(cat "$tmp/err")"
expect_bad "sim: a candidate with a prepared scorer" "" sim --profile ./v2-ilog2.c --scorer fast

# --- a candidate that does not return: the status hang, in every command
# tests/data/hang-nr7.c is the hotfix but for an endless loop at
# nr_accesses 7.  A short limit keeps the tests fast; timeout makes a
# watchdog that fails a failure, not a hung suite.
cp "$here/data/hang-nr7.c" .
lim=(--call_limit 50ms)
t0=$SECONDS
out=$(timeout 60 "$hs" score --profile hotfix,./hang-nr7.c --nr_accesses 7 "${lim[@]}" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -Eq '^status +ok +hang$' <<<"$out" && grep -Eq '^hot +41 +undef$' <<<"$out" &&
	ok "score: a call that does not return is the status hang, hot undef, exit 0 (as a trap)" ||
	fail "score hang" "exit $rc: $out"
out=$(timeout 60 "$hs" score --profile hotfix,./hang-nr7.c --nr_accesses 8 "${lim[@]}" 2>&1)
grep -Eq '^hot +([0-9]+) +\1$' <<<"$out" && grep -Eq '^status +ok +ok$' <<<"$out" &&
	ok "score: on the other inputs it scores as the hotfix" || fail "score no hang" "$out"
printf 'nr_accesses\n6\n7\n8\n' | timeout 60 "$hs" score --input - --profile ./hang-nr7.c "${lim[@]}" \
	>"$tmp/c.csv" 2>"$tmp/err"
[ "$(field "$tmp/c.csv" 1 status)/$(field "$tmp/c.csv" 2 status)/$(field "$tmp/c.csv" 2 hot)/$(field "$tmp/c.csv" 3 status)" = ok/hang/undef/ok ] &&
	ok "score --input: the row that hangs says hang, the others score" ||
	fail "csv hang" "$(cat "$tmp/c.csv" "$tmp/err")"
[ $((SECONDS - t0)) -lt 30 ] && ok "score: three hangs stopped in $((SECONDS - t0)) s at --call_limit 50ms" ||
	fail "score hang time" "$((SECONDS - t0)) s"
t0=$SECONDS
timeout 120 "$hs" verify --quick --candidate ./hang-nr7.c "${lim[@]}" --json h.json >"$tmp/h" 2>&1
rc=$?
took=$((SECONDS - t0))
cmd=$(sed -n 's/^    e\.g\. hotscore //p' "$tmp/h" | head -n 1)
# shellcheck disable=SC2086
[ $rc -eq 1 ] && grep -q '^  stopped at the first hang: a call ran past --call_limit 50ms' "$tmp/h" &&
	grep -Eq '^  hotfix ok, \./hang-nr7\.c hang: [12] inputs?$' "$tmp/h" &&
	[ "$cmd" = "score --profile hotfix,./hang-nr7.c --nr_accesses 7 --call_limit 50ms" ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +ok +hang$' && [ $took -lt 30 ] &&
	ok "verify --quick: the hang in $took s, exit 1, shrunk to a reproducer that hangs: $cmd" ||
	fail "verify hang" "exit $rc in $took s, '$cmd': $(tail -8 "$tmp/h")"
grep -q '"stopped":true' h.json && grep -q '"candidate_status":"hang"' h.json &&
	ok "verify --json: stopped, and the class hang" || fail "verify json hang" "$(head -c 600 h.json)"
"$hs" verify --quick --candidate ./hotfix-rewritten.c --json ok.json >/dev/null 2>&1 &&
	grep -q '"stopped":false' ok.json && ok "verify --json: an equal candidate was not stopped" ||
	fail "verify json" "$(head -c 300 ok.json)"
timeout 120 "$hs" bench --profile hotfix,./hang-nr7.c --dist uniform --iterations 100000 --runs 1 \
	"${lim[@]}" >"$tmp/b" 2>"$tmp/err"
rc=$?
cmd=$(sed -n 's/.*so it is not timed: hotscore //p' "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && [ ! -s "$tmp/b" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q 'hangs on verify.s edge set (a call ran past --call_limit 50ms' "$tmp/err" &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +ok +hang$' &&
	ok "bench refuses a candidate that hangs at its vetting: one line, exit 1, a reproducer" ||
	fail "bench hang" "exit $rc: $(cat "$tmp/err")"
# paddr's lru_prio asks for hot scores of accessed regions: some have 7
hot_scheme=(--ops paddr --damos_action lru_prio --damos_access_rate 0% max --damos_quotas 10ms 8MiB 1s 0 1 1)
for timing in --no-timing ""; do
	# shellcheck disable=SC2086
	timeout 120 "$hs" sim --profile hotfix,./hang-nr7.c $timing --duration 20s "${hot_scheme[@]}" \
		"${lim[@]}" >"$tmp/s" 2>"$tmp/err"
	rc=$?
	cmd=$(sed -n 's/.*Reproduce: hotscore //p' "$tmp/err")
	# shellcheck disable=SC2086
	[ $rc -eq 1 ] && grep -q 'damon_hot_score() did not return (hang: a call ran past --call_limit 50ms) at [0-9.]* s; stopped' "$tmp/err" &&
		timeout 60 "$hs" $cmd | grep -Eq '^status +ok +hang$' &&
		ok "sim ${timing:-timed}: a hang stops the run as a trap does, exit 1, and the reproducer hangs" ||
		fail "sim hang ${timing:-timed}" "exit $rc: $(cat "$tmp/err")"
done
timeout 120 "$hs" rank "$here/data/rank/damo-trace.json_compressed" "${hot_scheme[@]}" \
	--profile hotfix,./hang-nr7.c "${lim[@]}" --csv r.csv >"$tmp/r" 2>"$tmp/err"
rc=$?
cmd=$(sed -n 's/.*Reproduce: hotscore //p' "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e r.csv ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +ok +hang$' &&
	ok "rank: a hang stops the ranking, one line, exit 1, no --csv, a reproducer" ||
	fail "rank hang" "exit $rc: $(cat "$tmp/err")"
timeout 120 "$hs" verify --captured "$here/data/capture-6.1.192.csv" --profile hotfix,./hang-nr7.c \
	"${lim[@]}" >"$tmp/v" 2>&1
rc=$?
joined=$(tr -s ' \n' ' ' <"$tmp/v")
[ $rc -eq 1 ] && grep -Eq '^  \./hang-nr7\.c +[0-9]+ +1$' "$tmp/v" &&
	grep -q 'where the profile gives hang: hotscore score --profile ./hang-nr7.c --nr_accesses 7 .*--call_limit 50ms' <<<"$joined" &&
	grep -q 'stopped at line [0-9]*: a call ran past --call_limit 50ms (hang), and its [0-9]* later calls were not checked' <<<"$joined" &&
	ok "verify --captured: a hang is the model's answer, and the candidate's last" ||
	fail "captured hang" "exit $rc: $(cat "$tmp/v")"
# a base that is a combination (the first model beside the candidate):
# the reproducer names it in --profile, where score takes it as the base
timeout 120 "$hs" verify --captured "$here/data/capture-6.1.192.csv" \
	--profile raw+max-nr+loop+none,./hang-nr7.c "${lim[@]}" >"$tmp/v" 2>&1
cmd=$(tr -s ' \n' ' ' <"$tmp/v" |
      sed -n 's/.*where the profile gives hang: hotscore \(.*\) stopped at line.*/\1/p')
# shellcheck disable=SC2086
[ "${cmd#score --profile raw+max-nr+loop+none,./hang-nr7.c }" != "$cmd" ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +ok +hang$' &&
	ok "verify --captured: a combination as the base, named where score takes it" ||
	fail "captured base" "'$cmd': $(cat "$tmp/v")"
for c in score verify bench sim rank; do
	w=()
	[ $c = verify ] && w=(--candidate ./hang-nr7.c)
	expect_bad "$c --call_limit 0" "" $c "${w[@]}" --call_limit 0
	grep -q "out of range (1ms..1h)" "$tmp/err" || fail "$c range" "$(cat "$tmp/err")"
done
expect_bad "--call_limit past an hour" "" sim --call_limit 2h
expect_bad "--call_limit not a time" "" score --call_limit soon
expect_bad "verify --call_limit without a candidate" "" verify --call_limit 50ms

report_counts
