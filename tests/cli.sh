#!/usr/bin/env bash
# End-to-end tests of the hotscore CLI: what a user types, what a script
# parses.  Usage: tests/cli.sh PATH/TO/hotscore
set -u
hs=${1:?usage: cli.sh HOTSCORE}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# --- the worked examples through --csv
"$hs" score --csv <"$here/data/worked-examples.csv" >"$tmp/w.csv" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	fail worked-examples "exit $rc: $(cat "$tmp/err")"
else
	rows=$(($(wc -l <"$tmp/w.csv") - 1))
	want=$(grep -vc '^profile' "$here/data/worked-examples.csv")
	bad=0
	for ((i = 1; i <= rows; i++)); do
		got="$(field "$tmp/w.csv" $i hot)/$(field "$tmp/w.csv" $i cold)/$(field "$tmp/w.csv" $i status)"
		exp="$(field "$here/data/worked-examples.expected" $i hot)/$(field "$here/data/worked-examples.expected" $i cold)/$(field "$here/data/worked-examples.expected" $i status)"
		[ "$got" = "$exp" ] || { bad=1; fail "worked-examples row $i" "$got, want $exp"; }
	done
	if [ "$rows" -ne "$want" ]; then
		fail worked-examples "$rows rows out, $want in"
	elif [ $bad -eq 0 ]; then
		ok "worked-examples: $rows rows"
	fi
fi

# --- output columns and re-feeding the output as input
head -n 1 "$tmp/w.csv" >"$tmp/h"
if [ "$(cat "$tmp/h")" = "profile,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,passed_sis,next_aggr_sis,weight_nr_accesses,weight_age,hot,cold,status" ]; then
	ok "csv header"
else
	fail "csv header" "$(cat "$tmp/h")"
fi
if "$hs" score --csv <"$tmp/w.csv" >"$tmp/w2.csv" 2>"$tmp/err" &&
   cmp -s "$tmp/w.csv" "$tmp/w2.csv"; then
	ok "output re-fed as input gives the same rows"
else
	fail "re-feed" "$(cat "$tmp/err")"
fi

# --- missing columns take the flags' values; blank lines and CRLF
printf 'age\r\n50\r\n\r\n1200\r\n' |
	"$hs" score --csv --profile v6.6 --nr-accesses 10 >"$tmp/m.csv" 2>"$tmp/err"
if [ "$(field "$tmp/m.csv" 1 hot)" = 51 ] && [ "$(field "$tmp/m.csv" 1 profile)" = v6.6 ] &&
   [ "$(field "$tmp/m.csv" 2 age)" = 1200 ] && [ "$(wc -l <"$tmp/m.csv")" -eq 3 ]; then
	ok "flags fill missing columns; CRLF and blank lines"
else
	fail "missing columns" "$(cat "$tmp/m.csv" "$tmp/err")"
fi

# --- one input from flags prints the steps
out=$("$hs" score --profile v6.6 --nr-accesses 40 --age 50 2>&1)
if grep -qx 'hot  *125' <<<"$out" && grep -qx 'status  *out-of-range' <<<"$out" &&
   grep -qx 'freq_subscore  *200' <<<"$out"; then
	ok "single input: steps, out-of-range"
else
	fail "single input" "$out"
fi
out=$("$hs" score --profile=v5.16 --sample-us=0 2>&1)
if grep -qx 'hot  *undef' <<<"$out" && grep -qx 'status  *div0(sample_interval)' <<<"$out"; then
	ok "single input: div0 names the division"
else
	fail "single div0" "$out"
fi
out=$("$hs" score --profile raw+max-nr+fls-builtin+clamp --nr-accesses 10 --age 50 2>&1)
if grep -qx 'components  *raw+max-nr+fls-builtin+clamp' <<<"$out" && grep -qx 'hot  *51' <<<"$out"; then
	ok "component list as a profile"
else
	fail "component list" "$out"
fi
if "$hs" score --list-profiles | grep -q '^debian-6.1.192  *raw  *safe  *loop  *clamp'; then
	ok "--list-profiles shows the components"
else
	fail "--list-profiles" "$("$hs" score --list-profiles 2>&1 | head -3)"
fi
if "$hs" score --help >/dev/null && "$hs" --help >/dev/null; then
	ok "--help exits 0"
else
	fail "--help" "non-zero exit"
fi

# --- help, version and several profiles (issue 13) ---------------------
for args in "help" "--help" "-h" "help sim" "sim -h" "sim --help" "help score" "bench -h" "verify --help" \
	"rank --help" "workload --help" "convert --help" "compare-records --help"; do
	# shellcheck disable=SC2086
	out=$("$hs" $args 2>&1) && grep -q '^usage: hotscore' <<<"$out" &&
		[ "$(awk 'length($0) > 100' <<<"$out" | wc -l)" -eq 0 ] &&
		ok "hotscore $args: usage within 100 columns" || fail "hotscore $args" "$(head -3 <<<"$out")"
done
[ "$("$hs" help sim)" = "$("$hs" sim --help)" ] && ok "help sim = sim --help" ||
	fail "help sim" "differs from sim --help"
"$hs" --version | grep -Eq '^hotscore [0-9]+\.[0-9]+\.[0-9]+' && ok "--version" ||
	fail "--version" "$("$hs" --version 2>&1)"
"$hs" help | grep -q '^  sim ' && ok "hotscore help lists the commands" || fail "help" "no sim"
"$hs" sim --help | grep -q -- '--compare-profiles *= --profile' &&
	ok "help marks deprecated spellings" || fail "deprecated" "not in sim --help"
out=$("$hs" score --sample 5ms --aggr 100ms --nr_accesses 21 --weight_age 0 --profile v6.6,hotfix 2>&1)
grep -Eq '^profile +v6.6 +hotfix$' <<<"$out" && grep -Eq '^hot +\* 103 +99$' <<<"$out" &&
	grep -Eq '^status +\* out-of-range +ok$' <<<"$out" &&
	ok "score: two profiles side by side" || fail "two profiles" "$out"
out=$("$hs" score --profile all --nr_accesses 21 2>&1)
[ "$(grep -c '^hot ' <<<"$out")" -ge 2 ] && [ "$(grep -o 'v5.16\|mm-new\|debian-6.1.192' <<<"$out" | sort -u | wc -l)" -eq 3 ] &&
	[ "$(awk 'length($0) > 100' <<<"$out" | wc -l)" -eq 0 ] &&
	ok "score --profile all: every profile, tables within 100 columns" || fail "all" "$out"
printf 'age\n50\n' | "$hs" score --input - --profile v6.6,hotfix --nr_accesses 10 >"$tmp/two.csv" 2>"$tmp/err"
[ "$(field "$tmp/two.csv" 1 profile)/$(field "$tmp/two.csv" 2 profile)" = v6.6/hotfix ] &&
	[ "$(wc -l <"$tmp/two.csv")" -eq 3 ] &&
	ok "--input: a row without a profile column, once per profile" ||
	fail "csv two profiles" "$(cat "$tmp/two.csv" "$tmp/err")"
# nr_accesses_bp: the column, the flag, else nr_accesses * 10000 (u32)
printf 'nr_accesses,nr_accesses_bp\n5,129999\n7,70000\n' >"$tmp/bp.csv"
printf 'nr_accesses\n7\n429497\n' | "$hs" score --input - --profile debian-6.12.117 >"$tmp/bpd.csv" &&
	"$hs" score --input "$tmp/bp.csv" --profile debian-6.12.117 >"$tmp/bpc.csv" &&
	[ "$(field "$tmp/bpc.csv" 1 hot)/$(field "$tmp/bpc.csv" 1 nr_accesses_bp)" = 54/129999 ] &&
	[ "$(field "$tmp/bpd.csv" 1 nr_accesses_bp)/$(field "$tmp/bpd.csv" 2 nr_accesses_bp)" = 70000/2704 ] &&
	[ "$(field "$tmp/bpd.csv" 1 hot)" = "$(field "$tmp/bpc.csv" 2 hot)" ] &&
	grep -Eq '^hot +\* 54 ' <("$hs" score --profile debian-6.12.117,debian-6.1.192 --nr_accesses 5 --nr_accesses_bp 129999) &&
	ok "nr_accesses_bp: the column, the flag, else nr_accesses * 10000" ||
	fail "nr_accesses_bp" "$(cat "$tmp/bpc.csv" "$tmp/bpd.csv")"
printf 'age\n50\n' >"$tmp/in.csv"
"$hs" score --input "$tmp/in.csv" --nr-accesses 10 >"$tmp/f.csv" &&
	[ "$(field "$tmp/f.csv" 1 hot)" = 51 ] && ok "--input FILE" || fail "--input FILE" "$(cat "$tmp/f.csv")"
out=$("$hs" score --nr_accesses 21 --weight_age 0 --profile v6.6 --sample-us 5000 2>&1)
grep -Eq '^hot +103$' <<<"$out" && ok "deprecated --sample-us still works" || fail "--sample-us" "$out"
# one error format: hotscore CMD: ...; try 'hotscore CMD --help'
bad=
for c in score bench verify sim; do
	"$hs" "$c" --frobnicate >/dev/null 2>"$tmp/err"
	grep -qx "hotscore $c: unknown option '--frobnicate'; try 'hotscore $c --help'" "$tmp/err" ||
		bad="$bad $c: $(cat "$tmp/err")"
done
[ -z "$bad" ] && ok "one error format in every subcommand" || fail "error format" "$bad"
HOTSCORE_CHECK_ARGS=1 "$hs" sim --compare_profiles v6.6,v2-ilog2 --damos-action stat >"$tmp/o" 2>&1 &&
	grep -qx 'profile v6.6,v2-ilog2' "$tmp/o" && grep -qx 'damos_action stat' "$tmp/o" &&
	ok "sim takes --compare_profiles and --damos-action" || fail "spellings" "$(cat "$tmp/o")"
"$hs" bench --profile loop,fls --mode throughput --iterations 10000 --runs 1 --format commit \
	--json "$tmp/r.json" --csv "$tmp/r.csv" --svg "$tmp/r.svg" >"$tmp/commit" 2>"$tmp/err"
line=$(sed -n '/^\$ hotscore bench/,$p' "$tmp/commit" | tr -d '\\\n')
grep -q -- '--profile loop,fls' <<<"$line" && ! grep -q -- '--json\|--csv\|--svg\|--format' <<<"$line" &&
	ok "the reproduce line leaves out the outputs: $line" || fail "reproduce" "$line $(cat "$tmp/err")"
expect_bad "help of no command" "" help frobnicate
expect_bad "a positional argument" "" sim extra
# the seed each command used when given none, as each prints it
bs=$("$hs" bench --profile loop --mode throughput --iterations 10000 --runs 1 --format commit 2>&1 |
	tr -d '\\\n' | sed -n 's/.*--seed \([0-9]*\).*/\1/p')
vs=$("$hs" verify --quick --random 10 --profile v6.6 2>&1 | sed -n '1s/.*--seed \([0-9]*\).*/\1/p')
ss=$("$hs" sim --duration 1s --no-timing 2>&1 | sed -n '1s/.*; seed \([0-9]*\)$/\1/p')
[ "$bs/$vs/$ss" = 1/1/1 ] && ok "the default seed is 1 in bench, verify and sim" ||
	fail "default seed" "bench $bs, verify $vs, sim $ss"
expect_bad "bench --import with a measuring option" "" bench --import "$here/data/kmod-results.jsonl" --method ktime
grep -q -- "--method does not apply to --import" "$tmp/err" && ok "--method named" || fail "import" "$(cat "$tmp/err")"
expect_bad "bench --import --iterations" "" bench --import "$here/data/kmod-results.jsonl" --iterations 5
grep -q -- "--iterations does not apply to --import" "$tmp/err" && ok "--iterations named alike" ||
	fail "import iterations" "$(cat "$tmp/err")"

# --- "did you mean": a mistyped command, option, profile or action gets
# the nearest name (src/cli/near.c), in one line; nothing near, none
near() {	# NAME WANT ARGS...: exit 2, and exactly the line WANT
	local name=$1 want=$2
	shift 2
	expect_bad "$name" "" "$@"
	[ "$(cat "$tmp/err")" = "$want" ] && ok "$name: as wanted" ||
		fail "$name" "'$(cat "$tmp/err")', want '$want'"
}
near "a command" "hotscore: unknown command 'scor'; did you mean 'score'?" scor
near "help of a command" "hotscore: unknown command 'scor'; did you mean 'score'?" help scor
near "two letters swapped" "hotscore: unknown command 'hepl'; did you mean 'help'?" hepl
near "an option" "hotscore score: unknown option '--nr_acesses'; did you mean '--nr_accesses'?" \
	score --nr_acesses 3
near "an option's start" "hotscore bench: unknown option '--iter'; did you mean '--iterations'?" \
	bench --iter 5
near "a profile" "hotscore score: --profile: no profile 'hotfx'; did you mean 'hotfix'?" \
	score --profile v6.6,hotfx
near "a combination" \
	"hotscore score: --profile: no profile 'raw+sfe+lop+clamp'; did you mean 'raw+safe+loop+clamp'?" \
	score --profile raw+sfe+lop+clamp
near "bench's variant" "hotscore bench: --profile: no profile 'lop'; did you mean 'loop'?" \
	bench --profile lop
near "--against" "hotscore verify: --against: no profile 'hotfx'; did you mean 'hotfix'?" \
	verify --candidate "$here/../examples/candidates/hotfix.c" --against hotfx
near "an action" "hotscore sim: --damos_action: unknown action 'pagout'; did you mean 'pageout'?" \
	sim --damos_action pagout
# negative controls: nothing near, so no guess, and where the list is
near "no command near" "hotscore: unknown command 'zzz'; try 'hotscore --help'" zzz
near "help: no command near" "hotscore: unknown command 'zzz'; try 'hotscore --help'" help zzz
near "one letter" "hotscore: unknown command 'x'; try 'hotscore --help'" x
near "no option near" "hotscore score: unknown option '--frobnicate'; try 'hotscore score --help'" \
	score --frobnicate
near "a start of no option" "hotscore score: unknown option '--iter'; try 'hotscore score --help'" \
	score --iter 5
near "a variant is bench's alone" \
	"hotscore score: --profile: no profile 'lop' (see 'hotscore score --list-profiles')" \
	score --profile lop
near "a combination of three" \
	"hotscore score: --profile: no profile 'raw+safe+loop' (see 'hotscore score --list-profiles')" \
	score --profile raw+safe+loop
near "no action near" "hotscore sim: --damos_action: 'hugepage' is not a simulated action; try 'hotscore sim --help'" \
	sim --damos_action hugepage

# --- bad input: one line, exit 2, no partial output
expect_bad "no command" ""
expect_bad "unknown command" "" frobnicate
expect_bad "unknown flag" "" score --frobnicate 1
expect_bad "stray argument" "" score 12
expect_bad "flag without value" "" score --age
expect_bad "unknown profile" "" score --profile v9.9
expect_bad "bad component list" "" score --profile raw+max-nr+loop
expect_bad "non-numeric" "" score --age 12abc
expect_bad "negative" "" score --nr-accesses -1
expect_bad "u32 overflow" "" score --age 4294967296
expect_bad "u32 weight overflow" "" score --weight-age 99999999999
expect_bad "u64 overflow" "" score --aggr-us 18446744073709551616
expect_bad "empty value" "" score --sample-us=
expect_bad "hex without digits" "" score --age 0x
expect_bad "csv: no header" "" score --input -
expect_bad "csv: unknown column" $'age,colour\n1,2\n' score --input -
expect_bad "csv: repeated column" $'age,age\n1,2\n' score --input -
expect_bad "csv: too many fields" $'age,nr_accesses\n1,2\n3,4,5\n' score --input -
expect_bad "csv: too few fields" $'age,nr_accesses\n1,2\n3\n' score --input -
expect_bad "csv: bad value, late row" $'age\n1\n2\n3\nx\n' score --input -
expect_bad "csv: one field short" $'age,nr_accesses\n1\n' score --input -
grep -q "line 2: 1 field, the header has 2" "$tmp/err" && ok "1 field, not 1 fields" ||
	fail "plural" "$(cat "$tmp/err")"
expect_bad "csv: out of range" $'sample_us,age\n1,4294967296\n' score --input -
expect_bad "csv: bad profile" $'profile,age\nv6.6,1\nlinux,2\n' score --input -
expect_bad "csv: empty field" $'age,nr_accesses\n1,\n' score --input -
expect_bad "csv: first row too long" $'age\n1,2\n' score --input -
expect_bad "csv: first row trailing comma" $'profile,age\nv6.6,5,\n' score --input -
expect_bad "csv: first row too short" $'age,nr_accesses\n1\n' score --input -
expect_bad "csv: header only a BOM" $'\xef\xbb\xbf\n1\n' score --input -
expect_bad "newline inside a value" "" score --age=$'1\n2'
expect_bad "newline inside a profile" "" score --profile=$'v6\nx'
expect_bad "newline inside an argument" "" score $'x\ny'
expect_bad "control character in a CSV field" $'profile,age\nv6.6,1\x012\n' score --csv
"$hs" score --csv </ >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ]; then
	ok "stdin is a directory: $(cat "$tmp/err")"
else
	fail "stdin is a directory" "exit $rc: $(cat "$tmp/err")"
fi

# --- one form for an input that cannot be read, in every subcommand:
# "hotscore CMD: --OPT: PATH: why" ("PATH: why" for a bare argument),
# before any work; "-" only where standard input is read
mkdir -p "$tmp/dir"
bad=
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086
	"$hs" $args >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] ||
		bad="$bad [$args: exit $rc, '$(cat "$tmp/err")', want '$want']"
done <<EOF
hotscore score: --input: $tmp/dir: Is a directory|score --input $tmp/dir
hotscore verify: --captured: $tmp/dir: Is a directory|verify --captured $tmp/dir
hotscore verify: --candidate: $tmp/dir: Is a directory|verify --candidate $tmp/dir
hotscore bench: --dist: $tmp/dir: Is a directory|bench --dist file:$tmp/dir
hotscore bench: --import: $tmp/dir: Is a directory|bench --import $tmp/dir
hotscore sim: --workload: $tmp/dir: Is a directory|sim --workload $tmp/dir
hotscore rank: $tmp/dir: Is a directory|rank $tmp/dir
hotscore rank: --input: $tmp/dir: Is a directory|rank --input $tmp/dir
hotscore convert: $tmp/dir: Is a directory|convert $tmp/dir --record $tmp/x.json
hotscore compare-records: $tmp/dir: Is a directory|compare-records $tmp/dir $tmp/dir
hotscore workload: $tmp/dir: Is a directory|workload $tmp/dir
hotscore score: --input: $tmp/none: No such file or directory|score --input $tmp/none
hotscore rank: $tmp/none: No such file or directory|rank $tmp/none
hotscore sim: --workload: $tmp/none: No such file or directory (built-in: stairs, zigzag)|sim --workload $tmp/none
hotscore sim: --workload: stair: No such file or directory; did you mean 'stairs'?|sim --workload stair
hotscore rank: '-': standard input cannot be read here; save it to a file and name that|rank -
hotscore compare-records: '-': standard input cannot be read here; save it to a file and name that|compare-records - -
hotscore bench: --dist: '-': standard input cannot be read here; save it to a file and name that|bench --dist file:-
hotscore sim: --workload: '-': standard input cannot be read here; save it to a file and name that|sim --workload -
EOF
[ -z "$bad" ] && ok "an input that cannot be read: one form in every subcommand" || fail "input form" "$bad"
# "-" is standard input where it is read (a control: these must not refuse)
printf 'age\n50\n' | "$hs" score --input - --nr_accesses 10 >"$tmp/o" 2>"$tmp/err" &&
	[ "$(field "$tmp/o" 1 hot)" = 51 ] &&
	"$hs" verify --captured - --profile debian-6.1.192 <"$here/data/capture-6.1.192.csv" \
		>/dev/null 2>"$tmp/err" &&
	ok "score --input - and verify --captured - read standard input" ||
	fail "stdin read" "$(cat "$tmp/err")"
# a binary file for a CSV: said to be binary, no byte of it printed
expect_bad "a damo record for a CSV" "" score --input "$here/data/rank/damo-multi.json_compressed"
[ "$(cat "$tmp/err")" = "hotscore score: --input: $here/data/rank/damo-multi.json_compressed: binary data, not CSV text" ] &&
	! LC_ALL=C grep -q '[^ -~]' "$tmp/err" &&
	ok "a binary input: described, its bytes not printed" || fail "binary" "$(cat -v "$tmp/err")"
printf 'age,nr\x01accesses\n1,2\n' >"$tmp/ctl.csv"
expect_bad "a control byte in a header" "" score --input "$tmp/ctl.csv"
grep -q 'binary data, not CSV text$' "$tmp/err" && ok "a control byte makes it binary" ||
	fail "control byte" "$(cat -v "$tmp/err")"
# a message escapes what a terminal cannot show, and keeps UTF-8 text
expect_bad "a bad byte in an argument" "" score --profile $'caf\xe9'
[ "$(cat "$tmp/err")" = "hotscore score: --profile: no profile 'caf\\xe9' (see 'hotscore score --list-profiles')" ] &&
	ok "a byte that is not UTF-8 is written \\xNN" || fail "escape" "$(cat -v "$tmp/err")"
expect_bad "UTF-8 in an argument" "" score --profile $'caf\xc3\xa9'
[ "$(cat "$tmp/err")" = $'hotscore score: --profile: no profile \'caf\xc3\xa9\' (see \'hotscore score --list-profiles\')' ] &&
	ok "UTF-8 is printed as it is" || fail "utf-8" "$(cat -v "$tmp/err")"
# a trace or a log given for a CSV: no column known, and no line quoted
printf 'kdamond.0 4321 [001] 82877.3: damon:damon_aggregated: target_id=1 nr_regions=3\n' >"$tmp/trace.txt"
expect_bad "a trace for a CSV" "" score --input "$tmp/trace.txt"
[ "$(cat "$tmp/err")" = "hotscore score: --input: $tmp/trace.txt: line 1: no known column name" ] &&
	ok "no known column: said so, the line not quoted" || fail "no column" "$(cat "$tmp/err")"
expect_bad "one unknown column, quoted in part" "age,$(printf 'x%.0s' {1..80})" score --input -
grep -q "line 1: unknown column 'x\{24\}'\.\.\.$" "$tmp/err" && ok "a long column name is cut" ||
	fail "cut" "$(cat "$tmp/err")"

# --- a full disk is an error, not a success
if [ -w /dev/full ]; then
	"$hs" score --list-profiles >/dev/full 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'writing the output' "$tmp/err"; then
		ok "write error: exit 1, $(cat "$tmp/err")"
	else
		fail "write error" "exit $rc: $(cat "$tmp/err")"
	fi
fi

# --- ordinary CSV dialects: CR-only line ends, a byte-order mark, quotes
for dialect in cr bom quotes; do
	case $dialect in
	cr)     input=$'profile,age\rv6.6,50\rhotfix,50\r' ;;
	bom)    input=$'\xef\xbb\xbfprofile,age\nv6.6,50\nhotfix,50\n' ;;
	quotes) input=$'"profile","age"\n"v6.6", "50"\nhotfix,"50"\n' ;;
	esac
	printf '%s' "$input" | "$hs" score --csv --nr-accesses 10 >"$tmp/d.csv" 2>"$tmp/err"
	if [ "$(field "$tmp/d.csv" 1 hot)/$(field "$tmp/d.csv" 2 hot)/$(field "$tmp/d.csv" 2 profile)" = 51/51/hotfix ]; then
		ok "csv dialect: $dialect"
	else
		fail "csv dialect: $dialect" "$(cat "$tmp/d.csv" "$tmp/err")"
	fi
done

# the message names the line
printf 'age\n1\n2\nx\n' | "$hs" score --csv 2>"$tmp/err" >/dev/null
if grep -q 'line 4' "$tmp/err"; then ok "error names the CSV line"; else fail "line number" "$(cat "$tmp/err")"; fi

# hex input is accepted and printed in decimal
if [ "$(printf 'age\n0x32\n' | "$hs" score --csv --nr-accesses 10 | field /dev/stdin 1 hot)" = 51 ]; then
	ok "hex values"
else
	fail "hex values" "0x32 not read as 50"
fi


# --- HOTSCORE_SIMD: an unknown value is a typo; avx2 and avx512 are valid
# values that this CPU may lack, and the message must say which of the two
# it is (tests/test_simd.c covers both on fabricated CPUs).
HOTSCORE_SIMD=bogus expect_bad "HOTSCORE_SIMD=bogus" "" sim --duration 1s --no-timing
want='hotscore sim: HOTSCORE_SIMD=bogus: give auto, scalar, avx2 or avx512'
[ "$(cat "$tmp/err")" = "$want" ] && ok "an unknown HOTSCORE_SIMD is named as such" ||
	fail "HOTSCORE_SIMD=bogus message" "$(cat "$tmp/err")"
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
# simd_runs VALUE WHAT: this CPU has it, so VALUE must run the vector scorer
simd_runs() {
	HOTSCORE_SIMD=$1 "$hs" sim --duration 1s --no-timing --scorer fast-batch \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ -s "$tmp/out" ] &&
		ok "HOTSCORE_SIMD=$1 runs on this $2 CPU" ||
		fail "HOTSCORE_SIMD=$1 on an $2 CPU" "exit $rc: $(cat "$tmp/err")"
}
lacks=
for f in avx512f avx512cd avx512bw avx512vl avx512vbmi; do
	case " $flags " in *" $f "*) ;; *) lacks="$lacks $f" ;; esac
done
if [ -z "$lacks" ]; then
	simd_runs avx512 AVX-512
else
	HOTSCORE_SIMD=avx512 expect_bad "HOTSCORE_SIMD=avx512 without$lacks" "" \
		sim --duration 1s --no-timing
	grep -q '^hotscore sim: HOTSCORE_SIMD=avx512: this CPU lacks AVX-512.*; use auto or scalar$' "$tmp/err" &&
		ok "avx512 on a CPU without it: the CPU lacks it, not a bad value" ||
		fail "HOTSCORE_SIMD=avx512 message" "$(cat "$tmp/err")"
fi
case " $flags " in
*" avx2 "*)
	simd_runs avx2 AVX2 ;;
*)
	HOTSCORE_SIMD=avx2 expect_bad "HOTSCORE_SIMD=avx2 without avx2" "" \
		sim --duration 1s --no-timing
	[ "$(cat "$tmp/err")" = 'hotscore sim: HOTSCORE_SIMD=avx2: this CPU lacks AVX2; use auto or scalar' ] &&
		ok "avx2 on a CPU without it: one line, the CPU lacks it" ||
		fail "HOTSCORE_SIMD=avx2 message" "$(cat "$tmp/err")" ;;
esac

# --- workload files: each way a number misses gets its own reason
# (a value past the limit is "too large", not "not a number")
while IFS='|' read -r name cfg want; do
	printf "$cfg" >"$tmp/w.cfg"
	expect_bad "workload: $name" "" sim --duration 1s --no-timing --workload "$tmp/w.cfg"
	case $(cat "$tmp/err") in
	"hotscore sim: "*"w.cfg:$want") ok "workload: $name: the reason" ;;
	*) fail "workload: $name" "$(cat "$tmp/err"), want w.cfg:$want" ;;
	esac
done <<'CASES'
size past 64 GiB|a, 68719476737\n\np\n100\n|1: region size '68719476737' is too large: at most 64 GiB (68719476736 bytes)
size past 2^64|a, 18446744073709551616\n\np\n100\n|1: region size '18446744073709551616' is too large: at most 64 GiB (68719476736 bytes)
sizes past 64 GiB in all|a, 68719476735\nb, 2\n\np\n100\n|2: region size '2' is too large: at most 1 byte more (64 GiB in all)
size zero|a, 0\n\np\n100\n|1: region size '0' is zero: at least 1 byte
size negative|a, -4096\n\np\n100\n|1: region size '-4096' is negative
size not a number|a, 4KiB\n\np\n100\n|1: region size '4KiB' is not a decimal number of bytes
size missing|a,\n\np\n100\n|1: region size is missing
one field|a\n\np\n100\n|1: a region is 'name, size_bytes[, init_data_file]', got 1 field
duration past 30 days|a, 4096\n\np\n2592000001\n|4: phase duration '2592000001' is too large: at most 30 days (2592000000 ms)
duration zero|a, 4096\n\np\n0\n|4: phase duration '0' is zero: at least 1 ms
duration negative|a, 4096\n\np\n-100\n|4: phase duration '-100' is negative
duration not a number|a, 4096\n\np\n1s\n|4: phase duration '1s' is not a decimal number of ms
stride past 2^64|a, 4096\n\np\n100\na, 0, 18446744073709551616, 1\n|5: stride '18446744073709551616' is too large: at most 18446744073709551615 bytes
stride zero|a, 4096\n\np\n100\na, 0, 0, 1\n|5: stride '0' is zero: at least 1 byte
probability past 2^32|a, 4096\n\np\n100\na, 0, 4096, 4294967296\n|5: probability '4294967296' is too large: at most 4294967295
probability negative|a, 4096\n\np\n100\na, 0, 4096, -1\n|5: probability '-1' is negative
access of one field|a, 4096\n\np\n100\na\n|5: an access is 'region, random, stride, prob[, rw]', got 1 field
CASES
printf 'a, 68719476736\n\np\n100\na, 0, 4096, 4294967295\n' >"$tmp/w.cfg"
"$hs" sim --duration 1s --no-timing --workload "$tmp/w.cfg" >/dev/null 2>"$tmp/err" &&
	ok "workload: 64 GiB and probability 2^32 - 1 are taken" ||
	fail "workload at its limits" "$(cat "$tmp/err")"

report_counts
