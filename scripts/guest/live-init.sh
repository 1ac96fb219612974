#!/bin/busybox sh
# The guest's /init for scripts/live-runs.sh: the live run alone
# (scripts/guest/live.sh, as make test-kernel runs it in the DAMON kernel),
# then reboot (QEMU runs with -no-reboot).
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "=== kernel $(uname -r)"
up() { cut -d' ' -f1 /proc/uptime; }
. /live.sh
[ -r /live.conf ] && . /live.conf
live_run
echo "=== ALL_DONE"
reboot -f
