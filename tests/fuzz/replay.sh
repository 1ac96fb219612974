#!/usr/bin/env bash
# Every fuzz corpus replayed through its harness, built with the project's
# compiler and tests/fuzz/replay.c (make test; SANITIZE=1: under ASan and
# UBSan): the seeds and every input that once crashed must still pass.
# Usage: tests/fuzz/replay.sh BUILD   (the harnesses in BUILD/tests/fuzz/)
set -u
build=${1:?usage: replay.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
# under SANITIZE=1: where UBSan stopped
export UBSAN_OPTIONS=print_stacktrace=1

for corpus in "$here"/corpus/*/; do
	corpus=${corpus%/}
	name=${corpus##*/}
	bin=$build/tests/fuzz/$name
	if [ ! -x "$bin" ]; then
		echo "FAIL $name: no harness $bin"
		failed=$((failed + 1))
		continue
	fi
	out=$("$bin" "$corpus" 2>&1)
	rc=$?
	n=$(sed -n 's/^replay: \([0-9]*\) inputs$/\1/p' <<<"$out")
	if [ $rc -eq 0 ] && [ -n "$n" ]; then
		echo "ok   $name: $n inputs replayed"
		passed=$((passed + 1))
	else
		echo "FAIL $name: exit $rc: $(tail -n 20 <<<"$out")"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
