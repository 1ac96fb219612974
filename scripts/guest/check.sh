#!/bin/busybox sh
# The guest's /init for scripts/kernel-check: a kernel built with a user's
# patch (or none) and the KUnit suite `make kunit` writes.  In order:
#   1. KUnit: the suite ran at boot; its lines go to the console.
#   2. identify: hotscore.ko mode=identify calls this kernel's
#      damon_hot_score() on its generated inputs against every profile,
#      and times it beside the unpatched kernel's profile (check.conf's
#      base), compiled into the module.
#   3. a live capture: hotscore.ko mode=capture records every call a vaddr
#      kdamond makes while `hotscore workload` runs (scripts/guest/live.sh's
#      run: its two schemes), through phases that reach the classes where
#      kernel versions differ (check_phases below).  Only on a kernel that
#      clamps: identify counts the scores outside [0, 99], and an unclamped
#      kernel would overrun its quota's histogram on these inputs.
#   4. with damos_run=1 in check.conf, hotscore replay's DAMOS trace
#      (scripts/guest/damos.sh);
#   5. then a user_input quota goal's effective sizes, window by window
#      (scripts/guest/goal.sh).
# Each result is printed between "=== NAME begin/end" markers, files
# gzipped and in base64; then reboot (QEMU runs with -no-reboot).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "=== kernel $(uname -r)"
up() { cut -d' ' -f1 /proc/uptime; }
base=debian-6.12.117 phase_s=6
. /check.conf
. /live.sh
k=/sys/kernel/mm/damon/admin/kdamonds

echo "=== kunit begin"
# KUnit's lines (KTAP), from the first to the end of hotscore's suite
dmesg | sed 's/^\[ *[0-9.]*\] //' | awk '/^KTAP version/ { on = 1 }
	on { print } on && /^(not )?ok [0-9]+ damon-ops-common/ { exit }'
echo "=== kunit end"
dmesg -c >/dev/null

insmod /hotscore.ko mode=identify iterations=200000 runs=2 variants="$base"
echo "=== insmod identify rc=$?"
echo "=== identify begin"
cat /sys/kernel/debug/hotscore/results
echo "=== identify end"
rmmod hotscore
echo "=== dmesg identify begin"
dmesg -c | tee /tmp/identify.dmesg
echo "=== dmesg identify end"

# commit: the sysfs files into the running kdamond
commit() {
	echo commit >$k/0/state || echo "=== check: commit refused at $1"
	echo "=== phase $1 at $(up) s"
}

# weights W_NR W_AGE [W_NR1 W_AGE1]: the schemes' quota weights (scheme
# 1's, if given, apart)
weights() {
	local d=$k/0/contexts/0/schemes
	echo "$1" >$d/0/quotas/weights/nr_accesses_permil
	echo "$2" >$d/0/quotas/weights/age_permil
	echo "${3:-$1}" >$d/1/quotas/weights/nr_accesses_permil
	echo "${4:-$2}" >$d/1/quotas/weights/age_permil
}

# intervals SAMPLE AGGR: the context's, in us
intervals() {
	echo "$1" >$k/0/contexts/0/monitoring_attrs/intervals/sample_us
	echo "$2" >$k/0/contexts/0/monitoring_attrs/intervals/aggr_us
}

# apply_interval US: both schemes' apply interval (6.7+; 0: the
# aggregation interval); false where the kernel has none
apply_interval() {
	local s
	for s in 0 1; do
		[ -e $k/0/contexts/0/schemes/$s/apply_interval_us ] || return 1
		echo "$1" >$k/0/contexts/0/schemes/$s/apply_interval_us
	done
}

# check_phases: while the workload runs, each phase for phase_s seconds:
#   weights   2^31 each, which kstrtouint takes: their u32 sum wraps to 0,
#             so the weighted sum is not divided; and on the second scheme
#             2^31 + 3 and 2^31 - 1, whose sum wraps to 2: the weighted sum
#             wraps too, and half of it, past 2^30, overflows the int
#             hotness * DAMOS_MAX_SCORE before the clamp;
#   apply     (6.7+) schemes applied every 15 ms, within a 63 ms
#             aggregation of 3 ms samples: nr_accesses is the window's
#             count so far and nr_accesses_bp the moving sum, so 6.12's
#             frequency differs from 6.1's arithmetic on the same region;
#             and mm-new's closed-form moving sum parts from the running
#             one.  Scored k samples into a window of 21, a region seen
#             in m samples of its last window has a running sum of
#             m * (21 - k) / 21 counts (each sample drops m * 10000 / 21,
#             truncated), while the closed form truncates
#             (21 - k) * 10000 / 21 first: where m * (21 - k) / 21 is a
#             whole number, which for a window of 21 happens for every m
#             that is a multiple of 3 or 7, the closed form is one count
#             short.  The first window after the commit has the previous
#             phase's counts rescaled to 21 (a region hot in all 20
#             samples counts 21), so every region hot before is one
#             (docs/kernel.md, "The running moving sum");
#   shrink    the aggregation interval halved online: 6.1 keeps
#             nr_accesses (up to 20) above the new maximum (10).  6.12
#             rescales nr_accesses and sets nr_accesses_bp from it
#             (damon_update_monitoring_result()), in the after_aggregation
#             callback, just before kdamond_reset_aggregated() makes that
#             count last_nr_accesses: its next window starts exact;
#   inverted  (6.1, which takes it; 6.12 refuses sample > aggr) a sample
#             interval above the aggregation interval: a divisor of 0
#             that the 2026 hotfix makes 1, and mm-new's window of 0;
#   zero      sample and aggregation intervals of 0, which the hotfix made
#             safe: a divisor of 1, and ages grow every sample;
#   long      a 2^60 us aggregation interval after the zero phase (6.12
#             scales no result from a zero interval): the ages counted at
#             zero (tens) times 2^60 wrap the unsigned long product, and
#             age_in_sec is truncated to 32 bits.  6.12's schemes apply
#             every 100 ms; 6.1 applies them once, when the sysfs commit
#             lands in the zero phase's aggregation (after_aggregation),
#             and then waits for an aggregation that never ends (and
#             refuses further commits).
check_phases() {
	sleep "$phase_s"
	weights 2147483648 2147483648 2147483651 2147483647
	commit weights
	sleep "$phase_s"
	weights 700 300
	if apply_interval 15000; then
		intervals 3000 63000
		commit apply
		sleep "$phase_s"
	fi
	intervals 5000 50000
	commit shrink
	sleep "$phase_s"
	if [ ! -e $k/0/contexts/0/schemes/0/apply_interval_us ]; then
		intervals 100000 5000
		commit inverted
		sleep "$phase_s"
	fi
	apply_interval 0	# 15 ms of samples of 0 us would be forever
	intervals 0 0
	commit zero
	sleep "$phase_s"
	apply_interval 100000
	intervals 5000 1152921504606846976
	commit long
	sleep "$phase_s"
}

clamps=$(sed -n 's/.*identify: scores outside \[0, 99\]: \([0-9]*\).*/\1/p' /tmp/identify.dmesg 2>/dev/null)
live_duration=$((phase_s * 6 + 5))s
live_calls=400000
if [ ! -d "$k" ]; then
	echo "=== check: no DAMON sysfs"
elif [ "$clamps" = 0 ]; then
	live_during=check_phases
	live_run
else
	echo "=== check: edge phases skipped: identify saw ${clamps:-no count of} scores outside [0, 99]"
	live_run
fi
# 4. (scripts/kernel-check --damos) hotscore replay's run: a fresh kdamond
#    under two quota'd schemes, traced from its first sample
if [ "${damos_run:-0}" = 1 ] && [ -d "$k" ]; then
	. /damos.sh
	damos_run
	# 5. and a quota goal driven by a script, for sim to be held to
	. /goal.sh
	goal_run
fi
echo "=== ALL_DONE"
reboot -f
