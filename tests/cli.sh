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
expect_bad "csv: no header" "" score --csv
expect_bad "csv: unknown column" $'age,colour\n1,2\n' score --csv
expect_bad "csv: repeated column" $'age,age\n1,2\n' score --csv
expect_bad "csv: too many fields" $'age,nr_accesses\n1,2\n3,4,5\n' score --csv
expect_bad "csv: too few fields" $'age,nr_accesses\n1,2\n3\n' score --csv
expect_bad "csv: bad value, late row" $'age\n1\n2\n3\nx\n' score --csv
expect_bad "csv: out of range" $'sample_us,age\n1,4294967296\n' score --csv
expect_bad "csv: bad profile" $'profile,age\nv6.6,1\nlinux,2\n' score --csv
expect_bad "csv: empty field" $'age,nr_accesses\n1,\n' score --csv
expect_bad "csv: first row too long" $'age\n1,2\n' score --csv
expect_bad "csv: first row trailing comma" $'profile,age\nv6.6,5,\n' score --csv
expect_bad "csv: first row too short" $'age,nr_accesses\n1\n' score --csv
expect_bad "csv: header only a BOM" $'\xef\xbb\xbf\n1\n' score --csv
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

report_counts
