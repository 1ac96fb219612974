#!/usr/bin/env bash
# hotscore workload: a masim config performed in real memory.  A small
# config (two regions, two 300 ms phases) runs for real: its counts follow
# the phases and the probabilities, it takes the time the phases say, --wait
# holds it until SIGUSR1, SIGINT stops it with 130 and no --json; bad input
# is one line and exit 2; stairs runs; the static binary runs it too.
# Usage: tests/workload.sh PATH/TO/hotscore PATH/TO/jsonq [PATH/TO/static]
set -u
set -m	# job control: a background command does not start with SIGINT ignored
hs=${1:?usage: workload.sh HOTSCORE JSONQ [STATIC]}
jq=${2:?usage: workload.sh HOTSCORE JSONQ [STATIC]}
static=${3:-}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
q() { "$jq" "$@"; }	# one value of a JSON file by its path

# a: 4 MB, b: 2 MB.  "one": a and b sequential, 1:3.  "two": a random and
# read-only, b named with probability 0.
cat >"$tmp/t.cfg" <<'EOF'
# tests/workload.sh
a, 4000000
b, 2000000

one
300
a, 0, 4096, 1
b, 0, 4096, 3, rw

two
300
a, 1, 4096, 1, ro
b, 0, 4096, 0
EOF

# --- one run of the small config -----------------------------------------
t0=$(now_ms)
"$hs" workload "$tmp/t.cfg" --json "$tmp/t.json" >"$tmp/out" 2>"$tmp/err"
rc=$? wall=$(($(now_ms) - t0))
[ $rc -eq 0 ] && ok "two regions, two phases: exit 0" ||
	fail "run" "exit $rc: $(cat "$tmp/err")"
expect_json "$tmp/t.json" "$jq"
rate=$(sed -n 's/^achieved \([0-9]*\) accesses per ms: hotscore sim --workload .* --rate \([0-9]*\)$/\1 \2/p' "$tmp/out")
set -- $rate
if [ $# -eq 2 ] && [ "$1" -gt 0 ] && [ "$1" = "$2" ] &&
   [ "$1" = "$(q "$tmp/t.json" rate_per_ms)" ]; then
	ok "achieved $1 accesses per ms, the --rate it names, the JSON's"
else
	fail "rate line" "$(tail -n 2 "$tmp/out")"
fi
# the sim command it prints is one sim takes
cmd=$(q "$tmp/t.json" sim_command)
HOTSCORE_CHECK_ARGS=1 "$hs" ${cmd#hotscore } >/dev/null 2>&1 &&
	ok "sim takes the command it prints: $cmd" || fail "sim command" "$cmd"

read -r one two total a b one_a one_b two_a two_b line_b <<<"$(q "$tmp/t.json" \
	phases.0.accesses phases.1.accesses accesses regions.0.accesses \
	regions.1.accesses phases.0.regions.a phases.0.regions.b \
	phases.1.regions.a phases.1.regions.b phases.1.lines.1.accesses | tr '\n' ' ')"
[ "$((one + two))" -eq "$total" ] && [ "$((a + b))" -eq "$total" ] &&
	[ "$((one_a + one_b))" -eq "$one" ] && [ "$((two_a + two_b))" -eq "$two" ] &&
	ok "the counts add up: phases, regions and lines to $total" ||
	fail "sums" "$one + $two, $a + $b, $one_a + $one_b, $two_a + $two_b vs $total"
[ "$two_b" -eq 0 ] && [ "$line_b" -eq 0 ] && [ "$two_a" -gt 0 ] &&
	[ "$(q "$tmp/t.json" phases.1.lines.0.mode)" = ro ] &&
	ok "phase two: b (probability 0) got no access, a got $two_a (ro)" ||
	fail "probability 0" "b $two_b (line $line_b), a $two_a"
# Each batch of 4096 goes to b with probability 3/4, independently; over N
# batches b's share has the standard deviation sqrt(3/16 / N).  Five of
# them is a false alarm once in 1.7 million runs; with the thousands of
# batches a run makes, a wrong ratio (1:2 or 1:4) is some 20 of them away.
awk -v a="$one_a" -v b="$one_b" 'BEGIN {
	n = (a + b) / 4096; f = b / (a + b); sd = sqrt(3 / 16 / n)
	printf "%d %.4f %.4f\n", n, f, sd
	exit !(n >= 100 && f > 0.75 - 5 * sd && f < 0.75 + 5 * sd) }' >"$tmp/ratio" &&
	ok "phase one: a:b = 1:$(awk -v a="$one_a" -v b="$one_b" 'BEGIN { printf "%.3f", b / a }') (1:3 asked; b's share within 5 sd over $(cut -d' ' -f1 "$tmp/ratio") batches)" ||
	fail "1:3" "a $one_a b $one_b: batches, share, sd $(cat "$tmp/ratio")"
# The phases run on a schedule fixed at the start: each ends at most a
# batch (microseconds) late, plus whatever the scheduler costs; 50 ms is
# room for a loaded machine.  A phase's own time starts when it begins,
# a few us after the schedule's, hence 290 ms.
read -r el p0 p1 <<<"$(q "$tmp/t.json" elapsed_ns phases.0.ns phases.1.ns | tr '\n' ' ')"
[ "$el" -ge 600000000 ] && [ "$el" -lt 650000000 ] &&
	[ "$p0" -gt 290000000 ] && [ "$p0" -lt 350000000 ] &&
	[ "$p1" -gt 250000000 ] && [ "$p1" -lt 350000000 ] && [ "$wall" -ge 600 ] &&
	ok "it takes the configured 600 ms: $((el / 1000000)) ms ($((p0 / 1000000)) + $((p1 / 1000000))), $wall ms in all" ||
	fail "time" "elapsed $el ns, phases $p0 $p1, wall $wall ms"

# --- --duration repeats the phases; an idle phase sleeps ----------------
# (it starts when the busy phase before it ends: a late end, a preemption
# of a few ms on a loaded machine, is taken from its time)
cat >"$tmp/rep.cfg" <<'EOF'
a, 65536

busy
50
a, 0, 64, 1

idle
50
EOF
"$hs" workload "$tmp/rep.cfg" --duration 330ms --json "$tmp/rep.json" >"$tmp/out" 2>&1
read -r passes r0 r1 acc act el idle_acc idle_ns rate <<<"$(q "$tmp/rep.json" passes \
	phases.0.runs phases.1.runs accesses active_ns elapsed_ns phases.1.accesses \
	phases.1.ns rate_per_ms | tr '\n' ' ')"
want=$(awk -v a="$acc" -v t="$act" 'BEGIN { printf "%.0f", a * 1e6 / t }')
[ "$passes" = 3 ] && [ "$r0" = 4 ] && [ "$r1" = 3 ] && [ "$idle_acc" = 0 ] &&
	[ "$idle_ns" -ge 120000000 ] && [ "$el" -ge 330000000 ] &&
	[ "$act" -le "$((el - idle_ns))" ] && [ "$rate" = "$want" ] &&
	ok "--duration 330ms over 2 x 50 ms: 3 passes, busy 4 times, idle 3 times; the rate over the busy time" ||
	fail "repeat" "passes $passes runs $r0 $r1 idle $idle_acc/$idle_ns active $act of $el rate $rate want $want"

# --- masim's table of random numbers: mapped only for a random line -------
# anon BYTES CFG: the anonymous, unnamed mappings of `workload CFG --wait`
anon() {
	local p i n range name
	"$hs" workload "$1" --wait >/dev/null 2>"$tmp/aerr" &
	p=$!
	for i in $(seq 50); do
		grep -q ready "$tmp/aerr" && break
		sleep 0.1
	done
	if [ -r "/proc/$p/maps" ]; then
		n=0
		while read -r range _ _ _ _ name; do
			[ -z "$name" ] &&
				n=$((n + 16#${range#*-} - 16#${range%-*}))
		done <"/proc/$p/maps"
		echo "$n"
	else
		echo none
	fi
	kill "$p" 2>/dev/null
	wait "$p" 2>/dev/null
}
printf 'a, 2097152\n\np\n300\na, 1, 64, 1\n' >"$tmp/r.cfg"
printf 'a, 2097152\n\np\n300\na, 0, 64, 1\n' >"$tmp/s.cfg"
r=$(anon "$tmp/r.cfg") s=$(anon "$tmp/s.cfg")
[ "$r" != none ] && [ "$s" != none ] && [ $((r - s)) -eq 8003584 ] &&
	ok "a random line maps masim's table: 8003584 bytes more than a sequential one" ||
	fail "table" "random $r, sequential $s"
# --- --wait: mapped, ready, nothing runs until SIGUSR1 -------------------
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
"$hs" workload "$tmp/t.cfg" --wait --json "$tmp/w.json" >"$tmp/wout" 2>"$tmp/werr" &
pid=$!
for _ in $(seq 50); do
	grep -q ready "$tmp/werr" && break
	sleep 0.1
done
if grep -qx "hotscore workload: pid $pid ready" "$tmp/werr"; then
	ok "--wait: 'hotscore workload: pid $pid ready' on stderr"
	c0=$(cpu "$pid")
	sleep 1
	c1=$(cpu "$pid")
	# a 600 ms run started at "ready" would have ended by now
	if kill -0 "$pid" 2>/dev/null && [ ! -e "$tmp/w.json" ] &&
	   [ $((c1 - c0)) -le 5 ]; then
		ok "--wait: 1 s after ready, still waiting, $((c1 - c0)) clock ticks of CPU"
	else
		fail "--wait" "ran before SIGUSR1: cpu $c0 -> $c1, $(cat "$tmp/wout")"
	fi
	t0=$(now_ms)
	kill -USR1 "$pid"
	wait "$pid"
	rc=$? wall=$(($(now_ms) - t0))
	[ $rc -eq 0 ] && [ "$wall" -ge 600 ] && [ "$(q "$tmp/w.json" wait)" = true ] &&
		[ "$(q "$tmp/w.json" phases.1.accesses)" -gt 0 ] &&
		ok "--wait: SIGUSR1 runs it: exit 0 after $wall ms" ||
		fail "--wait: SIGUSR1" "exit $rc after $wall ms: $(cat "$tmp/werr")"
else
	fail "--wait" "no ready line: $(cat "$tmp/werr")"
	kill "$pid" 2>/dev/null
	wait "$pid"
fi

# --- SIGINT and SIGTERM: the summary so far, exit 130, no --json --------
# interrupted SIGNAL ARGS...: after 1 s (or at "ready"), SIGNAL
interrupted() {
	local sig=$1 rc
	shift
	rm -f "$tmp/i.out" "$tmp/i.err"
	mkdir -p "$tmp/i" && echo keep >"$tmp/i/w.json"
	(cd "$tmp/i" && exec "$hs" workload "$@" --json w.json >"$tmp/i.out" 2>"$tmp/i.err") &
	pid=$!
	sleep 1
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
	if [ $rc -eq 130 ] &&
	   grep -qx "hotscore workload: interrupted; no output file was changed" "$tmp/i.err" &&
	   grep -q '^  all ' "$tmp/i.out" && grep -q '^interrupted after' "$tmp/i.out" &&
	   [ "$(cat "$tmp/i/w.json")" = keep ] && [ "$(ls -A "$tmp/i")" = w.json ]; then
		ok "SIG$sig $*: exit 130, the summary so far, --json untouched"
	else
		fail "SIG$sig $*" "exit $rc: $(cat "$tmp/i.err") $(ls -A "$tmp/i")"
	fi
}
interrupted INT stairs
interrupted TERM "$tmp/t.cfg" --wait
grep -q '^  one .* 0 *-$' "$tmp/i.out" && ok "stopped while waiting: no phase ran" ||
	fail "stop while waiting" "$(cat "$tmp/i.out")"

# --- bad input: one line, exit 2 -----------------------------------------
printf 'a, 100\n\np\nten\na, 0, 1, 1\n' >"$tmp/bad.cfg"
expect_bad "an unknown workload" "" workload no-such-workload
expect_bad "a bad config" "" workload "$tmp/bad.cfg"
grep -q 'bad.cfg:4: phase duration' "$tmp/err" || fail "config message" "$(cat "$tmp/err")"
expect_bad "a bad --duration" "" workload stairs --duration 5parsecs
expect_bad "no workload" "" workload
# Too big: more than memory and swap (64 GiB, the parser's limit, where the
# machine has less), and what an address-space limit refuses (not under
# ASan, whose shadow memory needs the address space).
printf 'a, 68719476736\n\np\n10\na, 0, 4096, 1\n' >"$tmp/big.cfg"
mem=$(awk '/^(MemTotal|SwapTotal):/ { kb += $2 } END { printf "%.0f\n", kb * 1024 }' /proc/meminfo)
if [ "$mem" -lt 68719476736 ]; then
	expect_bad "64 GiB of regions" "" workload "$tmp/big.cfg"
	grep -q 'need 65536.0 MiB, more than memory and swap' "$tmp/err" ||
		fail "too big: how much" "$(cat "$tmp/err")"
else
	echo "SKIP 64 GiB of regions: this machine has more"
fi
case $hs in
*/san/*) echo "SKIP ulimit -v: ASan needs the address space" ;;
*)
	printf 'a, 1500000000\n\np\n10\na, 0, 4096, 1\n' >"$tmp/big2.cfg"
	(ulimit -v 500000 && exec "$hs" workload "$tmp/big2.cfg") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
		grep -q "need 1430.5 MiB (1500000256 bytes); region 'a' .*cannot be mapped" "$tmp/err" &&
		ok "refused mapping: $(cat "$tmp/err")" || fail "ulimit -v" "exit $rc: $(cat "$tmp/err")"
	;;
esac

# --- stairs for 1 s -------------------------------------------------------
"$hs" workload stairs --duration 1s --json "$tmp/s.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
read -r el acc p1 <<<"$(q "$tmp/s.json" elapsed_ns phases.0.accesses phases.1.runs | tr '\n' ' ')"
[ $rc -eq 0 ] && [ "$el" -ge 1000000000 ] && [ "$acc" -gt 0 ] && [ "$p1" = 0 ] &&
	grep -q -- '--workload stairs --rate [0-9]* --duration 1s$' "$tmp/out" &&
	ok "stairs --duration 1s: $(grep achieved "$tmp/out")" ||
	fail "stairs" "exit $rc: $(cat "$tmp/err" "$tmp/out")"

# --- the static binary ----------------------------------------------------
if [ -z "$static" ]; then
	echo "SKIP the static binary: not given"
elif readelf -l "$static" | grep -q INTERP; then
	fail "static" "$static has a program interpreter: not static"
elif "$static" workload "$tmp/t.cfg" --duration 100ms >"$tmp/out" 2>"$tmp/err" &&
     grep -q '^achieved [1-9][0-9]* accesses per ms' "$tmp/out"; then
	ok "the static binary (no interpreter) runs workload: $(grep achieved "$tmp/out")"
else
	fail "static" "$(cat "$tmp/err" "$tmp/out")"
fi

report_counts
