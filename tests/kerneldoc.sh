#!/usr/bin/env bash
# The kernel's own scripts/kernel-doc must find nothing to warn about in
# hotscore's sources: include/, src/ and kmod/, the files git tracks (every
# .c and .h there outside a git checkout).  The script comes from Debian's
# linux-kbuild-6.1, which this suite installs itself (root, apt) when it is
# missing: it depends on no other suite having run first.  Without it (not
# root, no apt) it prints SKIP, which HS_REQUIRE_KERNEL_TESTS=1 turns into a
# failure.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
here=$root/tests
hs= tmp=
source "$here/lib.sh"

skip() {
	if [ "${HS_REQUIRE_KERNEL_TESTS:-0}" = 1 ]; then
		fail "kernel-doc" "$1 (HS_REQUIRE_KERNEL_TESTS is set)"
	else
		echo "SKIP kernel-doc: $1"
	fi
	report_counts
	exit
}

kdoc=/usr/lib/linux-kbuild-6.1/scripts/kernel-doc
. "$root/scripts/pkgs.sh"
pkgs_need linux-kbuild-6.1 perl ||
	skip "needs $(pkgs_missing linux-kbuild-6.1 perl)(root and apt-get install them)"
[ -f "$kdoc" ] || skip "linux-kbuild-6.1 has no $kdoc"

cd "$root" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	list=$(git ls-files 'include/*.h' 'src/*.c' 'src/*.h' \
			     'kmod/*.c' 'kmod/*.h')
else
	list=$(find include src kmod -type f \( -name '*.c' -o -name '*.h' \) \
		    ! -name '*.mod.c' | sort)
fi
files=()
while IFS= read -r f; do
	[ -f "$f" ] && files+=("$f")
done <<<"$list"
[ "${#files[@]}" -gt 0 ] || skip "no sources found"

# -none: parse and warn only.  Its exit status says nothing under -none
# (and KCFLAGS or KDOC_WERROR would make it the warning count, mod 256):
# every line it prints is a finding.
out=$(env -u KCFLAGS -u KDOC_WERROR perl "$kdoc" -none "${files[@]}" 2>&1)
rc=$?
nr=$(printf '%s' "$out" | grep -c .)
if [ "$rc" -ne 0 ] || [ "$nr" -ne 0 ]; then
	fail "kernel-doc" "$nr warning$([ "$nr" -eq 1 ] || echo s) (exit $rc) in ${#files[@]} files, from $kdoc"
	printf '%s\n' "$out" | grep . | sed 's/^/     /'
else
	ok "kernel-doc: ${#files[@]} files, 0 warnings ($kdoc)"
fi
report_counts
