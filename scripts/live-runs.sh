#!/usr/bin/env bash
# The live run of make test-kernel alone (scripts/guest/live.sh: hotscore
# workload under a real kdamond in the DAMON kernel, QEMU TCG), N times:
# DIR/runK/ gets each run's console, trace, DAMOS stats and workload
# report, and scripts/live-gate.sh judges it as make test-kernel does.
# For calibrating compare-records' bounds on some runs and checking them
# on others (docs/sim.md, "Sim against a real kdamond").
#   HS_LIVE_SLOW=1   QEMU and a busy loop share one host CPU: a host about
#                    half as fast, for bounds that must not depend on speed
#   HS_LIVE_CONF     lines for the guest's live.conf ("live_duration=1m")
#   HS_LIVE_CFG      a masim config to run instead of scripts/guest/live.cfg
#   HS_LIVE_KERNEL   6.1 (default) or 6.12: scripts/damon-kernel.sh's argument
# Usage: scripts/live-runs.sh N DIR   (root; make and make static first)
set -euo pipefail
n=${1:?usage: live-runs.sh N DIR}
dir=${2:?usage: live-runs.sh N DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
hs=$root/build/hotscore
die() { echo "live-runs: $*" >&2; exit 1; }
. "$root/scripts/kernel-lib.sh"

[ -x "$hs" ] && [ -x "$root/build/static/hotscore" ] ||
	die "build/hotscore and build/static/hotscore first (make; make static)"
kl_packages || die "apt-get install failed"
W=$("$root/scripts/damon-kernel.sh" "${HS_LIVE_KERNEL:-6.1}")
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
kl_build_module "$dir/module" "$W/build" "$root" ||
	die "hotscore.ko: $(tail -3 "$dir/module/build.log")"
kl_guest_tools "$dir" "$root" || die "$(cat "$dir/guest-tools.log")"
r=$dir/initrd
rm -rf "$r"
mkdir -p "$r"/bin "$r"/proc "$r"/sys "$r"/dev "$r"/tmp
cp /bin/busybox "$dir/finit" "$dir/tick" "$r"/bin/
cp "$root/build/static/hotscore" "$r"/bin/hotscore
cp "$dir/module/hotscore.ko" "$r"/
cfg=${HS_LIVE_CFG:-$root/scripts/guest/live.cfg}
[ -r "$cfg" ] || die "$cfg: cannot read"
cp "$root/scripts/guest/live.sh" "$r"/
cp "$cfg" "$r"/live.cfg
cp "$root/scripts/guest/live-init.sh" "$r"/init
printf '%s\n' "${HS_LIVE_CONF:-}" >"$r"/live.conf
kl_initrd "$r" "$dir/initrd.gz"

hog=
trap '[ -z "$hog" ] || kill "$hog" 2>/dev/null' EXIT	# never left spinning
for i in $(seq 1 "$n"); do
	d=$dir/run$i
	rm -rf "$d"
	mkdir -p "$d"
	hog=
	if [ "${HS_LIVE_SLOW:-0}" = 1 ]; then
		taskset -c 0 sh -c 'while :; do :; done' &
		hog=$!
		export KL_WRAP="taskset -c 0"
	fi
	echo "live-runs: run $i of $n$([ -n "$hog" ] && echo ", slow")" >&2
	kl_boot "$W/build/arch/x86/boot/bzImage" "$dir/initrd.gz" \
		"$d/console.log" || true
	if [ -n "$hog" ]; then
		kill "$hog"
		hog=
	fi
	grep -q '^=== ALL_DONE' "$d/console.log" || die "run $i did not finish: $d/console.log"
	cp "$cfg" "$d"/live.cfg
	for m in trace damos_stats workload maps; do
		kl_unpack "$d/console.log" "$m" >"$d/$m.txt" || true
	done
	"$root/scripts/live-gate.sh" "$hs" "$d" >"$d/gate.txt" 2>&1 || true
	echo "run $i: $(sed -n 's/^achieved //p' "$d/workload.txt" | cut -d: -f1); $(grep -E '^(sim against real|second seed|controls):' "$d/gate.txt" | tr '\n' ';')"
done
