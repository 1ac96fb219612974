#!/usr/bin/env bash
# End-to-end tests of `hotscore bench`: bad input, a short real run in every
# output format, the seed round trip.  Timings are never asserted; only
# what must hold for any timing (an average inside its own range, a verdict
# that agrees with its CI, well-formed files).
# Usage: tests/bench.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: bench.sh HOTSCORE JSONQ}
jq=${2:?usage: bench.sh HOTSCORE JSONQ}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# table_aligned FILE: in every table of the report (the per-call costs,
# the ratios, the variance), the columns start where the header's do (a
# cell starts after two spaces; cells hold single spaces)
table_aligned() {
	awk 'function starts(s,   i, r) {
		r = ""
		for (i = 1; i <= length(s); i++)
			if (substr(s, i, 1) != " " &&
			    (i == 1 || substr(s, i - 2, 2) == "  "))
				r = r " " i
		return r
	}
	/^variant  / { want = starts($0); on = 1; next }
	on && /^$/ { on = 0; next }
	on && starts($0) != want {
		print "row \"" $0 "\" starts at" starts($0) ", header at" want
		bad = 1
	}
	on { n++ }
	END { if (!n) print "no comparison table"; exit bad || !n }' "$1"
}

# ratio_rows FILE: the rows of the ratio table (variant, dist, mode, ratio)
ratio_rows() {
	awk '/^variant  .*ratio \[95% CI\]/ { on = 1; next }
	     on && /^$/ { exit } on' "$1"
}

# joined FILE: FILE with continuation lines joined as the shell joins
# them (" \" between words, "\" inside one)
joined() {
	sed -e ':a' -e '/\\$/{N;s/ \\\n/ /;s/\\\n//;ba}' "$1"
}

# unwrapped FILE: the report with its header's continuation lines (indented
# 12 spaces) joined to the lines they continue
unwrapped() {
	sed -e ':a' -e '$!N;s/\n            / /;ta' -e 'P;D' "$1"
}

# enough for 6 paired rounds even if N is raised 4x for a coarse clock
short=(--iterations 1000000 --runs 2 --pool 64)

# --- bad input: one line, exit 2, before any timing
printf 'sample_us,aggr_us,age\n5000,100000,3\n0,100000,3\n' >"$tmp/div0.csv"
printf 'sample_us,age\n' >"$tmp/empty.csv"
printf 'sample_us,age\n5000,abc\n' >"$tmp/badrow.csv"
expect_bad "unknown variant" "" bench --profile loop,nope
expect_bad "empty variant list" "" bench --profile ''
expect_bad "variant twice" "" bench --profile loop,loop
expect_bad "only commas, variants" "" bench --profile ,
expect_bad "only commas, modes" "" bench --mode ,,
expect_bad "only commas, dists" "" bench --dist ,
expect_bad "unknown distribution" "" bench --dist gauss
expect_bad "unknown mode" "" bench --mode fast
expect_bad "zero iterations" "" bench --iterations 0
expect_bad "absurd iterations" "" bench --iterations 99999999999
expect_bad "negative runs" "" bench --runs -1
expect_bad "zero runs" "" bench --runs 0
expect_bad "zero invocations" "" bench --invocations 0
expect_bad "--budget with --invocations" "" bench --invocations 5 --budget 10s
expect_bad "--precision with --invocations" "" bench --runs 5 --precision 2%
expect_bad "--precision 0" "" bench --precision 0
expect_bad "--budget 0" "" bench --budget 0
expect_bad "five placements" "" bench --placements 5
expect_bad "a warm-up without a unit it knows" "" bench --warmup 3parsecs
HOTSCORE_BENCH_BLOCK=garbage expect_bad "a forged invocation block" "" bench --iterations 10000
expect_bad "tiny batch" "" bench --batch 1
expect_bad "seed not a number" "" bench --seed 12x
expect_bad "unknown format" "" bench --format xml
expect_bad "unknown method" "" bench --method rdtsc
expect_bad "unknown clock" "" bench --clock hpet
expect_bad "unreadable file" "" bench --dist file:"$tmp/none.csv"
expect_bad "file: without a path" "" bench --dist file:
expect_bad "file without rows" "" bench --dist file:"$tmp/empty.csv"
expect_bad "file with a bad row" "" bench --dist file:"$tmp/badrow.csv"
expect_bad "file that divides by zero" "" bench --profile loop \
	--dist file:"$tmp/div0.csv"
expect_bad "CPU beyond any machine" "" bench --cpu 4095
expect_bad "CPU that is not online" "" bench --cpu $(nproc --all)
expect_bad "unwritable --json" "" bench --json "$tmp/no/such/dir.json"
echo keep >"$tmp/keep.json"
"$hs" bench --cpu 4095 --json "$tmp/keep.json" 2>/dev/null
[ "$(cat "$tmp/keep.json")" = keep ] && ok "a bad --cpu leaves --json untouched" ||
	fail "--json truncated" "by a run that failed before measuring"
expect_bad "unknown option" "" bench --fast
expect_bad "stray argument" "" bench seed

if "$hs" bench --profile loop --dist file:"$tmp/div0.csv" 2>&1 |
   grep -q 'row 2 is div0(sample_interval) under variant loop'; then
	ok "div0 message names the row, status and variant"
else
	fail "div0 message" "$("$hs" bench --profile loop --dist file:"$tmp/div0.csv" 2>&1)"
fi

# --- the prepared variants: one scheme per --dist, every region checked
printf 'sample_us,aggr_us,nr_accesses,age,weight_age\n5000,100000,3,10,1\n5000,100000,3,10,2\n' \
	>"$tmp/twoschemes.csv"
expect_bad "prepared variant, two schemes" "" bench --profile hotfix,fast \
	--dist file:"$tmp/twoschemes.csv"
if "$hs" bench --profile hotfix,fast-batch --dist file:"$tmp/twoschemes.csv" 2>&1 |
   grep -Eq 'row 2 has other intervals, weights or window than row 1; --(variants|profile) fast-batch prepares one scheme'; then
	ok "two-scheme message names the row and the variant"
else
	fail "two-scheme message" "$("$hs" bench --profile hotfix,fast-batch --dist file:"$tmp/twoschemes.csv" 2>&1)"
fi
HOTSCORE_SIMD=sse2 expect_bad "HOTSCORE_SIMD that names no scorer" "" bench
echo '{"old": true}' >"$tmp/keep.json"
expect_bad "a bad --dist leaves an old --json alone" "" bench --profile loop \
	--dist file:"$tmp/div0.csv" --json "$tmp/keep.json"
grep -q '"old"' "$tmp/keep.json" && ok "the old --json is still there" ||
	fail "old --json" "truncated: '$(cat "$tmp/keep.json")'"
# aggr above 1 s: no age map, so fast-batch falls back to the loop, and says so
printf 'sample_us,aggr_us,nr_accesses,age\n5000,5000000,3,10\n5000,5000000,20,5000\n' \
	>"$tmp/slow.csv"
"$hs" bench --profile hotfix,fast-batch --dist seed,file:"$tmp/slow.csv" \
	--iterations 200000 --runs 2 --mode throughput --json "$tmp/slow.json" \
	>"$tmp/slowout" 2>&1
# what auto picks here: avx512 with all five parts, else avx2, else scalar
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) "
auto=scalar
case $flags in *" avx2 "*) auto=avx2 ;; esac
for f in avx512f avx512cd avx512bw avx512vl avx512vbmi; do
	case $flags in *" $f "*) ;; *) f= ; break ;; esac
done
[ -n "$f" ] && auto=avx512
want=$auto
unwrapped "$tmp/slowout" | grep -q "fast-batch scores with $want on seed, scalar on file:" &&
	[ "$("$jq" "$tmp/slow.json" results.2.regions_per_call results.2.vector \
	     results.5.vector results.1.regions_per_call | paste -sd' ')" = "64 $want scalar 1" ] &&
	ok "fast-batch names the scorer it used per distribution" ||
	fail "per-dist scorer" "$(grep batches "$tmp/slowout"); $("$jq" "$tmp/slow.json" results.2.regions_per_call results.2.vector results.5.vector)"
fastv=hotfix,v2-ilog2,fast,fast-batch,fast-batch-scalar,hotfix-batch
# unset (auto's choice), avx2 where the CPU has AVX2 (on an AVX-512 CPU
# too: it insists), and last scalar, whose results the checks below read
avx2=
case $flags in *" avx2 "*) avx2=avx2 ;; esac
for simd in "" $avx2 scalar; do
	HOTSCORE_SIMD=$simd "$hs" bench "${short[@]}" --profile $fastv \
		--dist uniform,young --method ktime --json "$tmp/f.json" \
		>"$tmp/fout" 2>"$tmp/ferr"
	rc=$?
	want=${simd:-$auto}
	[ $rc -eq 0 ] &&
		unwrapped "$tmp/fout" |
		grep -qE "^  batches   64 regions a call, costs per region; fast-batch scores with $want on uniform, $want on young" &&
		ok "prepared variants run (HOTSCORE_SIMD=$simd)" ||
		fail "prepared variants (HOTSCORE_SIMD=$simd)" "exit $rc: $(head -c 300 "$tmp/ferr")"
	# the machine's vector unit, recorded when measured: the choice made
	# and the CPU flags it was made from
	"$jq" "$tmp/f.json" environment.vector | grep -qxE "$want" &&
		"$jq" "$tmp/f.json" environment.cpu_flags | grep -qxE '(none|[a-z0-9 ]+)' &&
		grep -qE "^  vector    $want; CPU flags: " "$tmp/fout" &&
		ok "the vector unit recorded (HOTSCORE_SIMD=$simd)" ||
		fail "vector unit (HOTSCORE_SIMD=$simd)" "$("$jq" "$tmp/f.json" environment.vector environment.cpu_flags)"
done
n=$(ratio_rows "$tmp/fout" | grep -cE '^(v2-ilog2|fast|fast-batch|fast-batch-scalar|hotfix-batch) +(uniform|young) +(throughput|latency) ')
[ "$n" -eq 20 ] && ok "prepared variants: 20 comparison rows" ||
	fail "prepared comparison rows" "$n of 20"
# seed tables (batch and ktime) for the kernel-form variants only
n=$(grep -c '^DAMON Perf Test: Starting 1000000 iterations$' "$tmp/fout")
[ "$n" -eq 12 ] && ok "seed tables only where calls are the kernel's" ||
	fail "prepared seed tables" "$n, want 12"
[ "$("$jq" "$tmp/f.json" results comparisons environment.vector)" = \
  "$(printf 'array 28\narray 20\nscalar')" ] && ok "JSON: 28 results, 20 comparisons" ||
	fail "prepared JSON" "$("$jq" "$tmp/f.json" results comparisons environment.vector)"

# --- listings
if "$hs" bench --list-profiles | grep -q '^ilog2-builtin ' &&
   "$hs" bench --list-profiles | grep -q '^debian-6.1.192 ' &&
   "$hs" bench --list-dists | grep -q '^young ' &&
   "$hs" bench --help | grep -q -- '--profile'; then
	ok "--list-profiles, --list-dists, --help"
else
	fail "listings" "a variant, distribution or option is missing"
fi
# columns sized to their content: every name and components string starts
# where the header's does, with two spaces before it; within 100 columns
"$hs" bench --list-profiles >"$tmp/list"
bad=$(awk 'NR == 1 { c = index($0, "components"); w = index($0, "what"); next }
	length > 100 { print "line " NR " has " length " columns"; next }
	/^ / { if (substr($0, 1, w - 1) ~ /[^ ]/) print "line " NR ": wrapped text before column " w; next }
	substr($0, c - 2, 3) !~ /^  [^ ]$/ || substr($0, w - 2, 3) !~ /^  [^ ]$/ {
		print "line " NR ": " $0 }' "$tmp/list")
[ -z "$bad" ] && [ "$(wc -l <"$tmp/list")" -gt 20 ] &&
	ok "--list-profiles: aligned columns within 100 columns" ||
	fail "--list-profiles columns" "$bad"

# --- a short real run, every output
printf 'sample_us,aggr_us,nr_accesses,age\n5000,100000,0,10\n5000,100000,20,5000\n5000,100000,7,300\n' \
	>"$tmp/rows.csv"
"$hs" bench "${short[@]}" --seed 77 --method ktime \
	--dist seed,young,file:"$tmp/rows.csv" --json "$tmp/b.json" \
	--csv "$tmp/b.csv" --svg "$tmp/b.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
cp "$tmp/out" "$tmp/short"	# expect_bad overwrites out
if [ $rc -ne 0 ]; then
	fail "short run" "exit $rc: $(head -c 300 "$tmp/err")"
else
	ok "short run: 3 distributions, 2 modes, ktime, every file"
fi

[ -s "$tmp/err" ] && fail "quiet stderr" "not a TTY, yet: $(head -c 200 "$tmp/err")" ||
	ok "no progress output when stderr is not a terminal"
if command -v script >/dev/null; then
	script -qc "'$hs' bench --iterations 100000 --runs 1 --mode throughput" \
		/dev/null >"$tmp/tty" 2>&1
	grep -aq 'bench: seed, throughput: placement 1/4, round 1/' "$tmp/tty" &&
		ok "progress on a terminal" || fail "progress" "none on a TTY"
else
	echo "SKIP progress on a terminal: no script(1)"
fi

# 3 variants x 2 modes x 3 dists batch tables + 3 x 3 ktime tables
n=$(grep -c '^DAMON Perf Test: Starting 1000000 iterations$' "$tmp/out")
[ "$n" -eq 27 ] && ok "27 seed-format tables" ||
	fail "seed-format tables" "$n, want 27"
n=$(ratio_rows "$tmp/out" | grep -cE '^(fls|ilog2) +(seed|young|file:.*) +(throughput|latency) ')
[ "$n" -eq 12 ] && ok "comparison rows" || fail "comparison rows" "$n of 12"
grep -q -- '--seed 77' "$tmp/out" && ok "the seed is printed" ||
	fail "seed" "not printed"

expect_json "$tmp/b.json" "$jq"
[ "$("$jq" "$tmp/b.json" results comparisons config.seed)" = \
  "$(printf 'array 24\narray 12\n77')" ] && ok "JSON: 24 results, 12 comparisons" ||
	fail "JSON counts" "$("$jq" "$tmp/b.json" results comparisons config.seed)"

# every average inside its own range; checks ok; the CIs hold their
# ratios; 2 invocations (--runs 2) give no verdict, however many cells
# their 4 placements make (a verdict needs 6 invocations)
bad=""
for i in $(seq 0 23); do
	set -- $("$jq" "$tmp/b.json" results.$i.ns_per_call.min \
		results.$i.ns_per_call.median results.$i.ns_per_call.max \
		results.$i.ns_per_call.tmean_20_80 results.$i.role \
		results.$i.check)
	awk -v a="$1" -v m="$2" -v z="$3" -v t="$4" \
		'BEGIN { exit !(a <= m && m <= z && a <= t && t <= z) }' ||
		bad="$bad result $i: $1 $2 $3 $4;"
	[ "$5" = "empty-call" ] && continue
	[ "$6" = ok ] || bad="$bad result $i check '$6';"
	set -- $("$jq" "$tmp/b.json" results.$i.seed_report.min_ns \
		results.$i.seed_report.average_ns results.$i.seed_report.max_ns \
		results.$i.seed_report.p95_ns results.$i.seed_report.p99_ns)
	awk -v a="$1" -v m="$2" -v z="$3" -v p="$4" -v q="$5" \
		'BEGIN { exit !(a <= m && m <= z && a <= p && p <= q && q <= z) }' ||
		bad="$bad seed table $i: $*;"
done
for i in $(seq 0 11); do
	set -- $("$jq" "$tmp/b.json" comparisons.$i.ratio comparisons.$i.ci_low \
		comparisons.$i.ci_high comparisons.$i.verdict)
	awk -v r="$1" -v l="$2" -v h="$3" -v v="$4" 'BEGIN {
		if (!(l <= r && r <= h)) exit 1
		exit !(v == "too") }' || bad="$bad comparison $i: $*;"
	[ "$("$jq" "$tmp/b.json" comparisons.$i.rounds)" -ge 6 ] ||
		bad="$bad comparison $i has under 6 rounds;"
done
[ -z "$bad" ] && ok "averages within their ranges, checks ok, CIs hold the ratios, no verdict of 2 invocations" ||
	fail "invariants" "$bad"

n=$(grep -c '^fls,' "$tmp/b.csv")
[ "$(head -1 "$tmp/b.csv" | cut -d, -f1-5)" = "variant,dist,mode,samples,ns_median" ] &&
   [ "$n" -eq 6 ] && ok "CSV" || fail "CSV" "header or $n fls rows"
if [ "$(head -c 5 "$tmp/b.svg")" = "<svg " ] && tail -1 "$tmp/b.svg" | grep -q '^</svg>$'; then
	ok "SVG"
else
	fail "SVG" "not an svg document"
fi

# the layout: each invocation its own (ASLR on), even when the first
# process was started with randomization off; --fixed-layout re-executes
# without it, where the system lets a process turn randomization off
[ "$("$jq" "$tmp/b.json" environment.aslr environment.reexecuted |
     paste -sd' ')" = "true false" ] &&
	grep -q '^  layout    randomized per invocation (ASLR on)' "$tmp/short" &&
	ok "each invocation with address-space randomization on, by default" ||
	fail "layout" "$("$jq" "$tmp/b.json" environment.aslr environment.reexecuted)"
# layout_case NAME "ASLR REEXECUTED" PATTERN PREFIX ARGS...: a short run
# ("$hs" bench, after PREFIX: '' or 'setarch -R'), its JSON's aslr and
# reexecuted as given and its layout line starting with PATTERN
layout_case() {
	local name=$1 want=$2 pattern=$3 prefix=$4 got
	shift 4
	$prefix "$hs" bench "${short[@]}" --mode throughput "$@" \
		--json "$tmp/l.json" >"$tmp/l" 2>&1
	got=$("$jq" "$tmp/l.json" environment.aslr environment.reexecuted |
	      paste -sd' ')
	[ "$got" = "$want" ] && grep -q "^  layout    $pattern" "$tmp/l" &&
		ok "$name" || fail "$name" "$got: $(grep layout "$tmp/l")"
}
if setarch -R true 2>/dev/null; then
	layout_case "setarch -R: the invocations randomized all the same" \
		"true false" "randomized per invocation" "setarch -R"
	layout_case "--fixed-layout: re-executed with address-space randomization off" \
		"false true" "fixed: .*(re-executed)" "" --fixed-layout
	layout_case "--fixed-layout, already off: said so, not re-executed" \
		"false false" "fixed: .*was already off" "setarch -R" --fixed-layout
	layout_case "--invocations 1 under setarch -R: measured with it off, said so" \
		"false false" "fixed: .*was already off" "setarch -R" --invocations 1
else
	echo "SKIP fixed layout: this system does not let a process disable ASLR"
fi
# a setuid copy loses ADDR_NO_RANDOMIZE at exec: it must not loop
cp "$hs" "$tmp/suid" && chmod u+s "$tmp/suid"
if timeout 60 "$tmp/suid" bench "${short[@]}" --mode throughput \
	--fixed-layout >/dev/null 2>&1; then
	ok "a setuid binary runs once, not in a re-exec loop"
else
	fail "setuid" "exit $? (124: looped until killed)"
fi

# N is raised until a batch spans 1000 clock steps, and a run has at most
# 256 rounds, whatever --batch says
"$hs" bench --iterations 49248 --batch 16 --runs 1 --mode throughput \
	--json "$tmp/n.json" >/dev/null 2>&1
n=$("$jq" "$tmp/n.json" config.batch_n)
r=$("$jq" "$tmp/n.json" config.rounds)
[ "$n" -gt 16 ] && [ "$r" -le 256 ] && [ "$r" -ge 1 ] &&
	ok "--batch 16 raised to N = $n ($r rounds)" ||
	fail "N" "batch_n $n, rounds $r"

# too few cells: one invocation of 4 placements of 1 round has an
# interval of its placements, but no verdict
"$hs" bench --iterations 10000 --invocations 1 --mode throughput \
	--json "$tmp/few.json" >"$tmp/few" 2>/dev/null
[ "$("$jq" "$tmp/few.json" comparisons.0.verdict comparisons.0.rounds \
     comparisons.0.interval | paste -sd' ')" = "too few rounds 4 within one process (over its placements)" ] &&
	ratio_rows "$tmp/few" | grep -q '^fls .* too few rounds$' &&
	ok "4 cells of 1 round: too few for a verdict" ||
	fail "too few rounds" "$("$jq" "$tmp/few.json" comparisons.0.verdict comparisons.0.rounds)"
# one process, one placement: the rounds' interval, labelled as such
"$hs" bench --iterations 400000 --invocations 1 --placements 1 \
	--mode throughput --profile loop,fls --json "$tmp/wp.json" \
	>"$tmp/wp" 2>/dev/null
[ "$("$jq" "$tmp/wp.json" comparisons.0.interval config.placements)" = \
  "$(printf 'within one process (its rounds resampled)\n1')" ] &&
	unwrapped "$tmp/wp" | tr '\n' ' ' |
	grep -q "Within one process (--invocations 1 --placements 1): each interval resamples its rounds" &&
	ok "--invocations 1 --placements 1: the within-process interval, said so" ||
	fail "within-process" "$("$jq" "$tmp/wp.json" comparisons.0.interval)"

# the seed's method: per-run counts add up to the iterations
sum=$(awk -F'|' '/--method ktime/ { on = 1 } / How / { on = 0 }
	on && /^ [0-9]+(-[0-9]+|\+) / { s += $2 }
	/ How / && s { print s; exit }' "$tmp/out")
[ "$sum" -le 1000000 ] && [ "$sum" -ge 950000 ] &&
	ok "ktime table counts add up to the iterations ($sum)" ||
	fail "ktime counts" "$sum of 1000000"

# the seed round trip: the same seed, the same inputs; another, others
classes() {
	"$hs" bench "${short[@]}" --profile loop,ilog2 --mode throughput \
		--dist uniform --seed "$1" --json "$tmp/s$1.json" >/dev/null &&
	"$jq" "$tmp/s$1.json" results.1.seed_report.classes.0.class \
		results.1.seed_report.classes.0.count \
		results.1.seed_report.classes.1.count
}
a=$(classes 5) b=$(classes 5) c=$(classes 6)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ] &&
	ok "--seed reproduces the inputs" || fail "--seed" "'$a' '$b' '$c'"

# the order seed: fresh in each run without --seed, --seed's with it,
# --order_seed's when given; the header and the JSON say the same
order() {	# ARGS...: a tiny run's order seed
	"$hs" bench --iterations 10000 --runs 2 --pool 64 --warmup 0 \
		--profile loop,fls --mode throughput "$@" --json "$tmp/o.json" \
		>"$tmp/o" 2>&1 &&
	[ "$(unwrapped "$tmp/o" | sed -n 's/^  inputs .* --order_seed \([0-9]*\)$/\1/p')" = \
	  "$("$jq" "$tmp/o.json" config.order_seed)" ] &&
	"$jq" "$tmp/o.json" config.order_seed
}
a=$(order) b=$(order) c=$(order --seed 9) d=$(order --seed 9) e=$(order --order_seed 31337)
f=$(order --seed 9 --order-seed 0)
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] &&
	ok "a fresh order seed each run without --seed: $a, $b" ||
	fail "fresh order seeds" "'$a' '$b'"
[ "$c/$d" = 9/9 ] && [ "$("$jq" "$tmp/s5.json" config.order_seed)" = 5 ] &&
	ok "--seed S: the order seed is S, run after run" || fail "--seed's order seed" "'$c' '$d'"
[ "$e/$f" = 31337/0 ] && ok "--order_seed N printed back, with or without --seed" ||
	fail "--order_seed" "'$e' '$f'"
expect_bad "order seed not a number" "" bench --order_seed 12x
expect_bad "order seed negative" "" bench --order_seed -5
expect_bad "order seed with --import" "" bench --import "$here/data/kmod-results.jsonl" --order_seed 3

# --format commit: at most 72 columns; the reproduce line has both seeds
"$hs" bench "${short[@]}" --format commit >"$tmp/commit" 2>/dev/null
sed -n '/^\$ hotscore bench/,$p' "$tmp/commit" | tr -d '\\\n' |
	grep -q -- ' --seed 1 --order_seed [0-9][0-9]*$' &&
	ok "--format commit: --seed and --order_seed to repeat the run" ||
	fail "commit seeds" "$(tail -3 "$tmp/commit")"
w=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$tmp/commit")
grep -q '^\$ hotscore bench' "$tmp/commit" && [ "$w" -le 72 ] &&
	ok "--format commit fits 72 columns ($w)" || fail "commit" "width $w"

# --import: hotscore.ko's results (tests/data/kmod-results.jsonl, captured
# from the module in Debian's kernel under QEMU) reported as user space's
kres=$here/data/kmod-results.jsonl
"$hs" bench --import "$kres" --json "$tmp/imp.json" >"$tmp/imp" 2>"$tmp/imperr"
rc=$?
# two runs are two cells: an interval of the runs, but too few for a verdict
[ $rc -eq 0 ] && grep -q 'machine   CPU unknown, Linux 6.1.0-57-amd64, measured by hotscore.ko' "$tmp/imp" &&
	ratio_rows "$tmp/imp" | grep -Eq '^ilog2 +seed +throughput +[0-9.]+ \[[0-9.]+ - [0-9.]+\] .* too few rounds$' &&
	[ "$("$jq" "$tmp/imp.json" comparisons.0.interval)" = "over the module's runs (time blocks of one load)" ] &&
	ok "--import: the module's samples, compared over its runs" ||
	fail "--import" "exit $rc: $(head -c 400 "$tmp/imp" "$tmp/imperr")"
expect_json "$tmp/imp.json" "$jq"
[ "$("$jq" "$tmp/imp.json" results.3.variant results.3.mode)" = "$(printf 'ilog2\nthroughput')" ] &&
	ok "--import JSON has the results" ||
	fail "--import JSON" "$("$jq" "$tmp/imp.json" results.3.variant results.3.mode)"
# the report names the module's machine, never the importing one's: the
# CPU, its flags and the vector unit come from the results (a module that
# did not write them is "unknown"), not from this machine's CPUID
grep -q '^  vector    unknown; CPU flags: unknown$' "$tmp/imp" &&
	[ "$("$jq" "$tmp/imp.json" environment.cpu_model environment.vector \
		environment.cpu_flags)" = "$(printf 'unknown\nunknown\nunknown')" ] &&
	ok "--import of an old module's results: the machine is unknown" ||
	fail "--import, old results" "$(grep -E '^  (machine|vector)' "$tmp/imp")"
kcpu=$here/data/kmod-results-cpu.jsonl
HOTSCORE_SIMD=scalar "$hs" bench --import "$kcpu" --json "$tmp/impcpu.json" \
	>"$tmp/impcpu" 2>&1
"$hs" bench --import "$kcpu" --format commit >"$tmp/impcpuc" 2>&1
here_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
grep -q '^  machine   CPU Imported Test CPU 9000 @ 1.00GHz, Linux 6.1.0-57-amd64' "$tmp/impcpu" &&
	grep -q '^  vector    scalar; CPU flags: avx2 bmi1 bmi2$' "$tmp/impcpu" &&
	joined "$tmp/impcpuc" | grep -q 'hotscore.ko on CPU Imported Test CPU 9000 @ 1.00GHz,' &&
	{ [ -z "$here_cpu" ] || ! grep -qF "$here_cpu" "$tmp/impcpu"; } &&
	! grep -q 'avx512' "$tmp/impcpu" &&
	[ "$("$jq" "$tmp/impcpu.json" environment.cpu_model environment.vector \
		environment.cpu_flags)" = "$(printf 'Imported Test CPU 9000 @ 1.00GHz\nscalar\navx2 bmi1 bmi2')" ] &&
	ok "--import names the module's CPU, flags and vector unit, not this machine's" ||
	fail "--import machine" "$(head -8 "$tmp/impcpu")"
sed '2s/"cpu_flags":"avx2 bmi1 bmi2"/"cpu_flags":"avx2"/' "$kcpu" >"$tmp/twocpu.jsonl"
expect_bad "--import: two machines in one file" "" bench --import "$tmp/twocpu.jsonl"
grep -q 'twocpu.jsonl:2: cpu_flags differs from line 1' "$tmp/err" &&
	ok "--import: one machine per file" || fail "--import two machines" "$(cat "$tmp/err")"
expect_bad "--import: no such file" "" bench --import "$tmp/nosuch.jsonl"
printf '{"schema":"hotscore-kmod-1","identify":"no-damon"}\nnot json\n' >"$tmp/bad.jsonl"
expect_bad "--import: a line that is not JSON" "" bench --import "$tmp/bad.jsonl"
grep -q 'bad.jsonl:2: not a JSON object' "$tmp/err" && ok "names the line" ||
	fail "--import line" "$(cat "$tmp/err")"
grep -v '"fn":"fls"' "$kres" | grep -v '"fn":"ilog2"' | grep -v '"mode":"latency"' |
	sed 's/"fn":"loop"/"fn":"nosuch"/' >"$tmp/unknown.jsonl"
expect_bad "--import: an unknown variant" "" bench --import "$tmp/unknown.jsonl"
sed 's/"fn":"ilog2"/"fn":"fast-batch"/' "$kres" >"$tmp/prepared.jsonl"
expect_bad "--import: a prepared variant" "" bench --import "$tmp/prepared.jsonl"
grep -q "'fast-batch' is timed in user space only, not by hotscore.ko" "$tmp/err" &&
	ok "--import names the user-space-only variant" ||
	fail "--import prepared" "$(cat "$tmp/err")"
sed 's/"fn":"ilog2"/"fn":"fast-prepare"/' "$kres" >"$tmp/prepare.jsonl"
expect_bad "--import: fast-prepare" "" bench --import "$tmp/prepare.jsonl"
# what hotscore.ko times of the prepared scorer imports, batches per region
# (2 runs: an interval of them, too few for a verdict)
sed 's/"fn":"fls"/"fn":"fast"/; s/"fn":"ilog2"/"fn":"fast-batch-scalar"/' \
	"$kres" >"$tmp/kfast.jsonl"
if "$hs" bench --import "$tmp/kfast.jsonl" >"$tmp/kfast" 2>&1 &&
	ratio_rows "$tmp/kfast" | grep -Eq '^fast +seed +throughput +[0-9.]+ \[.* too few rounds$' &&
	ratio_rows "$tmp/kfast" | grep -Eq '^fast-batch-scalar +seed +latency +[0-9.]+ \[.* too few rounds$' &&
	unwrapped "$tmp/kfast" | grep -q '^  batches   64 regions a call, costs per region$'; then
	ok "--import takes the module's fast and fast-batch-scalar, the batch per region"
else
	fail "--import fast" "$(head -c 600 "$tmp/kfast")"
fi
grep -v '"mode":"latency","fn":"ilog2"' "$kres" >"$tmp/missing.jsonl"
expect_bad "--import: a result missing" "" bench --import "$tmp/missing.jsonl"
grep '"identify"' "$kres" >"$tmp/none.jsonl"; echo >>"$tmp/none.jsonl"
expect_bad "--import: no bench results" "" bench --import "$tmp/none.jsonl"


# --- issue 13: what the reports say, and how they lay it out

# the comparison table aligns whatever the names: measured with long
# variant names, a file: distribution, "too few rounds"; imported
for f in fout short few; do
	bad=$(table_aligned "$tmp/$f") && ok "comparison table aligned ($f)" ||
		fail "comparison table ($f)" "$bad"
done
bad=$(table_aligned "$tmp/imp") && ok "comparison table aligned (--import)" ||
	fail "comparison table (--import)" "$bad"
"$hs" bench --iterations 100000 --runs 1 --pool 64 --clock gettime \
	--profile loop,fast-batch-scalar --dist file:"$tmp/rows.csv" \
	--mode latency >"$tmp/gt" 2>&1
bad=$(table_aligned "$tmp/gt") && ! grep -q 'TSC cycles/call' "$tmp/gt" &&
	ok "comparison table aligned without a TSC column" ||
	fail "comparison table (gettime)" "$bad"
sed 's/"clock":"tsc (lfence; rdtsc; lfence)"/"clock":"ktime_get_ns"/' "$kres" \
	>"$tmp/notsc.jsonl"
"$hs" bench --import "$tmp/notsc.jsonl" >"$tmp/notsc" 2>&1
bad=$(table_aligned "$tmp/notsc") && ! grep -q 'TSC cycles/call' "$tmp/notsc" &&
	ok "comparison table aligned (--import, no TSC)" ||
	fail "comparison table (--import, no TSC)" "$bad"
w=$(width "$tmp/imp")
head -7 "$tmp/imp" >"$tmp/imphead"
[ "$(width "$tmp/imphead")" -le 100 ] && ok "report header within 100 columns" ||
	fail "report header" "$(width "$tmp/imphead") columns"

# singular and plural: 1 tick, 1 run, 1 round, 1 class
unwrapped "$tmp/imp" | grep -q 'two reads in a row 1 tick apart at least;' &&
	! grep -q '1 ticks' "$tmp/imp" &&
	ok "--import: reads 1 tick apart" ||
	fail "step of 1" "$(grep -A1 '^  clock' "$tmp/imp")"
sed 's/"step":1,/"step":26,/' "$kres" >"$tmp/step26.jsonl"
"$hs" bench --import "$tmp/step26.jsonl" 2>&1 | unwrapped /dev/stdin |
	grep -q 'two reads in a row 26 ticks apart at least;' &&
	ok "--import: reads 26 ticks apart" || fail "steps of 26" "not said"
sed 's/"runs":2,"rounds_per_run":4/"runs":1,"rounds_per_run":8/' "$kres" \
	>"$tmp/run1.jsonl"
"$hs" bench --import "$tmp/run1.jsonl" >"$tmp/run1" 2>&1
"$hs" bench --import "$tmp/run1.jsonl" --format commit >>"$tmp/run1" 2>&1
"$hs" bench --iterations 10000 --invocations 1 --placements 1 \
	--mode throughput --dist zero >"$tmp/one" 2>&1
cat "$tmp/run1" >>"$tmp/one"
grep -q '^hotscore bench: 1 invocation x 1 placement x 1 paired round of 12N = ' "$tmp/one" &&
	grep -q '^ How: 1 class of inputs' "$tmp/one" &&
	grep -q ' (1 round) ' "$tmp/one" &&
	grep -q '400000 iterations x 1 run per variant in hotscore.ko, each run 8 paired rounds' "$tmp/one" &&
	joined "$tmp/run1" | grep -q ' x 1 run per variant,' &&
	! grep -Eq '(^|[^0-9.,])1 (runs|rounds|ticks|classes|samples|iterations|calls)\b' "$tmp/one" &&
	ok "1 run, 1 round, 1 class: singular" ||
	fail "plurals" "$(grep -E '(^|[^0-9.,])1 [a-z]+s\b' "$tmp/one" | head -5)"

# --import --format commit: where it was measured, and the module load
# that measures it again
"$hs" bench --import "$kres" --format commit >"$tmp/impc" 2>&1
[ "$(width "$tmp/impc")" -le 72 ] &&
	! grep -q 'CPU -1' "$tmp/impc" &&
	joined "$tmp/impc" | tr '\n' ' ' |
	grep -q 'Measured in hotscore.ko on CPU unknown, Linux 6.1.0-57-amd64, preemption and interrupts off per batch' &&
	grep -qx '\$ insmod hotscore.ko iterations=400000 runs=2 seed=1' "$tmp/impc" &&
	grep -qx '\$ cat /sys/kernel/debug/hotscore/results > r.jsonl' "$tmp/impc" &&
	grep -qx '\$ rmmod hotscore' "$tmp/impc" &&
	[ "$(tail -1 "$tmp/impc")" = '$ hotscore bench --import r.jsonl' ] &&
	! grep -q -- '--seed' "$tmp/impc" &&
	ok "--import --format commit: hotscore.ko, Linux, and insmod to reproduce" ||
	fail "--import commit" "$(cat "$tmp/impc")"
# baseline first, one load per distribution (dist takes one name), the
# modes measured, the parameters at their defaults left out
for d in uniform young; do
	grep '"mode":"throughput"' "$kres" | sed -e "s/\"dist\":\"seed\"/\"dist\":\"$d\"/" \
		-e 's/"fn":"fls"/"fn":"X"/;s/"fn":"ilog2"/"fn":"fls"/;s/"fn":"X"/"fn":"ilog2"/'
done >"$tmp/twodists.jsonl"
"$hs" bench --import "$tmp/twodists.jsonl" --format commit >"$tmp/twoc" 2>&1
joined "$tmp/twoc" >"$tmp/twoj"
[ "$(width "$tmp/twoc")" -le 72 ] &&
	[ "$(grep -c '^\$ insmod' "$tmp/twoj")" -eq 2 ] &&
	grep -qx '\$ insmod hotscore.ko variants=loop,ilog2,fls dist=uniform modes=throughput iterations=400000 runs=2 seed=1' "$tmp/twoj" &&
	grep -qx '\$ insmod hotscore.ko variants=loop,ilog2,fls dist=young modes=throughput iterations=400000 runs=2 seed=1' "$tmp/twoj" &&
	grep -qx '\$ cat /sys/kernel/debug/hotscore/results >> r.jsonl' "$tmp/twoj" &&
	ok "--import --format commit: one insmod per distribution, baseline first" ||
	fail "--import commit, two dists" "$(cat "$tmp/twoc")"
# identify's timing of the kernel's own function comes from mode=identify
grep '"mode":"throughput"' "$kres" | sed 's/"fn":"loop"/"fn":"kernel"/' \
	>"$tmp/identify.jsonl"
"$hs" bench --import "$tmp/identify.jsonl" --format commit 2>&1 | joined /dev/stdin |
	grep -qx '\$ insmod hotscore.ko mode=identify variants=fls,ilog2 iterations=400000 runs=2 seed=1' &&
	ok "--import --format commit: identify's timing reproduced by mode=identify" ||
	fail "--import commit, identify" "$("$hs" bench --import "$tmp/identify.jsonl" --format commit 2>&1 | tail -5)"

# --format commit with a file: a base name, never the path; 72 columns
# whatever the names; the reproduce line still one command for the shell
base=$(printf 'inputs-%.0s' 1 2 3 4 5 6 7 8)worst.csv
mkdir -p "$tmp/a-directory-with-a-rather-long-name"
long=$tmp/a-directory-with-a-rather-long-name/$base
cp "$tmp/rows.csv" "$long"
"$hs" bench --iterations 100000 --runs 1 --pool 64 --mode throughput \
	--profile loop,fast-batch-scalar --dist young,file:"$long" \
	--format commit >"$tmp/lc" 2>&1
args=$(sed -n '/^\$ hotscore bench/,$p' "$tmp/lc" |
       sed '1s/^\$ hotscore bench/printf "%s\\n"/' | bash)
[ "$(width "$tmp/lc")" -le 72 ] && ! grep -qF "$tmp" "$tmp/lc" &&
	tr '\n' ' ' <"$tmp/lc" | grep -q " file:$base inputs, throughput " &&
	printf '%s\n' "$args" | grep -qx "young,file:$base" &&
	printf '%s\n' "$args" | grep -qx -- '--seed' &&
	ok "--format commit: file:$base, no path, 72 columns ($(width "$tmp/lc"))" ||
	fail "commit with a long path" "$(cat "$tmp/lc")"
spaced=$(printf 'my inputs %.0s' 1 2 3 4 5 6 7)x.csv
cp "$tmp/rows.csv" "$tmp/$spaced"
"$hs" bench --iterations 100000 --runs 1 --pool 64 --mode throughput \
	--profile loop,ilog2 --dist "file:$tmp/$spaced" --format commit \
	>"$tmp/qc" 2>&1
args=$(sed -n '/^\$ hotscore bench/,$p' "$tmp/qc" |
       sed '1s/^\$ hotscore bench/printf "%s\\n"/' | bash)
[ "$(width "$tmp/qc")" -le 72 ] && ! grep -qF "$tmp" "$tmp/qc" &&
	printf '%s\n' "$args" | grep -qx "file:$spaced" &&
	ok "--format commit: a quoted name cut across lines stays one word" ||
	fail "commit with a quoted name" "$(cat "$tmp/qc"; printf '%s\n' "$args")"

# samples of 0 (a 2N - N difference clamped at 0) are no observation: not a
# minimum of 0, counted and said; all of them 0: no figure at all
sed -e '/"mode":"latency","fn":"fls"/s/"mt":\[[0-9]*,/"mt":[0,/' \
    -e '/"mode":"latency","fn":"ilog2"/s/"mt":\[[0-9,]*\]/"mt":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]/' \
	"$kres" >"$tmp/zero.jsonl"
"$hs" bench --import "$tmp/zero.jsonl" --csv "$tmp/z.csv" --json "$tmp/z.json" \
	>"$tmp/z" 2>&1
"$hs" bench --import "$tmp/zero.jsonl" --format commit >"$tmp/zc" 2>&1
[ "$(field "$tmp/z.csv" 7 variant) $(field "$tmp/z.csv" 7 mode)" = "fls latency" ] &&
	[ "$(field "$tmp/z.csv" 7 ns_min)" = 30.3460 ] &&
	[ "$(field "$tmp/z.csv" 7 nonpositive_samples)" = 1 ] &&
	[ "$(field "$tmp/z.csv" 8 ns_min)" = "" ] &&
	[ "$(field "$tmp/z.csv" 8 ns_median)" = "" ] &&
	[ "$(field "$tmp/z.csv" 8 nonpositive_samples)" = 16 ] &&
	[ "$(field "$tmp/z.csv" 2 nonpositive_samples)" = 0 ] &&
	ok "CSV: no ns_min of 0; nonpositive_samples counts them" ||
	fail "CSV samples of 0" "$(cut -d, -f1-7,22 "$tmp/z.csv")"
[ "$("$jq" "$tmp/z.json" results.6.nonpositive_samples results.6.ns_per_call.min \
     results.7.nonpositive_samples results.7.ns_per_call.min \
     results.7.cycles_per_call.median comparisons.3.ratio | paste -sd' ')" = \
  "1 30.346 16 null null null" ] &&
	ok "JSON: nonpositive_samples, and null where no sample is above 0" ||
	fail "JSON samples of 0" "$("$jq" "$tmp/z.json" results.6.nonpositive_samples \
		results.6.ns_per_call.min results.7.ns_per_call.min comparisons.3.ratio)"
grep -q '^fls  .* 30.7 \[30.3 - 33.5\]' "$tmp/z" &&
	grep -q '^ilog2 .* - (all 16 samples 0) ' "$tmp/z" &&
	! grep -q '\[0\.000 ' "$tmp/z" &&
	grep -q '^  fls, seed, latency: 1 of 16 samples$' "$tmp/z" &&
	joined "$tmp/zc" | tr '\n' ' ' | grep -q '17 of 128 samples measured 0' &&
	[ "$(width "$tmp/zc")" -le 72 ] &&
	ok "text and commit: no minimum of 0, the samples of 0 counted" ||
	fail "text samples of 0" "$(tail -12 "$tmp/z")"

# --- bench compare: two saved runs, before and after
cmp_run=(--profile loop,ilog2 --dist uniform --mode throughput --invocations 6 --pool 64)
"$hs" bench "${cmp_run[@]}" --iterations 200000 --json "$tmp/c1.json" >/dev/null 2>&1 &&
	"$hs" bench "${cmp_run[@]}" --iterations 200000 --json "$tmp/c2.json" >/dev/null 2>&1 &&
	"$hs" bench "${cmp_run[@]}" --iterations 300000 --json "$tmp/c3.json" >/dev/null 2>&1 ||
	fail "bench compare's runs" "$("$hs" bench "${cmp_run[@]}" --iterations 200000 2>&1 | tail -3)"
"$hs" bench compare "$tmp/c1.json" "$tmp/c2.json" >"$tmp/cmp" 2>&1
rc=$?
rows=$(awk '/^variant +before ns +after ns +ratio/ { on = 1; next } on && NF { print }' "$tmp/cmp")
# each row: the ratio inside its own interval, and a verdict
bad=$(awk '{ r = $4; lo = $5; hi = $7; sub(/\[/, "", lo); sub(/\]/, "", hi)
	     if (!(lo + 0 <= r + 0 && r + 0 <= hi + 0) || $0 !~ /(faster|slower|no difference|within 1 %)$/)
		print }' <<<"$rows")
[ $rc -eq 0 ] && [ "$(grep -c . <<<"$rows")" -eq 2 ] && [ -z "$bad" ] &&
	grep -q '^uniform, throughput:$' "$tmp/cmp" && [ "$(width "$tmp/cmp")" -le 100 ] &&
	! grep -q '^Other' "$tmp/cmp" &&
	ok "bench compare: a ratio in its interval and a verdict per cell, nothing named apart" ||
	fail "bench compare" "exit $rc, bad rows '$bad': $(cat "$tmp/cmp")"
"$hs" bench compare "$tmp/c1.json" "$tmp/c3.json" >"$tmp/cmp" 2>&1 &&
	tr '\n' ' ' <"$tmp/cmp" | tr -s ' ' |
	grep -q 'Other settings (before | after): iterations 200000 | 300000;' &&
	ok "bench compare names the settings that differ" ||
	fail "bench compare settings" "$(head -8 "$tmp/cmp")"
"$hs" bench compare "$tmp/c1.json" "$tmp/c1.json" >"$tmp/cmp" 2>&1 &&
	[ "$(awk '/^(loop|ilog2) / { print $4, $NF }' "$tmp/cmp" | sort -u)" = "1.00 difference" ] &&
	ok "bench compare: a run against itself is 1.00, no difference" ||
	fail "bench compare self" "$(cat "$tmp/cmp")"
# the statistics on runs made by hand: 2x faster after, then the same
saved() {	# NAME VALUES...: a saved run of one cell
	local name=$1 v
	shift
	v=$(IFS=,; echo "$*")
	printf '{"tool":"hotscore bench","schema":2,"environment":{"cpu_model":"%s"},' "$name"
	printf '"config":{"drift_percent":0.4},"results":[{"variant":"loop","dist":"seed",'
	printf '"mode":"latency","role":"baseline","invocation_ns":[%s]}]}\n' "$v"
}
saved m1 10 10.1 9.9 10 10.2 9.8 >"$tmp/s1.json"
saved m1 5 5.05 4.95 5 5.1 4.9 >"$tmp/s2.json"
saved m2 10 10.1 9.9 10 10.2 9.8 >"$tmp/s3.json"
"$hs" bench compare "$tmp/s1.json" "$tmp/s2.json" >"$tmp/cmp" 2>&1 &&
	grep -Eq '^loop +10\.0 +5\.00 +2\.00 \[[0-9.]+ - [0-9.]+\] +faster$' "$tmp/cmp" &&
	"$hs" bench compare "$tmp/s1.json" "$tmp/s3.json" >"$tmp/cmp2" 2>&1 &&
	grep -Eq '^loop +10\.0 +10\.0 +1\.00 \[[0-9.]+ - [0-9.]+\] +no difference$' "$tmp/cmp2" &&
	tr '\n' ' ' <"$tmp/cmp2" | tr -s ' ' | grep -q 'Other machines .*: cpu_model m1 | m2\.' &&
	ok "bench compare: twice as fast is 2.00, faster; the same is 1.00; another CPU named" ||
	fail "bench compare by hand" "$(cat "$tmp/cmp" "$tmp/cmp2")"
saved m1 10 10 10 >"$tmp/s4.json"
"$hs" bench compare "$tmp/s1.json" "$tmp/s4.json" >"$tmp/cmp" 2>&1 &&
	grep -Eq '^loop +10\.0 +10\.0 +1\.00 \(6 \| 3 invocations\) +too few invocations$' "$tmp/cmp" &&
	ok "bench compare: 3 invocations give a ratio, no interval, no verdict" ||
	fail "bench compare few" "$(cat "$tmp/cmp")"
printf 'not json\x01\xff' >"$tmp/bad.json"
printf '{"tool":"hotscore bench","schema":1,"environment":{},"config":{},"results":[]}' \
	>"$tmp/old.json"
saved m1 10 | sed 's/"loop"/"fls"/' >"$tmp/other.json"
expect_bad "bench compare: not JSON" "" bench compare "$tmp/bad.json" "$tmp/s1.json"
expect_bad "bench compare: an older schema" "" bench compare "$tmp/s1.json" "$tmp/old.json"
expect_bad "bench compare: not a bench run" "" bench compare "$tmp/s1.json" "$tmp/keep.json"
expect_bad "bench compare: no cell in common" "" bench compare "$tmp/s1.json" "$tmp/other.json"
expect_bad "bench compare: one file" "" bench compare "$tmp/s1.json"
expect_bad "bench compare: no such file" "" bench compare "$tmp/s1.json" "$tmp/nosuch.json"

# the budget end to end: a precision every interval meets stops at the
# fewest (12) invocations; one none can meet stops at --budget, and says
# so with the widest interval; both print the two intervals and the A/A
budget=(--profile loop,fls --dist uniform --mode throughput --iterations 100000 --pool 64)
"$hs" bench "${budget[@]}" --precision 100% --json "$tmp/bp.json" >"$tmp/bp" 2>&1
rc=$?
[ $rc -eq 0 ] &&
	[ "$("$jq" "$tmp/bp.json" config.budget.stop config.invocations | paste -sd' ')" = "precision 12" ] &&
	grep -q '^Budget: 12 invocations in .* until every confidence interval was within +-100.00 %' "$tmp/bp" &&
	grep -Eq '^fls +uniform +throughput +[0-9.]+ \[[0-9.]+ - [0-9.]+\] +\[[0-9.]+ - [0-9.]+\]' "$tmp/bp" &&
	grep -q '^A/A, loop against itself, uniform, throughput: ' "$tmp/bp" &&
	[ "$("$jq" "$tmp/bp.json" comparisons.0.rerun_low)" != null ] &&
	ok "budget: a precision every CI meets stops at 12 invocations; both intervals and the A/A printed" ||
	fail "budget precision" "exit $rc: $("$jq" "$tmp/bp.json" config.budget.stop config.invocations | paste -sd' '); $(grep -A1 '^Budget' "$tmp/bp")"
"$hs" bench "${budget[@]}" --precision 0.01% --budget 6s --json "$tmp/bb.json" >"$tmp/bb" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$("$jq" "$tmp/bb.json" config.budget.stop)" = budget ] &&
	tr '\n' ' ' <"$tmp/bb" | grep -q 'not every confidence interval reached +-0.01 % (--precision): the widest, fls, uniform, throughput, is' &&
	ok "budget: a precision no CI meets stops at --budget, and says how wide the widest is" ||
	fail "budget time" "exit $rc: $("$jq" "$tmp/bb.json" config.budget.stop); $(grep -A2 '^Budget' "$tmp/bb")"

report_counts
