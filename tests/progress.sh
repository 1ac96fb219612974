#!/usr/bin/env bash
# Progress and an ETA on every long run (docs/cli-conventions.md), on
# stderr only when stderr is a terminal (src/cli/progress.c): each long
# command run with stderr on a pseudo-terminal (python3's pty module) of 60
# columns must show its status line with a measured ETA, never wider than
# the terminal; the same command with stderr in a file must print nothing
# there.  Usage: tests/progress.sh PATH/TO/hotscore
set -u
hs=${1:?usage: progress.sh HOTSCORE}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
export HOTSCORE_CACHE=$tmp/cache

if ! command -v python3 >/dev/null; then
	"$here/../scripts/pkgs.sh" python3 >/dev/null 2>&1
fi
if ! command -v python3 >/dev/null; then
	fail "python3" "not installed, and scripts/pkgs.sh could not install it"
	report_counts
	exit
fi

# on_pty OUT ARGS...: hotscore ARGS, stdout into OUT, stderr on a 60-column
# pseudo-terminal whose every byte goes to stdout
cat >"$tmp/ptyrun.py" <<'PY'
import fcntl, os, pty, struct, subprocess, sys, termios
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 60, 0, 0))
with open(sys.argv[1], 'wb') as out:
    p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=out,
                         stderr=slave)
os.close(slave)
got = b''
while True:
    try:
        d = os.read(master, 65536)
    except OSError:
        break
    if not d:
        break
    got += d
sys.stdout.buffer.write(got)
sys.exit(p.wait())
PY
on_pty() {
	local out=$1
	shift
	python3 "$tmp/ptyrun.py" "$out" "$hs" "$@"
}

# status FILE: the status lines a terminal got, one a line (each "\r\e[K"
# starts one)
status() {
	tr '\r' '\n' <"$1" | sed 's/^\x1b\[K//' | grep -v '^$'
}

# has_eta FILE: a status line with a measured ETA ("ETA 3 s", "ETA 1m 05s")
has_eta() {
	status "$1" | grep -Eq '  [0-9]+%  ETA [0-9]+(s| s|m [0-9]{2}s|h [0-9]{2}m)$'
}

# long NAME WHAT ARGS...: on a terminal, status lines starting WHAT with an
# ETA, none wider than 59 columns, the report on stdout; not on one, no
# byte on stderr
long() {
	local name=$1 what=$2 rc wide
	shift 2
	on_pty "$tmp/out" "$@" >"$tmp/tty"
	rc=$?
	wide=$(status "$tmp/tty" | awk 'length($0) > 59')
	if [ $rc -gt 1 ] || [ ! -s "$tmp/out" ]; then
		fail "$name on a terminal" "exit $rc: $(status "$tmp/tty" | tail -2)"
	elif ! status "$tmp/tty" | grep -q "^$what" || ! has_eta "$tmp/tty"; then
		fail "$name on a terminal" "no '$what' line with an ETA: $(status "$tmp/tty" | tail -3)"
	elif [ -n "$wide" ]; then
		fail "$name on a terminal" "a line wider than the terminal: $wide"
	else
		ok "$name on a terminal: $(status "$tmp/tty" | grep "ETA [0-9]" | tail -1)"
	fi
	"$hs" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	[ $rc -le 1 ] && [ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] &&
		ok "$name, stderr not a terminal: nothing on it" ||
		fail "$name, stderr a file" "exit $rc: $(head -c 200 "$tmp/err")"
}

# --- the checks fail where they must (negative controls)
printf 'sim: x  40%%  ETA --\r\033[Ksim: x  41%%\n' >"$tmp/no-eta"
printf 'sim: x  40%%  ETA 12 s\r\033[K' >"$tmp/eta"
printf 'bench: y  3%%  ETA 1m 05s\r' >"$tmp/eta2"
! has_eta "$tmp/no-eta" && has_eta "$tmp/eta" && has_eta "$tmp/eta2" &&
	ok "controls: 'ETA --' is no ETA; 'ETA 12 s' and 'ETA 1m 05s' are" ||
	fail "controls" "the ETA check does not tell them apart"

long "verify" "verify \[" verify --quick --profile v6.6,hotfix --random 2000000
long "verify --candidate" "verify: " verify --quick --candidate "$here/../examples/candidates/hotfix.c" \
	--random 30000000
long "sim, 6 simulated hours" "sim: hotfix: " sim --duration 6h --no-timing
long "bench in one process" "bench: seed, throughput: " bench --profile loop,fls --mode throughput \
	--iterations 20000000 --invocations 1 --placements 1
long "bench, three invocations" "bench: invocation " bench --profile loop --mode throughput \
	--iterations 300000 --invocations 3
long "workload" "workload: stairs" workload stairs --duration 2s

# the status line is cleared before the report: no line of stdout is one
on_pty "$tmp/out" sim --duration 1h --no-timing >"$tmp/tty"
! grep -q 'simulated,' "$tmp/out" && [ "$(tail -c 4 "$tmp/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] &&
	ok "the status line is cleared at the end, and is not in stdout" ||
	fail "cleared" "$(tail -c 40 "$tmp/tty" | od -c | tail -3)"

report_counts
