#!/usr/bin/env bash
# The pages of a live run's process that its kdamond kept finding hot
# outside masim's memory: for docs/sim.md, "The process's own memory".
# Reads TRACE (a run's trace.txt: damon_aggregated events) and, for every
# page covered by a small region (at most 16 KiB) with at least half of an
# aggregation's samples accessed, counts the snapshots it was so; prints
# the pages seen in at least 5 % of the snapshots, most often first, below
# the mmap area (the binary, .bss, heap) or from the stack and vdso.
# Usage: scripts/hot-pages.sh TRACE [SAMPLES]   (SAMPLES an aggregation: 20)
set -euo pipefail
trace=${1:?usage: hot-pages.sh TRACE [SAMPLES]}
samples=${2:-20}
[ -r "$trace" ] || { echo "hot-pages: $trace: cannot read" >&2; exit 2; }
awk -v half=$((samples / 2)) '
function hex(x,	h, d) {	# mawk prints %x of 32 bits only
	h = ""
	do {
		d = x % 16
		h = substr("0123456789abcdef", d + 1, 1) h
		x = (x - d) / 16
	} while (x > 0)
	return h
}
/damon_aggregated:/ {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+-[0-9]+:$/)
			break
	if (i > NF)
		next
	split(substr($i, 1, length($i) - 1), se, "-")
	if (left <= 0) {	# the first region of a snapshot: nr_regions=N
		snaps++
		left = substr($(i - 1), 12) + 0
		delete seen
	}
	left--
	# the trace gives addresses in decimal
	s = se[1]; e = se[2]; n = $(i + 1)
	if (e - s > 16384 || n < half)
		next
	# below the mmap area, or the top of the address space (vdso, stack)
	if (e > 2^40 && s < 140737354108928)	# 0x7ffff7ff9000: [vvar] on
		next
	# (int() of mawk is 32 bits wide: whole pages by %)
	for (p = (s - s % 4096) / 4096; p * 4096 < e; p++) {
		k = sprintf("%.0f", p)	# a key of all its digits
		if (!(k in seen)) {
			seen[k] = 1
			count[k]++
		}
	}
}
END {
	for (p in count)
		if (count[p] * 20 >= snaps)
			printf "%s %.2f\n", hex((p + 0) * 4096), count[p] / snaps
	printf "snapshots %d\n", snaps > "/dev/stderr"
}' "$trace" | sort -k2,2nr -k1,1
