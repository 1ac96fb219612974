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

# The built-in profiles, in HS_PROFILE_LIST's order: a new profile is one
# line there, and these tests follow it (score --list-profiles prints them).
profiles=$("$hs" score --list-profiles | awk 'NR > 1 && !NF { exit }
	NR > 1 && /^[^ ]/ { print $1 }')
nr_profiles=$(printf '%s\n' $profiles | wc -l)
last=$(printf '%s\n' $profiles | tail -n 1)
[ "$nr_profiles" -ge 7 ] && ok "$nr_profiles profiles listed" ||
	fail "profiles" "score --list-profiles gives: $profiles"

expect_bad "unknown profile" "" verify --quick --profile v6.6,v9
expect_bad "profile twice" "" verify --quick --profile v6.6,v6.6
expect_bad "empty profile list" "" verify --quick --profile ,
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
	script -qc "'$hs' verify --quick --profile v6.6" /dev/null >"$tmp/tty" 2>&1
	grep -aq 'verify \[' "$tmp/tty" && grep -aq 'ETA' "$tmp/tty" &&
		ok "progress bar on a terminal" || fail "progress" "none on a TTY"
else
	echo "SKIP progress on a terminal: no script(1)"
fi
grep -q '^  loop = fls = ilog2 on all [0-9]* values of age_in_sec' "$tmp/out" &&
	ok "loop = fls = ilog2" || fail "age_in_log" "no proof line"
for class in "v6.6 = rfc-fls = v2-ilog2" "hotfix = debian-6.1.192"; do
	grep -q "^  $class: agree on all [0-9]* inputs (claimed equal: ok)$" \
		"$tmp/out" && ok "$class" || fail "$class" "not reported equal"
done

# commands_after FILE PREFIX [N]: the N (default 2) commands printed after
# the first line that starts with PREFIX, each on one line: "e.g." and the
# "# result" comments dropped, backslash continuations joined
commands_after() {
	awk -v pfx="$2" -v want="${3:-2}" '
		!on && index($0, pfx) == 1 { on = 1; next }
		on {
			line = $0
			sub(/^ *(e\.g\. )?/, "", line)
			if (line ~ /^#/)
				next
			sub(/  # .*$/, "", line)
			more = sub(/ \\$/, "", line)
			cmd = cmd (cmd == "" ? "" : " ") line
			if (more)
				next
			print cmd
			cmd = ""
			if (++n == want)
				exit
		}' "$1"
}

# run a printed "$hs score ..." command (the program as invoked, argv[0]),
# print its status; one that names another program prints nothing
status_of() {
	[ -n "$1" ] && [ "${1#"$hs" score }" != "$1" ] || return
	# shellcheck disable=SC2086
	"$hs" ${1#"$hs" } | awk '$1 == "status" { print $2 }'
}

# the map: where v6.6 overruns or divides by zero and hotfix does not,
# with both printed commands pasted back into hotscore score
for cls in "v6.6 out-of-range, hotfix ok" \
	   "v6.6 div0(sample_interval), hotfix ok" \
	   "v6.6 div0(max_nr_accesses), hotfix ok"; do
	cmds=$(commands_after "$tmp/out" "    $cls: ")
	want_a=${cls#v6.6 }
	want_a=${want_a%%,*}
	got_a=$(status_of "$(head -1 <<<"$cmds")")
	got_b=$(status_of "$(sed -n 2p <<<"$cmds")")
	if [ -n "$cmds" ] && [ "$got_a" = "$want_a" ] && [ "$got_b" = ok ]; then
		ok "$cls: both printed commands reproduce it"
	else
		fail "$cls" "'$cmds' gives '$got_a' and '$got_b'"
	fi
done
# an example too long for a line is wrapped, and still pastes
cls="v5.16 div0(max_nr_accesses), v6.6 out-of-range"
cmds=$(commands_after "$tmp/out" "    $cls: ")
got_a=$(status_of "$(head -1 <<<"$cmds")")
got_b=$(status_of "$(sed -n 2p <<<"$cmds")")
grep -A1 "^    $cls: " "$tmp/out" | grep -q ' \\$' &&
	[ "$got_a" = "div0(max_nr_accesses)" ] && [ "$got_b" = out-of-range ] &&
	ok "a wrapped example reproduces: $got_a and $got_b" ||
	fail "wrapped example" "'$cmds' gives '$got_a' and '$got_b'"
sed -n '/^  hotfix = debian-6.1.192$/,$p' "$tmp/out" >"$tmp/hotfix"
cmd=$(commands_after "$tmp/hotfix" '    more accesses never colder ' 1)
args=${cmd#"$hs" score --profile hotfix }
# shellcheck disable=SC2086
h1=$("$hs" score --profile hotfix $args | awk '$1 == "hot" { print $2 }')
n=$(sed -n 's/.*--nr_accesses \([0-9]*\).*/\1/p' <<<"$args")
# shellcheck disable=SC2086
h2=$("$hs" score --profile hotfix $args --nr_accesses $((n + 1)) |
	awk '$1 == "hot" { print $2 }')
[ -n "$n" ] && [ -n "$h1" ] && [ -n "$h2" ] && [ "$h2" -lt "$h1" ] &&
	ok "an invariant's example reproduces: $h1 then $h2 with one more access" ||
	fail "invariant example" "'$args': $h1 then $h2"

expect_json "$tmp/v.json" "$jq"
# every pair of profiles, and the five invariants of each profile
pairs=$((nr_profiles * (nr_profiles - 1) / 2)) invs=$((5 * nr_profiles))
[ "$("$jq" "$tmp/v.json" ok agelog.equal pairs invariants quick | paste -sd' ')" = \
  "true true array $pairs array $invs true" ] &&
	ok "JSON: verdict, $pairs pairs, $invs invariants" ||
	fail "JSON" "$("$jq" "$tmp/v.json" ok agelog.equal pairs invariants quick)"
# a pair's example carries a command for each profile
i=$(for k in $(seq 0 20); do
	[ "$("$jq" "$tmp/v.json" pairs.$k.a pairs.$k.b)" = "$(printf 'v6.6\nhotfix')" ] &&
		echo "$k" && break; done)
[ "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands | cut -d' ' -f2)" = 2 ] &&
	[ "$(status_of "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands.1)")" = ok ] &&
	ok "JSON: a command per profile" ||
	fail "JSON commands" "$("$jq" "$tmp/v.json" pairs.$i.classes.0.commands)"

# the prepared scorer: every profile, both domains, nothing differs; a
# row per class of equal profiles with the same counts
n=$(awk '/^  [^ ].* +0 of [1-9][0-9]* grid \+ 100000 random inputs; [1-9][0-9]* \+ 98 schemes prepared$/ {
		sub(/  +0 of .*/, ""); n += split($0, names, " = ") } END { print n + 0 }' "$tmp/out")
[ "$n" = "$nr_profiles" ] && ok "prepared scorer = profile, $n profiles" ||
	fail "prepared scorer" "$n of $nr_profiles profiles: $(grep -A8 '^prepared' "$tmp/out")"
k=$((nr_profiles - 1))
[ "$("$jq" "$tmp/v.json" fast fast.$k.profile fast.$k.mismatches fast.$k.random fast.$k.schemes.random | paste -sd' ')" = \
  "array $nr_profiles $last 0 100000 98" ] && ok "JSON: the prepared scorer per profile" ||
	fail "JSON fast" "$("$jq" "$tmp/v.json" fast fast.$k.profile fast.$k.mismatches fast.$k.random fast.$k.schemes.random)"
# the batch scorers: the scalar one at least, on every grid input, none differs
grep -qE '^  in batches by scalar(, avx2| and avx2)?( and avx512)?, on every grid input: none differs$' "$tmp/out" &&
	[ "$("$jq" "$tmp/v.json" fast.6.batches.grid.scalar fast.6.batches.mismatches.scalar | paste -sd' ')" = \
	  "$("$jq" "$tmp/v.json" fast.6.grid) 0" ] && ok "batch scorers = profile on the grid" ||
	fail "batch scorers" "$(grep '^  in batches' "$tmp/out"); $("$jq" "$tmp/v.json" fast.6.batches)"

# --profile picks; one profile: invariants only, still exit 0
"$hs" verify --quick --profile hotfix,raw+safe+fls-generic+clamp --threads 1 \
	>"$tmp/two" 2>&1 &&
	grep -q '^  hotfix = raw+safe+fls-generic+clamp: agree on all' "$tmp/two" &&
	ok "--profile takes component specs" ||
	fail "--profile" "$(head -c 300 "$tmp/two")"
"$hs" verify --quick --profile v6.6 >"$tmp/one" 2>&1 &&
	grep -A1 '^  v6.6$' "$tmp/one" | grep -q '^    hot in \[0, 99\]  *[0-9]* of [0-9]* inputs$' &&
	grep -q '^  A  v6.6  *-  *-  ' "$tmp/one" && ok "a single profile" ||
	fail "single profile" "$(head -c 300 "$tmp/one")"

# the summary: right after the domains, before every other section, one
# row per profile in order, lettered; continuation lines start blank
awk 'NR > 4 && NF { print; exit }' "$tmp/out" | grep -q '^summary, one row per profile' &&
	[ "$(grep -n '^summary' "$tmp/out" | cut -d: -f1)" -lt \
	  "$(grep -n '^age_in_log' "$tmp/out" | cut -d: -f1)" ] &&
	ok "the summary comes first" ||
	fail "summary first" "$(sed -n 1,8p "$tmp/out")"
# summary_rows FILE: "LETTER NAME" for each row of the summary table
summary_rows() {
	awk '/^summary/ { on = 1; next } on && !NF { exit }
	     on && /^  [A-P]  [^ ]/ { print $1, $2 }' "$1"
}
want=$(printf '%s\n' $profiles | awk '{ printf "%c %s\n", 64 + NR, $1 }')
[ "$(summary_rows "$tmp/out")" = "$want" ] &&
	ok "summary: one row per profile, in order" ||
	fail "summary rows" "$(summary_rows "$tmp/out" | paste -sd,)"
grep -qE '^  B  v6\.6 +C D +A: [0-9]+, E F: [0-9]+,' "$tmp/out" &&
	grep -qE '^  E  hotfix +F +A: [0-9]+, B C D: [0-9]+,' "$tmp/out" &&
	ok "summary: equal to and differs from, by letter" ||
	fail "summary cells" "$(grep -E '^  [BE]  ' "$tmp/out")"
# the counts it prints are the JSON's
d=$(grep -oE '^  B  v6\.6 +C D +A: [0-9]+, E F: [0-9]+' "$tmp/out" | sed 's/.* //')
i=$(for k in $(seq 0 20); do
	[ "$("$jq" "$tmp/v.json" pairs.$k.a pairs.$k.b)" = "$(printf 'v6.6\nhotfix')" ] &&
		echo "$k" && break; done)
[ -n "$d" ] && [ "$d" = "$(( $("$jq" "$tmp/v.json" pairs.$i.inputs) - \
			     $("$jq" "$tmp/v.json" pairs.$i.agree) ))" ] &&
	ok "summary: v6.6 differs from hotfix on the JSON's count, $d inputs" ||
	fail "summary count" "'$d'"

# pair blocks: each "A vs B" block once.  Two blocks with the same numbers
# once the profile names are dropped would be a repeat, as rfc-fls vs
# hotfix once repeated v6.6 vs hotfix.
pair_blocks() {
	awk '/^profile pairs/ { on = 1; next } on && !NF { exit }
	     on && /^  [^ ]/ { if (sig != "") print sig; sig = ""
			      if ($0 !~ / vs /) next }
	     on { line = ""
		  for (i = 1; i <= NF; i++)
			if ($i !~ /^[A-Za-z]/ && $(i - 1) != "--profile")
				line = line " " $i
		  gsub(/[^0-9]+/, " ", line); sig = sig line "|" }
	     END { if (sig != "") print sig }' "$1"
}
n=$(pair_blocks "$tmp/out" | wc -l)
dups=$(pair_blocks "$tmp/out" | sort | uniq -d | wc -l)
g=$("$jq" "$tmp/v.json" groups | sed 's/^array //')
[ "$n" = $((g * (g - 1) / 2)) ] && [ "$dups" = 0 ] &&
	ok "pair blocks: $n (one per pair of $g classes), no two alike" ||
	fail "pair blocks" "$n blocks, $dups repeated"
[ "$(grep -c '^  v6\.6 = rfc-fls = v2-ilog2 vs hotfix = debian-6\.1\.192: differ on [0-9]* of [0-9]* inputs$' "$tmp/out")" = 1 ] &&
	[ "$(grep -c '^    v6\.6 out-of-range, hotfix ok: ' "$tmp/out")" = 1 ] &&
	awk '/^profile pairs/ { on = 1; next } on && !NF { exit } on' "$tmp/out" \
		>"$tmp/pairs" &&
	! grep -qE '(^ +|, | vs )(rfc-fls|v2-ilog2|debian-6\.1\.192) ' "$tmp/pairs" &&
	ok "rfc-fls, v2-ilog2 grouped with v6.6: their block against hotfix printed once" ||
	fail "grouping" "$(grep -E ' vs ' "$tmp/out")"
# invariants: one block per class of equal profiles (JSON's groups)
groups_text() {
	local i j n m line
	n=$("$jq" "$tmp/v.json" groups | sed 's/^array //')
	for ((i = 0; i < n; i++)); do
		m=$("$jq" "$tmp/v.json" groups.$i | sed 's/^array //')
		line=
		for ((j = 0; j < m; j++)); do
			line+="${line:+ = }$("$jq" "$tmp/v.json" groups.$i.$j)"
		done
		echo "  $line"
	done | paste -sd,
}
[ "$(awk '/^invariants/ { on = 1; next } on && !NF { exit }
	  on && /^  [^ ]/ { print }' "$tmp/out" | paste -sd,)" = "$(groups_text)" ] &&
	groups_text | grep -q ',  v6\.6 = rfc-fls = v2-ilog2,  hotfix = debian-6\.1\.192,' &&
	ok "invariants: one block per class" ||
	fail "invariant blocks" "$(grep -A40 '^invariants' "$tmp/out" | grep '^  [^ ]')"

# 100 columns, with the default profiles and with long component specs
too_wide() { awk -v f="$2" 'length > 100 { print f ": " length ": " $0; exit }' "$1"; }
"$hs" verify --quick --profile v6.6,raw+max-nr+fls-builtin+clamp,hotfix \
	>"$tmp/long" 2>&1
long=raw+max-nr+fls-builtin+clamp,mvsum+u32-trunc+ilog2-generic+none
long=$long,raw+u32-trunc+fls-builtin+clamp,mvsum+max-nr+fls-builtin+none
long=$long,raw+safe+ilog2-builtin+none,mvsum+safe+loop+none
long=$long,raw+u32-trunc+ilog2-generic+none,mvsum+u32-trunc+loop+clamp
long=$long,raw+max-nr+ilog2-generic+clamp,mvsum+safe+ilog2-generic+none
long=$long,raw+safe+fls-generic+none,mvsum+max-nr+ilog2-builtin+clamp
# all the profiles and long specs up to 16, verify's most
long=$(echo "$long" | cut -d, -f1-$((16 - nr_profiles)))
"$hs" verify --quick --random 1000 --profile all,$long >"$tmp/sixteen" 2>&1
wide=$(too_wide "$tmp/out" default; too_wide "$tmp/long" long; too_wide "$tmp/sixteen" sixteen)
[ -z "$wide" ] && [ "$(summary_rows "$tmp/long" | wc -l)" = 3 ] &&
	[ "$(summary_rows "$tmp/sixteen" | wc -l)" = 16 ] &&
	grep -q '^  B  raw+max-nr+fls-builtin+clamp  ' "$tmp/long" &&
	ok "every line fits 100 columns: $nr_profiles profiles, long specs, 16 profiles" ||
	fail "100 columns" "${wide:-rows: $(summary_rows "$tmp/long" | paste -sd,)}"

# JSON: a summary row per profile and the classes, as the text has them
q() { "$jq" "$tmp/v.json" "$@" | paste -sd' '; }
[ "$(q summary summary.1.name summary.1.equal_to.0 summary.1.equal_to.1 \
      summary.1.equal_to summary.1.prepared_mismatches)" = \
  "array $nr_profiles v6.6 rfc-fls v2-ilog2 array 2 0" ] &&
	[ "$(q summary.4.name summary.4.equal_to.0 summary.4.differs_from.0.profile \
	      summary.4.differs_from.1.profile summary.4.differs_from.1.inputs)" = \
	  "hotfix debian-6.1.192 v5.16 v6.6 $d" ] &&
	[ "$(q summary.4.invariants_violated summary.4.invariants_violated.0.invariant)" = \
	  "array 3 more accesses never colder" ] &&
	[ "$(q summary.0.equal_to summary.0.differs_from summary.$k.differs_from)" = \
	  "array 0 array $k array $k" ] &&
	ok "JSON: summary, one object per profile" ||
	fail "JSON summary" "$(q summary summary.1.equal_to summary.4.differs_from summary.4.invariants_violated)"
[ "$(q groups.0 groups.1 groups.1.0 groups.1.1 groups.1.2 groups.2.0 \
      groups.2.1)" = \
  "array 1 array 3 v6.6 rfc-fls v2-ilog2 hotfix debian-6.1.192" ] &&
	[ "$(groups_text | tr ',' '\n' | tr -s ' =' '\n' | grep -c .)" = \
	  "$nr_profiles" ] &&
	ok "JSON: groups, the classes of equal profiles" ||
	fail "JSON groups" "$(q groups groups.1 groups.1.0 groups.2.0)"

report_counts
