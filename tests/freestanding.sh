#!/usr/bin/env bash
# src/score/ and the kernel-safe part of src/bench/ must compile into the
# kernel module as is: they may include only hotscore's own headers, and
# their objects, built freestanding, may call nothing but each other (no
# libc, no libgcc helpers such as 128-bit division).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

kernel_safe=("$root"/src/score/*.c "$root"/src/bench/stats.c
	     "$root"/src/bench/engine.c "$root"/src/bench/damon.c
	     "$root"/src/bench/plan.c "$root"/src/bench/stream.c
	     "$root"/src/bench/analysis.c "$root"/src/bench/replay.c
	     "$root"/src/bench/calls.c "$root"/src/bench/kparam.c)
for src in "${kernel_safe[@]}" "$root"/src/score/*.h; do
	name=${src#"$root"/}
	bad=$(grep -E '^\s*#\s*include' "$src" |
	      grep -Ev '#\s*include\s*(<hotscore/[a-z_]+\.h>|"([a-z]+/)?[a-z_]+\.h")' || true)
	if [ -n "$bad" ]; then
		echo "FAIL $name includes outside hotscore: $bad"
		failed=$((failed + 1))
	else
		echo "ok   $name: hotscore headers only"
		passed=$((passed + 1))
	fi
done
for src in "${kernel_safe[@]}"; do
	name=${src#"$root"/}
	obj=$tmp/$(basename "$src" .c).o
	# -fno-pie: as the kernel builds (a PIE build reaches globals through the GOT)
	if ! ${CC:-cc} -std=gnu11 -O2 -ffreestanding -fno-builtin -fno-pie -Wall -Wextra \
	     -I"$root/include" -I"$root/src" -c -o "$obj" "$src" 2>"$tmp/err"; then
		echo "FAIL $name does not build freestanding: $(head -n 3 "$tmp/err")"
		failed=$((failed + 1))
	fi
done
nm --defined-only "$tmp"/*.o | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/defined"
for obj in "$tmp"/*.o; do
	undef=$(nm -u "$obj" | awk '{ print $2 }' | sort |
		comm -23 - "$tmp/defined" | tr '\n' ' ')
	if [ -n "$undef" ]; then
		echo "FAIL $(basename "$obj"): calls outside the kernel-safe code: $undef"
		failed=$((failed + 1))
	else
		echo "ok   $(basename "$obj"): freestanding, calls only kernel-safe code"
		passed=$((passed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
