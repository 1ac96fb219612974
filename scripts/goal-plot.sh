#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# goal-plot.sh GOAL.TXT SIM.ESZ OUT.SVG: the quota goal's convergence, the
# real kdamond's effective size per charge window (GOAL.TXT, the lines
# "goal I CURRENT ESZ T" of scripts/guest/goal.sh) against hotscore sim's
# on the same values (SIM.ESZ, a size a line), on a log2 scale.  The SVG
# is written to a temporary file and renamed.
set -eu
[ $# -eq 3 ] || { echo "usage: goal-plot.sh GOAL.TXT SIM.ESZ OUT.SVG" >&2; exit 2; }
tmp=$(mktemp "$3.XXXXXX")
trap 'rm -f "$tmp"' EXIT
paste -d' ' <(cut -d' ' -f2,4 "$1") "$2" | awk '
function x(i) { return 60 + (i - 1) * 520 / (n > 1 ? n - 1 : 1) }
function y(v) { return 300 - 260 * (log(v < 1 ? 1 : v) / log(2)) / top }
{ w[NR] = $1; k[NR] = $2; s[NR] = $3; n = NR
  if ($2 > m) m = $2; if ($3 > m) m = $3 }
END {
	top = int(log(m < 2 ? 2 : m) / log(2)) + 1
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\" font-family=\"sans-serif\" font-size=\"12\">\n"
	printf "<rect width=\"640\" height=\"360\" fill=\"white\"/>\n"
	printf "<text x=\"320\" y=\"20\" text-anchor=\"middle\">user_input quota goal: effective size per charge window</text>\n"
	for (e = 0; e <= top; e += 4) {
		printf "<line x1=\"60\" x2=\"580\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", y(2^e), y(2^e)
		printf "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">2^%d B</text>\n", y(2^e) + 4, e
	}
	printf "<text x=\"320\" y=\"340\" text-anchor=\"middle\">charge window (2 s each; 6.12 sets none in its first)</text>\n"
	printf "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\""
	for (i = 1; i <= n; i++) printf "%.1f,%.1f ", x(i), y(s[i])
	printf "\"/>\n"
	for (i = 1; i <= n; i++)
		printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n", x(i), y(k[i])
	printf "<line x1=\"400\" x2=\"430\" y1=\"240\" y2=\"240\" stroke=\"#1f77b4\" stroke-width=\"2\"/><text x=\"435\" y=\"244\">hotscore sim</text>\n"
	printf "<circle cx=\"415\" cy=\"262\" r=\"4\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/><text x=\"435\" y=\"266\">6.12 kdamond (effective_bytes)</text>\n"
	printf "</svg>\n"
}' >"$tmp"
mv "$tmp" "$3"
trap - EXIT
