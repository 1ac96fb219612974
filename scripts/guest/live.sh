#!/bin/busybox sh
# Sourced by the guest's /init in the DAMON kernel (scripts/guest/init.sh,
# or live-init.sh for scripts/live-runs.sh): the live run.  `hotscore
# workload` (the static build, /bin/hotscore) runs /live.cfg
# (scripts/guest/live.cfg: stairs and a swept region) in real memory under a
# vaddr kdamond started through
# DAMON sysfs with the simulator's defaults (sample 5 ms, aggregation 100
# ms, update 60 s, 10 to 1000 regions; the default scheme: pageout of
# regions at 0 % access rate and 2 s or older, weights 0 0 1) but with a
# size quota alone, 8 MiB per 1 s: a time quota would measure how fast the
# emulated CPU pages out; and a second pageout scheme on any region, 1 MiB
# per 1 s, weights 0 700 300 (live_scheme_any).  scripts/live-gate.sh
# gives sim the same two schemes.
# Meanwhile hotscore.ko mode=capture records every
# damon_hot_score() and damon_cold_score() call, and tracefs records
# damon:damon_aggregated and two kprobe events (live_samples).  The
# capture, the trace, the scheme's stats and the workload's report go to
# the console between markers, gzipped and in base64; the host checks them
# and runs the gate.  live.conf may set live_config (a masim config in the
# initrd, default /live.cfg) and live_duration (default 2m: two passes, for
# at least 10000 calls under TCG), live_calls the capture's limit (10^6)
# and live_during a command run while the workload runs.
#
# Two things make the guest a fair stand-in for a machine (docs/sim.md,
# "Sim against a real kdamond"):
# - QEMU's software TLB does not evict: once a phase's hot 10 MB region
#   (2441 pages) is in it, the CPU never walks the page tables again, so the
#   accessed bits that kdamond clears are never set again and DAMON sees no
#   access at all.  A real CPU's TLB holds a few MiB and misses all the time.
#   A second process that wakes every millisecond makes the kernel switch
#   address spaces, and every CR3 write flushes QEMU's TLB (/bin/tick,
#   scripts/guest/tick.c); live_tlb_miss=0 in live.conf turns it off, to
#   see the difference.
# - Address-space randomization is off for the run, so that the static
#   binary's heap follows it as in a non-PIE build without ASLR, instead of
#   hundreds of MiB away: DAMON's first region spans that gap.

# dump NAME FILE: FILE on the console between "=== NAME begin/end"
dump() {
	echo "=== $1 begin"
	gzip -c "$2" | base64
	echo "=== $1 end"
}

# live_attrs DIR: the context's intervals and regions, sim's defaults
live_attrs() {
	echo 5000 >"$1/monitoring_attrs/intervals/sample_us"
	echo 100000 >"$1/monitoring_attrs/intervals/aggr_us"
	echo 60000000 >"$1/monitoring_attrs/intervals/update_us"
	echo 10 >"$1/monitoring_attrs/nr_regions/min"
	echo 1000 >"$1/monitoring_attrs/nr_regions/max"
}

# live_scheme DIR: sim's default scheme (6.1's sysfs: nr_accesses in
# samples per aggregation, age in aggregation intervals: 2 s = 20)
live_scheme() {
	echo pageout >"$1/action"
	echo 0 >"$1/access_pattern/sz/min"
	echo 18446744073709551615 >"$1/access_pattern/sz/max"
	echo 0 >"$1/access_pattern/nr_accesses/min"
	echo 0 >"$1/access_pattern/nr_accesses/max"
	echo 20 >"$1/access_pattern/age/min"
	echo 4294967295 >"$1/access_pattern/age/max"
	echo 0 >"$1/quotas/ms"
	echo 8388608 >"$1/quotas/bytes"
	echo 1000 >"$1/quotas/reset_interval_ms"
	echo 0 >"$1/quotas/weights/sz_permil"
	echo 0 >"$1/quotas/weights/nr_accesses_permil"
	echo 1000 >"$1/quotas/weights/age_permil"
}

# live_scheme_any DIR: a second pageout scheme on every region, hot or
# cold, young or old, 1 MiB per 1 s, weights 0 700 300: so that the capture
# has calls with nr_accesses above 0 and both weights, on which a wrong
# frequency subscore would show (the first scheme's are all 0 and 0 1000)
live_scheme_any() {
	echo pageout >"$1/action"
	echo 0 >"$1/access_pattern/sz/min"
	echo 18446744073709551615 >"$1/access_pattern/sz/max"
	echo 0 >"$1/access_pattern/nr_accesses/min"
	echo 4294967295 >"$1/access_pattern/nr_accesses/max"
	echo 0 >"$1/access_pattern/age/min"
	echo 4294967295 >"$1/access_pattern/age/max"
	echo 0 >"$1/quotas/ms"
	echo 1048576 >"$1/quotas/bytes"
	echo 1000 >"$1/quotas/reset_interval_ms"
	echo 0 >"$1/quotas/weights/sz_permil"
	echo 700 >"$1/quotas/weights/nr_accesses_permil"
	echo 300 >"$1/quotas/weights/age_permil"
}

# live_context PID: kdamond 0 afresh, with one vaddr context on PID and
# sim's intervals; its directory in $ctx
live_context() {
	local k=/sys/kernel/mm/damon/admin/kdamonds
	echo 1 >$k/nr_kdamonds
	echo 1 >$k/0/contexts/nr_contexts
	ctx=$k/0/contexts/0
	echo vaddr >$ctx/operations
	live_attrs $ctx
	echo 0 >$ctx/targets/nr_targets
	echo 1 >$ctx/targets/nr_targets
	echo "$1" >$ctx/targets/0/pid_target
}

# live_kdamond PID: one kdamond, one vaddr context on PID, two schemes
live_kdamond() {
	local k=/sys/kernel/mm/damon/admin/kdamonds c
	live_context "$1"
	c=$ctx
	echo 2 >$c/schemes/nr_schemes
	live_scheme $c/schemes/0
	live_scheme_any $c/schemes/1
	echo on >$k/0/state
}

# live_stats: the scheme's cumulative stats, "NAME VALUE" lines
live_stats() {
	local k=/sys/kernel/mm/damon/admin/kdamonds/0 f
	echo update_schemes_stats >$k/state
	for f in nr_tried sz_tried nr_applied sz_applied qt_exceeds; do
		echo "$f $(cat $k/contexts/0/schemes/0/stats/$f)"
	done
}

# live_samples T on|off|remove: two kprobe events in the same trace as
# damon_aggregated: hs_prepare at every sample's start (vaddr's
# damon_va_prepare_access_checks()) and hs_sample at its check
# (damon_va_check_accesses()).  convert counts the samples each aggregation
# really took, for under TCG kdamond sleeps late, and how long each sample
# was open: only accesses in that window can be seen.  Removing an event
# empties the trace buffers: only after the dump.
live_samples() {
	case $2 in
	on)	echo 'p:hs_prepare damon_va_prepare_access_checks' >>$1/kprobe_events &&
			echo 'p:hs_sample damon_va_check_accesses' >>$1/kprobe_events &&
			echo 1 >$1/events/kprobes/hs_prepare/enable &&
			echo 1 >$1/events/kprobes/hs_sample/enable ;;
	off)	echo 0 >$1/events/kprobes/hs_sample/enable
		echo 0 >$1/events/kprobes/hs_prepare/enable ;;
	remove)	echo '-:hs_sample' >>$1/kprobe_events
		echo '-:hs_prepare' >>$1/kprobe_events ;;
	esac
}

# live_poll_stats PID FILE: the scheme's stats every second while PID runs
# (sysfs updates them only while the kdamond runs, and a vaddr kdamond
# stops when its target exits)
live_poll_stats() {
	while kill -0 "$1" 2>/dev/null; do
		live_stats >"$2.tmp" && mv "$2.tmp" "$2"
		sleep 1
	done
}

# live_workload CFG DURATION OUT: `hotscore workload CFG --wait` in the
# background, with address-space randomization off until it has exec'd;
# sets wpid once it says it is ready (30 s at most).  Its output goes to
# OUT.out, OUT.err and OUT.json.
live_workload() {
	local aslr i=0
	aslr=$(cat /proc/sys/kernel/randomize_va_space)
	echo 0 >/proc/sys/kernel/randomize_va_space
	/bin/hotscore workload "$1" --duration "$2" --wait --json "$3.json" \
		>"$3.out" 2>"$3.err" &
	wpid=$!
	while ! grep -q "pid $wpid ready" "$3.err" && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "$aslr" >/proc/sys/kernel/randomize_va_space
}

live_run() {
	local t=/sys/kernel/tracing d=/sys/kernel/debug/hotscore tpid spid rc
	local cfg=${live_config:-/live.cfg}
	if [ ! -x /bin/hotscore ]; then
		echo "=== live: no /bin/hotscore in the initrd"
		return
	fi
	mount -t tracefs tracefs $t
	if [ ! -e $t/events/damon/damon_aggregated/enable ]; then
		echo "=== live: no damon:damon_aggregated tracepoint"
		return
	fi
	echo 16384 >$t/buffer_size_kb
	echo >$t/trace
	dmesg -c >/dev/null
	finit /hotscore.ko mode=capture calls=${live_calls:-1000000} duration=10m
	echo "=== insmod capture rc=$?"
	live_workload "$cfg" "${live_duration:-2m}" /tmp/workload
	echo "=== live: workload $cfg, pid $wpid: $(cat /tmp/workload.err)"
	# its mappings, for the simulator's model of the process's own memory
	dump maps /proc/$wpid/maps
	echo 1 >$t/events/damon/damon_aggregated/enable
	live_samples $t on || echo "=== live: no hs_sample kprobe event"
	live_kdamond $wpid
	echo "=== live: kdamond $(cat /sys/kernel/mm/damon/admin/kdamonds/0/state), workload started at $(up) s"
	tpid=
	if [ "${live_tlb_miss:-1}" = 1 ]; then
		tick >/tmp/tick.out &
		tpid=$!
	fi
	live_poll_stats $wpid /tmp/damos_stats.txt &
	spid=$!
	kill -USR1 $wpid
	# scripts/guest/check.sh's phases, while the workload runs
	[ -n "${live_during:-}" ] && $live_during
	wait $wpid
	rc=$?
	echo "=== live: workload rc=$rc at $(up) s"
	if [ -n "$tpid" ]; then
		kill $tpid
		wait $tpid
		echo "=== live: $(cat /tmp/tick.out)"
	fi
	wait $spid
	echo off >/sys/kernel/mm/damon/admin/kdamonds/0/state 2>/dev/null
	echo 0 >$t/events/damon/damon_aggregated/enable
	live_samples $t off
	echo "=== live: trace lost events: $(grep -h 'overrun\|dropped' $t/per_cpu/cpu0/stats | tr '\n' ' ')"
	echo "=== capture_info begin"
	cat $d/capture_info
	echo "=== capture_info end"
	cat $d/capture >/tmp/capture.csv
	dump capture /tmp/capture.csv
	cat $t/trace >/tmp/trace.txt
	dump trace /tmp/trace.txt
	live_samples $t remove
	dump damos_stats /tmp/damos_stats.txt
	dump workload /tmp/workload.out
	dump workload_json /tmp/workload.json
	rmmod hotscore
	echo "=== rmmod capture rc=$?"
	echo "=== dmesg live begin"
	dmesg -c
	echo "=== dmesg live end"
}
