#!/usr/bin/env bash
# Ctrl-C loses nothing: each long command starts over outputs that exist,
# gets SIGINT (or SIGTERM) after 1 s, and must exit 130 saying so, leave
# every earlier output byte for byte as it was and no temporary file.
# Usage: tests/interrupt.sh PATH/TO/hotscore
set -u
set -m	# job control: a background command does not start with SIGINT ignored
hs=${1:?usage: interrupt.sh HOTSCORE}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# interrupt NAME SIGNAL OUTPUTS -- ARGS...: OUTPUTS are file names in $tmp/NAME
interrupt() {
	local name=$1 sig=$2 dir=$tmp/$1 f pid rc
	shift 2
	mkdir -p "$dir"
	while [ "$1" != -- ]; do
		printf 'an earlier %s, to keep\n' "$1" >"$dir/$1"
		shift
	done
	shift
	(cd "$dir" && ls -A | sort >"$tmp/$name.before" && md5sum -- * >"$tmp/$name.sums")
	(cd "$dir" && exec "$hs" "$@" >/dev/null 2>"$tmp/$name.err") &
	pid=$!
	sleep 1
	if ! kill -0 "$pid" 2>/dev/null; then
		fail "$name" "ended within 1 s, nothing to interrupt: $(cat "$tmp/$name.err")"
		return
	fi
	kill "-$sig" "$pid"
	wait "$pid"
	rc=$?
	if [ $rc -ne 130 ]; then
		fail "$name" "exit $rc, want 130: $(cat "$tmp/$name.err")"
	elif ! grep -qx "hotscore [a-z-]*: interrupted; no output file was changed" "$tmp/$name.err"; then
		fail "$name" "no word on stderr: $(cat "$tmp/$name.err")"
	elif ! (cd "$dir" && md5sum -c --quiet "$tmp/$name.sums"); then
		fail "$name" "an earlier output changed"
	elif ! (cd "$dir" && ls -A | sort | cmp -s - "$tmp/$name.before"); then
		fail "$name" "files left behind: $(cd "$dir" && ls -A | tr '\n' ' ')"
	else
		ok "$name: SIG$sig after 1 s: exit 130, outputs intact, no temporary file"
	fi
}

interrupt bench INT r.json r.csv r.svg -- \
	bench --json r.json --csv r.csv --svg r.svg
interrupt verify INT v.json -- verify --json v.json
interrupt sim INT s.json s.rec h.svg a.csv -- sim --minr 1000 --maxr 1000 \
	--duration 10h --aggr 2s --json s.json --record s.rec --heatmap h.svg \
	--actions a.csv
interrupt sim-term TERM s.json -- sim --minr 1000 --maxr 1000 --duration 10h \
	--json s.json
interrupt bench-term TERM r.json -- bench --json r.json
# a record rank takes seconds over (about 120 MB of plain JSON)
"$hs" sim --workload zigzag --duration 40s --minr 2000 --maxr 4000 --no-timing \
	--record "$tmp/big.rec" --record_format json >/dev/null 2>&1
interrupt rank INT p.csv p.json -- rank "$tmp/big.rec" --csv p.csv --json p.json
# the same record, as a kdamond's trace (convert) and against itself
awk -v BASE=5 -f "$here/records_trace.awk" "$tmp/big.rec" >"$tmp/big.trace"
interrupt convert INT r.rec -- convert "$tmp/big.trace" --record r.rec
interrupt compare-records INT c.json -- compare-records "$tmp/big.rec" \
	"$tmp/big.rec" --json c.json
interrupt workload INT w.json -- workload stairs --json w.json
interrupt workload-term TERM w.json -- workload stairs --json w.json

# A bad input after the outputs are opened leaves them alone too.
mkdir -p "$tmp/bad" && echo keep >"$tmp/bad/r.json"
printf 'schema\n' >"$tmp/bad/bad.jsonl"
(cd "$tmp/bad" && "$hs" bench --import bad.jsonl --json r.json >/dev/null 2>&1)
[ $? -eq 2 ] && [ "$(cat "$tmp/bad/r.json")" = keep ] &&
	[ "$(ls -A "$tmp/bad" | wc -l)" -eq 2 ] &&
	ok "a bad --import leaves the earlier --json and no temporary file" ||
	fail "bad import" "$(ls -A "$tmp/bad"; cat "$tmp/bad/r.json")"

# A complete run replaces an output whole, keeping its mode.
mkdir -p "$tmp/ok" && echo old >"$tmp/ok/v.json" && chmod 640 "$tmp/ok/v.json"
(cd "$tmp/ok" && "$hs" verify --quick --random 10 --json v.json >/dev/null 2>&1) &&
	grep -q '"tool":"hotscore verify"' "$tmp/ok/v.json" &&
	[ "$(stat -c %a "$tmp/ok/v.json")" = 640 ] && [ "$(ls -A "$tmp/ok" | wc -l)" -eq 1 ] &&
	ok "a finished run renames its output into place, mode kept" ||
	fail "complete run" "$(ls -lA "$tmp/ok")"
# '-' is standard output; a device is written in place, not replaced
out=$("$hs" verify --quick --random 10 --profile v6.6 --json - 2>/dev/null)
grep -q '^{"tool":"hotscore verify"' <<<"$out" && [ ! -e ./- ] &&
	ok "--json - writes standard output" || fail "--json -" "$(head -c 300 <<<"$out")"
"$hs" verify --quick --random 10 --profile v6.6 --json /dev/null >/dev/null 2>&1 &&
	[ -c /dev/null ] && ok "--json /dev/null: the device stays a device" ||
	fail "/dev/null" "$(ls -l /dev/null)"

report_counts
