#!/usr/bin/env bash
# scripts/kernel-check's judgement without QEMU: scripts/kernel-report on
# guest consoles written here, one per outcome (equal; identify, the live
# capture or KUnit tells a difference; a crash in the scoring; a guest that
# did not finish; a suite that did not run), each with the exit status and
# the verdict line it must give.  Then kernel-check's own bad arguments,
# each refused in one line with exit 2 before anything is built.  The
# booted runs are scripts/kernel-test.sh's (make test-kernel).
# Usage: tests/kernelcheck.sh PATH/TO/hotscore
set -u
hs=$(readlink -f "${1:?usage: kernelcheck.sh HOTSCORE}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
real=$here/data/capture-6.1.192.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
. "$root/scripts/pkgs.sh"
base=debian-6.1.192
# kernel-report reads verify's JSON with python3, installed here when
# missing (root, apt); without it the suite says so and stops
if ! pkgs_need python3 || ! command -v python3 >/dev/null; then
	echo "SKIP kernel-report's cases: no python3 (not root: apt-get install python3)"
	report_counts
	exit
fi

# dump NAME FILE: as the guest prints a file (gzip, base64, markers)
dump() {
	echo "=== $1 begin"
	gzip -c "$2" | base64
	echo "=== $1 end"
}

# console DIR [VERDICT] [CAPTURE] [KUNIT_FAILS]: a guest's console as
# scripts/guest/check.sh prints it, with identify's VERDICT (default:
# hotfix and $base agree), the capture CAPTURE (default: the committed
# one) and KUNIT_FAILS rows of the suite failing (default 0)
console() {
	local d=$1 verdict=${2:-"hotfix, $base"} cap=${3:-$real} kf=${4:-0} i
	mkdir -p "$d"
	"$hs" kunit --kernel 6.1 --output "$d/ops-common-kunit.h"
	{
		echo "=== kernel 6.1.192"
		echo "=== kunit begin"
		echo "KTAP version 1"
		echo "    # Subtest: damon-ops-common"
		echo "        # Subtest: damon_test_hot_score"
		for i in 0 1 2 3 4; do
			if [ "$i" -lt "$kf" ]; then
				echo "        not ok $((i + 1)) row $i"
			else
				echo "        ok $((i + 1)) row $i"
			fi
		done
		echo "    ok 1 damon_test_hot_score"
		echo "ok 1 damon-ops-common"
		echo "=== kunit end"
		echo "=== dmesg identify begin"
		echo "[   1.000000] hotscore: identify: 1000 inputs compared, 0 skipped (some profile divides by zero there)"
		echo "[   1.000001] hotscore: identify: $base         differs on 7 of 1000; first: hotscore score --profile $base --sample 5000us --aggr 100000us --nr_accesses 3 --age 9 gives 41, this kernel 40"
		echo "[   1.000002] hotscore: identify: scores outside [0, 99]: 0"
		echo "[   1.000003] hotscore: identify: verdict: $verdict"
		echo "=== dmesg identify end"
		echo "=== phase weights at 10.0 s"
		echo "=== capture_info begin"
		echo "calls: $(($(wc -l <"$cap") - 1))"
		echo "hot: 1"
		echo "cold: 1"
		echo "dropped: 0"
		echo "=== capture_info end"
		dump capture "$cap"
		echo "=== ALL_DONE"
	} >"$d/console.log"
}

# judge NAME WANT_RC VERDICT_ERE DIR: kernel-report's exit and verdict
judge() {
	local n=$1 want=$2 ere=$3 d=$4 rc
	"$root/scripts/kernel-report" "$d" "$base" "$hs" test.patch "6.1 test" \
		>"$d/report.txt" 2>"$d/report.err"
	rc=$?
	if [ "$rc" = "$want" ] && grep -Eq "$ere" "$d/report.txt" "$d/report.err"; then
		ok "$n: exit $rc, $(grep -hE "$ere" "$d/report.txt" "$d/report.err" | head -1 | cut -c1-80)"
	else
		fail "$n" "exit $rc (want $want), no '$ere' in: $(cat "$d/report.txt" "$d/report.err" | head -20)"
	fi
}

console "$tmp/equal"
judge "equal" 0 "^verdict: equal: the patched kernel scores every checked input as $base" "$tmp/equal"
awk -v w=120 '{ print } END { }' "$tmp/equal/report.txt" |
	awk 'length > 100 { bad++ } END { exit bad > 0 }' &&
	ok "the report fits 100 columns" ||
	fail "report width" "$(awk 'length > 100' "$tmp/equal/report.txt" | head -2)"

# kernel-check --candidate: identify's line for a candidate in the module
console "$tmp/cand"
sed -i 's|^\(\[   1.000003\] hotscore: identify: verdict: .*\)|[   1.0] hotscore: identify: and the candidate ./mine.c at candidate_hot+0x0/0x90 [hotscore]\n[   1.1] hotscore: identify: candidate       differs on 3 of 1000; first: hotscore score --profile ./mine.c --base hotfix --sample 5000us --aggr 100000us gives 7, this kernel 8\n\1|' \
	"$tmp/cand/console.log"
judge "a candidate in the module" 0 "^verdict: equal" "$tmp/cand"
grep -q '^          the candidate ./mine.c: differs on 3 of 1000; first: hotscore score --profile ./mine.c' \
	"$tmp/cand/report.txt" &&
	awk 'length > 100 { bad++ } END { exit bad > 0 }' "$tmp/cand/report.txt" &&
	ok "identify's candidate line is in the report, within 100 columns" ||
	fail "candidate line" "$(grep -A2 'candidate' "$tmp/cand/report.txt")"

console "$tmp/identify" "hotfix"
judge "identify differs" 1 "^verdict: different; first, in identify: hotscore score --profile $base" "$tmp/identify"
grep -q 'differs from debian-6.1.192 on 7 of 1000 inputs' "$tmp/identify/report.txt" &&
	ok "identify's count of differing inputs is in the report" ||
	fail "identify count" "$(cat "$tmp/identify/report.txt")"
awk 'length > 100 { bad++ } END { exit bad > 0 }' "$tmp/identify/report.txt" &&
	ok "a long first difference is folded to 100 columns" ||
	fail "folding" "$(awk 'length > 100' "$tmp/identify/report.txt")"

# one call's returned value changed: the capture must tell, on that call
awk -F, -v OFS=, 'NR == 2 { $NF = $NF + 1 } { print }' "$real" >"$tmp/changed.csv"
console "$tmp/capture" "" "$tmp/changed.csv"
judge "the capture differs" 1 "^verdict: different; first, in live capture: hotscore score" "$tmp/capture"
grep -Eq '^live capture: .*, 1 differ from debian-6.1.192' "$tmp/capture/report.txt" &&
	ok "the live capture's line counts 1 differing call" ||
	fail "capture count" "$(grep '^live capture' "$tmp/capture/report.txt")"

console "$tmp/kunit" "" "" 2
judge "KUnit fails" 1 "^verdict: different; first, in kunit: hotscore score --profile $base --sample" "$tmp/kunit"
# the failing row's command gives the row's expected score
want=$(awk '/damon_score_tests\[\] = \{/ { on = 1; next }
	on && /^\t\{ / { gsub(/[{},]/, " "); n = split($0, v, " "); print v[n]; exit }' \
	"$tmp/kunit/ops-common-kunit.h")
cmd=$(sed -n '/^verdict: /,$p' "$tmp/kunit/report.txt" | tr -d '\\\n' | tr -s ' ' |
	sed -n 's/.*first, in kunit: hotscore \(score .*\) (the suite.*/\1/p')
got=$("$hs" $cmd | sed -n 's/^hot  *//p' | tr -s ' ' | cut -d' ' -f1)
[ -n "$want" ] && [ "$got" = "$want" ] &&
	ok "the failing row's command gives the row's score, $got: hotscore $cmd" ||
	fail "kunit row command" "'hotscore $cmd' gives '$got', the row says '$want'"
grep -q '^kunit: 3 passed, 2 failed$' "$tmp/kunit/report.txt" &&
	ok "kunit's leaf rows are counted: 3 passed, 2 failed" ||
	fail "kunit count" "$(grep '^kunit' "$tmp/kunit/report.txt")"

console "$tmp/nokunit"
sed -i '/^        \(not \)\?ok [0-9]/d; /^    ok 1 damon_test/d' "$tmp/nokunit/console.log"
judge "the suite did not run" 2 "no verdict: the KUnit suite did not run" "$tmp/nokunit"

console "$tmp/crash"
sed -i 's/^=== ALL_DONE$/[   9.0] divide error: 0000 [#1] PREEMPT\n[   9.1] RIP: 0010:damon_hot_score+0x2a\/0x100/' "$tmp/crash/console.log"
judge "a crash in the scoring" 1 "^verdict: different \(the unpatched kernel does not crash there\)" "$tmp/crash"

# a crash elsewhere, after identify named damon_hot_score(): no verdict
console "$tmp/crash2"
sed -i 's/^=== ALL_DONE$/[   8.0] hotscore: identify: calling damon_hot_score+0x0\/0x100 and damon_cold_score+0x0\/0x20\n[   9.0] Out of memory: Kill process 1\n[   9.1] Kernel panic - not syncing: Out of memory\n[   9.2] RIP: 0010:panic+0x10\/0x300/' "$tmp/crash2/console.log"
judge "a crash elsewhere" 2 "no verdict: the guest did not finish \(\[   9.1\] Kernel panic" "$tmp/crash2"

# identify, the capture and KUnit, each unreadable: no verdict, not "different"
console "$tmp/noident"
sed -i '/identify: verdict: /d' "$tmp/noident/console.log"
judge "identify did not run" 2 "no verdict: identify did not run" "$tmp/noident"
console "$tmp/badcap"
sed -i '/^=== capture begin/,/^=== capture end/{/^===/!s/^/x/}' "$tmp/badcap/console.log"
judge "an unreadable capture" 2 "no verdict: no live capture" "$tmp/badcap"
# one that decodes but is not a capture
console "$tmp/badcap2" "" "$root/README.md"
judge "a capture verify cannot read" 2 "no verdict: the capture could not be checked" "$tmp/badcap2"

# a failure in another KUnit suite (DAMON's own) is a finding too
console "$tmp/other"
sed -i 's/^=== kunit end$/not ok 2 damon\n=== kunit end/' "$tmp/other/console.log"
judge "another suite fails" 1 "^verdict: different; first, in kunit: suites damon failed" "$tmp/other"

console "$tmp/unfinished"
sed -i '/^=== ALL_DONE$/d' "$tmp/unfinished/console.log"
judge "a guest that did not finish" 2 "no verdict: the guest did not finish" "$tmp/unfinished"

# kernel-check's arguments: refused before anything is built
kc_bad() {	# NAME ARGS...
	local n=$1 rc
	shift
	"$root/scripts/kernel-check" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(grep -c '^kernel-check: ' "$tmp/err")" = 1 ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]; then
		ok "kernel-check $n: exit 2, $(head -1 "$tmp/err")"
	else
		fail "kernel-check $n" "exit $rc: $(cat "$tmp/err" "$tmp/out" | head -3)"
	fi
}
kc_bad "no patch"
kc_bad "a missing patch" "$tmp/none.patch"
kc_bad "--kernel 5.4" "$root/examples/patches/v2-ilog2.patch" --kernel 5.4
kc_bad "two patches" a.patch b.patch
kc_bad "an unknown option" --frobnicate
kc_bad "a missing candidate" --unpatched --candidate "$tmp/none.c"
kc_bad "--damos on 6.1 (no damos_before_apply)" --unpatched --kernel 6.1 --damos
mkdir -p "$tmp/mine"
cp "$root/examples/patches/v2-ilog2.patch" "$tmp/mine/"
kc_bad "--out over a directory it did not make" "$tmp/mine/v2-ilog2.patch" --out "$tmp/mine"
[ -f "$tmp/mine/v2-ilog2.patch" ] && ok "the directory and the patch in it are left as they were" ||
	fail "--out" "the patch in --out's directory is gone"
kc_bad "--unpatched with a patch" --unpatched "$root/examples/patches/v2-ilog2.patch"
"$root/scripts/kernel-check" --help | grep -q '^usage: scripts/kernel-check PATCH' &&
	ok "kernel-check --help" || fail "kernel-check --help" "no usage line"

report_counts
