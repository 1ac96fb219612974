#!/usr/bin/env bash
# The kernel-safe code is every .c file of the folders kmod/Kbuild names in
# HS_SAFE_DIRS (src/score/ and src/bench/): it must compile into the kernel module as is.  Each may include only
# hotscore's own headers, and their objects, built freestanding, may call
# nothing but each other (no libc, no libgcc helpers such as 128-bit
# division).  Kbuild's objects must be those folders' files, one each.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# kmod/Kbuild's make variable VAR (ARGS: more make arguments), read by
# make itself, without a kernel tree.
kbuild_var() {
	local var=$1
	shift
	printf 'hs-var:\n\t@echo $(%s)\n' "$var" |
		make --no-print-directory -s -f "$root/kmod/Kbuild" -f - \
			src="$root/kmod" HS_ROOT="$root" "$@" hs-var
}
# the one list of kernel-safe folders is Kbuild's HS_SAFE_DIRS
read -r -a safe_dirs <<<"$(kbuild_var HS_SAFE_DIRS)"
kernel_safe=() headers=()
shopt -s nullglob
for d in "${safe_dirs[@]}"; do
	kernel_safe+=("$root"/src/"$d"/*.c)
	headers+=("$root"/src/"$d"/*.h)
done
shopt -u nullglob

# What Kbuild compiles of src/: its objects src-DIR-NAME.o
kbuild_objs() {
	kbuild_var hotscore-y "$@" | tr ' ' '\n' | grep '^src-' | sort
}
for src in "${kernel_safe[@]}"; do
	name=${src#"$root"/src/}
	echo "src-${name//\//-}" | sed 's/\.c$/.o/'
done | sort >"$tmp/folders"
# the files of the folders and Kbuild's objects: "" when they agree
differ() {
	kbuild_objs "$@" >"$tmp/kbuild"
	[ -s "$tmp/kbuild" ] || { echo "Kbuild builds none"; return; }
	comm -3 "$tmp/folders" "$tmp/kbuild" | tr -d '\t' | tr '\n' ' '
}
only=$(differ)
if [ ${#kernel_safe[@]} -eq 0 ] || [ -n "$only" ]; then
	echo "FAIL kmod/Kbuild and src/{${safe_dirs[*]}}/*.c differ: ${only:-no kernel-safe file}"
	failed=$((failed + 1))
else
	echo "ok   kmod/Kbuild builds every .c of src/{${safe_dirs[*]}}/, and only those"
	passed=$((passed + 1))
fi
# negative control: a Kbuild that left a folder out must differ
if [ ${#safe_dirs[@]} -gt 1 ] && [ -n "$(differ HS_SAFE_DIRS="${safe_dirs[0]}")" ]; then
	echo "ok   control: a Kbuild without src/${safe_dirs[1]}/ is caught"
	passed=$((passed + 1))
else
	echo "FAIL control: a Kbuild without a kernel-safe folder passes"
	failed=$((failed + 1))
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
