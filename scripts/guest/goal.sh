#!/bin/busybox sh
# Sourced by scripts/guest/check.sh when check.conf sets damos_run=1
# (scripts/kernel-check --damos): a DAMOS quota goal in a real 6.12
# kdamond, driven by a script, for the simulator to be held to.
#
# A fresh vaddr kdamond watches `hotscore workload` under one stat scheme
# whose only limit is a user_input goal (target 10000, reset interval 2 s,
# no time or size quota).  The script is a user whose metric is the
# effective size itself, in ten-thousandths of 1 MiB: after each charge
# window it reads effective_bytes and commits that as the next
# current_value, so the loop is closed the way a user's tuner would close
# it, and converges on 1 MiB.  Each line "goal I CURRENT ESZ T" is a window
# that set a new effective size: I from 1, CURRENT the value committed
# before it started, ESZ the effective size it set, T the uptime read.
#
# 6.12 leaves the first charge window's esz at 0 and computes one at each
# later window's start; commands through the kdamond's state file are
# handled in its after_sampling callback (mm/damon/sysfs.c), so the
# value committed after one window
# is in place long before the next starts: each write waits for its
# handling (at least 100 ms, damon_sysfs_handle_cmd()), so a poll takes a
# few hundred ms, up to 0.7 s under TCG; a window of 2 s leaves room.  The run ends when the
# committed value meets the target, where the loop holds its size
# (damon_feed_loop_next_input() returns the last input), or after 40
# windows, or 6 s (three windows) without a new size.

GOAL_MIB=1048576

goal_scheme() {
	local s=$1/0
	echo 0 >"$1/nr_schemes"
	echo 1 >"$1/nr_schemes"
	echo stat >"$s/action"
	echo 0 >"$s/access_pattern/sz/min"
	echo 18446744073709551615 >"$s/access_pattern/sz/max"
	echo 0 >"$s/access_pattern/nr_accesses/min"
	echo 4294967295 >"$s/access_pattern/nr_accesses/max"
	echo 0 >"$s/access_pattern/age/min"
	echo 4294967295 >"$s/access_pattern/age/max"
	echo 0 >"$s/quotas/ms"
	echo 0 >"$s/quotas/bytes"
	echo 2000 >"$s/quotas/reset_interval_ms"
	echo 0 >"$s/quotas/weights/sz_permil"
	echo 0 >"$s/quotas/weights/nr_accesses_permil"
	echo 0 >"$s/quotas/weights/age_permil"
	echo 1 >"$s/quotas/goals/nr_goals"
	echo user_input >"$s/quotas/goals/0/target_metric"
	echo 10000 >"$s/quotas/goals/0/target_value"
	echo 0 >"$s/quotas/goals/0/current_value"
}

# goal_loop K Q G: read effective_bytes after every state command; commit
# the next current_value after each new size
goal_loop() {
	local k=$1 q=$2 g=$3 e prev=0 cur=0 i=0 last now
	last=$(up)
	while [ $i -lt 40 ]; do
		echo update_schemes_effective_quotas >"$k/state" || break
		e=$(cat "$q/effective_bytes")
		now=$(up)
		case $e in ''|*[!0-9]*) echo "=== goal: effective_bytes '$e'"; break ;; esac
		if [ "$e" != "$prev" ]; then
			i=$((i + 1))
			echo "goal $i $cur $e $now" >>/tmp/goal.txt
			prev=$e
			last=$now
			cur=$((e * 10000 / GOAL_MIB))
			echo "$cur" >"$g/current_value"
			echo commit_schemes_quota_goals >"$k/state" || break
			[ "$cur" = 10000 ] && break
		elif awk -v a="$last" -v b="$now" 'BEGIN { exit !(b - a > 6) }'; then
			break
		fi
		usleep 20000
	done
}

goal_run() {
	local k=/sys/kernel/mm/damon/admin/kdamonds c q rc
	echo off >$k/0/state 2>/dev/null
	rm -f /tmp/goal.txt
	live_workload "${live_config:-/live.cfg}" 60s /tmp/goal-workload
	live_context "$wpid"
	c=$ctx
	goal_scheme $c/schemes
	q=$c/schemes/0/quotas
	echo on >$k/0/state
	echo "=== goal: kdamond $(cat $k/0/state), workload pid $wpid at $(up) s"
	kill -USR1 $wpid
	goal_loop $k/0 $q $q/goals/0
	echo off >$k/0/state 2>/dev/null
	kill $wpid 2>/dev/null
	wait $wpid
	rc=$?
	echo "=== goal: $(wc -l </tmp/goal.txt 2>/dev/null || echo 0) windows, last current_value $(cat $q/goals/0/current_value), workload rc=$rc at $(up) s"
	echo "=== goal begin"
	cat /tmp/goal.txt
	echo "=== goal end"
}
