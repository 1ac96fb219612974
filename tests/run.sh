#!/usr/bin/env bash
# Run every test binary in BUILD/tests, then tests/cli.sh; add up their
# "N passed, N failed" lines and end with the total.  A suite that crashes,
# prints no result line or exits non-zero counts as one more failure.
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
result='^[0-9]+ passed, [0-9]+ failed$'

suite() {	# NAME COMMAND...
	local name=$1 out rc line
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -Ev "$result" | sed "s/^/[$name] /"
	line=$(printf '%s\n' "$out" | grep -E "$result" | tail -n 1)
	if [ -z "$line" ]; then
		echo "[$name] FAIL: no result line (exit $rc)"
		failed=$((failed + 1))
		return
	fi
	echo "[$name] $line"
	set -- $line
	passed=$((passed + $1))
	failed=$((failed + $3))
	if [ "$rc" -ne 0 ] && [ "$3" -eq 0 ]; then
		echo "[$name] FAIL: exit status $rc"
		failed=$((failed + 1))
	fi
}

for t in "$build"/tests/test_*; do
	[ -x "$t" ] && suite "${t##*/}" "$t"
done
suite cli "$here/cli.sh" "$build/hotscore"
suite options "$here/options.sh" "$build/hotscore" "$build/gendoc"
suite docs "$here/docs.sh" "$build/hotscore" "$build/gendoc"
suite interrupt "$here/interrupt.sh" "$build/hotscore"
suite io "$here/io.sh" "$build/hotscore"
suite cand "$here/cand.sh" "$build/hotscore"
suite rank "$here/rank.sh" "$build/hotscore" "$build/tests/jsonq"
suite records "$here/records.sh" "$build/hotscore" "$build/tests/jsonq"
suite bench "$here/bench.sh" "$build/hotscore" "$build/tests/jsonq"
suite verify "$here/verify.sh" "$build/hotscore" "$build/tests/jsonq"
suite capture "$here/capture.sh" "$build/hotscore" "$build/tests/jsonq"
suite sim "$here/sim.sh" "$build/hotscore" "$build/tests/jsonq" \
	"$build/tests/damocheck"
suite damo "$here/damo.sh" "$build/hotscore" "$build/tests/jsonq"
# the real workload, and the static binary (make static) that guests run
suite workload "$here/workload.sh" "$build/hotscore" "$build/tests/jsonq" \
	"$here/../build/static/hotscore"
suite freestanding "$here/freestanding.sh"
suite kerneldoc "$here/kerneldoc.sh"
suite fuzz-replay "$here/fuzz/replay.sh" "$build"
# the module under QEMU: once, with the plain build (it tests the kernel
# side; the sanitized pass would only repeat it)
case $build in
*/san) echo "[kernel] run by the plain build's pass" ;;
*) suite kernel "$here/../scripts/kernel-test.sh" "$build" ;;
esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
