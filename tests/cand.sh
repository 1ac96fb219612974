#!/usr/bin/env bash
# A damon_hot_score() of the user's own: examples/candidates/ through score
# and verify; bad candidates refused with one line; traps caught, and a
# call that does not return stopped (tests/data/hang-nr7.c).
# Usage: tests/cand.sh PATH/TO/hotscore
set -u
hs=${1:?usage: cand.sh HOTSCORE}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
ex=$(cd "$here/../examples/candidates" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
export HOTSCORE_CACHE=$tmp/cache	# a cache of this run's own
cd "$tmp" || exit 1
cp "$ex"/*.c .

# --- score: a candidate beside its profile, from flags and from CSV
out=$("$hs" score --profile v2-ilog2,./v2-ilog2.c --nr_accesses 21 --weight_age 0 2>&1)
grep -Eq '^hot +103 +103$' <<<"$out" && grep -Eq '^status +out-of-range +out-of-range$' <<<"$out" &&
	ok "score: the v2 candidate beside v2-ilog2" || fail "score" "$out"
out=$("$hs" score --profile hotfix,mine=./div0-sample.c --sample 0 2>&1)
grep -Eq '^profile +hotfix +mine$' <<<"$out" && grep -Eq '^status +\* ok +trap\(SIGFPE\)$' <<<"$out" &&
	ok "score: a trap is a status, NAME=FILE a label" || fail "trap" "$out"
printf 'profile,sample_us,nr_accesses\nhotfix,0,5\n./div0-sample.c,0,5\n./hotfix-rewritten.c,5000,30\n' |
	"$hs" score --input - >"$tmp/c.csv" 2>"$tmp/err"
[ "$(field "$tmp/c.csv" 2 status)/$(field "$tmp/c.csv" 2 hot)" = "trap(SIGFPE)/undef" ] &&
	[ "$(field "$tmp/c.csv" 3 hot)" = "$(printf 'nr_accesses\n30\n' | "$hs" score --input - | field /dev/stdin 1 hot)" ] &&
	ok "score --input: candidates in the profile column" || fail "csv" "$(cat "$tmp/c.csv" "$tmp/err")"
ls "$tmp/cache/cand/"*.so >/dev/null 2>&1 && ok "compiled objects are cached" ||
	fail "cache" "$(ls -la "$tmp/cache" 2>&1)"
cp v2-ilog2.c "$tmp/keep.c"
"$hs" score --profile ./v2-ilog2.c >/dev/null 2>&1
cmp -s v2-ilog2.c "$tmp/keep.c" && ok "the candidate file is only read" || fail "modified" "v2-ilog2.c"
n=$(ls "$tmp/cache/cand/" | wc -l)
"$hs" score --profile ./v2-ilog2.c >/dev/null 2>&1
[ "$(ls "$tmp/cache/cand/" | wc -l)" -eq "$n" ] && ok "the same file again: from the cache" ||
	fail "cache" "recompiled"

# --- bad candidates: the compiler's words where they help, one line, exit 2
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn r->nr_acceses;\n}\n' >typo.c
"$hs" score --profile ./typo.c >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q '^\./typo\.c:3:[0-9]*: error' "$tmp/err" &&
	[ "$(tail -n 1 "$tmp/err")" = "hotscore score: --profile: ./typo.c: does not compile (cc, exit 1)" ] &&
	[ ! -s "$tmp/out" ] && ok "a compile error: the compiler at the user's file:line, then one line" ||
	fail "compile error" "exit $rc: $(cat "$tmp/err")"
printf 'int helper(void)\n{\n\treturn 1;\n}\n' >none.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r)\n{\n\treturn 0;\n}\n' >sig.c
expect_bad "no damon_hot_score()" "" score --profile ./none.c
grep -q "none.c: defines no damon_hot_score()" "$tmp/err" || fail "none" "$(cat "$tmp/err")"
expect_bad "another signature" "" score --profile ./sig.c
grep -q "sig.c: line 1: another signature than the kernel's" "$tmp/err" || fail "sig" "$(cat "$tmp/err")"
expect_bad "no such file" "" score --profile ./nosuch.c
expect_bad "unreadable: a directory" "" score --profile "$tmp/cache/"
CC=no-such-compiler expect_bad "no compiler" "" score --profile ./typo2.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s) { return 0; }\n' >typo2.c
CC=no-such-compiler expect_bad "no compiler, a new file" "" score --profile ./typo2.c
grep -q "cannot run the C compiler 'no-such-compiler'" "$tmp/err" || fail "cc" "$(cat "$tmp/err")"
expect_bad "a file in verify's --profile" "" verify --profile hotfix,./v2-ilog2.c

# --- verify: equal, wrong, trapping
"$hs" verify --quick --candidate ./v2-ilog2.c --against v2-ilog2 >"$tmp/v" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^\./v2-ilog2\.c = v2-ilog2: agree on all [0-9]* inputs$' "$tmp/v" &&
	ok "verify --candidate v2-ilog2.c --against v2-ilog2: equal, exit 0" ||
	fail "equal" "exit $rc: $(tail -3 "$tmp/v")"
"$hs" verify --quick --candidate ./rfc-fls.c --against rfc-fls >/dev/null 2>&1 &&
	"$hs" verify --quick --candidate ./hotfix-rewritten.c >/dev/null 2>&1 &&
	ok "rfc-fls.c = rfc-fls, hotfix-rewritten.c = hotfix" || fail "equal examples" "exit $?"
"$hs" verify --quick --candidate ./wrong-signed-division.c >"$tmp/w" 2>&1
rc=$?
cmd=$(eg_command "$tmp/w")
# shellcheck disable=SC2086
got=$("$hs" $cmd 2>&1 | grep -E '^hot ')
[ $rc -eq 1 ] && [ -n "$cmd" ] && grep -Eq '^hot +\* (-?[0-9]+) +(-?[0-9]+)$' <<<"$got" &&
	[ "$(awk '{ print ($3 != $4) }' <<<"$got")" = 1 ] &&
	ok "the wrong example: exit 1, a reproducer that shows the difference: $cmd" ||
	fail "wrong" "exit $rc, '$cmd' gives '$got': $(tail -4 "$tmp/w")"
# --base other than --against: the reproducer names it, or score would
# compile the candidate with the hotfix's safe divisor and see no trap
"$hs" verify --quick --candidate ./wrong-signed-division.c --base v6.6 >"$tmp/w" 2>&1
cmd=$(grep -A3 'trap(SIGFPE): [0-9]* inputs' "$tmp/w" | eg_command /dev/stdin)
# shellcheck disable=SC2086
[ "${cmd#*--base v6.6 }" != "$cmd" ] &&
	"$hs" $cmd | grep -Eq '^status +\* ok +trap\(SIGFPE\)$' &&
	ok "verify --candidate --base: the reproducer keeps the base: $cmd" ||
	fail "reproducer --base" "'$cmd': $(tail -4 "$tmp/w")"
"$hs" verify --quick --candidate ./div0-sample.c --against hotfix >"$tmp/d" 2>&1
rc=$?
cmd=$(grep -A3 'trap(SIGFPE): [0-9]* inputs' "$tmp/d" | eg_command /dev/stdin)
[ $rc -eq 1 ] && grep -q 'hotfix ok, \./div0-sample\.c trap(SIGFPE): [0-9]* input' "$tmp/d" &&
	[ "$cmd" = "score --profile hotfix,./div0-sample.c --sample 0us" ] &&
	ok "a candidate that divides by zero: the trap named, a reproducer, exit 1" ||
	fail "div0" "exit $rc: $(tail -6 "$tmp/d")"
"$hs" verify --quick --candidate ./div0-sample.c --against v5.16 >"$tmp/d" 2>&1
grep -q '^hotscore verify: candidate' "$tmp/d" &&
	! grep -q 'div0(sample_interval), \./div0-sample\.c trap' "$tmp/d" &&
	ok "a division by zero agrees with a profile that divides by zero there" ||
	fail "div0 vs v5.16" "$(tail -6 "$tmp/d")"
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\tif (r->nr_accesses == 7)\n\t\treturn *(volatile int *)0;\n\treturn 0;\n}\n' >segv.c
"$hs" verify --quick --candidate ./segv.c --against hotfix >"$tmp/s" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'trap(SIGSEGV...)' "$tmp/s" && grep -q -- '--nr_accesses 7' "$tmp/s" &&
	ok "a NULL dereference is a trap, shrunk, and verify goes on" ||
	fail "segv" "exit $rc: $(tail -6 "$tmp/s")"
"$hs" verify --quick --candidate ./v2-ilog2.c --against v2-ilog2 --json v.json >/dev/null 2>&1 &&
	grep -q '"equal":true' v.json && grep -q '"candidate":"./v2-ilog2.c"' v.json &&
	ok "verify --candidate --json" || fail "json" "$(head -c 300 v.json)"
expect_bad "--against without --candidate" "" verify --against hotfix
expect_bad "--candidate with --profile" "" verify --candidate ./v2-ilog2.c --profile v6.6
expect_bad "an unknown --against" "" verify --candidate ./v2-ilog2.c --against v9

# --- candidates first-class: a file where a profile goes, however named
cp hotfix.c mine.txt
"$hs" score --profile hotfix,mine.txt --nr_accesses 31 --age 70 >"$tmp/m" 2>&1 &&
	grep -Eq '^profile +hotfix +mine\.txt$' "$tmp/m" && grep -Eq '^hot +99 +99$' "$tmp/m" &&
	ok "--profile mine.txt: a file, as ./mine.txt is" || fail "mine.txt" "$(cat "$tmp/m")"
expect_bad "--profile nosuch.txt: no such file, no profile" "" score --profile nosuch.txt
grep -qx "hotscore score: --profile: no profile 'nosuch.txt' (see 'hotscore score --list-profiles')" "$tmp/err" ||
	fail "nosuch.txt message" "$(cat "$tmp/err")"
expect_bad "--profile nosuch: the message of old" "" score --profile nosuch
grep -qx "hotscore score: --profile: no profile 'nosuch' (see 'hotscore score --list-profiles')" "$tmp/err" ||
	fail "nosuch message" "$(cat "$tmp/err")"
: >hotfix		# a file named as a profile: the profile wins
"$hs" score --profile hotfix --nr_accesses 31 | grep -Eq '^components +raw\+safe\+ilog2\+clamp$' &&
	ok "a file named hotfix does not shadow the profile" || fail "shadow" "hotfix taken for a file"
rm -f hotfix

# --against FILE: patch v2 against v1
"$hs" verify --quick --candidate ./hotfix-rewritten.c --against ./hotfix.c >"$tmp/a" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^\./hotfix-rewritten\.c = \./hotfix\.c: agree on all [0-9]* inputs$' "$tmp/a" &&
	ok "verify --against ./hotfix.c: the rewrite equals v1, exit 0" || fail "against equal" "exit $rc: $(tail -3 "$tmp/a")"
"$hs" verify --quick --candidate ./wrong-signed-division.c --against mine.txt --json a.json >"$tmp/a" 2>&1
rc=$?
cmd=$(eg_command "$tmp/a")
# shellcheck disable=SC2086
got=$("$hs" $cmd 2>&1 | grep -E '^hot ')
[ $rc -eq 1 ] && grep -q '^  mine\.txt ok, \./wrong-signed-division\.c ok: [0-9]* inputs$' "$tmp/a" &&
	[ "${cmd#score --profile mine.txt,./wrong-signed-division.c }" != "$cmd" ] &&
	[ "$(awk '{ print ($3 != $4) }' <<<"$got")" = 1 ] &&
	grep -q '"against_file":"mine.txt"' a.json &&
	ok "verify --against mine.txt: a wrong v2 differs, exit 1, and its command shows both: $cmd" ||
	fail "against differs" "exit $rc, '$cmd' gives '$got': $(tail -4 "$tmp/a")"
expect_bad "bench --against a file: said so" "" bench --profile hotfix --against ./hotfix.c
grep -q "is a file: --against takes a built-in profile here" "$tmp/err" || fail "bench --against" "$(cat "$tmp/err")"
expect_bad "--base a file: said so" "" score --profile ./hotfix.c --base ./hotfix.c

# several candidates: each against --against, then each against the others
"$hs" verify --quick --candidate ./hotfix.c --candidate ./wrong-signed-division.c \
	--candidate ./hotfix-rewritten.c --json m.json >"$tmp/m" 2>&1
rc=$?
sed -n '/^hotscore verify: 6 comparisons$/,$p' "$tmp/m" >"$tmp/sum"
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/sum")" -eq 7 ] &&
	grep -q '^  \./hotfix\.c = hotfix: agree' "$tmp/sum" &&
	grep -q '^  \./wrong-signed-division\.c vs \./hotfix\.c: differ on [0-9]* of' "$tmp/sum" &&
	grep -q '^  \./hotfix-rewritten\.c = \./wrong-signed-division\.c' "$tmp/sum" -v &&
	grep -q '^  \./hotfix-rewritten\.c vs \./wrong-signed-division\.c: differ' "$tmp/sum" &&
	grep -q '^  \./hotfix-rewritten\.c = \./hotfix\.c: agree' "$tmp/sum" &&
	[ "$(grep -o '"candidate":' m.json | wc -l)" -eq 6 ] && grep -q '"equal":false,"comparisons":' m.json &&
	ok "three candidates: 3 against hotfix, 3 against each other, a line each, exit 1" ||
	fail "several candidates" "exit $rc: $(cat "$tmp/sum")"
expect_bad "score --profile given twice: not one dropped" "" score --profile ./hotfix.c --profile ./v2-ilog2.c
grep -q "given twice: give one list, --profile A,B" "$tmp/err" || fail "twice" "$(cat "$tmp/err")"
expect_bad "verify --against given twice" "" verify --candidate ./hotfix.c --against v6.6 --against hotfix
expect_bad "sim --profile given twice" "" sim --profile hotfix --profile ./hotfix.c

# --- what a file copied whole from ops-common.c gets: one line, its line
printf '// SPDX-License-Identifier: GPL-2.0\n#include <linux/mmu_notifier.h>\n#include <linux/page_idle.h>\n\nint damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn 0;\n}\n' >inc.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\t/* printf() in a comment */\n\tint x = 3;\n\n\tprintf("%%d\\n", x);\n\treturn 0;\n}\n' >libc.c
printf 'static unsigned int damon_max_nr_accesses(const struct damon_attrs *attrs)\n{\n\treturn attrs->aggr_interval / attrs->sample_interval;\n}\n\nint damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn damon_max_nr_accesses(&c->attrs);\n}\n' >redef.c
printf '\nstruct damon_region {\n\tunsigned int nr_accesses;\n};\n\nint damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn r->nr_accesses;\n}\n' >structs.c
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn div_u64(r->age, 3);\n}\n' >helper.c
for f in "inc.c|line 2: delete the #include of linux/mmu_notifier.h" \
	 "libc.c|line 6: calls printf(), which is libc's" \
	 "redef.c|line 1: damon_max_nr_accesses() comes with the kernel (--base)" \
	 "structs.c|line 2: struct damon_region comes with the kernel: delete" \
	 "helper.c|line 3: calls div_u64(), which hotscore's kernel does not define"; do
	file=${f%%|*} want=${f#*|}
	expect_bad "$file: one line naming its line" "" score --profile "./$file"
	grep -qF "hotscore score: --profile: ./$file: $want" "$tmp/err" && ! grep -q 'env-\|/cand/' "$tmp/err" ||
		fail "$file hint" "$(cat "$tmp/err")"
done
# the control: an error of another kind keeps the compiler's words, and
# they name env.h, not the cache's temporary copy of it
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\tstruct damos x;\n\n\treturn min(x, 3);\n}\n' >minbad.c
"$hs" score --profile ./minbad.c >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q '^\./minbad\.c:5:' "$tmp/err" && grep -q '^env\.h:[0-9]*:' "$tmp/err" &&
	! grep -q "$tmp/cache" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -gt 1 ] &&
	ok "another error: the compiler's words, env.h named as such" || fail "env.h named" "$(cat "$tmp/err")"

# --- reproducers a person reads: round values, the program as invoked
cp "$here/data/age32.c" .
"$hs" verify --quick --candidate ./age32.c >"$tmp/r" 2>&1
cmd=$(eg_command "$tmp/r")
# round: every number of the command, its unit dropped, has at most two
# significant digits (1024s and 2097152 do not: the control)
round() {
	local w n
	for w in $1; do
		n=$(sed -n 's/^\([0-9]*\)\(us\|ms\|s\|m\|h\)\{0,1\}$/\1/p' <<<"$w")
		[ -z "$n" ] && continue
		n=$(sed 's/0*$//' <<<"$n")
		[ ${#n} -le 2 ] || return 1
	done
}
# shellcheck disable=SC2086
[ -n "$cmd" ] && round "$cmd" && ! round "--aggr 1024s --nr_accesses 1 --age 2097152" &&
	[ "$("$hs" $cmd | grep -E '^hot ' | awk '{ print ($3 != $4) }')" = 1 ] &&
	ok "verify's reproducer is round and still differs: $cmd" || fail "round" "'$cmd': $(tail -3 "$tmp/r")"
ln -s "$hs" hs-as-typed
./hs-as-typed verify --quick --candidate ./age32.c >"$tmp/r" 2>&1
grep -q '^    e\.g\. \./hs-as-typed score --profile hotfix,\./age32\.c ' "$tmp/r" &&
	! grep -q 'e\.g\. hotscore ' "$tmp/r" &&
	ok "the reproducer names the program as it was invoked (./hs-as-typed)" ||
	fail "argv[0]" "$(grep 'e\.g\.' "$tmp/r")"

# --- score: the rows that differ marked; a candidate's steps
out=$("$hs" score --profile hotfix,v6.6,./hotfix.c --nr_accesses 31 --age 70)
grep -Eq '^hot +\* 99 +102 +99$' <<<"$out" && grep -Eq '^freq_subscore +155 +155 +155$' <<<"$out" &&
	grep -Eq '^age_in_log +3 +3 +3$' <<<"$out" && grep -q '^\* the columns differ in this step$' <<<"$out" &&
	grep -q '^  line [0-9]*, damon_hot_score(): hotness = 102$' <<<"$out" &&
	ok "score: hot marked where v6.6 differs; the candidate's freq_subscore and age_in_log shown" ||
	fail "marks and steps" "$out"
out=$("$hs" score --profile hotfix,./hotfix.c --nr_accesses 31 --age 70)
! grep -Eq '^[^ ]+ +\* |^\* ' <<<"$out" && ok "score: nothing marked where nothing differs (the control)" ||
	fail "no marks" "$out"
out=$("$hs" score --profile hotfix,./div0-sample.c --sample 0)
grep -q '^\./div0-sample\.c: no steps to show: it ends in trap(SIGFPE)$' <<<"$out" &&
	ok "score: a candidate that traps has no steps, and says so" || fail "no steps" "$out"
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\treturn r->nr_accesses;\n}\n' >plain.c
out=$("$hs" score --profile ./plain.c)
grep -q "^\./plain\.c: no steps to show: it assigns no variable outside its loops$" <<<"$out" &&
	ok "score: a file that assigns nothing says it" || fail "plain steps" "$out"

# --- bench: a candidate timed like a variant, after it proves equal
"$hs" bench --profile hotfix,./hotfix-rewritten.c --dist uniform --mode throughput \
	--iterations 100000 --runs 2 >"$tmp/b" 2>"$tmp/err"
rc=$?
grep -Eq '^\./hotfix-rewritten\.c +uniform +throughput +[0-9]\.[0-9]+ (\[[0-9.]+ - [0-9.]+\]|\([0-9]+ rounds?\)) ' "$tmp/b" &&
	[ $rc -eq 0 ] && ok "bench times a candidate beside hotfix, paired" ||
	fail "bench" "exit $rc: $(grep -A3 '^variant' "$tmp/b" | head -5; cat "$tmp/err")"
# its copies at the four code placements: objects of their own, whose
# functions (the door the bench times among them) enter at bytes 0, 16,
# 32 and 48 of a 64-byte line
offsets=$(for so in "$tmp/cache/cand/"*.so; do
	nm "$so" | awk '$3 == "hs_cand_door" { print $1 }'
done | while read -r a; do echo $((16#$a % 64)); done | sort -n | uniq | paste -sd' ')
missing=$(for o in 0 16 32 48; do
	echo " $offsets " | grep -q " $o " || echo "$o"
done)
[ -z "$missing" ] && ok "bench times a candidate at the placements 0, 16, 32 and 48" ||
	fail "candidate placements" "entries at $offsets mod 64"
# like with like: the built-in hotfix, timed beside a candidate, is its
# kernel source compiled and called as the candidate is (the door), so
# examples/candidates/hotfix.c times as the built-in: a ratio near 1.  The
# tolerance is wide for CI's machines; its negative control, the same
# function computed twice (a door that doubles a call), must fall outside.
sed -e 's/^int damon_hot_score(/static __attribute__((__noipa__)) int once(/' \
	-e 's/^int damon_cold_score(/static int unused_cold(/' hotfix.c >twice.c
printf '%s\n' 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)' \
	'{' '	int a = once(c, r, s);' '' '	__asm__ volatile("" : : "r" (a) : "memory");' \
	'	return once(c, r, s);' '}' >>twice.c
"$hs" bench --profile hotfix,./hotfix.c,./twice.c --dist uniform --mode throughput \
	--iterations 200000 --invocations 6 --json like.json >"$tmp/b" 2>"$tmp/err"
rc=$?
ratio_of() {	# VARIANT: its ratio to the baseline, from the ratio table
	awk -v v="$1" '/^variant .*ratio \[95% CI\]/ { on = 1; next }
		on && $1 == v { print $4; exit }' "$tmp/b"
}
like=$(ratio_of ./hotfix.c)
twice=$(ratio_of ./twice.c)
within() { awk -v r="$1" 'BEGIN { exit !(r >= 0.75 && r <= 1.33) }'; }
[ $rc -eq 0 ] && [ -n "$like" ] && within "$like" &&
	ok "like with like: hotfix.c against the built-in hotfix, ratio $like (in [0.75, 1.33])" ||
	fail "like with like" "exit $rc, ratio '$like': $(grep -A4 '^variant .*ratio' "$tmp/b"; cat "$tmp/err")"
[ -n "$twice" ] && ! within "$twice" &&
	ok "like with like's control: a function computed twice, ratio $twice (outside)" ||
	fail "like with like control" "ratio '$twice' of twice.c"
grep -Eq '^door +uniform +throughput +[0-9.]+ \[' "$tmp/b" &&
	grep -Eq 'It costs \(door ns - empty ns, (TSC|clock)-derived\): uniform throughput -?[0-9.]+ ns' \
		<<<"$(tr '\n' ' ' <"$tmp/b")" &&
	ok "bench prints the door's row and its cost" || fail "door row" "$(grep -A4 '^The door' "$tmp/b")"
[ "$(grep -o '"door":true' like.json | wc -l)" -eq 3 ] && grep -q '"role":"door"' like.json &&
	ok "bench --json: the three variants behind the door, and the door's row" ||
	fail "door json" "$(grep -o '"door":[a-z]*' like.json | sort | uniq -c)"
"$hs" bench --profile hotfix,v6.6 --dist uniform --mode throughput --iterations 100000 --runs 1 \
	--json native.json >"$tmp/b" 2>&1 && ! grep -q '^door ' "$tmp/b" &&
	[ "$(grep -c '"door":true' native.json)" -eq 0 ] &&
	ok "without a candidate, no door: the built-ins are timed as compiled" ||
	fail "no door" "$(grep '^door' "$tmp/b"; grep -o '"door":[a-z]*' native.json | sort | uniq -c)"

# every built-in of one call an input, beside a candidate, is its kernel
# source (src/cand/source.c) behind the door, checked by the bench on its
# pool; here each source the run wrote (12: these 15 names have 12 sets
# of components) scores as its components on 4000 inputs of every field
# (score --input), and one set against other components (the control)
# does not
all=v5.16,v6.6,rfc-fls,v2-ilog2,hotfix,debian-6.1.192,mm-new,debian-6.12.117,loop,fls,ilog2
all=$all,fls-generic,fls-builtin,ilog2-generic,ilog2-builtin
HOTSCORE_CACHE=$tmp/src "$hs" bench --profile "$all,./hotfix.c" --against hotfix --dist uniform \
	--mode throughput --iterations 10000 --runs 1 --placements 1 >"$tmp/b" 2>"$tmp/err"
rc=$?
awk 'function r(n) { s = (s * 69069 + 1) % 4294967296; return s % n }
	BEGIN { s = 12345
	print "sample_us,aggr_us,nr_accesses,last_nr_accesses,age,passed_sis,next_aggr_sis," \
	      "weight_nr_accesses,weight_age,nr_accesses_bp"
	for (i = 0; i < 4000; i++) {
		smp = 1 + r(200000); agg = smp * (1 + r(5000))
		fw = r(7) ? r(101) : r(100000); aw = r(7) ? r(101) : r(100000)
		printf "%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", smp, agg,
		       r(agg / smp + 3), r(agg / smp + 3), r(4294967296), r(100000),
		       r(100000), fw, aw, r(1000000)
	} }' >wide.csv
srcs=0 bad=""
for f in "$tmp/src/cand/"kernel-*.c; do
	comp=$(sed -n 's|^/\* \([^ ]*\): written by hotscore.*|\1|p' "$f")
	srcs=$((srcs + 1))
	"$hs" score --input wide.csv --profile "$comp,$f" 2>&1 |
		awk -F, 'NR > 1 { v[NR % 2] = $(NF - 2) "," $(NF - 1) }
			 NR > 1 && NR % 2 == 1 && v[0] != v[1] { n++ }
			 END { exit n > 0 || NR != 8001 }' || bad="$bad $comp"
done
"$hs" score --input wide.csv --profile "raw+safe+ilog2+clamp,$(grep -l '^/\* raw+u32-trunc+loop+none:' \
	"$tmp/src/cand/"kernel-*.c)" | awk -F, 'NR > 1 { v[NR % 2] = $(NF - 2) }
		NR > 1 && NR % 2 == 1 && v[0] != v[1] { n++ } END { exit n == 0 }' &&
	control=differs || control=agrees
[ $rc -eq 0 ] && [ $srcs -eq 12 ] && [ -z "$bad" ] && [ $control = differs ] &&
	ok "each built-in's kernel source ($srcs of them) scores as its components; the control differs" ||
	fail "kernel sources" "exit $rc, $srcs sources, differ:$bad, control $control: $(cat "$tmp/err")"

# differs: one line of at most 100 columns, exit 1 (a finding), the count
mkdir -p examples/candidates && cp wrong-signed-division.c examples/candidates/
"$hs" bench --profile hotfix,./examples/candidates/wrong-signed-division.c --dist uniform \
	--iterations 100000 --runs 1 >"$tmp/b" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$tmp/b" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	[ "$(width "$tmp/err")" -le 100 ] &&
	grep -Eq '^hotscore bench: wrong-signed-division\.c differs from hotfix on [1-9][0-9]* inputs \(see --allow-different\)$' "$tmp/err" &&
	ok "bench refuses a candidate that differs: one line of $(width "$tmp/err") columns, exit 1" ||
	fail "bench refuses" "exit $rc: $(cat "$tmp/err")"
# --allow-different: timed, labelled with the same count
n=$(sed -n 's/.* on \([0-9]*\) inputs .*/\1/p' "$tmp/err")
"$hs" bench --profile hotfix,./examples/candidates/wrong-signed-division.c --dist uniform \
	--iterations 100000 --runs 1 --mode throughput --allow-different --json d.json >"$tmp/b" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ -n "$n" ] &&
	tr '\n' ' ' <"$tmp/b" | tr -s ' ' |
	grep -q " \./examples/candidates/wrong-signed-division\.c differs from hotfix on $n of [0-9]* inputs (--allow-different)" &&
	grep -Eq '^\./examples/candidates/wrong-signed-division\.c +uniform +throughput +[0-9.]+ ' "$tmp/b" &&
	grep -q "\"differs\":\"differs from hotfix on $n of" d.json &&
	ok "bench --allow-different times it, labelled: differs from hotfix on $n inputs" ||
	fail "allow-different" "exit $rc, n '$n': $(grep -i differs "$tmp/b"; cat "$tmp/err")"
# an equal candidate has no label (the label's negative control)
"$hs" bench --profile hotfix,./hotfix-rewritten.c --dist uniform --iterations 100000 --runs 1 \
	--mode throughput --allow-different >"$tmp/b" 2>&1 && ! grep -q 'differs from' "$tmp/b" &&
	ok "bench --allow-different: no label on an equal candidate" ||
	fail "allow-different equal" "$(grep -i differs "$tmp/b")"
"$hs" bench --profile loop,raw+safe+loop+clamp --iterations 100000 --runs 1 --mode throughput >"$tmp/b" 2>&1 &&
	grep -q '^debian-6.1.192 ' "$tmp/b" && ok "bench takes a component combination" ||
	fail "combination" "$(tail -3 "$tmp/b")"
expect_bad "a combination with no compiled variant" "" bench --profile loop,mvsum+max-nr+fls+none

# --- sim: a candidate in the simulated kdamond; a trap stops it, reported
"$hs" sim --profile hotfix,./hotfix-rewritten.c --no-timing --duration 20s >"$tmp/s" 2>&1 &&
	grep -q '^compare: A = hotfix, B = \./hotfix-rewritten\.c' "$tmp/s" &&
	grep -q '^  decisions identical for this workload and scheme$' "$tmp/s" &&
	ok "sim: hotfix and its rewrite decide identically" || fail "sim" "$(tail -2 "$tmp/s")"
printf 'int damon_hot_score(struct damon_ctx *c, struct damon_region *r, struct damos *s)\n{\n\tvolatile int zero = 0;\n\n\tif (r->age >= 21)\n\t\treturn 1000 / zero;\n\treturn 50;\n}\n' >agetrap.c
"$hs" sim --profile hotfix,./agetrap.c --no-timing --duration 20s >"$tmp/s" 2>"$tmp/err"
rc=$?
cmd=$(reproducer "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && grep -q 'damon_hot_score() trapped (SIGFPE)' "$tmp/err" && [ -n "$cmd" ] &&
	[ -z "$(awk 'length($0) > 100' "$tmp/err")" ] &&
	"$hs" $cmd | grep -Eq '^status +\* ok +trap\(SIGFPE\)$' &&
	ok "sim: a candidate's trap stops its run, exit 1, and the reproducer traps" ||
	fail "sim trap" "exit $rc: $(cat "$tmp/err")"
# timed: the cost replay's inputs hold the one that trapped, so none runs
"$hs" sim --profile hotfix,./agetrap.c --duration 20s >"$tmp/s" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'damon_hot_score() trapped (SIGFPE)' "$tmp/err" &&
	ok "sim, timed: a trap stops the run, and no cost replay calls the candidate again" ||
	fail "sim trap, timed" "exit $rc: $(cat "$tmp/err")"
expect_bad "sim: a candidate with a prepared scorer" "" sim --profile ./v2-ilog2.c --scorer fast

# --- a candidate that does not return: the status hang, in every command
# tests/data/hang-nr7.c is the hotfix but for an endless loop at
# nr_accesses 7.  A short limit keeps the tests fast; timeout makes a
# watchdog that fails a failure, not a hung suite.
cp "$here/data/hang-nr7.c" .
lim=(--call_limit 50ms)
t0=$SECONDS
out=$(timeout 60 "$hs" score --profile hotfix,./hang-nr7.c --nr_accesses 7 "${lim[@]}" 2>&1)
rc=$?
[ $rc -eq 0 ] && grep -Eq '^status +\* ok +hang$' <<<"$out" && grep -Eq '^hot +\* 41 +undef$' <<<"$out" &&
	ok "score: a call that does not return is the status hang, hot undef, exit 0 (as a trap)" ||
	fail "score hang" "exit $rc: $out"
out=$(timeout 60 "$hs" score --profile hotfix,./hang-nr7.c --nr_accesses 8 "${lim[@]}" 2>&1)
grep -Eq '^hot +([0-9]+) +\1$' <<<"$out" && grep -Eq '^status +ok +ok$' <<<"$out" &&
	ok "score: on the other inputs it scores as the hotfix" || fail "score no hang" "$out"
printf 'nr_accesses\n6\n7\n8\n' | timeout 60 "$hs" score --input - --profile ./hang-nr7.c "${lim[@]}" \
	>"$tmp/c.csv" 2>"$tmp/err"
[ "$(field "$tmp/c.csv" 1 status)/$(field "$tmp/c.csv" 2 status)/$(field "$tmp/c.csv" 2 hot)/$(field "$tmp/c.csv" 3 status)" = ok/hang/undef/ok ] &&
	ok "score --input: the row that hangs says hang, the others score" ||
	fail "csv hang" "$(cat "$tmp/c.csv" "$tmp/err")"
[ $((SECONDS - t0)) -lt 30 ] && ok "score: three hangs stopped in $((SECONDS - t0)) s at --call_limit 50ms" ||
	fail "score hang time" "$((SECONDS - t0)) s"
t0=$SECONDS
timeout 120 "$hs" verify --quick --candidate ./hang-nr7.c "${lim[@]}" --json h.json >"$tmp/h" 2>&1
rc=$?
took=$((SECONDS - t0))
cmd=$(eg_command "$tmp/h")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && grep -q '^  stopped at the first hang: a call ran past --call_limit 50ms' "$tmp/h" &&
	grep -Eq '^  hotfix ok, \./hang-nr7\.c hang: [12] inputs?$' "$tmp/h" &&
	[ "$cmd" = "score --profile hotfix,./hang-nr7.c --nr_accesses 7 --call_limit 50ms" ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +\* ok +hang$' && [ $took -lt 30 ] &&
	ok "verify --quick: the hang in $took s, exit 1, shrunk to a reproducer that hangs: $cmd" ||
	fail "verify hang" "exit $rc in $took s, '$cmd': $(tail -8 "$tmp/h")"
grep -q '"stopped":true' h.json && grep -q '"candidate_status":"hang"' h.json &&
	ok "verify --json: stopped, and the class hang" || fail "verify json hang" "$(head -c 600 h.json)"
"$hs" verify --quick --candidate ./hotfix-rewritten.c --json ok.json >/dev/null 2>&1 &&
	grep -q '"stopped":false' ok.json && ok "verify --json: an equal candidate was not stopped" ||
	fail "verify json" "$(head -c 300 ok.json)"
for allow in "" --allow-different; do
	# shellcheck disable=SC2086
	timeout 120 "$hs" bench --profile hotfix,./hang-nr7.c --dist uniform --iterations 100000 \
		--runs 1 "${lim[@]}" $allow >"$tmp/b" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && [ ! -s "$tmp/b" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		[ "$(width "$tmp/err")" -le 100 ] &&
		grep -q '^hotscore bench: \./hang-nr7\.c hangs (a call ran past --call_limit 50ms): not timed$' "$tmp/err" &&
		ok "bench refuses a candidate that hangs at its vetting${allow:+, even $allow}: one line, exit 1" ||
		fail "bench hang $allow" "exit $rc: $(cat "$tmp/err")"
done
# paddr's lru_prio asks for hot scores of accessed regions: some have 7
hot_scheme=(--ops paddr --damos_action lru_prio --damos_access_rate 0% max --damos_quotas 10ms 8MiB 1s 0 1 1)
for timing in --no-timing ""; do
	# shellcheck disable=SC2086
	timeout 120 "$hs" sim --profile hotfix,./hang-nr7.c $timing --duration 20s "${hot_scheme[@]}" \
		"${lim[@]}" >"$tmp/s" 2>"$tmp/err"
	rc=$?
	cmd=$(reproducer "$tmp/err")
	# shellcheck disable=SC2086
	[ $rc -eq 1 ] && joined "$tmp/err" | grep -q 'damon_hot_score() did not return (hang: a call ran past --call_limit 50ms) at [0-9.]* s; stopped' &&
		[ -z "$(awk 'length($0) > 100' "$tmp/err")" ] &&
		timeout 60 "$hs" $cmd | grep -Eq '^status +\* ok +hang$' &&
		ok "sim ${timing:-timed}: a hang stops the run as a trap does, exit 1, and the reproducer hangs" ||
		fail "sim hang ${timing:-timed}" "exit $rc: $(cat "$tmp/err")"
done
timeout 120 "$hs" rank "$here/data/rank/damo-trace.json_compressed" "${hot_scheme[@]}" \
	--profile hotfix,./hang-nr7.c "${lim[@]}" --csv r.csv >"$tmp/r" 2>"$tmp/err"
rc=$?
cmd=$(sed -n 's/.*Reproduce: hotscore //p' "$tmp/err")
# shellcheck disable=SC2086
[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e r.csv ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +\* ok +hang$' &&
	ok "rank: a hang stops the ranking, one line, exit 1, no --csv, a reproducer" ||
	fail "rank hang" "exit $rc: $(cat "$tmp/err")"
timeout 120 "$hs" verify --captured "$here/data/capture-6.1.192.csv" --profile hotfix,./hang-nr7.c \
	"${lim[@]}" >"$tmp/v" 2>&1
rc=$?
joined=$(tr -s ' \n' ' ' <"$tmp/v")
[ $rc -eq 1 ] && grep -Eq '^  \./hang-nr7\.c +[0-9]+ +1$' "$tmp/v" &&
	grep -q "where the profile gives hang: $hs score --profile ./hang-nr7.c --nr_accesses 7 .*--call_limit 50ms" <<<"$joined" &&
	grep -q 'stopped at line [0-9]*: a call ran past --call_limit 50ms (hang), and its [0-9]* later calls were not checked' <<<"$joined" &&
	ok "verify --captured: a hang is the model's answer, and the candidate's last" ||
	fail "captured hang" "exit $rc: $(cat "$tmp/v")"
# a base that is a combination (the first model beside the candidate):
# the reproducer names it in --profile, where score takes it as the base
timeout 120 "$hs" verify --captured "$here/data/capture-6.1.192.csv" \
	--profile raw+max-nr+loop+none,./hang-nr7.c "${lim[@]}" >"$tmp/v" 2>&1
cmd=$(tr -s ' \n' ' ' <"$tmp/v" |
      sed -n "s|.*where the profile gives hang: $hs \(.*\) stopped at line.*|\1|p")
# shellcheck disable=SC2086
[ "${cmd#score --profile raw+max-nr+loop+none,./hang-nr7.c }" != "$cmd" ] &&
	timeout 60 "$hs" $cmd | grep -Eq '^status +\* ok +hang$' &&
	ok "verify --captured: a combination as the base, named where score takes it" ||
	fail "captured base" "'$cmd': $(cat "$tmp/v")"
for c in score verify bench sim rank; do
	w=()
	[ $c = verify ] && w=(--candidate ./hang-nr7.c)
	expect_bad "$c --call_limit 0" "" $c "${w[@]}" --call_limit 0
	grep -q "out of range (1ms..1h)" "$tmp/err" || fail "$c range" "$(cat "$tmp/err")"
done
expect_bad "--call_limit past an hour" "" sim --call_limit 2h
expect_bad "--call_limit not a time" "" score --call_limit soon
expect_bad "verify --call_limit without a candidate" "" verify --call_limit 50ms

report_counts
