#!/usr/bin/env bash
# No output over an input, and no two outputs on one file: every subcommand
# refuses an output that is one of its inputs (the same path, ./x, d/../x, a
# symlink or a hard link to it; a candidate file; a --dist file:) or another
# of its outputs, before any work: exit 2, one line on stderr naming both
# options, nothing on stdout, every file byte for byte as it was and none
# new.  Usage: tests/io.sh PATH/TO/hotscore
set -u
hs=$(realpath -- "${1:?usage: io.sh HOTSCORE}")	# the tests run in $w
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

# Every test runs in $w, over these inputs and an earlier output, x.
w=$tmp/w
mkdir -p "$w/d"
cp "$here/data/rank/damo-written.json" "$w/damon.data"
cp "$here/data/records/trace-6.1.txt" "$w/t.txt"
cp "$here/data/records/stats.txt" "$w/stats.txt"
cp "$here/data/mix.cfg" "$w/my.cfg"
cp "$here/data/kmod-results.jsonl" "$w/k.jsonl"
cp "$here/../examples/candidates/hotfix.c" "$w/mine.c"
head -n 50 "$here/data/capture-6.1.192.csv" >"$w/cap.csv"
echo 'an earlier output, to keep' >"$w/x"
ln -s damon.data "$w/link"
ln "$w/damon.data" "$w/hard"

# What $w holds, into $tmp/ls, and each file's checksum (a link's: its
# target's), into $tmp/sums.
snapshot() {
	(cd "$w" && ls -A | sort >"$tmp/ls" &&
		find . -type f -o -type l | sort | xargs md5sum -- >"$tmp/sums")
}

# unchanged: every file in $w as snapshot() found it
unchanged() {
	(cd "$w" && md5sum --quiet -c "$tmp/sums")
}

# refuse NAME WANT ARGS...: hotscore ARGS exits 2 at once with exactly the
# line "hotscore CMD: WANT; choose another file", and $w is as it was.
refuse() {
	local name=$1 want="hotscore $3: $2; choose another file" rc lines
	shift 2
	snapshot
	(cd "$w" && exec timeout 10 "$hs" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null)
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -ne 2 ]; then
		fail "$name" "exit $rc, want 2: $(head -c 300 "$tmp/err")"
	elif [ "$lines" -ne 1 ]; then
		fail "$name" "$lines lines on stderr, want 1: $(head -c 300 "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		fail "$name" "stdout not empty: $(head -c 200 "$tmp/out")"
	elif [ "$(cat "$tmp/err")" != "$want" ]; then
		fail "$name" "said '$(cat "$tmp/err")', want '$want'"
	elif ! unchanged; then
		fail "$name" "a file changed"
	elif ! (cd "$w" && ls -A | sort | cmp -s - "$tmp/ls"); then
		fail "$name" "files appeared: $(cd "$w" && ls -A | sort | comm -13 "$tmp/ls" -)"
	else
		ok "$name: $(cat "$tmp/err")"
	fi
}

# allow NAME ARGS...: not refused (exit 0), the inputs as they were; what
# it wrote is removed after.
allow() {
	local name=$1 rc
	shift
	snapshot
	(cd "$w" && exec timeout 60 "$hs" "$@" >"$tmp/out" 2>"$tmp/err")
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name" "exit $rc: $(head -c 300 "$tmp/err")"
	elif ! unchanged; then
		fail "$name" "an input changed"
	else
		ok "$name"
	fi
	(cd "$w" && ls -A | sort | comm -13 "$tmp/ls" - | xargs -r rm -f --)
}

# --- the four a new user found
refuse "rank: the record as --csv" "--csv damon.data: is also an input (--input damon.data)" \
	rank damon.data --csv damon.data
refuse "convert: the trace as --record" "--record t.txt: is also an input (--input t.txt)" \
	convert t.txt --record t.txt
refuse "sim: the config as --record" "--record my.cfg: is also an input (--workload my.cfg)" \
	sim --workload my.cfg --record my.cfg
refuse "sim: --record and --json on one file" "--json x: is also an output (--record x)" \
	sim --record x --json x
refuse "sim: two outputs on a file yet to be" "--json new: is also an output (--record ./new)" \
	sim --record ./new --json new

# --- one file, other names
refuse "a symlink to the input" "--json link: is also an input (--input damon.data)" \
	rank damon.data --json link
refuse "a hard link to the input" "--csv hard: is also an input (--input damon.data)" \
	rank damon.data --csv hard
refuse "./x and x" "--record t.txt: is also an input (--input ./t.txt)" \
	convert ./t.txt --record t.txt
refuse "d/../x and x" "--record d/../t.txt: is also an input (--input t.txt)" \
	convert t.txt --record d/../t.txt
refuse "an absolute path and x" "--json $w/damon.data: is also an input (--input damon.data)" \
	rank damon.data --json "$w/damon.data"

# --- every subcommand, every kind of input
refuse "rank: two outputs" "--json ./x: is also an output (--csv x)" \
	rank damon.data --csv x --json ./x
refuse "rank: a candidate in --profile" "--csv mine.c: is also an input (--profile ./mine.c)" \
	rank damon.data --profile hotfix,./mine.c --csv mine.c
refuse "convert: --damos_stats" "--record stats.txt: is also an input (--damos_stats ./stats.txt)" \
	convert t.txt --damos_stats ./stats.txt --record stats.txt
refuse "sim: a candidate with a label" "--json mine.c: is also an input (--profile m=./mine.c)" \
	sim --profile hotfix,m=./mine.c --json mine.c
refuse "sim: --actions and --heatmap" "--heatmap ./a.csv: is also an output (--actions a.csv)" \
	sim --actions a.csv --heatmap ./a.csv
# before any work: ten simulated hours would not end within the timeout
refuse "sim: refused before it runs" "--json link: is also an output (--heatmap damon.data)" \
	sim --duration 10h --minr 1000 --maxr 1000 --heatmap damon.data --json link
refuse "bench: a candidate file as --json" "--json mine.c: is also an input (--profile ./mine.c)" \
	bench --profile loop,./mine.c --json mine.c
refuse "bench: a file: dist as --csv" "--csv cap.csv: is also an input (--dist file:cap.csv)" \
	bench --dist uniform,file:cap.csv --csv cap.csv
refuse "bench: two outputs, before 15 s of timing" "--svg x: is also an output (--json x)" \
	bench --json x --svg x
refuse "bench --import" "--json k.jsonl: is also an input (--import k.jsonl)" \
	bench --import k.jsonl --json k.jsonl
refuse "verify: --candidate" "--json ./mine.c: is also an input (--candidate mine=mine.c)" \
	verify --candidate mine=mine.c --json ./mine.c
refuse "verify --captured" "--json cap.csv: is also an input (--captured cap.csv)" \
	verify --captured cap.csv --json cap.csv
refuse "verify --captured: a candidate in --profile" \
	"--json mine.c: is also an input (--profile ./mine.c)" \
	verify --captured cap.csv --profile hotfix,./mine.c --json mine.c
refuse "compare-records: SIM as --json" "--json hard: is also an input (--input damon.data)" \
	compare-records x damon.data --json hard
refuse "workload: the config as --json" "--json ./my.cfg: is also an input (--workload my.cfg)" \
	workload my.cfg --json ./my.cfg

# --- what is no input: a stream, a built-in name, a profile, /dev/null
allow "sim: --workload stairs is no file named stairs" \
	sim --workload stairs --duration 1s --no-timing --json stairs
allow "workload: stairs is no file" workload stairs --duration 10ms --json stairs
allow "rank: /dev/null twice, written in place" \
	rank damon.data --profile hotfix --csv /dev/null --json /dev/null
allow "convert: stdin and stdout are no files" convert - --record - <"$w/t.txt"
allow "bench --import: its other outputs" bench --import k.jsonl --json k.json --csv k.csv
allow "verify --captured: an output beside the inputs" \
	verify --captured cap.csv --profile hotfix,./mine.c --json v.json
# score writes standard output only: its inputs have nothing to clash with
allow "score: a CSV and a candidate" score --input cap.csv --profile hotfix,./mine.c

report_counts
