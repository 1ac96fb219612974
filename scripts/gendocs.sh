#!/usr/bin/env bash
# The generated reference: docs/cli.md, docs/hotscore.1 and
# completion/hotscore.bash, from the option tables (src/doc/gendoc.c).
#   gendocs.sh GENDOC write   rewrite the stale ones (make docs)
#   gendocs.sh GENDOC check   exit 1 naming the stale ones (the tests)
set -u
gendoc=${1:?usage: gendocs.sh GENDOC write|check}
what=${2:?usage: gendocs.sh GENDOC write|check}
cd "$(dirname "$0")/.."
stale=0
for pair in md:docs/cli.md man:docs/hotscore.1 bash:completion/hotscore.bash; do
	kind=${pair%%:*} file=${pair#*:}
	tmp=$(mktemp "$file.XXXXXX") || exit 2
	if ! "$gendoc" "$kind" >"$tmp"; then
		rm -f "$tmp"
		echo "gendoc $kind failed" >&2
		exit 2
	fi
	if cmp -s "$tmp" "$file"; then
		rm -f "$tmp"
		continue
	fi
	if [ "$what" = write ]; then
		chmod 644 "$tmp"
		mv "$tmp" "$file"	# whole, or not at all
		echo "wrote $file"
	else
		rm -f "$tmp"
		echo "$file is not current: run make docs"
		stale=1
	fi
done
exit $stale
