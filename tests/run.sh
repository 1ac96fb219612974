#!/usr/bin/env bash
# Run every test binary in BUILD/tests, then tests/cli.sh; add up their
# "N passed, N failed" lines and end with the total.  A suite that crashes,
# prints no result line or exits non-zero counts as one more failure.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0 fails=()
result='^[0-9]+ passed, [0-9]+ failed$'

suite() {	# NAME COMMAND...
	local name=$1 out rc line
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -Ev "$result" | sed "s/^/[$name] /"
	# a CI log may keep only its tail: the failures are repeated there
	while IFS= read -r line; do
		fails+=("[$name] $line")
	done < <(printf '%s\n' "$out" | grep -E '^(FAIL|not ok)' | cut -c1-300)
	line=$(printf '%s\n' "$out" | grep -E "$result" | tail -n 1)
	if [ -z "$line" ]; then
		echo "[$name] FAIL: no result line (exit $rc)"
		fails+=("[$name] FAIL: no result line (exit $rc)")
		failed=$((failed + 1))
		return
	fi
	echo "[$name] $line"
	set -- $line
	passed=$((passed + $1))
	failed=$((failed + $3))
	if [ "$rc" -ne 0 ] && [ "$3" -eq 0 ]; then
		echo "[$name] FAIL: exit status $rc"
		fails+=("[$name] FAIL: exit status $rc")
		failed=$((failed + 1))
	fi
}

# The suites, each "NAME COMMAND...": every one installs or builds what it
# needs itself (tests/kerneldoc.sh its kernel-doc, tests/damo.sh python3,
# scripts/kernel-test.sh QEMU and its kernels), so any order and any subset
# gives the same verdicts.  HS_TEST_ORDER=reverse runs them last to first;
# HS_TESTS=NAME,NAME... runs those alone (make test HS_TESTS=kerneldoc).
suites=()
add() {	# NAME COMMAND...: one entry, its words joined by US (\x1f)
	local IFS=$'\x1f'
	suites+=("$*")
}
for t in "$build"/tests/test_*; do
	[ -x "$t" ] && add "${t##*/}" "$t"
done
add cli "$here/cli.sh" "$build/hotscore"
# every subcommand's real output within 100 columns
add width "$here/width.sh" "$build/hotscore"
add options "$here/options.sh" "$build/hotscore" "$build/gendoc"
add docs "$here/docs.sh" "$build/hotscore" "$build/gendoc"
add interrupt "$here/interrupt.sh" "$build/hotscore"
# the status line and its ETA, on a terminal only (a pseudo-terminal)
add progress "$here/progress.sh" "$build/hotscore"
add io "$here/io.sh" "$build/hotscore"
add cand "$here/cand.sh" "$build/hotscore"
add rank "$here/rank.sh" "$build/hotscore" "$build/tests/jsonq"
add replay "$here/replay.sh" "$build/hotscore" "$build/tests/jsonq"
add records "$here/records.sh" "$build/hotscore" "$build/tests/jsonq"
add bench "$here/bench.sh" "$build/hotscore" "$build/tests/jsonq"
add verify "$here/verify.sh" "$build/hotscore" "$build/tests/jsonq"
add capture "$here/capture.sh" "$build/hotscore" "$build/tests/jsonq"
add sim "$here/sim.sh" "$build/hotscore" "$build/tests/jsonq" \
	"$build/tests/damocheck"
add damo "$here/damo.sh" "$build/hotscore" "$build/tests/jsonq"
# the real workload, and the static binary (make static) that guests run
add workload "$here/workload.sh" "$build/hotscore" "$build/tests/jsonq" \
	"$here/../build/static/hotscore"
add kernelcheck "$here/kernelcheck.sh" "$build/hotscore"
add freestanding "$here/freestanding.sh"
add kerneldoc "$here/kerneldoc.sh"
add kunit "$here/kunit.sh" "$build/hotscore"
add judge "$here/judge.sh" "$build/hotscore"
add fuzz-replay "$here/fuzz/replay.sh" "$build"
# the module under QEMU: once, with the plain build (it tests the kernel
# side; the sanitized pass would only repeat it)
case $build in
*/san) ;;
*) add kernel "$here/../scripts/kernel-test.sh" "$build" ;;
esac
names=" kernel "	# known in both passes
for s in "${suites[@]}"; do
	names+="${s%%$'\x1f'*} "
done
# HS_TESTS: every name must be a suite's (a typo must not pass unseen)
want=","
IFS=, read -r -a asked <<<"${HS_TESTS:-}"
for n in "${asked[@]}"; do
	n=${n// /}
	[ -z "$n" ] && continue
	if [ "${names/ $n /}" = "$names" ]; then
		echo "tests/run.sh: HS_TESTS: '$n' is not a suite (${names# })" >&2
		exit 2
	fi
	want+="$n,"
done

order=("${!suites[@]}")
if [ "${HS_TEST_ORDER:-}" = reverse ]; then
	order=()
	for ((i = ${#suites[@]} - 1; i >= 0; i--)); do
		order+=("$i")
	done
elif [ -n "${HS_TEST_ORDER:-}" ]; then
	echo "tests/run.sh: HS_TEST_ORDER='$HS_TEST_ORDER': give 'reverse' or nothing" >&2
	exit 2
fi
ran=0
for i in "${order[@]}"; do
	IFS=$'\x1f' read -r -a words <<<"${suites[$i]}"
	set -- "${words[@]}"
	[ "$want" != , ] && [ "${want/,"$1",/}" = "$want" ] && continue
	suite "$@"
	ran=$((ran + 1))
done
case $build in
*/san) [ "$want" = , ] || [ "${want/,kernel,/}" != "$want" ] &&
	echo "[kernel] run by the plain build's pass" ;;
esac

if [ ${#fails[@]} -gt 0 ]; then
	echo "--- the failures, again:"
	printf '%s\n' "${fails[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
