#!/usr/bin/env bash
# A live kdamond's calls, as hotscore.ko mode=capture records them: `verify
# --captured` checks each against the model, `bench --dist file:` times the
# variants on them, `score --input` reads them.  Two captures: one built
# here from the model (so that one changed value must be found, on its
# line), and tests/data/capture-6.1.192.csv, recorded in the DAMON kernel
# under QEMU by scripts/kernel-test.sh (the real thing: its calls must agree
# with debian-6.1.192, the profile of that kernel's source).
# Usage: tests/capture.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: capture.sh HOTSCORE JSONQ}
jq=${2:?usage: capture.sh HOTSCORE JSONQ}
here=$(cd "$(dirname "$0")" && pwd)
real=$here/data/capture-6.1.192.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

hdr=fn,caller,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,weight_nr_accesses,weight_age,returned

# capture PROFILE INPUTS.csv: a capture as debian-6.1.192's kernel would
# record it (6.1's columns): per input a damon_cold_score() row and the
# damon_hot_score() row nested in it, each returning PROFILE's value
capture() {
	"$hs" score --input "$2" --profile "$1" | awk -F, -v hdr="$hdr" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print hdr; next }
		{ in_ = $c["sample_us"] "," $c["aggr_us"] "," $c["nr_accesses"] "," \
			$c["last_nr_accesses"] "," $c["age"] "," \
			$c["weight_nr_accesses"] "," $c["weight_age"]
		  print "cold,ops," in_ "," $c["cold"]
		  print "hot,cold," in_ "," $c["hot"] }'
}

# inputs: ordinary ones, and one where v5.16 (aggr/sample kept in an
# unsigned int) differs from the hotfix (verify's example)
{
	echo sample_us,aggr_us,nr_accesses,age,weight_nr_accesses,weight_age
	for a in 0 1 2 7 30 200 1000; do
		for n in 0 1 5 20; do
			echo "5000,100000,$n,$a,0,1000"
			echo "5000,100000,$n,$a,1000,1000"
		done
	done
	echo "1,4294967297,1,0,1,1"
} >"$tmp/in.csv"
capture debian-6.1.192 "$tmp/in.csv" >"$tmp/cap.csv"
rows=$(($(wc -l <"$tmp/cap.csv") - 1))

"$hs" verify --captured "$tmp/cap.csv" --json "$tmp/v.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "a capture the model agrees with: exit 0" ||
	fail "verify --captured" "exit $rc: $(cat "$tmp/err")"
agree=$(sed -n 's/^agree with every captured call: //p' "$tmp/out")
case ", $agree, " in
*", hotfix, "*) case ", $agree, " in
	*", debian-6.1.192, "*) ok "agree with every call: $agree" ;;
	*) fail "agreeing profiles" "'$agree'" ;;
	esac ;;
*) fail "agreeing profiles" "'$agree'" ;;
esac
case ", $agree, " in
*", v5.16, "*) fail "v5.16" "agrees, but one input is verify's v5.16 example" ;;
*) ok "v5.16 is not among them: it differs on the unsigned int aggr/sample input" ;;
esac
grep -q "^  calls    $rows: $((rows / 2)) damon_hot_score() ($((rows / 2)) of them inside damon_cold_score()), $((rows / 2)) damon_cold_score()$" \
	"$tmp/out" && ok "the calls line counts $rows calls, half nested" ||
	fail "calls line" "$(grep '^  calls' "$tmp/out")"
expect_json "$tmp/v.json" "$jq"
[ "$("$jq" "$tmp/v.json" calls.all)" = "$rows" ] &&
	[ "$("$jq" "$tmp/v.json" calls.nested)" = "$((rows / 2))" ] &&
	ok "JSON counts" || fail "JSON counts" "$(head -c 300 "$tmp/v.json")"

# one returned value changed, on a known line: found there, and the
# reproducer gives the model's value, not the changed one
line=20
awk -F, -v OFS=, -v l=$line 'NR == l { $NF = $NF + 1 } { print }' \
	"$tmp/cap.csv" >"$tmp/bad.csv"
want=$(sed -n "${line}p" "$tmp/cap.csv" | awk -F, '{ print $NF }')
fn=$(sed -n "${line}p" "$tmp/cap.csv" | cut -d, -f1)
"$hs" verify --captured "$tmp/bad.csv" --profile debian-6.1.192,hotfix \
	--json "$tmp/bad.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && ok "a changed value: exit 1" || fail "changed value" "exit $rc"
grep -Eq "^  debian-6.1.192 +$((rows - 1)) +1$" "$tmp/out" &&
	ok "debian-6.1.192: $((rows - 1)) agree, 1 differs" ||
	fail "counts" "$(grep debian "$tmp/out")"
[ "$("$jq" "$tmp/bad.json" profiles.0.first.line)" = $line ] &&
	[ "$("$jq" "$tmp/bad.json" profiles.0.first.model)" = "$want" ] &&
	ok "the first difference is line $line, where the model gives $want" ||
	fail "first difference" "$("$jq" "$tmp/bad.json" profiles.0.first.fn)"
cmd=$("$jq" "$tmp/bad.json" profiles.0.first.command)
got=$("$hs" ${cmd#hotscore } | sed -n "s/^$fn  *//p" | tr -d ' ')
[ "$got" = "$want" ] && ok "its command replays: $cmd gives $fn $got" ||
	fail "replay" "'$cmd' gives '$got', want '$want'"
"$hs" verify --captured "$tmp/bad.csv" --profile v5.16 >"$tmp/out"
[ $? -eq 1 ] && ok "a named profile that differs: exit 1" ||
	fail "named profile" "exit 0"

# a candidate file is one more profile
"$hs" verify --captured "$tmp/cap.csv" \
	--profile "$here/../examples/candidates/hotfix.c" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "hotfix.c  *$rows  *0" "$tmp/out" &&
	ok "a candidate file agrees with the capture on all $rows calls" ||
	fail "candidate" "exit $rc: $(cat "$tmp/err") $(grep hotfix "$tmp/out")"

# bench and score read a capture; nested calls are the same computation
"$hs" bench --dist "file:$tmp/cap.csv" --profile hotfix,v2-ilog2 --modes throughput \
	--invocations 2 --placements 1 --iterations 200000 >"$tmp/b.out" 2>"$tmp/b.err"
rc=$?
[ $rc -eq 0 ] && tr -s ' \n' '  ' <"$tmp/b.out" |
	grep -q "($((rows / 2)) calls; $((rows / 2)) damon_hot_score() calls inside damon_cold_score() left out" &&
	ok "bench --dist file: times the capture's $((rows / 2)) computations" ||
	fail "bench" "exit $rc: $(head -c 300 "$tmp/b.err") $(grep inputs "$tmp/b.out")"
"$hs" score --input "$tmp/cap.csv" --profile debian-6.1.192 >"$tmp/s.out"
[ $? -eq 0 ] && [ "$(($(wc -l <"$tmp/s.out") - 1))" = "$rows" ] &&
	ok "score --input scores every captured call" ||
	fail "score --input" "$(head -3 "$tmp/s.out")"

# bad captures and options: one line, exit 2
row=5000,100000,0,0,3,0,1000
printf '%s\nwarm,ops,%s,20\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "fn warm" "" verify --captured "$tmp/x.csv"
printf '%s\ncold,caller,%s,20\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "caller neither ops nor cold" "" verify --captured "$tmp/x.csv"
for v in 1.5 abc 2147483648 -2147483649 "" 7x; do
	printf '%s\ncold,ops,%s,%s\n' "$hdr" "$row" "$v" >"$tmp/x.csv"
	expect_bad "returned '$v'" "" verify --captured "$tmp/x.csv"
done
printf 'fn,sample_us\ncold,5000\n' >"$tmp/x.csv"
expect_bad "fn without returned" "" verify --captured "$tmp/x.csv"
printf 'profile,%s\nhotfix,cold,ops,%s,20\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "a profile column in a capture" "" verify --captured "$tmp/x.csv"
printf '%s\n' "$hdr" >"$tmp/x.csv"
expect_bad "no calls" "" verify --captured "$tmp/x.csv"
printf 'fn,returned\nhot,57\n' >"$tmp/x.csv"
expect_bad "a capture without its input columns" "" verify --captured "$tmp/x.csv"
printf '%s\ncold,cold,%s,20\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "a cold call inside a cold call" "" verify --captured "$tmp/x.csv"
printf 'passed_sis,%s\n7,cold,ops,%s,20\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "passed_sis without next_aggr_sis" "" verify --captured "$tmp/x.csv"
expect_bad "not a capture" "" verify --captured "$tmp/in.csv"
expect_bad "no such file" "" verify --captured "$tmp/none.csv"
expect_bad "--captured with --quick" "" verify --captured "$tmp/cap.csv" --quick
expect_bad "--captured with --candidate" "" verify --captured "$tmp/cap.csv" \
	--candidate "$here/../examples/candidates/hotfix.c"
printf '%s\ncold,ops,%s,20,7\n' "$hdr" "$row" >"$tmp/x.csv"
expect_bad "a row longer than the header" "" verify --captured "$tmp/x.csv"

# the capture from the guest (scripts/kernel-test.sh writes it)
if [ -s "$real" ]; then
	n=$(($(wc -l <"$real") - 1))
	"$hs" verify --captured "$real" --profile debian-6.1.192 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -Eq "^  debian-6.1.192 +$n +0$" "$tmp/out" &&
		ok "tests/data/capture-6.1.192.csv: all $n calls agree with debian-6.1.192" ||
		fail "real capture" "exit $rc: $(cat "$tmp/err") $(grep debian "$tmp/out")"
	"$hs" bench --dist "file:$real" --profile debian-6.1.192,hotfix,v2-ilog2 \
		--modes throughput --invocations 2 --placements 1 \
		--iterations 200000 >"$tmp/b.out" 2>"$tmp/b.err"
	rc=$?
	[ $rc -eq 0 ] && grep -Eq '^hotfix +file:.* throughput' "$tmp/b.out" &&
		ok "bench --dist file:tests/data/capture-6.1.192.csv times the real inputs" ||
		fail "real bench" "exit $rc: $(head -c 300 "$tmp/b.err")"
else
	fail "real capture" "no $real"
fi

report_counts
