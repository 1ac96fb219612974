#!/usr/bin/env bash
# hotscore replay: the DAMOS traces of real 6.12 kdamonds (scripts/guest/
# damos.sh, under kernel-check --damos; tests/data/replay/) replayed with
# every application matched, the quota state equal at each and the regions
# after every walk equal; the controls that must miss (the wrong HZ, the
# wrong DAMON_MIN_REGION, two weights swapped, one application a page
# shorter in the trace, the split that shows a late window joined); bad
# input refused in one line, exit 2.
# Usage: tests/replay.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: replay.sh HOTSCORE JSONQ}
jq=${2:?usage: replay.sh HOTSCORE JSONQ}
jq=$(cd "$(dirname "$jq")" && pwd)/$(basename "$jq")
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data/replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
cd "$tmp" || exit 1

gunzip -c "$data/damos-6.12.txt.gz" >trace.txt
mapfile -t args <"$data/damos-6.12.args"

# --- the kernel's run, replayed: every application, every walk
"$hs" replay trace.txt "${args[@]}" --json r.json >r.txt 2>&1
rc=$?
n=$("$jq" r.json applications)
m=$("$jq" r.json matched)
[ $rc -eq 0 ] && [ "$n" -ge 200 ] && [ "$m" = "$n" ] &&
	[ "$("$jq" r.json schemes)" -ge 2 ] &&
	[ "$("$jq" r.json quota_equal)" = "$("$jq" r.json quota)" ] &&
	[ "$("$jq" r.json aggregations_equal)" = "$("$jq" r.json aggregations)" ] &&
	grep -q "^damos exact: $n of $n applications matched (2 schemes, [0-9]* windows)$" r.txt &&
	ok "$(grep '^damos exact' r.txt)" ||
	fail "exact" "exit $rc: $(head -12 r.txt)"
[ "$("$jq" r.json misses)" = 0 ] && [ "$("$jq" r.json kept_misses)" = "array 0" ] &&
	ok "JSON: $n applications, $("$jq" r.json windows) windows, no miss" ||
	fail "json" "$(head -c 300 r.json)"

# exact NAME GZ BASE [PATTERN]: the trace GZ replayed with every application
# (at least 500) matched and every walk's regions equal, its report
# (BASE.txt) holding PATTERN too
exact() {
	local name=$1 f=$3 pat=${4:-} rc n
	gunzip -c "$data/$2" >"$f-trace.txt"
	"$hs" replay "$f-trace.txt" "${args[@]}" --json "$f.json" >"$f.txt" 2>&1
	rc=$?
	n=$("$jq" "$f.json" applications)
	[ $rc -eq 0 ] && [ "$n" -ge 500 ] && [ "$("$jq" "$f.json" matched)" = "$n" ] &&
		[ "$("$jq" "$f.json" aggregations_equal)" = "$("$jq" "$f.json" aggregations)" ] &&
		{ [ -z "$pat" ] || tr -s ' \n' ' ' <"$f.txt" | grep -q -- "$pat"; } &&
		ok "$name: $(grep '^damos exact' "$f.txt"); $(grep -o 'regions after the walk equal in [0-9]* of [0-9]*' "$f.txt")" ||
		fail "exact, $name" "exit $rc: $(grep -m3 'damos exact\|miss' "$f.txt")"
}

# a second run, 90 s: a quota's resume address, left by a scheme not due
# in the next aggregation, lies between two equal regions the kernel kept
# apart (sample 1640); only a scheme due splits there
exact "90 s" damos-6.12-90s.txt.gz r90

# a third, on a loaded host: at sample 2100 the kernel adjusted its quotas
# two jiffies after the check, past scheme 1's window end, and started a
# window in which nothing was applied; only the walk's split at the resume
# address shows it.  The replay without the later adjustment matched 467
# of 691 applications here.
exact "loaded host, 1 adjustment past the check" damos-6.12-loaded.txt.gz rl \
	'; 1 adjustment a jiffy or more past the check,'

# --- controls: each must miss, exit 1, and say where
# with_arg FLAG VALUE: the arguments with FLAG's (first) value replaced
with_arg() {
	local i out=("${args[@]}")
	for i in "${!out[@]}"; do
		[ "${out[$i]}" = "$1" ] && { out[$((i + 1))]=$2; break; }
	done
	printf '%s\n' "${out[@]}"
}
control() {	# NAME FILE ARGS...: the replay of FILE must miss
	local name=$1 file=$2 out
	shift 2
	out=$("$hs" replay "$file" "$@" 2>&1)
	[ $? -eq 1 ] && grep -q '^  miss, ' <<<"$out" &&
		! grep -q "^damos exact: \([0-9]*\) of \1 " <<<"$out" &&
		ok "control, $name: $(grep -m1 '^damos exact' <<<"$out")" ||
		fail "control $name" "$(head -4 <<<"$out")"
}
mapfile -t a <<<"$(with_arg --hz 1000)"
control "HZ 1000 for 250" trace.txt "${a[@]}"
mapfile -t a <<<"$(with_arg --min_region_sz 4KiB)"
control "DAMON_MIN_REGION a page, not 1" trace.txt "${a[@]}"
# scheme 1's weights 0 700 300 as 0 300 700
a=()
for w in "${args[@]}"; do a+=("$w"); done
for i in "${!a[@]}"; do
	[ "${a[$i]}" = 700 ] && [ "${a[$((i + 1))]}" = 300 ] &&
		{ a[$i]=300; a[$((i + 1))]=700; break; }
done
control "scheme 1's weights swapped" trace.txt "${a[@]}"
# the kernel's third application a page shorter in the trace
awk '/damos_before_apply:/ && ++n == 3 {
	match($0, /-[0-9]+:/)
	e = sprintf("%.0f", substr($0, RSTART + 1, RLENGTH - 2) - 4096)
	$0 = substr($0, 1, RSTART) e substr($0, RSTART + RLENGTH - 1) } 1' \
	trace.txt >short.txt
cmp -s trace.txt short.txt && fail "edit" "short.txt is trace.txt"
control "an application a page shorter" short.txt "${args[@]}"
# its control: the split that shows the late window joined again (the
# 18 regions after sample 2100's walk, lines 4299-4316, as 17), so the
# kernel's regions show no window started: the replay must miss later,
# where the kernel's resume address was already forgotten (sample 2160)
sed -n '4311,4312p' rl-trace.txt | grep -c '140737327955999' | grep -qx 2 ||
	fail "control, the late window unseen" "rl-trace.txt's lines 4311-4312 are not the split"
sed -e '4299,4316s/ nr_regions=18 / nr_regions=17 /' \
	-e '4311s/-140737327955999: 0 1$/-140737334081481: 0 1/' -e '4312d' rl-trace.txt >loaded-joined.txt
control "the late window's split joined" loaded-joined.txt "${args[@]}"

# --- rank --damos_trace: the same walk as the kernel's quotas' ranking,
# each of its picks marked with whether the kernel made it
# marks NAME FILE: every pick marked, every kernel application picked
marks() {
	local name=$1 file=$2 out n rc
	shift 2
	out=$("$hs" rank --damos_trace "$file" "$@" --csv "$name.csv" --json "$name.json" 2>&1)
	rc=$?
	n=$(grep -c damos_before_apply: "$file")
	[ $rc -eq 0 ] && grep -q "^  kernel picks: $n of $n marked; 0 picks the kernel did not make$" <<<"$out" &&
		[ "$(awk -F, 'NR > 1 && $11 == $12 && $11 > 0' "$name.csv" | wc -l)" = "$n" ] &&
		[ "$(wc -l <"$name.csv")" = $((n + 1)) ] &&
		[ "$("$jq" "$name.json" profiles.0.schemes.1.marked)" -gt 0 ] &&
		ok "rank --damos_trace, $name: $(grep -m1 '^  kernel picks' <<<"$out" | sed 's/^ *//')" ||
		fail "rank marks, $name" "$(tail -4 <<<"$out")"
}
marks kernel trace.txt "${args[@]}"
marks "loaded host" rl-trace.txt "${args[@]}"
# unmarks NAME FILE ARGS...: some pick unmarked, or some kernel pick not made
unmarks() {
	local name=$1 file=$2 out
	shift 2
	out=$("$hs" rank --damos_trace "$file" "$@" 2>&1)
	[ $? -eq 0 ] && grep -q '^  kernel picks: ' <<<"$out" &&
		! grep -q "^  kernel picks: \([0-9]*\) of \1 marked; 0 picks" <<<"$out" &&
		grep -q "^    picked, the kernel did not: \|^    the kernel's, not picked: " <<<"$out" &&
		ok "rank --damos_trace control, $name: $(grep -m1 '^  kernel picks' <<<"$out" | sed 's/^ *//')" ||
		fail "rank control $name" "$(tail -4 <<<"$out")"
}
mapfile -t a <<<"$(with_arg --hz 1000)"
unmarks "HZ 1000 for 250" trace.txt "${a[@]}"
a=("${args[@]/64MiB/16MiB}")
unmarks "size quotas 16 MiB for 64" trace.txt "${a[@]}"
# two profiles: each walked on its own, both reported
a=()
for i in "${!args[@]}"; do
	[ "${args[$i]}" = --profile ] || [ "${args[$((i > 0 ? i - 1 : 0))]}" = --profile ] ||
		a+=("${args[$i]}")
done
out=$("$hs" rank --damos_trace trace.txt "${a[@]}" --profile debian-6.12.117,v5.16 2>&1)
[ "$(grep -c '^  kernel picks: ' <<<"$out")" = 2 ] && grep -q '^profile v5.16: ' <<<"$out" &&
	ok "rank --damos_trace, two profiles: $(grep '^  kernel picks' <<<"$out" | sed 's/^ *//' | paste -sd'|')" ||
	fail "rank two profiles" "$(tail -4 <<<"$out")"

# --- bad input: one line, exit 2
bad() {	# NAME WANT ARGS...: exit 2, one line holding WANT
	local name=$1 want=$2 out
	shift 2
	out=$("$hs" replay "$@" 2>&1)
	[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q -- "$want" <<<"$out" &&
		ok "bad input, $name: $out" || fail "bad $name" "$out"
}
bad "no such file" "nosuch.txt" nosuch.txt
sed -n '/sis=1 /,$p' trace.txt | sed '1,/sis=2 /d' >late.txt
bad "a trace started late" "start tracing before the kdamond" late.txt "${args[@]}"
grep -v 'hs_tick: .* sis=7 j=' trace.txt >gap.txt
bad "a sample missing" "a sample is missing" gap.txt "${args[@]}"
printf '# tracer: nop\n' >empty.txt
bad "no event" "no hs_tick event" empty.txt
head -c 5000 trace.txt | head -n -1 >cut.txt
echo ' kdamond.0-1 [000] ..... 1.0: damon_aggregated: target_id=0 nr_regions=3 0-4096: 0 0' >>cut.txt
bad "cut inside an aggregation" "ends inside an aggregation" cut.txt "${args[@]}"
bad "--sample above --aggr" "is above --aggr" trace.txt --sample 200ms
cp trace.txt keep.txt
bad "--json over its input" "trace.txt" trace.txt "${args[@]}" --json trace.txt
cmp -s trace.txt keep.txt && ok "the input is left as it was" || fail "input" "trace.txt changed"
rbad() {	# NAME WANT ARGS...: rank, exit 2, one line holding WANT
	local name=$1 want=$2 out
	shift 2
	out=$("$hs" rank "$@" 2>&1)
	[ $? -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q -- "$want" <<<"$out" &&
		ok "rank, bad input, $name: $out" || fail "rank bad $name" "$out"
}
rbad "a record and a trace" "no record with it" keep.txt --damos_trace trace.txt "${args[@]}"
rbad "--hz without a trace" "for --damos_trace" keep.txt --hz 1000
rbad "fewer schemes than the kernel's" "scheme 1 applied, but 1 scheme given" --damos_trace trace.txt \
	--min_region_sz 1 --damos_action pageout --damos_quotas 0 64MiB 1s 0 0 1000
rbad "--snapshot with a trace" "every window is walked" --damos_trace trace.txt --snapshot 3
rbad "--csv over its trace" "trace.txt" --damos_trace trace.txt "${args[@]}" --csv trace.txt
cmp -s trace.txt keep.txt && ok "rank left its trace as it was" || fail "rank input" "trace.txt changed"

report_counts
