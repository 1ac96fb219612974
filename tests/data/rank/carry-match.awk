# sim's --actions CSV, then rank's --csv: each rank pick matched when sim's
# actions of that scheme in that snapshot inside it sum to its bytes
BEGIN { FS = "," }
FNR == 1 { f++; next }
f == 1 { n++; t[n] = $1 / 100000 - 1; s[n] = $2; a[n] = $3; b[n] = $4; next }
$12 > 0 { m++; snap[m] = $4; sch[m] = $2; lo[m] = $6; hi[m] = $7; pick[m] = $12 }
END {
	for (i = 1; i <= n; i++)
		for (k = 1; k <= m; k++)
			if (snap[k] == t[i] && sch[k] == s[i] && lo[k] <= a[i] && b[i] <= hi[k]) {
				got[k] += b[i] - a[i]
				in_[i] = 1
				break
			}
	for (k = 1; k <= m; k++)
		ok += got[k] == pick[k]
	for (i = 1; i <= n; i++)
		lost += !in_[i]
	print ok + 0, m + 0, n + 0, lost + 0
}
