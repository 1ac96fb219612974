#!/usr/bin/env bash
# src/score/ must compile into the kernel module as is: it may include only
# hotscore's own headers, and its objects, built freestanding, may call
# nothing (no undefined symbols: no libc, no libgcc helpers).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

for src in "$root"/src/score/*.c "$root"/src/score/*.h; do
	name=${src#"$root"/}
	bad=$(grep -E '^\s*#\s*include' "$src" |
	      grep -Ev '#\s*include\s*(<hotscore/[a-z_]+\.h>|"[a-z_]+\.h")' || true)
	if [ -n "$bad" ]; then
		echo "FAIL $name includes outside hotscore: $bad"
		failed=$((failed + 1))
	else
		echo "ok   $name: hotscore headers only"
		passed=$((passed + 1))
	fi
done
for src in "$root"/src/score/*.c; do
	name=${src#"$root"/}
	obj=$tmp/$(basename "$src" .c).o
	if ! ${CC:-cc} -std=gnu11 -O2 -ffreestanding -fno-builtin -Wall -Wextra \
	     -I"$root/include" -I"$root/src" -c -o "$obj" "$src" 2>"$tmp/err"; then
		echo "FAIL $name does not build freestanding: $(head -n 3 "$tmp/err")"
		failed=$((failed + 1))
		continue
	fi
	undef=$(nm -u "$obj" | awk '{ print $2 }' | tr '\n' ' ')
	if [ -n "$undef" ]; then
		echo "FAIL $name calls outside itself: $undef"
		failed=$((failed + 1))
	else
		echo "ok   $name: freestanding, no undefined symbols"
		passed=$((passed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
