#!/usr/bin/env bash
# The kernel section of the benchmarks: hotscore.ko, built against Debian's
# stock kernel and loaded inside it under QEMU, times hotfix, fast and
# fast-batch-scalar (the prepared scorer as a kernel would carry it) on the
# seed's scenario, for two distributions; `hotscore bench --import` turns
# its samples into the tables of docs/PERFORMANCE.md's kmod section
# (between its kmod:begin/kmod:end markers).  QEMU runs with TCG here (KVM
# does not work on this project's machines): the tables are a functional
# check, not a speed figure, and the section says so.
# Usage: scripts/bench-kmod.sh BUILD_DIR   (root; installs what it needs)
# HS_BENCH_DOC=FILE writes FILE instead of docs/PERFORMANCE.md.  Without
# root or apt it says why and leaves the section as it was (exit 0), which
# HS_REQUIRE_KERNEL_TESTS=1 turns into a failure.
set -euo pipefail
build=$(readlink -f "${1:-build}")
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$build/hotscore
out=$build/bench-kmod
doc=${HS_BENCH_DOC:-$root/docs/PERFORMANCE.md}
cache=${HOTSCORE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/hotscore}
variants=hotfix,fast,fast-batch-scalar
dists="seed uniform"
t0=$(date +%s)
. "$root/scripts/doc-section.sh"
. "$root/scripts/kernel-lib.sh"

skip() {
	echo "bench-kmod: skipped: $1; docs/PERFORMANCE.md's kmod section is left as it was" >&2
	[ "${HS_REQUIRE_KERNEL_TESTS:-0}" = 1 ] && exit 1
	exit 0
}
die() {
	echo "bench-kmod: $1" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || skip "not root"
command -v apt-get >/dev/null || skip "no apt-get"
[ -x "$hs" ] || die "no $hs (make first)"
kl_packages || die "apt-get install failed"
kver=$(kl_kver)
mkdir -p "$cache"
vmlinuz=$(kl_vmlinuz "$cache" "$kver") || die "cannot fetch linux-image-$kver"
rm -rf "$out"
echo "bench-kmod: building hotscore.ko against linux-headers-$kver" >&2
kl_build_module "$out/module" "/lib/modules/$kver/build" "$root" ||
	die "the module does not build: $(tail -5 "$out/module/build.log")"

# The guest: each distribution in one load, with the module's defaults
# (the seed's 10^7 calls x 10 runs, both modes), its log and results
# between markers.
r=$out/initrd
mkdir -p "$r"/bin "$r"/proc "$r"/sys "$r"/dev
cp /bin/busybox "$r"/bin/busybox
cp "$out/module/hotscore.ko" "$r"/
cat >"$r"/init <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
dmesg -c >/dev/null
echo "=== cpu \$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
for d in $dists; do
	insmod /hotscore.ko variants=$variants dist=\$d
	echo "=== insmod \$d rc=\$?"
	echo "=== dmesg \$d begin"
	dmesg -c
	echo "=== dmesg \$d end"
	echo "=== \$d begin"
	cat /sys/kernel/debug/hotscore/results
	echo "=== \$d end"
	rmmod hotscore
done
echo "=== ALL_DONE"
reboot -f
EOF
chmod +x "$r"/init
kl_initrd "$r" "$out/initrd.gz"
echo "bench-kmod: booting Debian $kver under QEMU (TCG)" >&2
kl_boot "$vmlinuz" "$out/initrd.gz" "$out/console.log"
grep -q '^=== ALL_DONE' "$out/console.log" ||
	die "the guest did not finish: $out/console.log"

# between MARK: the console lines between "=== MARK begin/end"
between() {
	sed -n "/^=== $1 begin/,/^=== $1 end/p" "$out/console.log" | sed '1d;$d'
}

# Each distribution: loaded, every call vetted by the module, imported.
for d in $dists; do
	grep -q "^=== insmod $d rc=0" "$out/console.log" ||
		die "insmod dist=$d failed: $(between "dmesg $d" | grep -m3 hotscore:)"
	between "dmesg $d" | sed 's/^\[ *[0-9.]*\] //' >"$out/$d.dmesg"
	for v in fast fast-batch-scalar; do
		grep -q "^hotscore: $v: its [0-9]* calls.* return hotfix's score .* checked before the timing" \
			"$out/$d.dmesg" || die "dist=$d: no vetting line for $v"
	done
	between "$d" >"$out/$d.jsonl"
	"$hs" bench --import "$out/$d.jsonl" --format markdown >"$out/$d.md" ||
		die "hotscore bench --import $out/$d.jsonl failed"
done
cpu=$(sed -n 's/.*=== cpu //p' "$out/console.log")	# after the console's reset
secs=$(($(date +%s) - t0))

section=$(mktemp)
trap 'rm -f "$section"' EXIT
{
	echo "<!-- kmod:begin (written by make bench; edits here are lost) -->"
	echo "## The prepared scorer inside a kernel (\`hotscore.ko\`, QEMU)"
	echo
	echo "**TCG: a functional check, not a speed figure.** QEMU emulates the"
	echo "CPU here (TCG; KVM does not work on this machine): it translates the"
	echo "guest's code at its own costs, and the guest's TSC is emulated, so"
	echo "these nanoseconds and ratios say nothing about a real CPU. What they"
	echo "show: \`hotscore.ko\` times \`fast\` and \`fast-batch-scalar\` inside a"
	echo "real kernel, every call returned the model's score before it was"
	echo "timed, and \`hotscore bench --import r.jsonl\` reads the samples, the batch"
	echo "per region. The commands for real hardware are in"
	echo "[proposal-prepared-score.md](proposal-prepared-score.md), \"Measuring"
	echo "it inside a kernel\"."
	echo
	echo "Run $(date -u +%Y-%m-%d) by scripts/bench-kmod.sh in $secs s: Debian's"
	echo "Linux $kver under \`qemu-system-x86_64 -accel tcg\` (guest CPU: $cpu),"
	echo "\`insmod hotscore.ko variants=$variants dist=D\` with the module's"
	echo "defaults (the seed's 10^7 calls x 10 runs per function, both modes),"
	echo "then \`hotscore bench --import r.jsonl\` of its debugfs results (r.jsonl)."
	for d in $dists; do
		echo
		echo "### dist=$d"
		echo
		echo "The module's checks before the timing:"
		echo
		grep -E "^hotscore: (fast|fast-batch-scalar): " "$out/$d.dmesg" |
			sed 's/^/    /'
		echo
		cat "$out/$d.md"
	done
	echo
	echo "<!-- kmod:end -->"
} >"$section"

splice_section "$doc" kmod "$section"
echo "bench-kmod: wrote $doc in $secs s (TCG: a functional check, not a speed figure)" >&2
