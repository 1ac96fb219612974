#!/bin/busybox sh
# Sourced by scripts/guest/check.sh when check.conf sets damos_run=1
# (scripts/kernel-check --damos): hotscore replay's run, on a 6.1 or later
# kernel with damos_before_apply (6.7+).  `hotscore workload` runs
# /live.cfg under a fresh vaddr kdamond with two quota'd pageout schemes
# (damos_schemes below), and tracefs records, from before the kdamond's
# first sample to its end:
#   damon:damon_aggregated    the regions after each aggregation's apply;
#   damon:damos_before_apply  every region a scheme applies to;
#   kprobes hs_tick, hs_quota hotscore.ko's debugfs damos_kprobes (its
#                             damos_probe.c): the sample count and jiffies
#                             at each sample, and the quota's state at each
#                             application.
# The trace goes to the console between "=== damos_trace begin/end",
# gzipped and in base64; scripts/kernel-check runs hotscore replay on it
# with the same schemes (DAMOS_REPLAY_ARGS there: keep the two alike).

# damos_schemes DIR: the context's two schemes, as hotscore replay's
#   --damos_action pageout --damos_access_rate 0% 0% --damos_age 1s max
#     --damos_quotas 0 64MiB 1s 0 0 1000 --damos_apply_interval 100ms
#   --damos_action pageout --damos_access_rate 0% 100% --damos_age 0 max
#     --damos_quotas 2 64MiB 500 0 700 300 --damos_apply_interval 300ms
# a size quota; a time quota beside a size one, reset twice as often and
# applied every third aggregation.
damos_schemes() {
	local s
	echo 0 >"$1/nr_schemes"
	echo 2 >"$1/nr_schemes"
	for s in 0 1; do
		echo pageout >"$1/$s/action"
		echo 0 >"$1/$s/access_pattern/sz/min"
		echo 18446744073709551615 >"$1/$s/access_pattern/sz/max"
		echo 0 >"$1/$s/access_pattern/nr_accesses/min"
		echo 4294967295 >"$1/$s/access_pattern/age/max"
		echo 0 >"$1/$s/quotas/weights/sz_permil"
	done
	echo 0 >"$1/0/access_pattern/nr_accesses/max"
	echo 10 >"$1/0/access_pattern/age/min"
	echo 0 >"$1/0/quotas/ms"
	echo 67108864 >"$1/0/quotas/bytes"
	echo 1000 >"$1/0/quotas/reset_interval_ms"
	echo 0 >"$1/0/quotas/weights/nr_accesses_permil"
	echo 1000 >"$1/0/quotas/weights/age_permil"
	echo 0 >"$1/0/apply_interval_us"
	echo 20 >"$1/1/access_pattern/nr_accesses/max"
	echo 0 >"$1/1/access_pattern/age/min"
	echo 2 >"$1/1/quotas/ms"
	echo 67108864 >"$1/1/quotas/bytes"
	echo 500 >"$1/1/quotas/reset_interval_ms"
	echo 700 >"$1/1/quotas/weights/nr_accesses_permil"
	echo 300 >"$1/1/quotas/weights/age_permil"
	echo 300000 >"$1/1/apply_interval_us"
}

# damos_events T 0|1: the four events off or on
damos_events() {
	echo "$2" >"$1/events/damon/damon_aggregated/enable"
	echo "$2" >"$1/events/damon/damos_before_apply/enable"
	echo "$2" >"$1/events/kprobes/hs_tick/enable"
	echo "$2" >"$1/events/kprobes/hs_quota/enable"
}

damos_run() {
	local t=/sys/kernel/tracing d=/sys/kernel/debug/hotscore
	local k=/sys/kernel/mm/damon/admin/kdamonds c tpid rc
	if [ ! -e $t/events/damon/damos_before_apply/enable ]; then
		echo "=== damos: no damon:damos_before_apply tracepoint"
		return
	fi
	echo off >$k/0/state 2>/dev/null
	echo 32768 >$t/buffer_size_kb
	echo 0 >$t/tracing_on
	echo >$t/trace
	dmesg -c >/dev/null
	finit /hotscore.ko mode=capture calls=1000 duration=10m
	echo "=== damos: insmod rc=$?"
	if ! cat $d/damos_kprobes >>$t/kprobe_events; then
		echo "=== damos: kprobe_events refused: $(cat $d/damos_kprobes 2>&1 | head -2)"
		rmmod hotscore
		return
	fi
	live_workload "${live_config:-/live.cfg}" "${damos_duration:-90s}" \
		/tmp/damos-workload
	live_context "$wpid"
	c=$ctx
	damos_schemes $c/schemes
	damos_events $t 1
	echo 1 >$t/tracing_on
	echo on >$k/0/state
	echo "=== damos: kdamond $(cat $k/0/state), workload pid $wpid at $(up) s"
	tick >/tmp/damos-tick.out &
	tpid=$!
	kill -USR1 $wpid
	wait $wpid
	rc=$?
	kill $tpid
	wait $tpid
	echo off >$k/0/state 2>/dev/null
	echo 0 >$t/tracing_on
	damos_events $t 0
	echo "=== damos: workload rc=$rc at $(up) s; trace lost events: $(grep -h 'overrun\|dropped' $t/per_cpu/cpu0/stats | tr '\n' ' ')"
	cat $t/trace >/tmp/damos.txt
	dump damos_trace /tmp/damos.txt
	echo '-:hs_quota' >>$t/kprobe_events
	echo '-:hs_tick' >>$t/kprobe_events
	rmmod hotscore
	echo "=== damos: rmmod rc=$?"
}
