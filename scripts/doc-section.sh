#!/usr/bin/env bash
# Sourced by the bench scripts: splice_section DOC NAME FILE replaces the
# lines of DOC from "<!-- NAME:begin" to "<!-- NAME:end -->" with FILE, or
# appends FILE when DOC has no such section yet.
splice_section() {
	local doc=$1 name=$2 file=$3
	if grep -q "<!-- $name:begin" "$doc"; then
		awk -v f="$file" -v b="<!-- $name:begin" -v e="<!-- $name:end -->" '
			index($0, b) == 1 { while ((getline l < f) > 0) print l; skip = 1 }
			!skip { print }
			index($0, e) == 1 { skip = 0 }' "$doc" >"$doc.new"
	else
		{ cat "$doc"; echo; cat "$file"; } >"$doc.new"
	fi
	mv "$doc.new" "$doc"
}
