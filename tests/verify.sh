#!/usr/bin/env bash
# End-to-end tests of `hotscore verify --quick`: the proof's verdict, the
# map of differences, examples that reproduce with `hotscore score`, JSON,
# bad input.  Usage: tests/verify.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: verify.sh HOTSCORE JSONQ}
jq=${2:?usage: verify.sh HOTSCORE JSONQ}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

expect_bad "unknown profile" "" verify --quick --profiles v6.6,v9
expect_bad "profile twice" "" verify --quick --profiles v6.6,v6.6
expect_bad "empty profile list" "" verify --quick --profiles ,
expect_bad "zero threads" "" verify --quick --threads 0
expect_bad "absurd threads" "" verify --quick --threads 100000
expect_bad "seed not a number" "" verify --quick --seed x1
expect_bad "absurd random count" "" verify --quick --random 99999999999
expect_bad "unwritable --json" "" verify --quick --json "$tmp/no/dir/v.json"
expect_bad "unknown option" "" verify --full
expect_bad "stray argument" "" verify quick

"$hs" verify --quick --json "$tmp/v.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && ok "--quick exits 0" || fail "--quick" "exit $rc: $(head -c 300 "$tmp/err")"
[ -s "$tmp/err" ] && fail "stderr" "not a terminal, yet: $(head -c 200 "$tmp/err")" ||
	ok "no progress output when stderr is not a terminal"
if command -v script >/dev/null; then
	script -qc "'$hs' verify --quick --profiles v6.6" /dev/null >"$tmp/tty" 2>&1
	grep -aq 'verify \[' "$tmp/tty" && grep -aq 'ETA' "$tmp/tty" &&
		ok "progress bar on a terminal" || fail "progress" "none on a TTY"
else
	echo "SKIP progress on a terminal: no script(1)"
fi
grep -q '^  loop = fls = ilog2 on all [0-9]* values of age_in_sec' "$tmp/out" &&
	ok "loop = fls = ilog2" || fail "age_in_log" "no proof line"
for pair in "v6.6 = rfc-fls" "v6.6 = v2-ilog2" "rfc-fls = v2-ilog2" \
	    "hotfix = debian-6.1.192"; do
	grep -q "^  $pair: agree on all [0-9]* inputs (claimed equal: ok)" \
		"$tmp/out" && ok "$pair" || fail "$pair" "not reported equal"
done

# run "hotscore score ..." as printed (an "e.g." line), print its status
status_of() {
	local cmd
	cmd=$(sed -e 's/^ *e\.g\. //' -e 's/^ *//' -e 's/  *#.*//' <<<"$1")
	# shellcheck disable=SC2086
	"$hs" ${cmd#hotscore } | awk '$1 == "status" { print $2 }'
}

# the map: where v6.6 overruns or divides by zero and hotfix does not,
# with both printed commands pasted back into hotscore score
for cls in "v6.6 out-of-range, hotfix ok" \
	   "v6.6 div0(sample_interval), hotfix ok" \
	   "v6.6 div0(max_nr_accesses), hotfix ok"; do
	lines=$(grep -A2 "^    $cls: [0-9]*$" "$tmp/out" | tail -2)
	want_a=${cls#v6.6 }
	want_a=${want_a%%,*}
	got_a=$(status_of "$(head -1 <<<"$lines")")
	got_b=$(status_of "$(tail -1 <<<"$lines")")
	if [ -n "$lines" ] && [ "$got_a" = "$want_a" ] && [ "$got_b" = ok ]; then
		ok "$cls: both printed commands reproduce it"
	else
		fail "$cls" "'$lines' gives '$got_a' and '$got_b'"
	fi
done
line=$(grep -A1 "^  hotfix  *more accesses never colder" "$tmp/out" | tail -1)
cmd=$(sed -e 's/^ *e\.g\. //' -e 's/  *#.*//' <<<"$line")
args=${cmd#hotscore score --profile hotfix }
# shellcheck disable=SC2086
h1=$("$hs" score --profile hotfix $args | awk '$1 == "hot" { print $2 }')
n=$(sed -n 's/.*--nr-accesses \([0-9]*\).*/\1/p' <<<"$args")
# shellcheck disable=SC2086
h2=$("$hs" score --profile hotfix $args --nr-accesses $((n + 1)) |
	awk '$1 == "hot" { print $2 }')
[ -n "$h1" ] && [ -n "$h2" ] && [ "$h2" -lt "$h1" ] &&
	ok "an invariant's example reproduces: $h1 then $h2 with one more access" ||
	fail "invariant example" "'$args': $h1 then $h2"

expect_json "$tmp/v.json" "$jq"
[ "$("$jq" "$tmp/v.json" ok agelog.equal pairs invariants quick | paste -sd' ')" = \
  "true true array 21 array 35 true" ] && ok "JSON: verdict, 21 pairs, 35 invariants" ||
	fail "JSON" "$("$jq" "$tmp/v.json" ok agelog.equal pairs invariants quick)"
# a pair's example carries a command for each profile
i=$(for k in $(seq 0 20); do
	[ "$("$jq" "$tmp/v.json" pairs.$k.a pairs.$k.b)" = "$(printf 'v6.6\nhotfix')" ] &&
		echo "$k" && break; done)
[ "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands | cut -d' ' -f2)" = 2 ] &&
	[ "$(status_of "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands.1)")" = ok ] &&
	ok "JSON: a command per profile" ||
	fail "JSON commands" "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands)"

# the prepared scorer: every profile, both domains, nothing differs
n=$(grep -cE '^  [a-z0-9.-]+ +0 of [1-9][0-9]* grid \+ 100000 random inputs; [1-9][0-9]* \+ 98 schemes prepared$' "$tmp/out")
[ "$n" = 7 ] && ok "prepared scorer = profile, 7 profiles" ||
	fail "prepared scorer" "$n of 7 lines: $(grep -A8 '^prepared' "$tmp/out")"
[ "$("$jq" "$tmp/v.json" fast fast.6.profile fast.6.mismatches fast.6.random fast.6.schemes.random | paste -sd' ')" = \
  "array 7 mm-new 0 100000 98" ] && ok "JSON: the prepared scorer per profile" ||
	fail "JSON fast" "$("$jq" "$tmp/v.json" fast fast.6.profile fast.6.mismatches fast.6.random fast.6.schemes.random)"

# --profiles picks; one profile: invariants only, still exit 0
"$hs" verify --quick --profiles hotfix,raw+safe+fls-generic+clamp --threads 1 \
	>"$tmp/two" 2>&1 &&
	grep -q '^  hotfix = raw+safe+fls-generic+clamp: agree on all' "$tmp/two" &&
	ok "--profiles takes component specs" ||
	fail "--profiles" "$(head -c 300 "$tmp/two")"
"$hs" verify --quick --profiles v6.6 >"$tmp/one" 2>&1 &&
	grep -q '^  v6.6 *hot in \[0, 99\]' "$tmp/one" && ok "a single profile" ||
	fail "single profile" "$(head -c 300 "$tmp/one")"

report_counts
