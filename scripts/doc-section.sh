#!/usr/bin/env bash
# Sourced by the bench scripts: splice_section DOC NAME FILE replaces the
# lines of DOC from "<!-- NAME:begin" to "<!-- NAME:end -->" with FILE, or
# appends FILE when DOC has no such section yet.  DOC is replaced whole:
# the new text goes to a temporary file beside it, renamed when complete;
# an interrupt leaves DOC as it was and no temporary file.
splice_section() {
	local doc=$1 name=$2 file=$3
	(
		new=$(mktemp "$(dirname "$doc")/.$(basename "$doc").XXXXXX") || exit 1
		trap 'rm -f "$new"' EXIT
		trap 'rm -f "$new"; exit 130' INT TERM
		if grep -q "<!-- $name:begin" "$doc"; then
			awk -v f="$file" -v b="<!-- $name:begin" -v e="<!-- $name:end -->" '
				index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1 }
				!skip { print }
				index($0, e) == 1 { skip = 0 }' "$doc" >"$new" || exit 1
		else
			{ cat "$doc"; echo; cat "$file"; } >"$new" || exit 1
		fi
		chmod --reference="$doc" "$new" && mv "$new" "$doc"
	)
}
