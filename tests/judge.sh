#!/usr/bin/env bash
# hotscore judge: an equal rewrite (exit 0), a wrong candidate (exit 1,
# its first difference a command that reproduces it) and a broken file
# (exit 2, one line); every line of the block within 72 columns; each
# "Reproduce" command gives its step's verdict again; --record adds rank.
# The wrong candidate is the equal one's negative control and the other
# way round: each block must say the other's opposite.
# Usage: tests/judge.sh PATH/TO/hotscore
set -u
hs=${1:?usage: judge.sh HOTSCORE}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
ex=$(cd "$here/../examples/candidates" && pwd)
rec=$here/data/rank/damo-written.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
export HOTSCORE_CACHE=$tmp/cache
mkdir -p "$tmp/scratch"
export TMPDIR=$tmp/scratch	# where judge keeps its steps' reports
cd "$tmp" || exit 1
cp "$ex"/hotfix-rewritten.c "$ex"/wrong-signed-division.c .


# --- an equal rewrite: exit 0, equal, timed, decisions identical
"$hs" judge --quick hotfix-rewritten.c --record "$rec" >eq.txt 2>eq.err
rc=$?
[ $rc = 0 ] && grep -q '^Equal:   yes, on all [0-9]* inputs' eq.txt &&
	grep -q '^Verdict: equal to hotfix on ' eq.txt &&
	ok "an equal rewrite: exit 0, $(grep -m1 '^Equal:' eq.txt)" ||
	fail "equal rewrite" "exit $rc: $(cat eq.txt eq.err | head -c 600)"
n=$(grep -Ec '^         (seed|uniform|captured) +[0-9.]+ \[[0-9.]+ - [0-9.]+\] ' eq.txt)
[ "$n" = 3 ] && ok "bench: the seed's, uniform and captured inputs each get a ratio" ||
	fail "bench rows" "$n of 3: $(cat eq.txt)"
[ "$(grep -c 'scores differ on 0 of [1-9][0-9]* calls; decisions identical' eq.txt)" = 2 ] &&
	ok "sim: stairs and zigzag, no score differs" || fail "sim rows" "$(cat eq.txt)"
grep -q '^         record   they pick alike' eq.txt &&
	ok "--record: rank's summary ($(grep -m1 'record' eq.txt | sed 's/^ *//'))" ||
	fail "--record" "$(cat eq.txt)"
# a line may pass 72 columns only for a path it cannot break (the
# captured inputs' file, where this checkout is deep); the control is a
# line of 73 columns without one
# a line wide only for a path no layout can break (a deep checkout's) is
# not too wide
wide() {
	awk 'length($0) > 72 { for (i = 1; i <= NF; i++)
		if (index($i, "/") && length($i) > 40) next; print }' "$@"
}
printf '%073d\n' 0 >wide.ctl
[ -z "$(wide eq.txt)" ] && [ -n "$(wide wide.ctl)" ] &&
	ok "the block fits a commit message: $(width eq.txt) columns, a path aside" ||
	fail "width" "$(wide eq.txt)"

# --- a wrong candidate: exit 1, and its first difference reproduces
"$hs" judge --quick wrong-signed-division.c >ne.txt 2>ne.err
rc=$?
[ $rc = 1 ] && grep -q '^Equal:   NO, differs on [1-9][0-9]* of ' ne.txt &&
	grep -q '^Verdict: DIFFERENT from hotfix' ne.txt &&
	ok "a wrong candidate: exit 1, $(grep -m1 '^Equal:' ne.txt)" ||
	fail "wrong candidate" "exit $rc: $(cat ne.txt ne.err | head -c 600)"
# the first difference: a continued command; run it, its columns differ
cmd=$(awk '/first: / { on = 1; sub(/.*first: /, "") }
	on { more = sub(/ *\\$/, ""); sub(/^ +/, ""); printf "%s ", $0; if (!more) exit }' ne.txt)
read -r -a words <<<"$cmd"
out=$("$hs" "${words[@]:1}" 2>&1)
set -- $(grep -E '^hot ' <<<"$out" | tr -d '*')
[ "${words[0]}" = "$hs" ] && [ $# = 3 ] && [ "$2" != "$3" ] &&
	ok "the first difference, as printed, scores hot $2 against $3" ||
	fail "reproducer" "'$cmd': $out"
grep -q 'differ on 0 of' ne.txt && grep -q 'DIFFERENT' eq.txt &&
	fail "controls" "each block says what the other's should" ||
	ok "the two blocks disagree where they should (the controls)"
[ -z "$(wide ne.txt)" ] && ok "its block: $(width ne.txt) columns, a path aside" ||
	fail "width, wrong" "$(wide ne.txt)"

# --- Reproduce: the verify line, run as printed, exits as judge did
cmd=$(awk '/^Reproduce:/ { on = 1; next } on { sub(/^ +/, ""); l = l $0 }
	on && !/\\$/ { print l; exit } { sub(/\\$/, "", l) }' ne.txt | sed 's/ *\\ */ /g')
read -r -a words <<<"$cmd"
"$hs" "${words[@]:1}" >/dev/null 2>&1
rc=$?
[ "${words[1]}" = verify ] && [ $rc = 1 ] &&
	ok "Reproduce: '${words[*]:1:3} ...' exits 1 again" || fail "reproduce" "'$cmd': exit $rc"

# --- a broken file: one line, exit 2, naming the step
printf 'int not_the_function(void) { return 0; }\n' >broken.c
expect_bad "a file without damon_hot_score()" "" judge --quick broken.c
grep -q '^hotscore judge: verify: ' "$tmp/err" && ok "the refusal names the step" ||
	fail "refusal" "$(cat "$tmp/err")"
expect_bad "no candidate" "" judge --quick
expect_bad "no such file" "" judge --quick nosuch.c
left=$(ls -A "$tmp/scratch")
[ -z "$left" ] && ok "no scratch file is left behind, after success, a finding or a refusal" ||
	fail "scratch" "left behind: $left"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
