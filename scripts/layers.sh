#!/usr/bin/env bash
# scripts/layers.sh [check FILE]: the layers of hotscore, read from the
# code: which folder includes which folder's headers.  A library header
# belongs to the folder its name starts with (include/hotscore/bench_*.h
# to src/bench/; compat.h, kernel.h and str.h are the kernel-safe shims of
# src/score/), a relative include to the folder it names.  Prints a
# markdown table, folders by layer: a folder's layer is one more than the
# highest layer it uses, so data flows one way exactly when every use
# points to a lower layer.  Exit 1 on a cycle (a use that flows back).
#   check FILE: exit 1 unless FILE holds the table between its
#   "<!-- layers -->" and "<!-- /layers -->" lines (tests/docs.sh).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

# the folder a library header belongs to
owner() {
	case $1 in
	compat|kernel|str) echo score ;;
	json_out) echo json ;;
	*) echo "${1%%_*}" ;;
	esac
}

# "FROM TO" for every use of another folder's code: a file's includes,
# a library header's includes (its folder's uses), and the folders
# kmod/Kbuild compiles into the module
uses() {
	local f from inc to
	for f in src/*/*.[ch] src/*/*/*.[ch] kmod/*.[ch] include/hotscore/*.h; do
		[ -f "$f" ] || continue
		case $f in
		kmod/*) from=kmod ;;
		include/*) from=$(owner "$(basename "$f" .h)") ;;
		*) from=${f#src/}; from=${from%%/*} ;;
		esac
		grep -hoE '^#\s*include\s*[<"][a-z0-9_/.]+\.[ch][>"]' "$f" |
		sed -E 's/^#\s*include\s*[<"]//; s/[>"]$//' |
		while read -r inc; do
			case $inc in
			hotscore/*.h) to=$(owner "$(basename "$inc" .h)") ;;
			../*) continue ;;	# within the folder
			*/*) to=${inc%%/*} ;;
			*.h)	# a sibling, for a library header; else the folder's own
				case $f in
				include/*) to=$(owner "$(basename "$inc" .h)") ;;
				*) continue ;;
				esac ;;
			*) continue ;;
			esac
			[ -d "src/$to" ] && [ "$to" != "$from" ] && echo "$from $to"
		done
	done
	sed -n 's/^HS_SAFE_DIRS := //p' kmod/Kbuild | tr ' ' '\n' | sed 's/^/kmod /'
}

# "LAYER FOLDER" lines, lowest first; a cycle is named on stderr, exit 1
layers() {
	awk '
	{ use[$1] = use[$1] " " $2; node[$1]; node[$2] }
	END {
		for (n in node)
			left++
		while (left) {
			got = 0
			for (n in node) {
				if (n in layer)
					continue
				lv = 0
				k = split(use[n], u, " ")
				for (i = 1; i <= k && (u[i] in layer); i++)
					if (layer[u[i]] + 1 > lv)
						lv = layer[u[i]] + 1
				if (i <= k)
					continue
				layer[n] = lv
				left--
				got = 1
			}
			if (!got)
				break
		}
		for (n in node)
			if (n in layer)
				print layer[n], n
			else
				printf "cycle: %s uses%s\n", n, use[n] > "/dev/stderr"
		exit left != 0
	}' | sort -k1,1n -k2,2
	return "${PIPESTATUS[0]}"
}

rows=$(uses | sort -u)
order=$(echo "$rows" | layers) || exit 1
{
	echo "| layer | folder | uses |"
	echo "|---|---|---|"
	echo "$order" | while read -r lv name; do
		dir=src/$name/
		[ "$name" = kmod ] && dir=kmod/
		used=$(echo "$rows" | awk -v n="$name" '$1 == n { print $2 }' |
		       sort | sed 's|.*|src/&/|' | paste -sd' ' | sed 's/ /, /g')
		echo "| $lv | $dir | ${used:--} |"
	done
} >"${TMPDIR:-/tmp}/layers.$$"
if [ "${1:-}" = check ]; then
	want=$(sed -n '/^<!-- layers -->$/,/^<!-- \/layers -->$/p' "$2" | sed '1d;$d')
	if [ "$want" = "$(cat "${TMPDIR:-/tmp}/layers.$$")" ]; then
		rm -f "${TMPDIR:-/tmp}/layers.$$"
		exit 0
	fi
	diff <(echo "$want") "${TMPDIR:-/tmp}/layers.$$"
	rm -f "${TMPDIR:-/tmp}/layers.$$"
	exit 1
fi
cat "${TMPDIR:-/tmp}/layers.$$"
rm -f "${TMPDIR:-/tmp}/layers.$$"
