#!/bin/busybox sh
# The guest's /init for scripts/kernel-test.sh: load hotscore.ko in each
# mode, print what it wrote, try bad parameters, start and stop a kdamond
# when the kernel has DAMON, then reboot (QEMU runs with -no-reboot).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "=== kernel $(uname -r)"
dmesg -c >/dev/null

insmod /hotscore.ko iterations=400000 runs=4
echo "=== insmod bench rc=$?"
echo "=== dmesg bench begin"
dmesg -c
echo "=== dmesg bench end"
echo "=== bench begin"
cat /sys/kernel/debug/hotscore/results
echo "=== bench end"
rmmod hotscore
echo "=== rmmod bench rc=$?"
if [ -e /sys/module/hotscore ] || [ -e /sys/kernel/debug/hotscore ]; then
	echo "=== after rmmod: /sys/module/hotscore or its debugfs remains"
else
	echo "=== after rmmod: no /sys/module/hotscore"
fi
dmesg -c

insmod /hotscore.ko mode=identify iterations=400000 runs=2
echo "=== insmod identify rc=$?"
echo "=== identify begin"
cat /sys/kernel/debug/hotscore/results
echo "=== identify end"
rmmod hotscore
echo "=== rmmod identify rc=$?"
dmesg -c

# each bad parameter alone, with nothing loaded, and its own message
for bad in variants=bogus variants=fast variants=fast-prepare iterations=5 mode=fast dist=gauss inputs=0 runs=0; do
	[ -e /sys/module/hotscore ] && echo "=== hotscore still loaded"
	insmod /hotscore.ko $bad
	echo "=== insmod $bad rc=$?"
	echo "=== dmesg $bad begin"
	dmesg -c
	echo "=== dmesg $bad end"
done

# DAMON: a kdamond with a pageout scheme under a quota, through sysfs
k=/sys/kernel/mm/damon/admin/kdamonds
if [ -d "$k" ]; then
	sleep 600 &
	target=$!
	echo 1 >$k/nr_kdamonds
	echo 1 >$k/0/contexts/nr_contexts
	c=$k/0/contexts/0
	echo vaddr >$c/operations
	echo 1 >$c/targets/nr_targets
	echo $target >$c/targets/0/pid_target
	echo 1 >$c/schemes/nr_schemes
	s=$c/schemes/0
	echo pageout >$s/action
	echo 4294967295 >$s/access_pattern/sz/max
	echo 4294967295 >$s/access_pattern/nr_accesses/max
	echo 4294967295 >$s/access_pattern/age/max
	echo 10 >$s/quotas/ms
	echo 1048576 >$s/quotas/bytes
	echo 1000 >$s/quotas/reset_interval_ms
	echo 0 >$s/quotas/weights/sz_permil
	echo 0 >$s/quotas/weights/nr_accesses_permil
	echo 1000 >$s/quotas/weights/age_permil
	echo on >$k/0/state
	sleep 2
	echo "=== kdamond on: state $(cat $k/0/state), pid $(cat $k/0/pid)"
	echo off >$k/0/state
	sleep 1
	echo "=== kdamond off: state $(cat $k/0/state)"
	kill $target
	dmesg -c
else
	echo "=== no DAMON sysfs"
fi
echo "=== tainted $(cat /proc/sys/kernel/tainted)"
echo "=== ALL_DONE"
reboot -f
