#!/usr/bin/env bash
# hotscore rank: damo records read back (hotscore's and damo's own form,
# non-raw values, several records), every region's score equal to
# hotscore score's on the same fields, picks equal to the simulator's own
# actions, and bad records refused with one line.
# Usage: tests/rank.sh PATH/TO/hotscore PATH/TO/jsonq
set -u
hs=${1:?usage: rank.sh HOTSCORE JSONQ}
jq=${2:?usage: rank.sh HOTSCORE JSONQ}
jq=$(cd "$(dirname "$jq")" && pwd)/$(basename "$jq")
hs=$(cd "$(dirname "$hs")" && pwd)/$(basename "$hs")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data/rank
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
cd "$tmp" || exit 1

# the scheme tests/data/rank/sim.rec was recorded with
stat=(--damos_action stat --damos_age 200ms max --damos_quotas 0 16MiB 1s 0 3 7)
pageout=(--damos_action pageout --damos_age 300ms max --damos_quotas 10ms 4MiB 1s 0 3 7)

# --- damo's own JSON rewrite of a record ranks exactly as the original
"$hs" rank "$data/sim.rec" "${pageout[@]}" --csv a.csv >a.txt 2>&1 &&
"$hs" rank "$data/damo-written.json" "${pageout[@]}" --csv b.csv >b.txt 2>&1 &&
	cmp -s a.csv b.csv && [ "$(wc -l <a.csv)" -gt 100 ] &&
	ok "damo's non-raw rewrite ranks as the record it came from ($(($(wc -l <a.csv) - 1)) rows)" ||
	fail "damo form" "$(diff a.csv b.csv | head -5; cat a.txt b.txt | head -20)"
grep -q '(json_compressed), 1 record$' a.txt && grep -q '(json), 1 record$' b.txt &&
	ok "json_compressed and json told apart by content" || fail "format" "$(head -1 a.txt b.txt)"
grep -q 'rewrites that field in ns' b.txt && ! grep -q 'rewrites' a.txt &&
	ok "damo's ns sample_interval_us is noticed and said" || fail "assumed" "$(tail -5 b.txt)"

# --- every score is hotscore score's on the same fields
"$hs" rank "$data/sim.rec" "${pageout[@]}" --profile hotfix,mm-new --csv s.csv >/dev/null 2>&1
awk -F, 'NR == 1 { print "profile,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,weight_nr_accesses,weight_age"; next }
	$10 >= 0 { print $1 ",5000,100000," $8 "," $8 "," $9 ",3,7" }' s.csv >in.csv
awk -F, 'NR > 1 && $10 >= 0 { print $10 }' s.csv >rank.scores
"$hs" score --input in.csv >score.csv 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cold"] }' score.csv >score.scores
[ "$(wc -l <rank.scores)" -gt 50 ] && cmp -s rank.scores score.scores &&
	ok "rank's scores = hotscore score's (cold, $(wc -l <rank.scores) regions, hotfix and mm-new)" ||
	fail "scores" "$(paste rank.scores score.scores | head -5; head -3 score.csv)"

# --- min_score, recomputed from the CSV: the histogram walked down to 4 MiB
awk -F, 'NR > 1 && $1 == "hotfix" && $10 >= 0 {
		h[$4, $10] += $7 - $6; if ($10 > top[$4]) top[$4] = $10; got[$4] = $11 }
	END {
		for (s in got) {
			for (sc = top[s] + 0; sc > 0; sc--) {
				cum += h[s, sc]
				if (cum >= 4194304) break
			}
			if (sc != got[s]) { print "snapshot " s ": " sc " != " got[s]; bad++ }
			cum = 0; n++
		}
		print n + 0, bad + 0
	}' s.csv >ms
[ "$(tail -1 ms | cut -d' ' -f2)" = 0 ] && [ "$(tail -1 ms | cut -d' ' -f1)" -ge 8 ] &&
	ok "min_score is where the score histogram reaches the quota ($(tail -1 ms | cut -d' ' -f1) snapshots, recomputed)" ||
	fail "min_score" "$(cat ms)"

# --- no quota: the kernel scores nothing and acts on every eligible region
"$hs" rank "$data/sim.rec" --damos_action pageout --damos_age 300ms max --csv nq.csv >nq.txt 2>&1
awk -F, 'NR > 1 && ($10 != -1 || ($12 != 0 && $12 != $7 - $6)) { bad++ } END { print bad + 0 }' nq.csv >nq.bad
[ "$(cat nq.bad)" = 0 ] && grep -Eq '^ +5 .* 12 +96.5 MiB +0 +12 +96.5 MiB$' nq.txt &&
	ok "no quota: nothing scored, every eligible region picked whole" || fail "no quota" "$(sed -n 1,12p nq.txt)"

# --- picks: pageout's quota binds, min_score and 4 MiB exactly
awk -F, 'NR > 1 && $1 == "hotfix" { p[$4] += $12; if ($10 >= 0) e[$4] += $7 - $6 }
	END { for (s in e) if (e[s] >= 4194304 ? p[s] != 4194304 : p[s] != e[s]) bad++; print bad + 0 }' s.csv >bad
[ "$(cat bad)" = 0 ] && grep -Eq '^ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9.]+ MiB +[1-9][0-9]* +[0-9]+ +4.0 MiB$' a.txt &&
	ok "a binding quota picks exactly its 4 MiB above min_score" || fail "picks" "$(sed -n 1,12p a.txt)"

# --- the simulator's own actions, ranked back from its record
sim_stat=(--damos_action stat --damos_age 300ms max --damos_quotas 0 4GiB 1s 0 3 7)
"$hs" sim --duration 2s --no-timing --record rt.rec --actions rt.csv "${sim_stat[@]}" >/dev/null 2>&1
"$hs" rank rt.rec "${sim_stat[@]}" --csv rk.csv >/dev/null 2>&1
# (stat applies nothing, so compare the regions tried: all of each here)
awk -F, 'NR > 1 { print $1 / 100000 - 1, $3, $4 }' rt.csv | sort >sim.picks
awk -F, 'NR > 1 && $12 > 0 && $12 == $7 - $6 { print $4, $6, $7 }' rk.csv | sort >rank.picks
[ -s sim.picks ] && cmp -s sim.picks rank.picks &&
	ok "rank on sim's record picks what sim's scheme acted on ($(wc -l <sim.picks) actions)" ||
	fail "round trip" "$(diff sim.picks rank.picks | head -6; head -3 rt.csv rk.csv)"

# --- --carry: the quotas carried from snapshot to snapshot, the schemes in
# order.  stat leaves the regions as they were, so sim's record shows the
# regions its walk started from (the walk merges its slices back), and
# rank --carry must make every one of sim's applications: each pick's bytes
# are those of sim's actions inside it, and every action is inside a pick.
carry=(--damos_action stat --damos_age 0 max --damos_quotas 0 8MiB 1s 0 3 7
	--damos_action stat --damos_access_rate 0% 50% --damos_quotas 0 3MiB 500ms 0 1 1)
"$hs" sim --duration 10s --no-timing --seed 3 --record cy.rec --actions cy.csv "${carry[@]}" >/dev/null 2>&1
"$hs" rank cy.rec "${carry[@]}" --carry --csv cy-rank.csv --json cy.json >cy.txt 2>&1
read -r got picks actions lost < <(awk -f "$data/carry-match.awk" cy.csv cy-rank.csv)
[ "$got" = "$picks" ] && [ "$lost" = 0 ] && [ "$picks" -ge 40 ] &&
	ok "--carry on sim's record: $got of $picks picks equal sim's actions, all $actions actions inside one (2 schemes)" ||
	fail "--carry exact" "$got of $picks, $lost of $actions lost; $(tail -5 cy.txt)"
grep -q '^  - --carry: each snapshot is the regions of one kdamond_apply_schemes()' cy.txt &&
	[ "$("$jq" cy.json quota)" = carried ] && [ "$("$jq" a.json quota 2>/dev/null || echo fresh)" = fresh ] &&
	ok "--carry is said, in the summary and the JSON's \"quota\"" || fail "--carry said" "$(tail -4 cy.txt)"
# the controls: each snapshot a fresh quota, and the wrong size quota
"$hs" rank cy.rec "${carry[@]}" --csv cy-fresh.csv >/dev/null 2>&1
read -r got picks actions lost < <(awk -f "$data/carry-match.awk" cy.csv cy-fresh.csv)
[ -n "$picks" ] && { [ "$got" != "$picks" ] || [ "$lost" != 0 ]; } &&
	ok "control: a fresh quota a snapshot misses ($got of $picks picks, $lost actions outside)" ||
	fail "control fresh" "it matched"
wrong=("${carry[@]}")
wrong[7]=6MiB
"$hs" rank cy.rec "${wrong[@]}" --carry --csv cy-wrong.csv >/dev/null 2>&1
read -r got picks actions lost < <(awk -f "$data/carry-match.awk" cy.csv cy-wrong.csv)
[ -n "$picks" ] && { [ "$got" != "$picks" ] || [ "$lost" != 0 ]; } &&
	ok "control: --carry with 6 MiB for 8 MiB misses ($got of $picks picks, $lost actions outside)" ||
	fail "control size" "it matched"
# --snapshot shows one snapshot, the quotas carried through the earlier ones
"$hs" rank cy.rec "${carry[@]}" --carry --snapshot 10 --csv cy-10.csv >/dev/null 2>&1
awk -F, 'NR == 1 || $4 == 10' cy-rank.csv | cmp -s - cy-10.csv &&
	ok "--carry --snapshot 10: the row of the whole walk" ||
	fail "--carry --snapshot" "$(awk -F, 'NR == 1 || $4 == 10' cy-rank.csv | diff - cy-10.csv | head -4)"
# a trap only the walk meets: the first scheme's pageout resets an age to 0,
# and a score that divides by the age traps when the second scheme asks
cat >age0.c <<'EOF2'
// SPDX-License-Identifier: GPL-2.0
/* A score that divides by the age: it traps on a region of age 0. */
int damon_hot_score(struct damon_ctx *c, struct damon_region *r,
			struct damos *s)
{
	return 99 / r->age;
}
EOF2
printf '[{"intervals": {"sample_us": 5000, "aggr_us": 100000}, "snapshots": [{"start_time": 0, "end_time": 100000000, "regions": [%s, %s]}]}]' \
	'{"start": 0, "end": 16384, "nr_accesses": {"samples": 0}, "age": {"aggr_intervals": 5}}' \
	'{"start": 16384, "end": 32768, "nr_accesses": {"samples": 1}, "age": {"aggr_intervals": 5}}' >aged.json
two=(--damos_action pageout --damos_quotas 0 1MiB 1s 0 1 1 --damos_action pageout --damos_quotas 0 1MiB 1s 0 1 1)
"$hs" rank aged.json --profile ./age0.c "${two[@]}" --carry >aged.txt 2>&1
rc=$?
"$hs" rank aged.json --profile ./age0.c "${two[@]}" >aged-fresh.txt 2>&1
[ $rc -eq 1 ] && grep -q '2 regions trapped' aged.txt && [ $? -eq 0 ] &&
	! grep -q trapped aged-fresh.txt &&
	ok "--carry: a trap only the walk's second scheme meets (an age reset to 0) counts, exit 1" ||
	fail "--carry trap" "exit $rc: $(cat aged.txt)"
expect_bad "--carry with --sweep_weights" "" rank cy.rec --carry --sweep_weights --damos_quotas 0 1MiB 1s 0 1 1
echo '# a trace' >trace.txt
expect_bad "--carry with --damos_trace" "" rank --damos_trace trace.txt --carry
expect_bad "--carry: a record has its intervals" "" rank cy.rec --carry --sample 4ms
"$hs" rank cy.rec "${carry[@]}" --carry --hz 1000 --csv cy-hz.csv >/dev/null 2>&1 &&
	cmp -s cy-rank.csv cy-hz.csv && ok "--carry takes --hz (1 s and 500 ms windows: the same picks at HZ 1000)" ||
	fail "--carry --hz" "$(diff cy-rank.csv cy-hz.csv | head -4)"

# --- damo record's own form: from the damon_aggregated tracepoint's text
# (damo-trace.txt, in perf script's form), written by damo itself with
# convert_record_format: no intervals, no indices, a kernel-pointer target_id
"$hs" rank "$data/damo-trace.json_compressed" --damos_action pageout \
	--damos_quotas 0 2MiB 1s 0 0 1 --csv tr.csv >tr.txt 2>&1
[ "$(grep -cE '^ +[0-9]+ +[0-9.]+ +3 +3 +3.0 MiB +[0-9]+ +2 +2.0 MiB$' tr.txt)" = 12 ] &&
	grep -q "no intervals in the record: damo's defaults" tr.txt &&
	[ "$(awk -F, 'NR == 2 { print $6 ":" $8 ":" $9 }' tr.csv)" = "$(awk 'NR == 1 {
		split($(NF - 2), a, "-"); print a[1] ":" $(NF - 1) ":" $NF }' "$data/damo-trace.txt")" ] &&
	ok "damo's record of tracepoint text: 12 snapshots, damo's default intervals assumed and said" ||
	fail "trace record" "$(head -12 tr.txt; head -2 tr.csv)"

# --- several records: a context's targets together, kdamonds apart
"$hs" rank "$data/damo-multi.json_compressed" "${stat[@]}" >m.txt 2>&1
grep -q '3 records$' m.txt && grep -q 'kdamond 0, context 0, scheme 0, 2 records' m.txt &&
	grep -q 'kdamond 1, context 0, scheme 0, 1 record;' m.txt &&
	[ "$(grep -c '^ *[0-9]* *[0-9.]* *24 ' m.txt)" -eq 9 ] &&
	ok "two targets of one context ranked together, another kdamond apart" || fail "multi" "$(cat m.txt)"

# --- --snapshot, --time, two profiles, two schemes, --json
out=$("$hs" rank "$data/sim.rec" "${pageout[@]}" --time 350ms 2>&1)
[ "$(grep -cE '^ +3 +0.400 ' <<<"$out")" = 1 ] && [ "$(grep -cE '^ +[0-9]+ +[0-9]+\.[0-9]{3} ' <<<"$out")" = 1 ] &&
	ok "--time 350ms is snapshot 3 alone" || fail "--time" "$out"
out=$("$hs" rank "$data/sim.rec" "${pageout[@]}" --snapshot 5 --profile v5.16,hotfix 2>&1)
grep -q 'differ$' <<<"$out" && grep -Eq '^ +5 .* [0-9.]+ [KMG]?i?B/[0-9]+$' <<<"$out" &&
	ok "two profiles: where the picks differ" || fail "differ" "$out"
out=$("$hs" rank "$data/sim.rec" --snapshot 5 --damos_action pageout --damos_quotas 0 4MiB 1s 0 0 1 \
	--damos_action pageout --damos_quotas 0 4MiB 1s 0 1 0 --json r.json 2>&1)
got=$("$jq" r.json snapshots.0.index snapshots.0.picks.1.scheme snapshots.0.picks.0.picked_bytes \
	snapshots.0.picks.1.picked_bytes snapshots.1 2>&1 | tr '\n' ' ')
grep -q 'hotfix scheme 1' <<<"$out" && [ "$got" = "5 1 4194304 4194304 missing " ] &&
	ok "two weight sets compared; --json well-formed, one snapshot" || fail "schemes" "$got $out"

# --- a candidate file is a profile too
export HOTSCORE_CACHE=$tmp/cache
"$hs" rank "$data/sim.rec" "${pageout[@]}" --csv c.csv \
	--profile "hotfix,mine=$here/../examples/candidates/hotfix-rewritten.c" >c.txt 2>&1
awk -F, '$1 == "hotfix" { sub(/^hotfix,/, ""); print }' c.csv >c.hotfix
awk -F, '$1 == "mine" { sub(/^mine,/, ""); print }' c.csv >c.mine
[ -s c.hotfix ] && cmp -s c.hotfix c.mine && grep -q ' 0 B/0$' c.txt &&
	ok "a candidate file ranks as the profile it rewrites" || fail "candidate" "$(head -20 c.txt)"

# --- a large record in bounded memory: 120 MB of address space for all
case $hs in
*/san/*) ok "bounded memory: not measured under ASan (it reserves terabytes)" ;;
*)
	"$hs" sim --workload zigzag --duration 20s --minr 2000 --maxr 4000 --no-timing \
		--record big.rec --record_format json >/dev/null 2>&1
	mb=$(( $(wc -c <big.rec) >> 20 ))
	if [ "$mb" -ge 40 ] && (ulimit -v 120000; "$hs" rank big.rec >big.txt 2>&1); then
		ok "a $mb MB record ranked within 120 MB of address space"
	else
		fail "bounded memory" "$mb MB: $(tail -3 big.txt 2>/dev/null)"
	fi ;;
esac

# --- two weight sets that pick differently; differ recomputed from the CSV
# (paddr: in vaddr the process' own cold memory heads both rankings)
"$hs" sim --workload zigzag --ops paddr --duration 13s --no-timing --record z.rec >/dev/null 2>&1
"$hs" rank z.rec --time 12s --damos_action pageout --damos_quotas 0 16MiB 1s 0 0 1 \
	--damos_action pageout --damos_quotas 0 16MiB 1s 0 1 0 --csv z.csv >z.txt 2>&1
want=$(awk -F, 'NR > 1 { k = $6 "-" $7; p[$2, k] = $12; keys[k] = 1 }
	END { for (k in keys) { d = p[0, k] - p[1, k]; if (d < 0) d = -d; if (d) { b += d; n++ } }
	      printf "%.1f MiB/%d\n", b / 1048576, n }' z.csv)
grep -Eq " $want\$" z.txt && [ "$want" != "0.0 MiB/0" ] &&
	ok "two weight sets: they differ by $want, as the CSV says" || fail "differ" "want $want: $(sed -n 9,11p z.txt)"

# --- the summary: each pick's weights, labelled, and its totals from the CSV
# (a.txt, a.csv: pageout, 4 MiB, weights 0 3 7 on sim.rec)
# bytes as rank prints them
fmtb='function fmtb(b) {
	if (b >= 1073741824) return sprintf("%.1f GiB", b / 1073741824)
	if (b >= 1048576) return sprintf("%.1f MiB", b / 1048576)
	if (b >= 1024) return sprintf("%.1f KiB", b / 1024)
	return b " B"
}'
totals() {	# CSV PROFILE SCHEME: "N regions, B, in K of M snapshots"
	awk -F, -v p="$2" -v sc="$3" "$fmtb"'
		NR > 1 && $1 == p && $2 == sc {
			snaps[$4] = 1; if ($12 > 0) { n++; b += $12; hit[$4] = 1 } }
		END {
			for (s in snaps) m++; for (s in hit) k++
			printf "%d region%s, %s, in %d of %d snapshots\n", n, n == 1 ? "" : "s", fmtb(b), k, m
		}' "$1"
}
want=$(totals a.csv hotfix 0)
grep -q '^          weights sz 0 nr_accesses 3 age 7$' a.txt &&
	grep -qxF "  hotfix, weights sz 0 nr_accesses 3 age 7: $want" a.txt &&
	ok "labelled weights; the summary totals what the CSV holds: $want" ||
	fail "summary" "want '$want': $(sed -n '/^summary/,/^$/p' a.txt)"
# negative control: a larger quota's summary is not those totals
"$hs" rank "$data/sim.rec" --damos_action pageout --damos_age 300ms max \
	--damos_quotas 10ms 16MiB 1s 0 3 7 >a16.txt 2>&1
grep -q '^  hotfix, weights sz 0 nr_accesses 3 age 7: ' a16.txt &&
	! grep -qxF "  hotfix, weights sz 0 nr_accesses 3 age 7: $want" a16.txt &&
	ok "negative control: a 16 MiB quota's totals differ from the 4 MiB one's" ||
	fail "summary control" "$(grep '^  hotfix' a16.txt)"

# --- two weight sets over every snapshot: where they differ, from the CSV;
# more than 20 snapshots print only the rows where they differ
"$hs" sim --workload zigzag --duration 30s --no-timing --record z30.rec >/dev/null 2>&1
two=(--damos_action pageout --damos_quotas 0 16MiB 1s 0 0 1 --damos_action pageout)
"$hs" rank z30.rec "${two[@]}" --damos_quotas 0 16MiB 1s 0 1 0 --csv zz.csv >zz.txt 2>&1
want=$(awk -F, "$fmtb"'
	NR > 1 { k = $4 SUBSEP $6 "-" $7; p[$2, k] = $12; keys[k] = 1 }
	END { for (k in keys) { d = p[0, k] - p[1, k]; if (d < 0) d = -d
			split(k, a, SUBSEP); all[a[1]] = 1
			if (d) { b += d; n++; s[a[1]] = 1 } }
	      for (x in s) ns++; for (x in all) m++
	      printf "%d of %d snapshots: %d regions, %s,\n", ns, m, n, fmtb(b) }' zz.csv)
shown=$(grep -cE '^ +[0-9]+ +[0-9]+\.[0-9]{3} ' zz.txt)
ns=${want%% *}
grep -qxF "  they differ in $want picked by one only" zz.txt &&
	[ "$ns" -gt 20 ] && [ "$shown" -eq 20 ] &&
	grep -q "^  (20 of 299 snapshots shown: where the picks differ;" zz.txt &&
	ok "two weight sets differ in $want as the CSV says; 20 rows shown" ||
	fail "two weight sets" "want '$want', $shown rows: $(sed -n '/shown/,/^$/p' zz.txt)"
# negative control: one weight set twice picks alike, and shows no row
"$hs" rank z30.rec "${two[@]}" --damos_quotas 0 16MiB 1s 0 0 1 >zz0.txt 2>&1
grep -q '^  they pick alike in all [0-9]* snapshots$' zz0.txt &&
	[ "$(grep -cE '^ +[0-9]+ +[0-9]+\.[0-9]{3} ' zz0.txt)" -eq 0 ] &&
	ok "negative control: the same weights twice pick alike" ||
	fail "alike" "$(sed -n '/^summary/,$p' zz0.txt)"
# one pick over more than 20 snapshots: the first 10 rows, all totalled
"$hs" rank z30.rec >z1.txt 2>&1
[ "$(grep -cE '^ +[0-9]+ +[0-9]+\.[0-9]{3} ' z1.txt)" -eq 10 ] &&
	grep -q '^summary, totals over 299 snapshots ranked:$' z1.txt &&
	ok "one pick, 299 snapshots: 10 rows, a summary of all 299" ||
	fail "fold" "$(grep -c . z1.txt) lines: $(sed -n '/shown/,/^$/p' z1.txt)"

# --- a bare --damos_age is microseconds: 0 aggregations, said on stderr
"$hs" rank "$data/sim.rec" --damos_age 5 max >bare.txt 2>bare.err
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <bare.err)" -eq 1 ] &&
	grep -qx "hotscore rank: warning: --damos_age 5 is 0 aggregations of 100ms: a bare number is us, as in damo" bare.err &&
	grep -q 'age 0..max aggregations' bare.txt &&
	ok "a bare --damos_age 5: one warning line, exit 0" || fail "bare age" "exit $rc: $(cat bare.err)"
for a in 5s 5us 0 200000; do
	"$hs" rank "$data/sim.rec" --damos_age "$a" max >/dev/null 2>bare.err
	[ -s bare.err ] && break
done
[ ! -s bare.err ] && ok "negative controls: --damos_age 5s, 5us, 0 and 200000 (2 aggregations) say nothing" ||
	fail "bare age control" "--damos_age $a: $(cat bare.err)"
"$hs" sim --damos_age 5 max --duration 1s --no-timing >/dev/null 2>bare.err &&
	grep -q '^hotscore sim: warning: --damos_age 5 is 0 aggregations' bare.err &&
	ok "sim warns alike" || fail "sim bare age" "$(cat bare.err)"

# --- --sweep_weights on damo-written records: each pair of the grid is the
# ranking with those weights, cross-checked from two rankings' CSVs
cp "$data/damo-trace.json_compressed" trace.rec	# a path as a user types it
tr=trace.rec
q=(--damos_action pageout --damos_quotas 0 2MiB 1s 0)
"$hs" rank "$tr" "${q[@]}" 3 7 --sweep_weights --json sw.json --svg sw.svg >sw.txt 2>&1
rc=$?
"$hs" rank "$tr" "${q[@]}" 3 7 --csv own.csv >/dev/null 2>&1
"$hs" rank "$tr" "${q[@]}" 1 0 --csv p10.csv >/dev/null 2>&1
"$hs" rank "$tr" "${q[@]}" 0 1 --csv p01.csv >/dev/null 2>&1
more() {	# CSV: the bytes it picks that own.csv does not
	awk -F, 'FNR == 1 { f++; next }
		{ k = $4 SUBSEP $6 SUBSEP $7 } f == 1 { own[k] = $12; next }
		$12 > own[k] { b += $12 - own[k] } END { print b + 0 }' own.csv "$1"
}
got=$("$jq" sw.json sweep.differ_bytes.1.0 sweep.differ_bytes.0.1 sweep.differ_bytes.3.5 \
	sweep.picked_bytes.1.0 | paste -sd' ')
want="$(more p10.csv) $(more p01.csv) 0 $(awk -F, 'NR > 1 { b += $12 } END { print b }' p10.csv)"
[ $rc -eq 0 ] && [ "$got" = "$want" ] && [ "${want%% *}" -gt 0 ] &&
	[ "$(grep -c '^  nr_accesses ' sw.txt)" -eq 7 ] && grep -q ' 0 B\*' sw.txt &&
	ok "--sweep_weights on damo's record: (1, 0) picks $(more p10.csv) B that (3, 7) does not, as the CSVs say" ||
	fail "sweep" "exit $rc, got '$got', want '$want': $(sed -n '/swept/,/pairs/p' sw.txt)"
# negative control: another pair's bytes are not (1, 0)'s
[ "$("$jq" sw.json sweep.differ_bytes.1.0)" != "$(more p01.csv)" ] &&
	ok "negative control: (0, 1) differs from (1, 0) by the CSVs too" ||
	fail "sweep control" "$(more p01.csv)"
[ "$(head -c 4 sw.svg)" = "<svg" ] && [ "$(tail -1 sw.svg)" = "</svg>" ] &&
	[ "$(grep -c '<rect .*stroke="#cccccc"' sw.svg)" -eq 49 ] &&
	[ "$(grep -c 'stroke-width="3"' sw.svg)" -eq 1 ] &&
	ok "--svg: the 49 cells of the grid, yours outlined" || fail "svg" "$(head -3 sw.svg)"
cp "$data/damo-written.json" written.json
"$hs" rank written.json "${pageout[@]}" --sweep_weights >dw.txt 2>&1 &&
	grep -q '^picked in all: ' dw.txt &&
	ok "--sweep_weights on damo's JSON rewrite too" || fail "sweep damo-written" "$(tail -5 dw.txt)"
expect_bad "--svg without --sweep_weights" "" rank "$tr" --svg x.svg
expect_bad "--sweep_weights with two profiles" "" rank "$tr" --sweep_weights --profile v6.6,hotfix
expect_bad "--sweep_weights without a quota" "" rank "$tr" --sweep_weights --damos_action pageout
expect_bad "--sweep_weights on a missing record leaves no --svg" "" rank missing.json --sweep_weights --svg gone.svg
[ ! -e gone.svg ] && ok "no --svg written" || fail "svg left" "gone.svg exists"

# --- every line within 100 columns (the checker flags a 101-column control)
printf '%0101d\n' 0 >wide.ctl
[ -z "$(awk 'length($0) > 100' a.txt zz.txt z1.txt sw.txt dw.txt bare.txt)" ] &&
	[ -n "$(awk 'length($0) > 100' wide.ctl)" ] &&
	ok "rank's summary, rows and sweep fit 100 columns" ||
	fail "width" "$(awk 'length($0) > 100' a.txt zz.txt z1.txt sw.txt dw.txt bare.txt)"

# --- damo's tried-regions snapshots: a context's targets one after another
printf '[{"kdamond_idx": 0, "context_idx": 0, "scheme_idx": 0, "target_id": null, "intervals": {"sample_us": "5 ms", "aggr_us": "100 ms"}, "snapshots": [{"start_time": 0, "end_time": "100 ms", "regions": [%s, %s, %s]}]}]' \
	'{"start": "8,192", "end": "16,384", "nr_accesses": {"samples": 0, "percent": 0}, "age": {"usec": "1 s", "aggr_intervals": "10"}}' \
	'{"start": "16,384", "end": "65,536", "nr_accesses": {"samples": 20, "percent": 100}, "age": {"usec": "1 s", "aggr_intervals": "10"}}' \
	'{"start": "4,096", "end": "8,192", "nr_accesses": {"samples": 0, "percent": 0}, "age": {"usec": "5 s", "aggr_intervals": "50"}}' >tried.json
"$hs" rank tried.json --damos_action pageout --damos_age 0 max --damos_quotas 0 4KiB 1s 0 0 1 --csv t.csv >t.txt 2>&1
[ "$(awk -F, 'NR > 1 { print $5 ":" $6 ":" $12 }' t.csv | paste -sd' ')" = "0:8192:0 0:16384:0 1:4096:4096" ] &&
	ok "tried regions of two targets: the older second target picked first" ||
	fail "tried regions" "$(cat t.csv t.txt)"

# --- bad records: one line naming the file, exit 2
head -c 600 "$data/sim.rec" >trunc.rec
expect_bad "truncated zlib" "" rank trunc.rec
printf '[{"snapshots": [{"start_time": 0,, }]}]' >malformed.json
expect_bad "malformed JSON" "" rank malformed.json
printf '[{"snapshots": [{"start_time": 0, "end_time": 1, "regions": [{"start": 4096}]}]}]' >nokey.json
expect_bad "a missing key" "" rank nokey.json
printf '[{"target_id": 1, "snapshots": [{"start_time": 0, "end_time": 1, "regions": [{"start": "8,192", "end": "16,384"}, {"start": 4096, "end": 12288}]}]}]' >overlap.json
expect_bad "overlapping regions" "" rank overlap.json
printf '[{"snapshots": [{"start_time": 0, "end_time": 1, "regions": [{"start": 0, "end": 4096, "nr_accesses": {"samples": 4294967296}}]}]}]' >range.json
expect_bad "a number out of range" "" rank range.json
printf '[{"snapshots": [{"start_time": "1 fortnight", "end_time": 1, "regions": []}]}]' >unit.json
expect_bad "an unknown time unit" "" rank unit.json
printf '[] []' >after.json
expect_bad "data after the record list" "" rank after.json
printf 'hello' >text.json
expect_bad "not a record" "" rank text.json
: >empty.json
expect_bad "an empty file" "" rank empty.json
expect_bad "no such file" "" rank missing.json
expect_bad "two records given" "" rank a.csv b.csv
expect_bad "no record given" "" rank
expect_bad "--snapshot past the end" "" rank "$data/sim.rec" --snapshot 99
expect_bad "--time past the end" "" rank "$data/sim.rec" --time 1h
expect_bad "a pipe" "" rank /dev/stdin
printf '[{"intervals": {"sample_us": 1, "aggr_us": 10000000000}, "snapshots": [{"start_time": 0, "end_time": 1, "regions": [{"start": 0, "end": 4096, "nr_accesses": {"percent": 100}}]}]}]' >big-pct.json
# found while ranking: the summary so far stays on stdout, no file is written
"$hs" rank big-pct.json --csv bp.csv >/dev/null 2>err
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'big-pct.json: .*"percent" .* over 2^32 samples' err &&
	[ ! -e bp.csv ] && ok "a percentage past 2^32 samples: $(cat err)" || fail "big percent" "exit $rc: $(cat err)"
grep -q 'trunc.rec: truncated zlib stream' "$tmp/err" 2>/dev/null || true
"$hs" rank trunc.rec 2>&1 | grep -q '^hotscore rank: trunc.rec: truncated zlib stream' &&
	ok "the message names the file and the fault" || fail "message" "$("$hs" rank trunc.rec 2>&1)"

report_counts
