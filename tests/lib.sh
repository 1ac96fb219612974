# Helpers shared by the shell test suites; source after setting $hs and
# $tmp.  Each suite ends with report_counts.
passed=0 failed=0

ok()   { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# expect_bad NAME STDIN ARGS...: exit 2, one line on stderr, nothing on stdout
expect_bad() {
	local name=$1 input=$2 rc lines
	shift 2
	printf '%s' "$input" | "$hs" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ]; then
		fail "$name" "exit $rc, want 2"
	elif [ "$lines" -ne 1 ]; then
		fail "$name" "$lines lines on stderr, want 1"
	elif [ -s "$tmp/out" ]; then
		fail "$name" "stdout not empty: $(head -c 200 "$tmp/out")"
	else
		ok "$name: $(cat "$tmp/err")"
	fi
}

# field FILE ROW COLUMN: one value of a CSV by header name (row 1 = first)
field() {
	awk -F, -v row="$2" -v col="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
		NR == row + 1 { print $idx[col] }' "$1"
}

# expect_json FILE JSONQ: FILE is well-formed JSON
expect_json() {
	if "$2" "$1" >/dev/null; then
		ok "JSON parses"
	else
		fail "JSON" "$("$2" "$1" 2>&1)"
	fi
}

# reproducer FILE: the command after "reproduce: hotscore " in FILE, its
# continuation lines (ending " \\") joined
reproducer() {
	awk '/reproduce: hotscore / { sub(/.*reproduce: hotscore /, ""); on = 1 }
	     on { line = $0; sub(/^ +/, "", line); more = sub(/ \\$/, "", line)
		  printf "%s%s", sep, line; sep = " "; if (!more) exit }' "$1"
}

# eg_command FILE: the first "    e.g. $hs CMD" of FILE, its continuation
# lines (ending " \\") joined, without "e.g. $hs "
eg_command() {
	awk -v hs="$hs" 'index($0, "    e.g. " hs " ") == 1 { on = 1 }
		on { line = $0; sub(/^ +/, "", line); more = sub(/ *\\$/, "", line)
		     c = c (c == "" ? "" : " ") line; if (!more) { print c; exit } }' "$1" |
		sed "s|^e\.g\. $hs ||"
}

# joined FILE: FILE's lines as one, spaces squeezed (a wrapped message)
joined() { tr '\n' ' ' <"$1" | tr -s ' '; }

# width FILE: its longest line
width() {
	awk '{ if (length > m) m = length } END { print m + 0 }' "$1"
}

# report_counts: the suite's result line; exit 1 if anything failed
report_counts() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
