#!/usr/bin/env bash
# damo itself reads what `hotscore sim --record` writes, as written: the
# real damo v3.3.0 in ../shared/tools/damo (unmodified; a sibling of the
# repository, as CI checks it out) runs report access, wss, heatmap,
# nr_regions, validate and holistic on a default (json_compressed) record,
# and its working set sizes and region counts are hotscore's own, snapshot
# by snapshot.  A record over 7 MiB (the size where `file` stops calling
# JSON "JSON") is still "zlib compressed data"; HS_DAMO_BIG=1 also has
# damo read it (about 13 s and 1.3 GB of python).
# Usage: tests/damo.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: damo.sh HOTSCORE JSONQ}
jq=${2:?usage: damo.sh HOTSCORE JSONQ}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

root=$(git -C "$here" rev-parse --show-toplevel 2>/dev/null || (cd "$here/.." && pwd))
# HS_DAMO: a damo tree; CI provides one beside the repository
damo=${HS_DAMO:-$root/../shared/tools/damo}/src/damo.py
# a SKIP, or under HS_REQUIRE_DAMO=1 (CI) a failure
skip() {
	if [ -n "${HS_REQUIRE_DAMO:-}" ]; then
		fail "damo" "$1 (HS_REQUIRE_DAMO is set)"
	else
		echo "SKIP damo: $1"
	fi
	report_counts
	exit
}
[ -f "$damo" ] || skip "no damo at $damo (set HS_DAMO to a damo tree)"
# python3 and file(1), installed here when missing (root, apt)
. "$root/scripts/pkgs.sh"
pkgs_need python3 file || skip "damo needs $(pkgs_missing python3 file)(not root: apt-get install them)"
for tool in python3 file which; do
	command -v $tool >/dev/null || skip "no $tool (damo needs it)"
done

# damo DIR ARGS...: run damo in DIR, its output in $tmp/out, status returned
run_damo() {
	(cd "$1" && shift && python3 "$damo" "$@") >"$tmp/out" 2>&1
}

# --- a default record: json_compressed, read as written -----------------
"$hs" sim --no-timing --duration 20s --record "$tmp/damon.data" \
	--json "$tmp/sim.json" >/dev/null 2>"$tmp/err" ||
	fail "sim" "$(cat "$tmp/err")"
[ "$(file -b "$tmp/damon.data")" = "zlib compressed data" ] &&
	ok "file(1) says zlib compressed data: damo's json_compressed" ||
	fail "file type" "$(file -b "$tmp/damon.data")"
for cmd in "report access" "report wss" "report heatmap --stdout_colorset gray" \
	   "report nr_regions" "validate"; do
	# shellcheck disable=SC2086
	if run_damo "$tmp" $cmd --input damon.data &&
	   ! grep -qi 'fail\|error\|traceback' "$tmp/out"; then
		ok "damo $cmd: exit 0 ($(wc -l <"$tmp/out") lines)"
	else
		fail "damo $cmd" "$(tail -3 "$tmp/out")"
	fi
done
run_damo "$tmp" report access --input damon.data
grep -q '^intervals: sample 5 ms aggr 100 ms' "$tmp/out" &&
	ok "damo report access: the record's intervals" ||
	fail "access intervals" "$(grep intervals "$tmp/out")"

# holistic also reads DAMON's memory footprints (R.mem_footprint, which a
# simulation has none of: an empty list) and, where perf is installed, a
# perf profile: run it where damo finds no perf, so that it skips that
py=$(python3 -c 'import sys; print(sys.executable)')
mkdir -p "$tmp/bin"
for tool in file which; do ln -s "$(command -v $tool)" "$tmp/bin/$tool"; done
echo '[]' >"$tmp/damon.data.mem_footprint"
if (cd "$tmp" && PATH=$tmp/bin "$py" "$damo" report holistic \
	--access_pattern damon.data) >"$tmp/out" 2>&1 &&
   grep -q '^# target 0, address range' "$tmp/out" &&
   [ "$(grep -c '38;5;' "$tmp/out")" -gt 0 ] &&
   grep -q '^ *wss ' "$tmp/out"; then
	ok "damo report holistic: target 0, its heatmaps drawn, the working set"
else
	fail "damo report holistic" "$(tail -3 "$tmp/out")"
fi

# --- damo's numbers are hotscore's ---------------------------------------
# every snapshot's working set (bytes in regions accessed at least once),
# in time order, against the series hotscore computed at the same moments
n=$("$jq" "$tmp/sim.json" runs.0.series | sed 's/^array //')
paths=$(seq 0 $((n - 1)) | sed 's/.*/runs.0.series.&.wss/')
# shellcheck disable=SC2086
"$jq" "$tmp/sim.json" $paths >"$tmp/wss.hs"
run_damo "$tmp" report wss --raw_number --all_wss --sortby time \
	--exclude_samples 0 --input damon.data
awk '!/^#/ { print $2 }' "$tmp/out" >"$tmp/wss.damo"
[ "$n" -ge 190 ] && cmp -s "$tmp/wss.hs" "$tmp/wss.damo" &&
	ok "damo report wss: all $n snapshots' working sets equal hotscore's" ||
	fail "wss" "$n snapshots; $(diff "$tmp/wss.hs" "$tmp/wss.damo" | head -4)"
# past stairs' first phase (10 s of all regions), one 10 MB region at a time
tail -n +111 "$tmp/wss.damo" | awk '$1 > 9e6 && $1 < 11e6' | wc -l >"$tmp/nsane"
[ "$(cat "$tmp/nsane")" -ge $(((n - 110) * 3 / 4)) ] &&
	ok "past 11 s, $(cat "$tmp/nsane") of $((n - 110)) working sets within damon-tests' stairs bound (9e6..11e6 bytes)" ||
	fail "wss bound" "$(cat "$tmp/nsane") of $((n - 110))"
# region counts: damo skips the first 20 snapshots, then min and max
paths=$(seq 20 $((n - 1)) | sed 's/.*/runs.0.series.&.regions/')
# shellcheck disable=SC2086
want=$("$jq" "$tmp/sim.json" $paths | sort -n | sed -n '1p;$p' | paste -sd' ')
run_damo "$tmp" report nr_regions --input damon.data
got=$(awk '$1 == 0 || $1 == 100 { print $2 }' "$tmp/out" | paste -sd' ')
[ -n "$got" ] && [ "$got" = "$want" ] &&
	ok "damo report nr_regions: fewest and most regions $got, as hotscore's" ||
	fail "nr_regions" "damo '$got', hotscore '$want'"

# --- scheme_idx and damos_stats: the stats damo reads, cumulative --------
python3 - "$tmp/damon.data" "$tmp/sim.json" >"$tmp/out" 2>&1 <<'EOF'
import json, sys, zlib
rec = json.loads(zlib.decompress(open(sys.argv[1], 'rb').read()))
run = json.load(open(sys.argv[2]))['runs'][0]
assert len(rec) == 1 and rec[0]['target_id'] == 0
assert [rec[0][k] for k in ('kdamond_idx', 'context_idx', 'scheme_idx')] == [None] * 3
snaps = rec[0]['snapshots']
keys = ['nr_tried', 'sz_tried', 'nr_applied', 'sz_applied', 'qt_exceeds']
for a, b in zip(snaps, snaps[1:]):
    assert all(b['damos_stats'][k] >= a['damos_stats'][k] for k in keys)
last = snaps[-1]['damos_stats']
stats = run['schemes'][0]['stats']
assert all(last[k] == stats[k] for k in keys), (last, stats)
assert last['sz_ops_filter_passed'] == 0
print('%d snapshots; last: %s' % (len(snaps), ', '.join(
    '%s %d' % (k, last[k]) for k in keys)))
EOF
[ $? -eq 0 ] && ok "no indices, as damo record's; damos_stats of scheme 0, cumulative, end at --json's: $(cat "$tmp/out")" ||
	fail "damos_stats" "$(tail -3 "$tmp/out")"

# --- plain json: the same text; damo's file(1) test is its problem -------
"$hs" sim --no-timing --duration 20s --record "$tmp/plain.json" \
	--record_format json >/dev/null 2>&1
python3 -c 'import sys, zlib
sys.exit(zlib.decompress(open(sys.argv[1], "rb").read()) != open(sys.argv[2], "rb").read())' \
	"$tmp/damon.data" "$tmp/plain.json" &&
	ok "json_compressed inflates to exactly --record_format json's text" ||
	fail "formats" "the texts differ"

# --- rank --sweep_weights on a record damo wrote: damo's own JSON rewrite
# of a zigzag record sweeps to the same grid as the record it came from
"$hs" sim --workload zigzag --no-timing --duration 13s --record "$tmp/z.data" >/dev/null 2>&1
run_damo "$tmp" convert_record_format --record_file z.data --format json \
	--output_file z-damo.json
sweep=(--damos_action pageout --damos_quotas 0 16MiB 1s 0 3 7 --sweep_weights)
"$hs" rank "$tmp/z-damo.json" "${sweep[@]}" --json "$tmp/zd.json" >"$tmp/zd.txt" 2>&1
rc=$?
"$hs" rank "$tmp/z.data" "${sweep[@]}" --json "$tmp/zh.json" >/dev/null 2>&1
grid() {	# JSON: the sweep's 98 numbers, one a line
	local i j
	for i in 0 1 2 3 4 5 6; do for j in 0 1 2 3 4 5 6; do
		"$jq" "$1" "sweep.differ_bytes.$i.$j" "sweep.picked_bytes.$i.$j"
	done; done
}
[ $rc -eq 0 ] && [ "$(grid "$tmp/zd.json" | grep -cx '[0-9][0-9]*')" -eq 98 ] &&
	[ "$(grid "$tmp/zd.json")" = "$(grid "$tmp/zh.json")" ] &&
	[ "$("$jq" "$tmp/zd.json" sweep.differ_bytes.0.0)" -gt 0 ] &&
	grep -q 'rewrites that field in ns' "$tmp/zd.txt" &&
	ok "rank --sweep_weights on damo's own rewrite: the grid of the record it came from" ||
	fail "sweep on damo's record" "exit $rc: $(sed -n '/swept/,/pairs/p' "$tmp/zd.txt" | head -4)"
# negative control: other weights of the scheme give another grid
"$hs" rank "$tmp/z.data" --damos_action pageout --damos_quotas 0 16MiB 1s 0 1 0 \
	--sweep_weights --json "$tmp/zo.json" >/dev/null 2>&1
[ "$(grid "$tmp/zo.json")" != "$(grid "$tmp/zh.json")" ] &&
	ok "negative control: weights 1 0 sweep to another grid" || fail "sweep control" "same grid"

# --- damon-tests' bounds on masim records, on the simulator's -------------
# corr/tests/masim-record.sh records stairs_30secs, zigzag_30secs and 2mb
# (one pass each), has `damo validate` check each record with its default
# bounds, and wants the median working set (`report wss --range 50 51 1`)
# within a bound per config; corr/tests/chk_records.sh validates the records
# again with tighter bounds.  Each config's 7 bounds, on the simulator's
# record of the same config (tests/data/masim/; docs/sim.md, "damon-tests'
# bounds").
masim=$here/data/masim
wss50() {	# RECORD: damon-tests' median working set
	run_damo "$tmp" report wss --raw_number --range 50 51 1 --input "$1" &&
		awk '$1 == 50 { print $2 }' "$tmp/out"
}
while read -r cfg secs lo hi; do
	"$hs" sim --no-timing --workload "$masim/$cfg.cfg" --duration "${secs}s" \
		--record "$tmp/$cfg.data" >/dev/null 2>"$tmp/err" ||
		fail "$cfg: sim" "$(cat "$tmp/err")"
	wss=$(wss50 "$cfg.data")
	[ -n "$wss" ] && [ "$wss" -ge "$lo" ] && [ "$wss" -le "$hi" ] &&
		ok "$cfg: median working set $wss within masim-record.sh's [$lo, $hi]" ||
		fail "$cfg wss" "'$wss' not in [$lo, $hi]"
	run_damo "$tmp" validate --input "$cfg.data" &&
		ok "$cfg: damo validate's own bounds (aggr 75000..125000 us, 3..1200 regions, 0..24 accesses)" ||
		fail "$cfg validate" "$(tail -2 "$tmp/out")"
	run_damo "$tmp" validate --aggr 90000 110000 --nr_regions 5 1100 \
		--nr_accesses 0 23 --input "$cfg.data" &&
		ok "$cfg: chk_records.sh's bounds (aggr 90000..110000 us, 5..1100 regions, 0..23 accesses)" ||
		fail "$cfg chk_records" "$(tail -2 "$tmp/out")"
done <<-CONFIGS
stairs_30secs 30 9000000 11000000
zigzag_30secs 30 90000000 110000000
2mb 5 3000000 12000000
CONFIGS
# negative controls: without the process' own memory (paddr) 2mb's median
# is its 2 MiB alone, below the bound; and validate does fail a bound
"$hs" sim --no-timing --workload "$masim/2mb.cfg" --ops paddr --duration 5s \
	--record "$tmp/2mb-p.data" >/dev/null 2>&1
wss=$(wss50 2mb-p.data)
[ -n "$wss" ] && [ "$wss" -lt 3000000 ] &&
	ok "negative control: 2mb without the process' own memory, $wss, below 3000000" ||
	fail "2mb control" "'$wss'"
if run_damo "$tmp" validate --nr_regions 5 9 --input 2mb.data; then
	fail "validate control" "5..9 regions passed"
elif grep -q '^invalid: expect 5<=nr_regions<=9' "$tmp/out"; then
	ok "negative control: damo validate --nr_regions 5 9 fails 2mb's record: $(head -1 "$tmp/out")"
else
	fail "validate control" "not for nr_regions: $(head -2 "$tmp/out")"
fi

# --- over 7 MiB -----------------------------------------------------------
"$hs" sim --no-timing --minr 1000 --maxr 1000 --duration 90s \
	--record "$tmp/big.data" >/dev/null 2>&1
size=$(stat -c %s "$tmp/big.data")
[ "$size" -gt $((7 << 20)) ] && [ "$(file -b "$tmp/big.data")" = "zlib compressed data" ] &&
	ok "a $size-byte record is still zlib compressed data to file(1)" ||
	fail "big record" "$size bytes: $(file -b "$tmp/big.data")"
if [ -n "${HS_DAMO_BIG:-}" ]; then
	run_damo "$tmp" report nr_regions --input big.data &&
		grep -q '^100	' "$tmp/out" &&
		ok "damo reads the $size-byte record" ||
		fail "damo on the big record" "$(tail -3 "$tmp/out")"
else
	echo "SKIP damo on the $size-byte record: HS_DAMO_BIG=1 (13 s, 1.3 GB)"
fi

report_counts
