#!/usr/bin/env bash
# make fuzz: the libFuzzer harnesses of tests/fuzz/ and their figures.
#
#   fuzz.sh check CC         exit 1 with one line unless CC links libFuzzer
#                            with ASan and UBSan
#   fuzz.sh run DIR NAME...  run DIR/NAME for each NAME, FUZZ_JOBS at a time,
#                            for FUZZ_SECONDS each or, if set, FUZZ_RUNS
#                            executions, an input's time bounded by
#                            FUZZ_TIMEOUT s (1); print one summary line each ("ok"
#                            or "FAIL", as the test suites) and "N passed,
#                            N failed", write the table to DIR/report.md,
#                            and with FUZZ_DOC=FILE into FILE's
#                            fuzz-figures section
#
# Each harness starts from its seed corpus (tests/fuzz/corpus/NAME, read
# only) and DIR/work/NAME (new inputs, emptied first); what it finds goes
# to DIR/artifacts/NAME/, its output to DIR/log/NAME.log.  A harness
# passes if it ran its time (or its executions) without a finding.  Exit
# 1 if any did not.  A finding's lines from the log and its input in
# base64 are printed too: on a CI machine, the artifact is gone.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

check() {	# CC
	local cc=$1 tmp rc
	local pkgs="Debian's clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)"

	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "make fuzz: no '$cc': it needs $pkgs" >&2
		exit 1
	fi
	tmp=$(mktemp -d)
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
		'{ (void)d; (void)n; return 0; }' >"$tmp/t.c"
	"$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" \
		>/dev/null 2>&1
	rc=$?
	rm -rf "$tmp"
	if [ $rc -ne 0 ]; then
		echo "make fuzz: '$cc' cannot link libFuzzer with ASan and UBSan: it needs $pkgs" >&2
		exit 1
	fi
}

# libFuzzer's own options for a harness, beyond the common ones
extra_options() {	# NAME
	case $1 in
	kmod_import) echo -max_len=8192 ;;	# the module's file is 3.4 KB
	bench_compare) echo -max_len=8192 ;;	# a saved run of 3 variants: 4.4 KB
	*) echo -max_len=4096 ;;
	esac
}

run_one() {	# NAME
	local name=$1 limit dict=()
	local work=$dir/work/$name art=$dir/artifacts/$name

	rm -rf "$work" "$art"
	mkdir -p "$work" "$art" "$dir/log"
	if [ -n "$runs" ]; then
		limit=-runs=$runs
	else
		limit=-max_total_time=$seconds
	fi
	[ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
	UBSAN_OPTIONS=print_stacktrace=1 \
	"$dir/$name" "$limit" -timeout="$timeout" -detect_leaks=1 \
		-print_final_stats=1 -artifact_prefix="$art/" \
		$(extra_options "$name") "${dict[@]}" \
		"$work" "$here/corpus/$name" >"$dir/log/$name.log" 2>&1
	echo $? >"$dir/log/$name.rc"
}

# The figures of one harness from its log, as "key=value" lines.
figures() {	# NAME
	local log=$dir/log/$1.log art=$dir/artifacts/$1 last

	stat_of() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
	last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | grep ' cov: ' | tail -n 1)
	echo "rc=$(cat "$dir/log/$1.rc")"
	echo "execs=$(stat_of number_of_executed_units)"
	echo "eps=$(stat_of average_exec_per_sec)"
	echo "rss=$(stat_of peak_rss_mb)"
	echo "cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")"
	echo "ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$last")"
	echo "corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\) .*/\1/p' <<<"$last")"
	echo "slow=$(sed -n 's/^fuzz: .* slowest \([0-9.]*\) ms.*/\1/p' "$log" | tail -n 1)"
	echo "leaks=$(grep -c 'ERROR: LeakSanitizer' "$log")"
	echo "san=$(grep -cE 'ERROR: AddressSanitizer|runtime error:' "$log")"
	echo "timeouts=$(find "$art" -name 'timeout-*' | wc -l)"
	echo "ooms=$(find "$art" -name 'oom-*' | wc -l)"
	echo "crashes=$(find "$art" -name 'crash-*' | wc -l)"
	echo "seeds=$(find "$here/corpus/$1" -type f | wc -l)"
}

run() {	# DIR NAME...
	local name passed=0 failed=0 cmd clang cpu ncpu when f rc execs eps rss
	local cov ft corp slow leaks san timeouts ooms crashes seeds rev
	local load_start load_end line why

	dir=$1
	shift
	seconds=${FUZZ_SECONDS:-60}
	runs=${FUZZ_RUNS:-}
	timeout=${FUZZ_TIMEOUT:-1}
	jobs=${FUZZ_JOBS:-1}
	cmd="make fuzz"
	if [ -n "$runs" ]; then
		cmd+=" FUZZ_RUNS=$runs"
		echo "fuzz: $# harnesses, $runs executions each, $jobs at a time, an input at most $timeout s"
	else
		cmd+=" FUZZ_SECONDS=$seconds"
		echo "fuzz: $# harnesses, $seconds s each, $jobs at a time, an input at most $timeout s"
	fi
	[ "$jobs" != 1 ] && cmd+=" FUZZ_JOBS=$jobs"
	[ "$timeout" != 1 ] && cmd+=" FUZZ_TIMEOUT=$timeout"
	[ -n "${FUZZ_DOC:-}" ] && cmd+=" FUZZ_DOC=$FUZZ_DOC"
	# what was built, before anyone commits during a long run
	rev=$(git -C "$root" describe --always --dirty 2>/dev/null || echo '?')
	load_start=$(cut -d' ' -f1-3 /proc/loadavg)
	for name; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
		echo "fuzz $name: started $(date +%H:%M:%S)"
		run_one "$name" &
	done
	wait
	load_end=$(cut -d' ' -f1-3 /proc/loadavg)

	clang=$(${FUZZ_CC:-clang} --version | head -n 1)
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	ncpu=$(nproc)
	when=$(date -u '+%Y-%m-%d %H:%M UTC')
	{
		echo '<!-- fuzz-figures:begin -->'
		echo '## Figures'
		echo
		echo "One run of \`$cmd\`, $when, at $rev: $cpu, $ncpu CPUs"
		echo "(load average $load_start at the start, $load_end at the end); $clang."
		echo "Each harness built with \`-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all\`"
		echo "and run with \`-timeout=$timeout -detect_leaks=1\` from its seed corpus.  The slowest input is the"
		echo "longest any one input took inside the harness (tests/fuzz/fuzz.c times each); the corpus"
		echo "is libFuzzer's at the end, inputs/bytes."
		echo
		echo "| harness | executions | exec/s | crashes | leaks | sanitizer reports | timeouts (> $timeout s) | slowest input | seeds | corpus | cov | ft |"
		echo '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
	} >"$dir/report.md"
	for name; do
		eval "$(figures "$name")"
		f="$crashes crash$( [ "$crashes" = 1 ] || echo es)"
		line="$name: $execs executions, $eps exec/s, $f, $leaks leaks,"
		line+=" $san sanitizer reports, $timeouts timeouts, slowest input"
		line+=" ${slow:-?} ms; corpus $seeds seeds -> $corp; cov $cov ft $ft;"
		line+=" peak RSS $rss MB"
		echo "| $name | $execs | $eps | $crashes | $leaks | $san | $timeouts | ${slow:-?} ms | $seeds | $corp | $cov | $ft |" \
			>>"$dir/report.md"
		why=
		if grep -q 'libFuzzer: run interrupted' "$dir/log/$name.log"; then
			why="interrupted by a signal (not a finding)"
		elif [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ] || [ "$leaks" -ne 0 ] ||
		   [ "$san" -ne 0 ] || [ "$timeouts" -ne 0 ] || [ "$ooms" -ne 0 ]; then
			why="FOUND SOMETHING (exit $rc); log $dir/log/$name.log"
		elif [ -n "$runs" ] && [ "${execs:-0}" -lt "$runs" ]; then
			why="stopped after $execs of $runs executions; log $dir/log/$name.log"
		fi
		if [ -z "$why" ]; then
			passed=$((passed + 1))
			echo "ok   $line"
			continue
		fi
		failed=$((failed + 1))
		echo "FAIL $line"
		echo "  $why"
		grep -m 8 -E 'fuzz_assert\(|runtime error:|ERROR: |^SUMMARY: ' \
			"$dir/log/$name.log" | sed 's/^/  /'
		for f in "$dir/artifacts/$name"/*; do
			[ -f "$f" ] || continue
			echo "  reproduce: $dir/$name $f  (then keep it in tests/fuzz/corpus/$name/)"
			echo "  the input, base64: $(base64 -w 0 "$f")"
		done
	done
	echo '<!-- fuzz-figures:end -->' >>"$dir/report.md"
	echo "fuzz: the table is in $dir/report.md"
	if [ "$failed" -eq 0 ] && [ -n "${FUZZ_DOC:-}" ]; then
		. "$root/scripts/doc-section.sh"
		splice_section "$FUZZ_DOC" fuzz-figures "$dir/report.md"
		echo "fuzz: figures written to $FUZZ_DOC"
	elif [ -n "${FUZZ_DOC:-}" ]; then
		echo "fuzz: $FUZZ_DOC not written"
	fi
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ] || exit 1
}

case ${1:-} in
check) check "${2:-clang}" ;;
run) shift; run "$@" ;;
*) echo "usage: fuzz.sh check CC | run DIR NAME..." >&2; exit 2 ;;
esac
