#!/usr/bin/env bash
# Every option of every subcommand, driven by the option tables themselves
# (gendoc options): both spellings, --name=value, the deprecated spelling,
# units converted, and bad values refused in the common format with exit 2,
# an empty value ('') for every value of every option and as the bare
# argument of every subcommand among them.
# Nothing runs: HOTSCORE_CHECK_ARGS=1 makes a command check its options,
# print them as converted and exit.
# Usage: tests/options.sh PATH/TO/hotscore PATH/TO/gendoc
set -u
hs=${1:?usage: options.sh HOTSCORE GENDOC}
gendoc=${2:?usage: options.sh HOTSCORE GENDOC}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
export HOTSCORE_CHECK_ARGS=1

# check NAME CMD ARGS...: exit 0; its converted options land in $tmp/out
check() {
	local name=$1
	shift
	if "$hs" "$@" >"$tmp/out" 2>"$tmp/err"; then
		return 0
	fi
	fail "$name" "exit $?: $(cat "$tmp/err")"
	return 1
}

# refused NAME CMD PATTERN ARGS...: exit 2, one line "hotscore CMD: ..."
# that matches grep PATTERN
refused() {
	local name=$1 cmd=$2 pattern=$3
	shift 3
	"$hs" "$cmd" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	local rc=$? lines
	lines=$(wc -l <"$tmp/err")
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$tmp/out" ]; then
		fail "$name" "exit $rc, $lines lines: $(cat "$tmp/err" "$tmp/out" | head -c 300)"
	elif ! grep -q "^hotscore $cmd: " "$tmp/err"; then
		fail "$name" "not the common format: $(cat "$tmp/err")"
	elif ! grep -q -- "$pattern" "$tmp/err"; then
		fail "$name" "not '$pattern': $(cat "$tmp/err")"
	else
		passed=$((passed + 1))
	fi
}

# bad NAME CMD OPT ARGS...: refused, the line naming --OPT
bad() { refused "$1" "$2" "--$3\b" "${@:4}"; }

swap() { tr '_-' '-_' <<<"$1"; }

# a bad first value for each type
bad_value() {
	case $1 in
	count) echo 12abc ;;
	time|time-ms) echo 5parsecs ;;
	size) echo lots ;;
	rate) echo 101% ;;
	esac
}

n=0
"$gendoc" options >"$tmp/opts" || fail "gendoc options" "exit $?"
while IFS=$'\t' read -r cmd name old type nval need flags example words with; do
	n=$((n + 1))
	id="$cmd --$name"
	w=()	# the options it goes with
	# shellcheck disable=SC2206
	[ "$with" = - ] || w=($with)
	if [ $((flags & 32)) -ne 0 ]; then	# deprecated form of another
		check "$id (deprecated)" "$cmd" "--$name" && ok "$id: deprecated, still taken"
		continue
	fi
	if [ $((flags & 8)) -ne 0 ]; then	# prints and exits
		unset HOTSCORE_CHECK_ARGS
		out=$("$hs" "$cmd" "--$name" 2>&1) && [ -n "$out" ] &&
			[ "$(awk 'length($0) > 100' <<<"$out" | wc -l)" -eq 0 ] &&
			[ "$("$hs" "$cmd" "--$(swap "$name")" 2>&1)" = "$out" ] &&
			ok "$id: prints within 100 columns, either spelling" ||
			fail "$id" "$(head -c 300 <<<"$out")"
		export HOTSCORE_CHECK_ARGS=1
		continue
	fi
	if [ "$type" = flag ]; then
		check "$id" "$cmd" "${w[@]}" "--$name" && grep -qx "$name" "$tmp/out" &&
			check "$id" "$cmd" "${w[@]}" "--$(swap "$name")" && grep -qx "$name" "$tmp/out" &&
			ok "$id: a flag, either spelling" || fail "$id" "$(cat "$tmp/out")"
		bad "$id=1: a flag takes no value" "$cmd" "$name" "--$name=1"
		continue
	fi
	# shellcheck disable=SC2086
	read -r -a vals <<<"$example"
	check "$id" "$cmd" "${w[@]}" "--$name" "${vals[@]}" || continue
	cp "$tmp/out" "$tmp/want"
	grep -q "^$name " "$tmp/want" || fail "$id" "not printed: $(cat "$tmp/want")"
	check "$id (other spelling)" "$cmd" "${w[@]}" "--$(swap "$name")" "${vals[@]}" &&
		cmp -s "$tmp/out" "$tmp/want" && passed=$((passed + 1)) ||
		fail "$id: --$(swap "$name")" "$(cat "$tmp/out")"
	if [ "$nval" -eq 1 ]; then
		check "$id=" "$cmd" "${w[@]}" "--$name=$example" && cmp -s "$tmp/out" "$tmp/want" &&
			passed=$((passed + 1)) || fail "$id=VALUE" "$(cat "$tmp/out")"
	fi
	if [ "$old" != - ]; then
		check "$id (--$old)" "$cmd" "${w[@]}" "--$old" "${vals[@]}" &&
			cmp -s "$tmp/out" "$tmp/want" && passed=$((passed + 1)) ||
			fail "$id: deprecated --$old" "$(cat "$tmp/out")"
	fi
	bad "$id: no value" "$cmd" "$name" "${w[@]}" "--$name"
	bad "$id: the next option is no value" "$cmd" "$name" "${w[@]}" "--$name" --help
	bad "$id: empty value" "$cmd" "$name" "${w[@]}" "--$name="
	# '' for each value in turn: the option layer's line, whatever the type
	empty="--$name: '': "
	case $type in word|list) empty+="empty value" ;; esac
	for ((k = 0; k < ${#vals[@]}; k++)); do
		e=("${vals[@]}")
		e[k]=
		refused "$id '' (value $((k + 1)))" "$cmd" "$empty" "${w[@]}" "--$name" "${e[@]}"
	done
	if [ -n "$(bad_value "$type")" ]; then
		bad "$id: bad $type" "$cmd" "$name" "${w[@]}" "--$name" "$(bad_value "$type")" "${vals[@]:1}"
	fi
	if [ "$words" != - ] && [[ $words != *@file* ]]; then
		bad "$id: an unknown word" "$cmd" "$name" "${w[@]}" "--$name" no-such-thing "${vals[@]:1}"
	fi
done <"$tmp/opts"
[ "$n" -ge 60 ] && ok "$n options tried" || fail "options" "only $n in the tables"

# Every file an option names is known to the check that no output is an
# input (tests/io.sh): a table's output file is OPT_WRITE (512), a file it
# reads OPT_INPUT (128), as is a list with file:PATH items.
unflagged=$(awk -F'\t' '
	$9 ~ /@file/ && int($7 / 128) % 8 == 0 ||
	$9 ~ /@file/ && int($7) % 2 == 1 && int($7 / 512) % 2 == 0 ||
	$9 ~ /(^| )file:( |$)/ && int($7 / 128) % 2 == 0 { printf " %s --%s", $1, $2 }' "$tmp/opts")
[ -z "$unflagged" ] && ok "every file option is OPT_INPUT or OPT_WRITE, checked against the others" ||
	fail "file options without OPT_INPUT/OPT_WRITE" "$unflagged"

# The names the conventions fix (damo's, the kernel's), pinned here: the
# tables above cannot tell a renamed option from a new one.
missing=
for want in score:profile score:input score:sample score:aggr score:nr_accesses \
	    score:last_nr_accesses score:age score:passed_sis score:next_aggr_sis \
	    score:weight_nr_accesses score:weight_age bench:profile bench:dist \
	    bench:mode bench:seed bench:json bench:csv bench:svg bench:import \
	    bench:format verify:profile verify:seed verify:json verify:quick \
	    sim:workload sim:duration sim:sample sim:aggr sim:updr sim:minr sim:maxr \
	    sim:ops sim:damos_action sim:damos_access_rate sim:damos_sz_region \
	    sim:damos_age sim:damos_quotas sim:damos_apply_interval sim:profile \
	    sim:scorer sim:seed sim:json sim:record sim:heatmap sim:record_format \
	    sim:actions rank:input rank:profile rank:ops rank:snapshot rank:time \
	    rank:damos_action rank:damos_access_rate rank:damos_sz_region \
	    rank:damos_age rank:damos_quotas rank:damos_apply_interval rank:csv \
	    rank:json; do
	grep -q "^${want%%:*}	${want#*:}	" "$tmp/opts" || missing="$missing $want"
done
[ -z "$missing" ] && ok "every name the conventions fix is there, spelled as they spell it" ||
	fail "names" "missing:$missing"

# --- a bare argument: the one operand of a command that has one --------
check "rank RECORD" rank r.rec --profile v6.6 && cp "$tmp/out" "$tmp/want" &&
	check "rank --input RECORD" rank --input r.rec --profile v6.6 &&
	cmp -s "$tmp/out" "$tmp/want" && grep -qx 'input r.rec' "$tmp/want" &&
	ok "rank RECORD is rank --input RECORD" || fail "operand" "$(cat "$tmp/want")"
# '' as the bare argument: refused as an empty value by a command that
# takes one (CMD x is accepted), as unexpected by the others
for cmd in $(cut -f1 "$tmp/opts" | uniq); do
	if "$hs" "$cmd" x >/dev/null 2>&1; then
		refused "$cmd '': an empty operand" "$cmd" "^hotscore $cmd: [A-Z|]*: '': empty value" ''
	else
		refused "$cmd '': an unexpected argument" "$cmd" "unexpected argument ''" ''
	fi
done
for args in "rank a.rec b.rec" "sim stray"; do
	# shellcheck disable=SC2086
	"$hs" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "unexpected argument '[a-z.]*'" "$tmp/err" &&
		ok "$args: $(cat "$tmp/err")" || fail "$args" "exit $rc: $(cat "$tmp/err")"
done

# --- units: converted the same way in every subcommand -----------------
unit() {	# NAME CMD OPTION VALUE WANT
	check "$1" "$2" "$3" "$4" && grep -qx "${3#--} $5" "$tmp/out" &&
		ok "$1: $4 is $5" || fail "$1" "$(cat "$tmp/out")"
}
unit "bare time is us" score --sample 5000 5000
unit "ms" score --aggr 100ms 100000
unit "decimal seconds" sim --duration 1.5s 1500000
unit "minutes" sim --updr 2m 120000000
unit "hours" sim --duration 1h 3600000000
unit "ns, whole us" score --sample 2000ns 2
unit "the kernel's spelling" score --nr_accesses 0x15 21
check "the other spelling" score --nr-accesses 21 && grep -qx "nr_accesses 21" "$tmp/out" &&
	ok "--nr-accesses is --nr_accesses" || fail "spelling" "$(cat "$tmp/out")"
check "quotas" sim --damos_quotas 10ms 8MiB 1s 0 3 7 &&
	grep -qx "damos_quotas 10 8388608 1000 0 3 7" "$tmp/out" &&
	ok "--damos_quotas 10ms 8MiB 1s: ms, bytes, ms" || fail "quotas" "$(cat "$tmp/out")"
check "quotas, damo's bare ms" sim --damos_quotas 10 8M 1000 &&
	grep -qx "damos_quotas 10 8388608 1000" "$tmp/out" &&
	ok "--damos_quotas 10 8M 1000: bare numbers are ms, as damo's" ||
	fail "bare quotas" "$(cat "$tmp/out")"
check "sizes" sim --damos_sz_region 4KiB 1.5GB &&
	grep -qx "damos_sz_region 4096 1500000000" "$tmp/out" &&
	ok "KiB and GB" || fail "sizes" "$(cat "$tmp/out")"
check "rates" sim --damos_access_rate 0 12.5% &&
	grep -qx "damos_access_rate 0 1250" "$tmp/out" &&
	ok "percent, % optional" || fail "rates" "$(cat "$tmp/out")"
check "min and max" sim --damos_age min max && grep -qx "damos_age 0 max" "$tmp/out" &&
	ok "min and max" || fail "min max" "$(cat "$tmp/out")"
bad "sub-microsecond" sim sample --sample 1500ns
bad "a fraction of a byte" sim damos_sz_region --damos_sz_region 0.5 max
bad "too many decimals" score sample --sample 1.0000000001s
bad "above a u32" score age --age 4294967296
bad "above a u64" score aggr --aggr 18446744073709551616
bad "negative" score nr_accesses --nr_accesses -1
bad "a unit on a count" score age --age 5ms

# --- the same defaults in every subcommand ---------------------------
unset HOTSCORE_CHECK_ARGS
default_profile=$("$hs" score | sed -n 's/^profile  *//p')
sim_profile=$("$hs" sim --duration 1s --no-timing | sed -n 's/^hotscore sim: .* on vaddr, \([^;]*\);.*/\1/p')
[ "$default_profile" = hotfix ] && [ "$sim_profile" = hotfix ] &&
	"$hs" score --help | tr -s ' \n' ' ' | grep -q -- '--profile LIST [^-]*(default: hotfix)' &&
	"$hs" sim --help | tr -s ' \n' ' ' | grep -q -- '--profile P\[,P2\] [^-]*(default: hotfix)' &&
	ok "one default profile, hotfix, stated in --help" ||
	fail "default profile" "score $default_profile, sim $sim_profile"
bad=
for c in bench verify sim; do
	"$hs" "$c" --help | tr -s ' \n' ' ' | grep -q -- '--seed N [^-]*(default: 1)' ||
		bad="$bad $c"
done
[ -z "$bad" ] && ok "one default seed, 1, stated in bench's, verify's and sim's --help" ||
	fail "default seed" "not in the help of$bad"
bad=
for c in score verify bench sim rank; do
	"$hs" "$c" --help | tr -s ' \n' ' ' | grep -q -- '--call_limit T [^-]*(default: 1s)' ||
		bad="$bad $c"
done
[ -z "$bad" ] && ok "one --call_limit, default 1s, in the help of every command that calls a candidate" ||
	fail "default call_limit" "not in the help of$bad"

report_counts
