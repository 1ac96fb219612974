#!/usr/bin/env bash
# The documentation tells the truth about the command line:
#  - docs/cli.md, docs/hotscore.1 and completion/hotscore.bash are what the
#    option tables generate (make docs);
#  - every hotscore command in README.md and docs/*.md, in a code block or
#    inline, is accepted as written (HOTSCORE_CHECK_ARGS=1: options parsed
#    and checked), and runs: score, sim, verify --quick, help and
#    bench --import for real, in a scratch folder with the files they name;
#    bench's timings and the full verify only with HS_DOCS_FULL=1 (minutes).
# Usage: tests/docs.sh PATH/TO/hotscore PATH/TO/gendoc
set -u
hs=${1:?usage: docs.sh HOTSCORE GENDOC}
gendoc=${2:?usage: docs.sh HOTSCORE GENDOC}
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
gendoc=$(cd "$(dirname "$gendoc")" && pwd)/$(basename "$gendoc")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"

if out=$("$root/scripts/gendocs.sh" "$gendoc" check 2>&1); then
	ok "docs/cli.md, docs/hotscore.1 and the completion are current"
else
	fail "generated reference" "$out"
fi
# docs/architecture.md's layers are what the code's includes say
if out=$(bash "$root/scripts/layers.sh" check "$root/docs/architecture.md" 2>&1); then
	ok "architecture.md: the layers are the code's, no use flows back"
else
	fail "layers" "$out"
fi
# negative controls: a table that moved a folder, and a use that flows
# back (src/score/ including a CLI header, in a copy of the tree)
sed 's/^| 0 | src\/score\/ | - |$/| 1 | src\/score\/ | - |/' \
	"$root/docs/architecture.md" >"$tmp/arch.md"
mkdir -p "$tmp/tree"
cp -r "$root/scripts" "$root/src" "$root/include" "$root/kmod" "$tmp/tree"
echo '#include <hotscore/spec.h>' >>"$tmp/tree/src/score/profiles.c"
if ! cmp -s "$root/docs/architecture.md" "$tmp/arch.md" &&
   ! bash "$root/scripts/layers.sh" check "$tmp/arch.md" >/dev/null 2>&1 &&
   ! out=$(bash "$tmp/tree/scripts/layers.sh" 2>&1 >/dev/null) &&
   grep -q '^cycle: score uses' <<<"$out"; then
	ok "layers: controls fail (a wrong table; $(grep "^cycle: score" <<<"$out"))"
else
	fail "layers controls" "a wrong table or a cycle passed: $out"
fi
rm -rf "$tmp/tree"
bash -n "$root/completion/hotscore.bash" && ok "the completion is valid bash" ||
	fail "completion" "bash -n"
out=$(bash -c ". '$root/completion/hotscore.bash'
	COMP_WORDS=(hotscore sim --damos_acc); COMP_CWORD=2; _hotscore; echo \"\${COMPREPLY[*]}\"
	COMP_WORDS=(hotscore score --profile v6.6,hot); COMP_CWORD=3; _hotscore; echo \"\${COMPREPLY[*]}\"
	COMP_WORDS=(hotscore sim --workload z); COMP_CWORD=3; _hotscore; echo \"\${COMPREPLY[*]}\"
	COMP_WORDS=(hotscore sim --profile a); COMP_CWORD=3; _hotscore; echo \"[\${COMPREPLY[*]}]\"
	COMP_WORDS=(hotscore sim --duration ''); COMP_CWORD=3; _hotscore; echo \"[\${COMPREPLY[*]}]\"
	cd '$here/data/rank'
	COMP_WORDS=(hotscore rank damo-w); COMP_CWORD=2; _hotscore; echo \"\${COMPREPLY[*]}\"
	COMP_WORDS=(hotscore rank x.rec --sn); COMP_CWORD=3; _hotscore; echo \"\${COMPREPLY[*]}\"")
[ "$out" = "$(printf -- '--damos_access_rate\nv6.6,hotfix\nzigzag\n[]\n[]\ndamo-written.json\n--snapshot')" ] &&
	ok "completion: names, a list's next item, a workload, rank's record; no 'all' for sim, no files for a time" ||
	fail "completion" "$out"

# make install: the binary, the man page, the completion and the example
# candidates, under PREFIX, where the man page's FILES says they are
san=0
case $hs in */san/*) san=1 ;; esac
ex=share/doc/hotscore/examples/candidates
if make -s -C "$root" install SANITIZE=$san PREFIX="$tmp/prefix" >"$tmp/inst" 2>&1 &&
   [ -x "$tmp/prefix/bin/hotscore" ] &&
   cmp -s "$tmp/prefix/share/man/man1/hotscore.1" "$root/docs/hotscore.1" &&
   cmp -s "$tmp/prefix/share/bash-completion/completions/hotscore" "$root/completion/hotscore.bash" &&
   "$tmp/prefix/bin/hotscore" --version >/dev/null; then
	ok "make install PREFIX=...: binary, man page, completion"
else
	fail "make install" "$(head -c 300 "$tmp/inst")"
fi
# every example, byte for byte; a changed copy must not pass (control)
diff -r "$root/examples/candidates" "$tmp/prefix/$ex" >"$tmp/exdiff" 2>&1 &&
	[ -n "$(ls "$tmp/prefix/$ex")" ] && cp -r "$tmp/prefix/$ex" "$tmp/excopy" &&
	echo '/* changed */' >>"$tmp/excopy/hotfix.c" &&
	! diff -rq "$root/examples/candidates" "$tmp/excopy" >/dev/null &&
	ok "make install: examples/candidates in PREFIX/$ex ($(ls "$tmp/prefix/$ex" | wc -l) files)" ||
	fail "installed examples" "$(head -c 300 "$tmp/exdiff")"
! grep -qxF ".B PREFIX/share/hotscore/examples/" <("$gendoc" man) &&	# control
	grep -qxF ".B PREFIX/$ex/" <("$gendoc" man) &&
	grep -qF '$(DESTDIR)$(PREFIX)/$(EXAMPLES_DIR)' "$root/Makefile" &&
	grep -qx "EXAMPLES_DIR := $ex" "$root/Makefile" &&
	ok "the man page's FILES names the folder make install fills" ||
	fail "man FILES" "no PREFIX/$ex/ in the man page, or another folder in the Makefile"
# the installed example runs as the man page's EXAMPLES shows
(cd "$tmp/prefix/$ex" && HOTSCORE_CACHE=$tmp/cache "$tmp/prefix/bin/hotscore" verify --quick \
	--candidate wrong-signed-division.c >"$tmp/exrun" 2>&1)
[ $? -eq 1 ] && grep -q 'differ on' "$tmp/exrun" &&
	ok "the installed wrong-signed-division.c differs from the hotfix (exit 1)" ||
	fail "installed example" "$(tail -3 "$tmp/exrun")"
if ! command -v groff >/dev/null; then
	echo "SKIP the man page's warnings: no groff"
elif out=$(groff -ww -z -man "$root/docs/hotscore.1" 2>&1) && [ -z "$out" ]; then
	ok "the man page formats without a warning (groff -ww)"
else
	fail "man page" "$(head -3 <<<"$out")"
fi

# docs/kernel.md: every block that loads the module unloads it again, and
# the doc says that Secure Boot and lockdown refuse an unsigned module
bad=$(awk '/^```/ { if (fence && ins && !rm) print FILENAME ":" start; fence = !fence
		     ins = rm = 0; start = FNR; next }
	   fence && /insmod/ { ins = 1 } fence && /rmmod/ { rm = 1 }' "$root/docs/kernel.md")
[ -z "$bad" ] && ok "kernel.md: every insmod has its rmmod" || fail "rmmod" "none in the block at $bad"
grep -q 'Secure Boot' "$root/docs/kernel.md" && grep -q 'lockdown' "$root/docs/kernel.md" &&
	grep -q 'unsigned module' "$root/docs/kernel.md" &&
	ok "kernel.md: Secure Boot and lockdown refuse unsigned modules" ||
	fail "kernel.md" "no word on Secure Boot and lockdown"

# Every command: FILE:LINE<TAB>the arguments after "hotscore".
extract() {
	awk '
	function emit(cmd, where) {
		sub(/^.*(build\/)?hotscore /, "", cmd)
		sub(/[ \t]+#.*$/, "", cmd)	# a comment
		sub(/[ \t]*\|.*$/, "", cmd)	# what it is piped into
		sub(/[ \t]*<.*$/, "", cmd)	# a redirected input
		print where "\t" cmd
	}
	FNR == 1 { fence = 0; cont = "" }
	/^```/ { fence = !fence; next }
	fence && cont != "" {
		line = $0; sub(/^[ \t]+/, "", line)
		cont = cont " " line
		if (cont ~ /\\$/) { sub(/\\$/, "", cont); next }
		emit(cont, where); cont = ""; next
	}
	fence && /(^|^\$ |\| )(build\/)?hotscore (score|bench|verify|sim|rank|help)( |$)/ {
		if ($0 ~ /\[--|FILE\|/) next	# a synopsis, not a command
		if ($0 ~ /^hotscore (score|bench|verify|sim|rank)(:| [a-z]+:)/) next	# output
		where = FILENAME ":" FNR
		if ($0 ~ /\\$/) { cont = $0; sub(/\\$/, "", cont); next }
		emit($0, where); next
	}
	!fence {
		line = $0
		while (match(line, /`(build\/)?hotscore (score|bench|verify|sim|rank|help)[^`]*`/)) {
			span = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
			# placeholders: FILE, P, [...], ...
			if (span ~ /[[]|\.\.\.|(^|[ ,=:])[A-Z]+([ ,]|$)/) continue
			emit(span, FILENAME ":" FNR)
		}
	}' "$root/README.md" "$root"/docs/*.md
}

# Files the documented commands name, as a reader would have them.
cd "$tmp" || exit 1
cp "$here/data/kmod-results.jsonl" r.jsonl
cp "$here/data/kmod-results.jsonl" id.jsonl
cp "$here/data/mix.cfg" my.cfg
mkdir -p build && ln -s "$hs" build/hotscore
ln -s "$root/examples" examples
ln -s "$root/tests" tests
# a damo record as damo writes it, and a candidate of the reader's own
cp "$here/data/rank/damo-written.json" damon.data
cp "$root/examples/candidates/hotfix-rewritten.c" mine.c
for f in v1.c v2.c a.c b.c mine.txt; do cp mine.c "$f"; done
# the guest's DAMOS trace that docs/rank.md ranks
gunzip -c "$here/data/replay/damos-6.12.txt.gz" >damos-6.12.txt
export HOTSCORE_CACHE=$tmp/cache

extract >"$tmp/cmds"
n=0
while IFS=$'\t' read -r where args; do
	n=$((n + 1))
	eval "set -- $args"
	if ! HOTSCORE_CHECK_ARGS=1 "$hs" "$@" >out 2>err </dev/null; then
		fail "$where: hotscore $args" "$(head -c 300 err)"
		continue
	fi
	slow=0
	case " $args " in
	*" bench "*--import*|*" help "*) ;;
	" bench"*) slow=1 ;;
	" verify "*--quick*) ;;
	" verify"*) slow=1 ;;
	esac
	if [ $slow -eq 1 ] && [ -z "${HS_DOCS_FULL:-}" ]; then
		ok "$where: accepted (runs with HS_DOCS_FULL=1): hotscore $args"
		continue
	fi
	# what a documented pipe feeds one that reads stdin: a CSV row
	printf 'age\n1\n' >stdin.csv
	"$hs" "$@" >out 2>err <stdin.csv
	rc=$?
	# sim and verify exit 1 for a finding they are documented to show
	if [ $rc -eq 0 ] || { [ $rc -eq 1 ] && ! grep -q . err; } ||
	   { [ $rc -eq 1 ] && grep -q 'decided differently\|would write past' out err; }; then
		ok "$where: runs: hotscore $args"
	else
		fail "$where: hotscore $args" "exit $rc: $(head -c 300 err)"
	fi
done <"$tmp/cmds"
[ "$n" -ge 40 ] && ok "$n documented commands" || fail "extract" "only $n commands found"

report_counts
