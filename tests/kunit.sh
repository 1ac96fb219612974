#!/usr/bin/env bash
# hotscore kunit: the KUnit suite it writes, checked from outside.  Each
# row is parsed back out of the header and scored again by `hotscore
# score` (the same hot, cold = 99 - hot, status ok); every other profile
# must score at least one row differently, but those that differ from the
# kernel's only in how age_in_log is computed; two runs write the same
# bytes; a bad --kernel is one line and exit 2.  With an extracted 6.12
# tree (HOTSCORE_KUNIT_TREE, or scripts/damon-kernel.sh 6.12's under
# HOTSCORE_CACHE), the patch applies to a copy and checkpatch --strict
# finds nothing in it.
set -u
hs=${1:?usage: kunit.sh HOTSCORE}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# rows HEADER: the table's rows as CSV, its header line first
rows() {
	local bp=
	grep -q 'unsigned int nr_accesses_bp;' "$1" && bp=nr_accesses_bp,
	echo "sample_us,aggr_us,nr_accesses,${bp}age,weight_nr_accesses,weight_age,hot"
	sed -n 's/^\t{ \(.*\) },$/\1/p' "$1" | sed 's/UL//g; s/ //g'
}

# check_kernel VERSION PROFILE EQUAL...: the suite for one kernel
check_kernel() {
	local k=$1 prof=$2 h="$tmp/$1.h" n p d
	shift 2
	if ! "$hs" kunit --kernel "$k" --output "$h" 2>"$tmp/err"; then
		fail "kunit --kernel $k" "$(cat "$tmp/err")"
		return
	fi
	"$hs" kunit --kernel "$k" >"$tmp/again.h" &&
		cmp -s "$h" "$tmp/again.h" &&
		ok "$k: --output and stdout, the same bytes twice" ||
		fail "$k: determinism" "$(diff "$h" "$tmp/again.h" | head -5)"
	rows "$h" >"$tmp/$k.rows"
	n=$(($(wc -l <"$tmp/$k.rows") - 1))
	[ "$n" -ge 10 ] && [ "$n" -le 48 ] && ok "$k: $n rows" ||
		fail "$k: rows" "$n rows, want 10..48"
	[ -z "$(tail -n +2 "$tmp/$k.rows" | cut -d, -f1-6 | sort | uniq -d)" ] &&
		ok "$k: no row twice" || fail "$k: duplicates" "$(sort "$tmp/$k.rows" | uniq -d)"
	[ "$(grep -c '^	[/ ]\* row [0-9]*: [a-z]' "$h")" -eq "$n" ] &&
		ok "$k: every row has a comment naming its class" ||
		fail "$k: comments" "$(grep -c 'row [0-9]*:' "$h") for $n rows"
	# the rows scored again, without the hot column
	cut -d, -f1-$(($(head -1 "$tmp/$k.rows" | tr , '\n' | wc -l) - 1)) \
		"$tmp/$k.rows" >"$tmp/$k.csv"
	"$hs" score --input "$tmp/$k.csv" --profile "$prof" >"$tmp/$k.out" 2>&1 ||
		fail "$k: score" "$(head -3 "$tmp/$k.out")"
	paste -d, <(tail -n +2 "$tmp/$k.rows" | awk -F, '{ print $NF }') \
		<(tail -n +2 "$tmp/$k.out" | awk -F, '{ print $(NF - 2), $(NF - 1), $NF }') \
		>"$tmp/$k.cmp"
	bad=$(awk -F, '{ split($2, r, " ") }
		r[1] != $1 || r[2] != 99 - $1 || r[3] != "ok" { print NR ": " $0 }' "$tmp/$k.cmp")
	[ -z "$bad" ] && ok "$k: each row's hot and cold are $prof's (hotscore score)" ||
		fail "$k: rows against $prof" "$bad"
	for p in $("$hs" score --list-profiles | awk 'NR > 1 && /^[a-z]/ { print $1 }'); do
		[ "$p" = "$prof" ] && continue
		"$hs" score --input "$tmp/$k.csv" --profile "$p" >"$tmp/p.out" 2>&1
		d=$(paste -d, <(tail -n +2 "$tmp/$k.out") <(tail -n +2 "$tmp/p.out") |
			awk -F, '{ h = NF / 2 }
				$(h - 2) != $(NF - 2) || $h != $NF { n++ } END { print n + 0 }')
		if [[ " $* " == *" $p "* ]]; then
			[ "$d" -eq 0 ] && ok "$k: $p scores every row as $prof (only age_in_log differs)" ||
				fail "$k: $p" "$d rows differ from $prof, which it should equal"
		else
			[ "$d" -ge 1 ] && ok "$k: $p differs on $d row$( [ "$d" -eq 1 ] || echo s)" ||
				fail "$k: $p" "no row tells it from $prof"
		fi
	done
	# the row "ilog2 without + 1" fails: its age scores apart from age 0
	p=$(awk '/ilog2\(1\) \+ 1/ { getline; print; exit }' "$h" |
		sed 's/^\t{ \(.*\) },$/\1/; s/ //g')
	d=$(head -1 "$tmp/$k.csv")
	if [ -z "$p" ]; then
		fail "$k: ilog2 row" "none"
	else
		printf '%s\n%s\n' "$d" "${p%,*}" >"$tmp/il.csv"
		awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "age") a = i; print; next }
			{ print; $a = 0; print }' "$tmp/il.csv" >"$tmp/il2.csv"
		"$hs" score --input "$tmp/il2.csv" --profile "$prof" >"$tmp/il.out" 2>&1
		[ "$(awk -F, 'NR > 1 { print $(NF - 2) }' "$tmp/il.out" | sort -u | wc -l)" -eq 2 ] &&
			ok "$k: the ilog2 row's age_in_log 1 scores apart from 0" ||
			fail "$k: ilog2 row" "$(cat "$tmp/il.out")"
	fi
}

check_kernel 6.1 debian-6.1.192 hotfix
if "$hs" score --list-profiles | grep -q '^debian-6\.12\.117 '; then
	check_kernel 6.12 debian-6.12.117
else
	echo "SKIP 6.12: this build has no debian-6.12.117 profile"
	"$hs" kunit --kernel 6.12 >"$tmp/out" 2>"$tmp/err"
	[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
		ok "6.12 without its profile: one line, exit 2" ||
		fail "6.12 without its profile" "$(cat "$tmp/err")"
fi

expect_bad "--kernel 5.4" "" kunit --kernel 5.4
expect_bad "no --kernel" "" kunit
expect_bad "--output a directory" "" kunit --kernel 6.1 --output "$tmp"
echo old >"$tmp/keep.h"
"$hs" kunit --kernel 5.4 --output "$tmp/keep.h" 2>/dev/null
[ "$(cat "$tmp/keep.h")" = old ] && [ -z "$(ls -A "$tmp" | grep '^\.keep')" ] &&
	ok "a failed run leaves --output's file as it was" ||
	fail "--output" "changed or a temporary file left"

# the patch, against 6.12's tree when one is extracted
tree=${HOTSCORE_KUNIT_TREE:-}
cache=${HOTSCORE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/hotscore}
for d in "$cache"/damon-kernel-6.12.*/linux-source-6.12; do
	[ -z "$tree" ] && [ -f "${d%/*}/extracted" ] && tree=$d
done
h="$tmp/6.12.h"
[ -f "$h" ] || h="$tmp/6.1.h"	# the same code, until 6.12 has its profile
if [ -z "$tree" ]; then
	echo "SKIP patch and checkpatch: no extracted 6.12 tree (scripts/damon-kernel.sh 6.12, or HOTSCORE_KUNIT_TREE=DIR)"
elif ! "$here/../scripts/kunit-patch.sh" "$tree" "$h" "$tmp/0001.patch" 2>"$tmp/err"; then
	fail "kunit-patch.sh" "$(cat "$tmp/err")"
else
	mkdir -p "$tmp/t/mm/damon"
	cp "$tree/mm/damon/ops-common.c" "$tmp/t/mm/damon/"
	(cd "$tmp/t" && patch -s -p1 <"$tmp/0001.patch") &&
		cmp -s "$h" "$tmp/t/mm/damon/tests/ops-common-kunit.h" &&
		[ "$(tail -1 "$tmp/t/mm/damon/ops-common.c")" = '#include "tests/ops-common-kunit.h"' ] &&
		ok "the patch applies (patch -p1): the header, and its #include" ||
		fail "patch -p1" "does not apply or gives other files"
	perl "$tree/scripts/checkpatch.pl" --strict --no-tree "$tmp/0001.patch" \
		>"$tmp/cp.out" 2>&1
	grep -q '^total: 0 errors, 0 warnings, 0 checks' "$tmp/cp.out" &&
		ok "checkpatch --strict: $(grep '^total:' "$tmp/cp.out")" ||
		fail "checkpatch --strict" "$(grep -E '^(ERROR|WARNING|CHECK|total)' "$tmp/cp.out" | head -5)"
fi

report_counts
