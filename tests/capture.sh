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
got=$("$hs" ${cmd#"$hs" } | sed -n "s/^$fn  *\(\* \)*//p" | tr -d ' ')
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

# What a capture covers and which profiles it tells apart, computed here
# with awk from the CSV and `score --input`, apart from verify's code.
#
# pl N ONE MANY: the word's ending for N
pl() {
	[ "$1" = 1 ] && echo "$2" || echo "$3"
}

# covered CAPTURE: "CALLS INPUTS CLASSES" and one line per edge count, in
# verify's order, under debian-6.1.192's arithmetic (raw, safe, clamp;
# every age_in_log method gives the bit length)
covered() {
	awk -F, '
	function bits(x,  n) { for (n = 0; x >= 1; n++) x = int(x / 2); return n }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ s = $c["sample_us"]; a = $c["aggr_us"]; n = $c["nr_accesses"]
	  fw = $c["weight_nr_accesses"]; aw = $c["weight_age"]
	  key = s "," a "," n "," $c["last_nr_accesses"] "," $c["age"] "," fw "," aw
	  if (!(key in seen)) { seen[key]; inputs++ }
	  max = int(a / (s ? s : 1)); if (max > 4294967295) max = 4294967295
	  if (!max) max = 1
	  fs = int(((n * 100) % 4294967296) / max)
	  prod = $c["age"] * a	# exact for the ages and intervals used here
	  if (prod >= 18446744073709551616) { e[10]++; prod -= 18446744073709551616 }
	  sec = int(prod / 1000000)
	  if (sec > 4294967295) { e[9]++; sec = sec % 4294967296 }
	  ail = bits(sec); ls = (fs ? ail : -ail) + 32
	  as = int(int(ls * 100 / 32) / 2)
	  cls = fs "," ail "," fw "," aw
	  if (!(cls in cseen)) { cseen[cls]; classes++ }
	  e[1] += fw + aw > 4294967295; e[2] += fw * fs + aw * as > 4294967295
	  e[3] += n > max; e[4] += !s; e[5] += !a; e[6] += a < s
	  e[7] += s && a / s >= 4294967296; e[8] += sec >= 2147483648
	  calls++ }
	END { print calls, inputs, classes
	      for (i = 1; i <= 10; i++) print e[i] + 0 }' "$1"
}

# pairs_expected CAPTURE LIST: per pair of LIST (profiles of `score
# --list-profiles`), "A/B N LINE" (N calls where the two give a different
# score or undef, the first's line), or "A/B proof" for two that are never
# apart and differ only in the age_in_log method
pairs_expected() {
	"$hs" score --list-profiles | awk '/^$/ { exit } NR > 1 && /^[^ ]/ { print $1, $2, $3, $5 }' \
		>"$tmp/profiles"
	"$hs" score --input "$1" --profile "$2" | awk -F, -v plist="$tmp/profiles" -v order="$2" '
	BEGIN { while ((getline l <plist) > 0) { split(l, f, " "); cp[f[1]] = f[2] f[3] f[4] }
		n = split(order, name, ","); for (i = 1; i <= n; i++) comp[i] = cp[name[i]] }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = (NR - 2) % n + 1; v[k] = $c["hot"]
	  if (k < n) next
	  for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
		if (v[a] != v[b] && !cnt[a, b]++) first[a, b] = int((NR - 2) / n) + 2 }
	END { for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
		if (!cnt[a, b] && comp[a] == comp[b]) print name[a] "/" name[b], "proof"
		else print name[a] "/" name[b], cnt[a, b] + 0, first[a, b] + 0 }'
}

# check_cover NAME CAPTURE: verify's classes, edges and pairs for CAPTURE
# under $order (the first, debian-6.1.192, is the kernel's profile) are
# those computed above, and the JSON says the same
order=debian-6.1.192,v5.16,v6.6,rfc-fls,v2-ilog2,hotfix,mm-new
check_cover() {
	local name=$1 f=$2 exp got
	"$hs" verify --captured "$f" --profile "$order" --json "$tmp/c.json" \
		>"$tmp/c.out" 2>"$tmp/c.err"
	covered "$f" >"$tmp/cov"
	read -r calls inputs classes <"$tmp/cov"
	exp="$calls call$(pl "$calls" "" s), $inputs distinct input$(pl "$inputs" "" s)"
	exp="$exp, $classes class$(pl "$classes" "" es) of"
	tr -s ' \n' ' ' <"$tmp/c.out" | grep -qF "$exp (freq_subscore, age_in_log," &&
		ok "$name: $exp ..." ||
		fail "$name: classes" "want '$exp': $(grep -A1 '^classes' "$tmp/c.out")"
	got=$(sed -n '/^  edge  /,/^edges reached/p' "$tmp/c.out" |
		awk 'NR > 1 && !/^edges/ { print $NF }' | head -10 | tr '\n' ' ')
	exp=$(tail -n +2 "$tmp/cov" | tr '\n' ' ')
	[ "$got" = "$exp" ] && ok "$name: edge counts $exp" ||
		fail "$name: edges" "got '$got', want '$exp'"
	[ "$("$jq" "$tmp/c.json" classes.inputs)" = "$inputs" ] &&
		[ "$("$jq" "$tmp/c.json" classes.classes)" = "$classes" ] &&
		[ "$("$jq" "$tmp/c.json" classes.edges.above_divisor)" = "$(sed -n 4p "$tmp/cov")" ] &&
		ok "$name: the JSON's classes" || fail "$name: JSON classes" "$(cat "$tmp/c.json")"
	check_pairs "$name" "$f" "$order"
}

# check_pairs NAME CAPTURE LIST: $tmp/c.out, verify's report on CAPTURE
# under LIST, has each pair's row and the pairs line computed above
check_pairs() {
	local name=$1 sum told=0 untold="" proof=0 p n l bad=""
	pairs_expected "$2" "$3" >"$tmp/pairs"
	while read -r p n l; do
		local a=${p%/*} b=${p#*/}
		if [ "$n" = proof ]; then
			proof=$((proof + 1))
			grep -Eq "^  $a / $b +0  equal by proof" "$tmp/c.out" || bad="$bad $p"
		elif [ "$n" = 0 ]; then
			untold="$untold${untold:+, }$p"
			grep -Eq "^  $a / $b +0  not told apart$" "$tmp/c.out" || bad="$bad $p"
		else
			told=$((told + 1))
			grep -Eq "^  $a / $b +$n  line $l," "$tmp/c.out" || bad="$bad $p"
		fi
	done <"$tmp/pairs"
	[ -z "$bad" ] && ok "$name: each pair's row (calls, first line, or proof)" ||
		fail "$name: pair rows" "$bad: $(sed -n '/^  pair/,$p' "$tmp/c.out")"
	sum="pairs: $told of $(wc -l <"$tmp/pairs") told apart, $proof equal by proof; not told apart: ${untold:-none}"
	sed -n '/^pairs: /,$p' "$tmp/c.out" | tr -s ' \n' ' ' | grep -qxF "$sum " &&
		ok "$name: $sum" || fail "$name: pairs line" "want '$sum': $(sed -n '/^pairs: /,$p' "$tmp/c.out")"
}

# a capture that reaches the edges: intervals of 0, nr_accesses above the
# divisor, weights whose sum wraps, a count whose nr_accesses * 100 wraps,
# aggr / sample above UINT_MAX, and ages of 2^31 s and over, truncated to
# 32 bits, or whose age * aggr wraps (2^24 * 2^40 = 2^64: age_in_sec 0);
# every pair not equal by proof is told apart
{
	echo sample_us,aggr_us,nr_accesses,age,weight_nr_accesses,weight_age
	echo 5000,100000,3,7,700,300
	echo 0,100000,5,10,1,1
	echo 5000,0,5,10,1,1
	echo 5000,50000,20,3,1,1
	echo 5000,100000,3,7,2147483648,2147483648
	echo 5000,100000,50000000,2,1,1
	echo 1,4294967297,1,0,1,1
	echo 5000,1000000000000,3,3000,1,1
	echo 5000,1000000000000,3,5000,1,1
	echo 5000,1099511627776,3,16777216,1,1
} >"$tmp/edge-in.csv"
capture debian-6.1.192 "$tmp/edge-in.csv" >"$tmp/edge.csv"
check_cover "edge capture" "$tmp/edge.csv"
for p in v2-ilog2 v6.6 mm-new; do
	grep -Eq "^  debian-6.1.192 / $p +[1-9][0-9]*  line " "$tmp/c.out" &&
		ok "the edge capture tells debian-6.1.192 from $p" ||
		fail "told apart: $p" "$(grep "^  debian-6.1.192 / $p" "$tmp/c.out")"
done
grep -q '^pairs: 17 of 21 told apart, 4 equal by proof; not told apart: none$' "$tmp/c.out" &&
	ok "the edge capture tells apart every pair but the 4 equal by proof" ||
	fail "edge capture pairs" "$(grep -A2 '^pairs:' "$tmp/c.out")"
cmd=$("$jq" "$tmp/c.json" pairs.5.first.command)
[ "$("$jq" "$tmp/c.json" pairs.5.b)" = mm-new ] &&
	[ "${cmd#"$hs" score }" != "$cmd" ] &&
	"$hs" ${cmd#"$hs" } | grep -Eq '^hot +\* [0-9]+ +undef$' &&
	ok "the pair's command replays: $cmd" || fail "pair command" "'$cmd'"

# a negative control: the first row alone tells no pair apart, and says so
head -3 "$tmp/edge.csv" >"$tmp/plain.csv"
check_cover "one ordinary input" "$tmp/plain.csv"
grep -Eq '^  debian-6.1.192 / v2-ilog2 +0  not told apart$' "$tmp/c.out" &&
	grep -q '^edges reached: 0 of 10$' "$tmp/c.out" &&
	ok "one ordinary input: debian-6.1.192 / v2-ilog2 not told apart, no edge reached" ||
	fail "negative control" "$(cat "$tmp/c.out")"

# the running moving sum: nr_accesses_bp / 10000 against the model's, here
# in awk: nr_accesses + last * (the window's part left, in bp) / 10000
mvhdr=fn,caller,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,passed_sis,next_aggr_sis,nr_accesses_bp,weight_nr_accesses,weight_age,returned
mv_capture() {
	echo "$mvhdr"
	while read -r n last passed next bp; do
		ret=$("$hs" score --profile debian-6.1.192 --nr_accesses "$n" --age 7 |
			awk '$1 == "hot" { print $2 }')
		echo "hot,ops,5000,100000,$n,$last,7,$passed,$next,$bp,1,1,$ret"
	done
}
mvsum() {
	awk -F, 'NR > 1 { left = $9 > $8 ? $9 - $8 : 0; bp = int(left * 10000 / 20)
		m = bp == 10000 ? $6 : $5 + int($6 * bp / 10000); k = int($10 / 10000)
		d = k > m ? k - m : m - k; calls++; edge += k != $5
		if (d) { if (!differ++) first = NR; if (d > max) max = d } }
		END { print calls, differ + 0, max + 0, first + 0, edge + 0 }' "$1"
}
printf '3 2 10 20 40000\n3 2 10 20 45000\n0 8 5 20 60000\n4 0 20 20 40000\n' |
	mv_capture >"$tmp/mv.csv"
read -r calls differ max first edge < <(mvsum "$tmp/mv.csv")
"$hs" verify --captured "$tmp/mv.csv" --profile debian-6.1.192 --json "$tmp/mv.json" >"$tmp/out"
[ "$differ" = 0 ] &&
	grep -qx "moving sum: nr_accesses_bp / 10000 equals the model's hs_nr_accesses_mvsum() on $calls of $calls calls" "$tmp/out" &&
	[ "$("$jq" "$tmp/mv.json" moving_sum.equal)" = "$calls" ] &&
	ok "moving sum: equal on all $calls calls" ||
	fail "moving sum equal" "awk: $differ differ; $(grep -A2 '^moving' "$tmp/out")"
printf '3 2 10 20 40000\n3 2 10 20 70000\n0 8 5 20 10000\n' | mv_capture >"$tmp/mv.csv"
read -r calls differ max first edge < <(mvsum "$tmp/mv.csv")
"$hs" verify --captured "$tmp/mv.csv" --profile debian-6.1.192 --json "$tmp/mv.json" >"$tmp/out"
tr -s ' \n' ' ' <"$tmp/out" | grep -q "moving sum: nr_accesses_bp / 10000 differs from the model's hs_nr_accesses_mvsum() on $differ of $calls calls, by at most $max; first: line $first, " &&
	[ "$("$jq" "$tmp/mv.json" moving_sum.first.line)" = "$first" ] &&
	ok "moving sum: $differ of $calls differ, by at most $max, first on line $first" ||
	fail "moving sum differs" "awk: $calls $differ $max $first; $(grep -A3 '^moving' "$tmp/out")"
grep -q "^  nr_accesses_bp / 10000 != nr_accesses (6.7+) *$edge\$" "$tmp/out" &&
	ok "the 6.7+ edge: nr_accesses_bp / 10000 != nr_accesses on $edge calls" ||
	fail "bp edge" "$(grep 'nr_accesses_bp /' "$tmp/out")"
"$hs" verify --captured "$tmp/cap.csv" >"$tmp/out"
grep -q '^moving sum' "$tmp/out" && fail "moving sum" "printed for a 6.1 capture" ||
	ok "no moving-sum line for a capture without nr_accesses_bp"

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
	# 22 classes, no edge reached, no pair told apart
	check_cover "capture-6.1.192.csv" "$real"
	# without --profile: every built-in profile, the first the kernel's
	"$hs" verify --captured "$real" >"$tmp/c.out"
	all=$("$hs" score --list-profiles |
		awk '/^$/ { exit } NR > 1 && /^[^ ]/ { printf "%s%s", n++ ? "," : "", $1 }')
	grep -q "^classes covered, under ${all%%,*}$" "$tmp/c.out" &&
		ok "without --profile: under the first built-in profile, ${all%%,*}" ||
		fail "default classes" "$(grep '^classes' "$tmp/c.out")"
	check_pairs "capture-6.1.192.csv, every built-in profile" "$real" "$all"
else
	fail "real capture" "no $real"
fi

report_counts
