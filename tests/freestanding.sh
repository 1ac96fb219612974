#!/usr/bin/env bash
# The kernel-safe code is every .c file of src/score/ and src/bench/: it
# must compile into the kernel module as is.  Each may include only
# hotscore's own headers, and their objects, built freestanding, may call
# nothing but each other (no libc, no libgcc helpers such as 128-bit
# division).  kmod/Kbuild takes its list from the same folders: a file in
# one and not the other fails here.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

safe_dirs=(score bench)
kernel_safe=() headers=()
shopt -s nullglob
for d in "${safe_dirs[@]}"; do
	kernel_safe+=("$root"/src/"$d"/*.c)
	headers+=("$root"/src/"$d"/*.h)
done
shopt -u nullglob

# What Kbuild compiles of src/: its objects src-DIR-NAME.o, read from
# kmod/Kbuild itself by make, without a kernel tree.
kbuild_objs() {
	printf 'hs-objs:\n\t@echo $(hotscore-y)\n' |
		make --no-print-directory -s -f "$root/kmod/Kbuild" -f - \
			src="$root/kmod" HS_ROOT="$root" hs-objs |
		tr ' ' '\n' | grep '^src-' | sort
}
for src in "${kernel_safe[@]}"; do
	name=${src#"$root"/src/}
	echo "src-${name//\//-}" | sed 's/\.c$/.o/'
done | sort >"$tmp/folders"
kbuild_objs >"$tmp/kbuild"
only=$(comm -3 "$tmp/folders" "$tmp/kbuild" | tr -d '\t' | tr '\n' ' ')
if [ -n "$only" ] || [ ! -s "$tmp/kbuild" ]; then
	echo "FAIL kmod/Kbuild and src/{${safe_dirs[*]}}/*.c differ: ${only:-Kbuild builds none}"
	failed=$((failed + 1))
else
	echo "ok   kmod/Kbuild builds every .c of src/{${safe_dirs[*]}}/, and only those"
	passed=$((passed + 1))
fi
# src-DIR-NAME.o includes <DIR/NAME.c>: a '-' in NAME would name another
for src in "${kernel_safe[@]}"; do
	case ${src##*/} in
	*-*)	echo "FAIL ${src#"$root"/}: a '-' in its name (Kbuild's src-DIR-NAME.o)"
		failed=$((failed + 1)) ;;
	esac
done
for src in "${kernel_safe[@]}" "${headers[@]}"; do
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
	obj=${name#src/}
	obj=$tmp/${obj//\//-}
	obj=${obj%.c}.o
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
