#!/usr/bin/env bash
# Build (once) a small DAMON-enabled kernel from Debian's linux-source-6.1
# or linux-source-6.12: tinyconfig plus DAMON, its sysfs interface, KPROBES, ACPI (for a clock
# source under TCG), event tracing (tracefs: damon:damon_aggregated is how
# 6.1 shows regions), madvise() (which DAMOS pageout calls in the kernel),
# high-resolution timers (kdamond's 5 ms sleeps, which jiffies at HZ=250
# would stretch), kmemleak and KASAN, and KUnit with DAMON's tests (the
# suite `make kunit` writes is guarded by CONFIG_DAMON_KUNIT_TEST, so
# scripts/kernel-check adds it without a new configuration), cached
# outside the repository and keyed by the source package's version and
# the configuration.  Prints the cache directory, which holds bzImage and
# a build tree (O=) that out-of-tree modules build against.
# Usage: scripts/damon-kernel.sh [6.1|6.12]   (root; installs what it needs)
set -euo pipefail
. "$(dirname "$0")/pkgs.sh"
kernel=${1:-6.1}
case $kernel in
6.1|6.12) ;;
*) echo "damon-kernel: unknown kernel '$kernel' (6.1 or 6.12)" >&2; exit 2 ;;
esac
src=linux-source-$kernel
pkgs_need "$src" bc flex bison libelf-dev libssl-dev cpio xz-utils \
	make gcc || { echo "damon-kernel: needs root and apt-get" >&2; exit 1; }
# PREEMPT and DEBUG_ATOMIC_SLEEP: sleeping with interrupts off must warn.
# The module's fuzz (guest/init.sh) needs a leak detector, kmemleak,
# and KASAN (generic, with vmalloc: the results buffer is vmalloc'd) for
# out-of-bounds and use-after-free; KASAN needs SLUB instead of tinyconfig's
# SLOB (6.1) and SLUB_TINY (6.12).
debug='SLUB SLUB_DEBUG DEBUG_KMEMLEAK STACKTRACE KASAN KASAN_GENERIC KASAN_VMALLOC'
kunit='KUNIT DAMON_KUNIT_TEST'
config=$(printf 'CONFIG_%s=y\n' 64BIT PRINTK PRINTK_TIME TTY SERIAL_8250 \
	SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_ELF BINFMT_SCRIPT \
	PROC_FS PROC_SYSCTL SYSFS DEVTMPFS FUTEX MULTIUSER MODULES \
	MODULE_UNLOAD KPROBES KALLSYMS ACPI DEBUG_FS PREEMPT DEBUG_KERNEL \
	DEBUG_ATOMIC_SLEEP DAMON DAMON_VADDR DAMON_PADDR DAMON_SYSFS \
	FTRACE ENABLE_DEFAULT_TRACERS ADVISE_SYSCALLS HIGH_RES_TIMERS $debug \
	$kunit
	echo '# CONFIG_SLOB is not set'
	echo '# CONFIG_SLUB_TINY is not set'
	# 6.12 seals the ENDBR of every function that is only called
	# directly (objtool marks them; apply_seal_endbr() poisons them at
	# boot, with or without IBT in the CPU), and hotscore.ko calls
	# damon_hot_score() through a pointer: its identify mode refuses a
	# sealed function.  6.1's tinyconfig has no IBT.
	if [ "$kernel" = 6.12 ]; then echo '# CONFIG_X86_KERNEL_IBT is not set'; fi)
ver=$(dpkg-query -W -f='${Version}' "$src")
sum=$(printf '%s\n' "$config" | md5sum | cut -c1-8)
cache=${HOTSCORE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/hotscore}
# keyed by the source package's version and the configuration
W=$cache/damon-kernel-$ver-$sum
K=$W/build
if [ -f "$K/arch/x86/boot/bzImage" ] && [ -f "$W/done" ]; then
	echo "$W"
	exit 0
fi
mkdir -p "$W"
if [ ! -f "$W/extracted" ]; then
	echo "damon-kernel: extracting $src $ver" >&2
	rm -rf "$W/$src"
	tar -xf /usr/src/$src.tar.xz -C "$W"
	touch "$W/extracted"
fi
mkdir -p "$K"
printf '%s\n' "$config" >"$W/damon.config"
echo "damon-kernel: configuring (tinyconfig + $W/damon.config)" >&2
make -s -C "$W/$src" O="$K" tinyconfig >/dev/null
"$W/$src/scripts/kconfig/merge_config.sh" -m -O "$K" "$K/.config" \
	"$W/damon.config" >/dev/null 2>&1
make -s -C "$W/$src" O="$K" olddefconfig
for opt in DAMON DAMON_PADDR DAMON_VADDR DAMON_SYSFS KPROBES KRETPROBES \
	MODULES PREEMPT DEBUG_ATOMIC_SLEEP EVENT_TRACING ADVISE_SYSCALLS \
	HIGH_RES_TIMERS $debug $kunit; do
	grep -q "^CONFIG_$opt=y" "$K/.config" || {
		echo "damon-kernel: CONFIG_$opt did not stick" >&2
		exit 1
	}
done
if [ "$kernel" = 6.12 ] && grep -q '^CONFIG_X86_KERNEL_IBT=y' "$K/.config"; then
	echo "damon-kernel: CONFIG_X86_KERNEL_IBT is still set" >&2
	exit 1
fi
echo "damon-kernel: building bzImage (about 2 minutes on 2 CPUs)" >&2
make -s -C "$W/$src" O="$K" -j"$(( $(nproc) + 1 ))" bzImage modules \
	>"$W/build.log" 2>&1 || { tail -20 "$W/build.log" >&2; exit 1; }
touch "$W/done"
echo "$W"
