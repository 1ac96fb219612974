# records_trace.awk - a plain-JSON damo record (hotscore sim --record
# --record_format json: one snapshot a line) as the damon_aggregated trace
# text a kdamond would have left: tracefs' form for even snapshots, perf
# script's for odd ones, a line of another event between snapshots, and
# the timestamps moved by BASE seconds (a guest's uptime).  With SAMPLES,
# that many hs_sample kprobe events before each snapshot, evenly over its
# aggregation (the first's taken as AGGR_NS long, default 100 ms), and with
# PREPARE an hs_prepare event before each, half an interval earlier.
# Usage: awk -v base=1234 [-v noage=1] [-v samples=N [-v prepare=1]]
#        -f records_trace.awk RECORD.json
BEGIN {
	print "# tracer: nop"
	print "#"
	print "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION"
}
/^\{"start_time"/ {
	line = $0
	match(line, /"end_time": "[0-9]+"/)
	ns = substr(line, RSTART + 13, RLENGTH - 14)
	ts = sprintf("%d.%06d", base + int(ns / 1e9), int((ns % 1e9) / 1000))
	if (samples) {
		from = snap ? prev : ns - (aggr_ns ? aggr_ns : 100000000)
		for (k = 1; k <= samples; k++) {
			at = from + (ns - from) * k / (samples + 1)
			if (prepare)	# each window open half its interval
				printf "       kdamond.0-231     [001] d....  %d.%06d: hs_prepare: (damon_va_prepare_access_checks+0x0/0x90)\n",
					base + int((at - (ns - from) / (samples + 1) / 2) / 1e9),
					int(((at - (ns - from) / (samples + 1) / 2) % 1e9) / 1000)
			printf "       kdamond.0-231     [001] d....  %d.%06d: hs_sample: (damon_va_check_accesses+0x0/0x1c0)\n",
				base + int(at / 1e9), int((at % 1e9) / 1000)
		}
		prev = ns
	}
	sub(/.*"regions": \[/, "", line)
	n = split(line, parts, /\{"start": /)
	nr = n - 1
	for (i = 2; i <= n; i++) {
		p = parts[i]
		gsub(/"percent": [0-9.]+/, "", p)
		gsub(/"usec": [0-9]+/, "", p)
		gsub(/[^0-9]+/, " ", p)
		split(p, f, " ")
		age = noage ? "" : " " f[4]
		if (snap % 2 == 0)
			printf "       kdamond.0-231     [001] .....  %s: damon_aggregated: target_id=0 nr_regions=%d %s-%s: %s%s\n",
				ts, nr, f[1], f[2], f[3], age
		else
			printf "kdamond.0   231 [001] %s: damon:damon_aggregated: target_id=0 nr_regions=%d %s-%s: %s%s\n",
				ts, nr, f[1], f[2], f[3], age
	}
	printf "            bash-190     [000] .....  %s: sched_switch: prev_comm=bash\n", ts
	snap++
}
