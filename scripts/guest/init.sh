#!/bin/busybox sh
# The guest's /init for scripts/kernel-test.sh: load hotscore.ko in each
# mode, print what it wrote, read its debugfs file every which way, time
# and identify a candidate when the module has one built in, try bad
# parameters, fuzz the parameters, start and stop a kdamond when the kernel
# has DAMON and capture its calls (mode=capture), then reboot (QEMU runs
# with -no-reboot).  /fuzz.conf (written by kernel-test.sh) gives the fuzz
# its seed, its size, the variants and the profiles, and says whether the
# module has a candidate (cand=1: then /hotscore-v2.ko has
# examples/candidates/v2-ilog2.c built in).  In both kernels the prepared
# scorer is timed as a kernel would carry it (fast, fast-batch-scalar), each
# call vetted against the model first.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "=== kernel $(uname -r)"
seed=1 count=200 reads=40 variants=loop useronly= benchonly= profiles=hotfix
cand=0
[ -r /fuzz.conf ] && . /fuzz.conf
kl=/sys/kernel/debug/kmemleak
up() { cut -d' ' -f1 /proc/uptime; }
if [ -e $kl ]; then
	# no scans but ours; forget what boot left behind, once it is old
	# enough to be reported (5 s) and has been seen unchanged by two
	# scans (kmemleak's checksum: the first one only records it)
	echo scan=off >$kl
	while [ "$(up | cut -d. -f1)" -lt 6 ]; do
		sleep 1
	done
	echo scan >$kl
	echo scan >$kl
	echo clear >$kl
	echo "=== kmemleak on: $(up) s"
fi
dmesg -c >/dev/null

# The fuzz's generator: a 32-bit LCG in awk (exact in doubles), so that a
# seed gives the same plan in any awk.  what=params: $count insmod
# attempts, each "T i ok|bad PARAM shown-args", "A arg" lines, then "E".
# what=reads: debugfs reads of a file of $size bytes.
FUZZ_AWK=$(cat <<'EOF'
function rnd(n) {
	st = (st * 69069 + 1) % 4294967296
	return int(st / 4294967296 * n)
}
function pick(list,   a, k) {
	k = split(list, a, " ")
	return a[1 + rnd(k)]
}
function letters(n,   s) {
	s = ""
	while (n-- > 0)
		s = s substr("abcdefghijklmnopqrstuvwxyz", 1 + rnd(26), 1)
	return s
}
# odd characters, at least one that no valid value has
function odd(n,   s, odds, all, at) {
	odds = "!#$%&()*+/:;<>?@[]^{|}~\\\047"
	all = odds "abcxyz0123456789.,-_="
	s = ""
	while (n-- > 1)
		s = s substr(all, 1 + rnd(length(all)), 1)
	at = rnd(length(s) + 1)
	return substr(s, 1, at) substr(odds, 1 + rnd(length(odds)), 1) \
		substr(s, at + 1)
}
# k (at least 1) distinct words of the list, shuffled, comma-separated
function shuffled(list, k,   a, n, i, j, t, s) {
	n = split(list, a, " ")
	for (i = n; i > 1; i--) {
		j = 1 + rnd(i)
		t = a[i]; a[i] = a[j]; a[j] = t
	}
	s = a[1]
	for (i = 2; i <= k && i <= n; i++)
		s = s "," a[i]
	return s
}
# k distinct valid variants of this load's mode (VL), shuffled
function vlist(k) {
	return shuffled(VL, k)
}
function isnum(p) {
	return p == "iterations" || p == "runs" || p == "seed" || \
	       p == "inputs" || p == "calls"
}
# the profiles, shuffled: k of them, comma-separated
function plist(k) {
	return shuffled(PR, k)
}
# a valid value: cheap (a quick run under TCG) unless dear
function good(p, dear) {
	if (p == "mode")
		return identify ? "identify" : capture ? "capture" : "bench"
	if (p == "variants")
		return vlist(1 + rnd(identify ? 4 : 8))
	if (p == "dist")
		return pick("seed uniform young zero worst")
	if (p == "against")
		return plist(1)
	if (p == "modes")
		return pick("throughput latency throughput,latency latency,throughput")
	if (p == "iterations" && dear)
		return pick("100000000 99999999 0x5f5e100 " \
			    (12000 + rnd(99988001)))
	if (p == "iterations")
		return pick("12000 12000 0x2ee0 +12000 027340 " \
			    (12000 + rnd(3000)))
	if (p == "runs" && dear)
		return pick("100 0x64 " (1 + rnd(100)))
	if (p == "runs")
		return pick("1 1 1 2 0x1 +1 01")
	if (p == "seed")
		return pick("0 1 00 18446744073709551615 0xffffffffffffffff " \
			    "0XDEADBEEF " sprintf("%.0f", rnd(4294967296)) " " \
			    (1 + rnd(999999)) "" rnd(1000000000))
	if (p == "inputs") {
		if (dear)
			return pick("1000000000 999999999 0x3b9aca00")
		if (identify && damon)
			return pick("1 2 " (1 + rnd(3000)))
		return pick("1 4000000 1000000000 " (1 + rnd(1000000000)))
	}
	# calls= is allocated only by a load that goes through: 5 MB at most
	if (p == "calls" && dear)
		return pick("4000000 0x3d0900 3999999")
	if (p == "calls")
		return pick("1 1 0x1 +100 0144 100000 " (1 + rnd(100000)))
	if (p == "duration" && rnd(10) == 0)	# pick() splits at spaces
		return "\"1 ms\""
	if (p == "duration")
		return pick("1ms 1000 1000us 1000000ns 0.001s 2.5ms 1.5s 60s 1m " \
			    "1h 3600s 3600000000 59.5m " (1 + rnd(3600)) "s")
}
function numbad(p,   r) {
	r = rnd(3)
	if (r == 0 && p == "iterations")
		return pick("0 1 11999 0x2edf 027337 100000001 4294967296 " \
			    "18446744073709551615")
	if (r == 0 && p == "runs")
		return pick("0 00 101 0x65 4294967296 4294967297 " \
			    "18446744073709551615")
	if (r == 0 && p == "inputs")
		return pick("0 0x0 1000000001 4294967296 18446744073709551615")
	if (r == 0 && p == "calls")
		return pick("0 00 4000001 0x3d0901 4294967296 18446744073709551615")
	return pick("-1 -0 1.5 1e4 12abc abc 0x 0xg1 08 099 + ++1 +-1 " \
		    "18446744073709551616 99999999999999999999999 " \
		    "0x10000000000000000 -18446744073709551615 0b101 1_000")
}
function strbad(p,   r, v) {
	r = rnd(10)
	if (p == "duration" && r == 0)
		return "\"5 parsecs\""
	if (p == "duration")	# 0, under 1 ms, over 1 h, finer than 1 us
		return pick("0 0s 999 999us 999999ns 0.9ms 1.5us 1.0000005ms " \
			    "3601s 61m 2h 1h1s 1d 5parsecs bogus s " \
			    "ms . .s -1s +1s 1e3ms 0x3e8 1,5s 1..5s 1.2.3s " \
			    "1.0000000001s 1S 1MS 99999999999999999999s")
	if (p == "mode")
		return pick("Bench BENCH identify,bench bench, benchx ident " \
			    "IDENTIFY bench.ko b\303\251nch 0")
	if (p == "dist")
		return pick("Seed SEED seed,uniform gauss uniform, zero0 worst! 1")
	if (p == "against") {	# a list, a variant, upper case, a candidate
		if (r < 3)
			return plist(2 + rnd(2))
		if (r < 5)	# a variant that is no profile
			return pick("loop fls ilog2 fls-generic ilog2-bsr fast")
		if (r < 7)
			return toupper(plist(1))
		return pick("candidate hotfix-cand kernel hotfix, ,hotfix " \
			    "auto 0 v6 v6.6.0")
	}
	if (p == "modes")
		return pick("throughput,throughput latency,latency " \
			    "throughput,latency,throughput ,latency latency, " \
			    "thruput Latency throughput,,latency , both")
	# variants
	if (r == 0 && identify)
		return vlist(5 + rnd(4))	# identify times at most 4
	if (r <= 1)
		return vlist(9 + rnd(4))	# more than 8
	if (r == 2)
		return pick(U)			# timed in user space only
	if (r == 3)
		return vlist(rnd(3)) "," pick(U)
	if (r == 4) {
		v = vlist(1)
		return v "," vlist(rnd(2)) "," v	# a duplicate
	}
	if (r == 5)
		return pick(",loop loop, loop,,fls , ,, fls,ilog2,")
	if (r == 6)
		return vlist(1) "," letters(32 + rnd(20))	# a long name
	if (r == 7)
		return toupper(vlist(1))
	if (r == 8 && identify && B != "")	# timed by mode=bench only
		return vlist(rnd(3)) "," pick(B)
	return vlist(rnd(3)) ",x" letters(rnd(10))	# no such variant
}
# a bad value for p; bare: may be "p" alone (no '=')
function bad(p, bare,   r) {
	r = rnd(100)
	if (bare && r < 6)
		return p
	if (r < 12)
		return p "="
	if (r < 19)
		return p "=" letters(256 + rnd(2800))	# too long
	if (r < 24)
		return p "=" letters(255)		# the longest that fits
	if (r < 34)
		return p "=" odd(1 + rnd(24))
	if (r < 40) {	# a space or a tab, inside quotes
		r = rnd(4)
		return p "=\"" (r == 0 ? "a " : r == 1 ? " " : "") \
			letters(1 + rnd(4)) (r == 2 ? "\t" : r == 3 ? " x" : "") "\""
	}
	if (r < 44 && p == "mode")
		return p "=\"bench \""
	return p "=" (isnum(p) ? numbad(p) : strbad(p))
}
function show(s) {
	return length(s) > 48 ? substr(s, 1, 40) "...(" length(s) " chars)" : s
}
function params(   i, k, n, p, a, badp, line, j, t, nm, r) {
	np = split("mode variants dist modes iterations runs seed inputs against calls duration", P, " ")
	for (i = 1; i <= count; i++) {
		r = rnd(10)
		identify = r < 3
		capture = damon && r >= 8	# without DAMON it cannot load
		badp = rnd(100) < 55 ? P[1 + rnd(np)] : ""
		if (badp == "mode")
			identify = capture = 0
		VL = identify ? VI : V
		n = 0
		for (k = 1; k <= np; k++) {
			p = P[k]
			if (p == badp) {
				a[++n] = bad(p, 1)
			} else if (p == "mode" && (identify || capture)) {
				a[++n] = "mode=" good(p, 0)
			} else if (badp == "" && (p == "iterations" ||
				   p == "runs" || (p == "inputs" && identify) ||
				   (p == "calls" && capture))) {
				a[++n] = p "=" good(p, 0)	# keep it quick
			} else if (rnd(2)) {
				a[++n] = p "=" good(p, badp != "" && rnd(3) == 0)
			}
		}
		for (k = n; k > 1; k--) {	# any order
			j = 1 + rnd(k)
			t = a[k]; a[k] = a[j]; a[j] = t
		}
		if (n && rnd(100) < 15) {	# given twice: the last one counts
			j = 1 + rnd(n)
			split(a[j], nm, "=")
			for (k = n; k >= j; k--)
				a[k + 1] = a[k]
			a[j] = rnd(2) ? bad(nm[1], 0) : nm[1] "=" good(nm[1], 1)
			n++
		}
		line = ""
		for (k = 1; k <= n; k++)
			line = line " " show(a[k])
		print "T " i " " (badp == "" ? "ok -" : "bad " badp) line
		for (k = 1; k <= n; k++)
			print "A " a[k]
		print "E"
	}
}
# "R skip bs count": a dd at byte skip, reads of bs; "K signal us how": a
# reader killed after us, how: dd (1-byte reads) or N (a shell that reads
# up to N bytes or a line, then sleeps with the file open); "P n": n
# readers at once
function reads(   i, r, off, bs) {
	for (i = 1; i <= count; i++) {
		r = rnd(100)
		if (r < 15) {
			print "K " pick("INT TERM KILL HUP PIPE STOP") " " \
				rnd(40000) " " (rnd(2) ? "dd" : 1 + rnd(size))
			continue
		}
		if (r < 20) {
			print "P " (2 + rnd(4))
			continue
		}
		r = rnd(100)
		if (r < 50)
			off = rnd(size + 1)
		else if (r < 65)
			off = size - rnd(4)
		else if (r < 80)
			off = size + rnd(5000)
		else if (r < 90)
			off = 0
		else
			off = pick("4096 65536 4611686018427387904 " \
				   "9223372036854775806")
		if (off < 0)
			off = 0
		bs = pick("1 1 2 3 7 64 100 511 4096 4097 65536 1048576 " \
			  (1 + rnd(size + 1)))
		print "R " off " " bs " " pick("1 1 2 3 5 1000000")
	}
}
# identify's variants: V without those timed by mode=bench only (B)
function idvariants(   a, b, out, n, i, s) {
	n = split(B, b, " ")
	for (i = 1; i <= n; i++)
		out[b[i]] = 1
	n = split(V, a, " ")
	s = ""
	for (i = 1; i <= n; i++)
		if (!(a[i] in out))
			s = s (s == "" ? "" : " ") a[i]
	return s
}
BEGIN {
	st = seed % 4294967296
	VI = idvariants()
	if (what == "params")
		params()
	else
		reads()
}
EOF
)

# fuzz_reads NAME: the loaded module's debugfs file, read every which way:
# at random offsets and sizes (each piece compared with the same bytes of
# a whole read), 1 byte at a time, past the end, by readers killed midway
# and by several at once; an open file must keep rmmod off.
fuzz_reads() {
	f=/sys/kernel/debug/hotscore/results
	cat $f >/tmp/whole
	size=$(wc -c </tmp/whole)
	t0=$(up)
	nr=0 nk=0 nkm=0 np=0 bad=0
	awk -v what=reads -v seed="$seed" -v count="$reads" -v size="$size" \
		"$FUZZ_AWK" >/tmp/reads.plan
	while read -r op a b c; do
		case $op in
		R)
			nr=$((nr + 1))
			dd if=$f of=/tmp/got iflag=skip_bytes bs=$b skip=$a \
				count=$c 2>/dev/null
			dd if=/tmp/whole of=/tmp/want iflag=skip_bytes bs=$b \
				skip=$a count=$c 2>/dev/null
			cmp -s /tmp/got /tmp/want || {
				bad=$((bad + 1))
				echo "=== reads $1 FAIL: dd skip=$a bs=$b count=$c: $(wc -c </tmp/got) bytes differ from the whole read's"
			}
			;;
		K)
			nk=$((nk + 1))
			if [ $c = dd ]; then
				dd if=$f of=/dev/null bs=1 2>/dev/null &
			else	# reads up to $c bytes (or a line), then sleeps
				# with the file open
				sh -c "exec 3<$f; read -r -n $c x <&3; exec sleep 30" &
			fi
			p=$!
			usleep $b
			kill -$a $p 2>/dev/null
			# stopped, or SIGINT ignored (a background job): KILL
			usleep 20000
			kill -KILL $p 2>/dev/null
			wait $p 2>/dev/null
			[ $? -gt 128 ] && nkm=$((nkm + 1))	# killed, not done
			;;
		P)
			np=$((np + 1))
			k=0
			for bs in 1 3 64 4096 13 1; do
				[ $k -ge $a ] && break
				k=$((k + 1))
				dd if=$f of=/tmp/par.$k bs=$bs 2>/dev/null &
			done
			wait
			while [ $k -gt 0 ]; do
				cmp -s /tmp/par.$k /tmp/whole || {
					bad=$((bad + 1))
					echo "=== reads $1 FAIL: parallel reader $k of $a differs"
				}
				k=$((k - 1))
			done
			;;
		esac
	done </tmp/reads.plan
	# 1 byte at a time, the whole file
	dd if=$f of=/tmp/got bs=1 2>/dev/null
	cmp -s /tmp/got /tmp/whole || {
		bad=$((bad + 1))
		echo "=== reads $1 FAIL: 1-byte reads differ from the whole read"
	}
	# an open file holds the module; reads through it go on from where
	# the last one stopped, shared by two processes
	exec 3<$f
	dd bs=7 count=3 <&3 >/tmp/got 2>/dev/null
	dd bs=5 count=2 <&3 >>/tmp/got 2>/dev/null
	rmmod hotscore 2>/dev/null
	rc=$?
	head -c 31 /tmp/whole | cmp -s - /tmp/got || {
		bad=$((bad + 1))
		echo "=== reads $1 FAIL: reads through one open file: $(head -c 31 /tmp/got)"
	}
	exec 3<&-
	if [ $rc -eq 0 ] || [ ! -e /sys/module/hotscore ]; then
		bad=$((bad + 1))
		echo "=== reads $1 FAIL: rmmod went through with the file open (rc $rc)"
		insmod /hotscore.ko iterations=12000 runs=1 # for the rmmod below
	fi
	cat $f >/tmp/got
	cmp -s /tmp/got /tmp/whole || {
		bad=$((bad + 1))
		echo "=== reads $1 FAIL: the whole read changed"
	}
	echo "=== reads $1: $size bytes; $nr reads, $nk readers killed ($nkm midway), $np sets of parallel readers, 1-byte reads, an open file against rmmod (rc $rc); $bad bad; $(echo "$(up) $t0" | awk '{ printf "%.1f", $1 - $2 }') s"
}

# 6 runs: the fewest whose interval gives a verdict (the runs are its blocks)
insmod /hotscore.ko iterations=300000 runs=6
echo "=== insmod bench rc=$?"
echo "=== dmesg bench begin"
dmesg -c
echo "=== dmesg bench end"
echo "=== bench begin"
cat /sys/kernel/debug/hotscore/results
echo "=== bench end"
fuzz_reads bench
rmmod hotscore
echo "=== rmmod bench rc=$?"
if [ -e /sys/module/hotscore ] || [ -e /sys/kernel/debug/hotscore ]; then
	echo "=== after rmmod: /sys/module/hotscore or its debugfs remains"
else
	echo "=== after rmmod: no /sys/module/hotscore"
fi
dmesg -c

# with a candidate: the kernel's function, the model's hotfix, hotfix.c
# and the candidate compiled in, timed side by side
idvariants=
[ "$cand" = 1 ] && idvariants=variants=hotfix,hotfix-cand,candidate
insmod /hotscore.ko mode=identify iterations=400000 runs=2 $idvariants
echo "=== insmod identify rc=$?"
echo "=== identify begin"
cat /sys/kernel/debug/hotscore/results
echo "=== identify end"
fuzz_reads identify
rmmod hotscore
echo "=== rmmod identify rc=$?"
echo "=== dmesg identify begin"
dmesg -c
echo "=== dmesg identify end"

# cand_load NAME MODULE PARAM...: one load through finit (one try, so one
# refusal line), its kernel log and results between markers, then rmmod
cand_load() {
	n=$1
	m=$2
	shift 2
	finit $m "$@"
	echo "=== insmod $n rc=$?"
	echo "=== dmesg $n begin"
	dmesg -c
	echo "=== dmesg $n end"
	if [ -e /sys/module/hotscore ]; then
		echo "=== $n begin"
		cat /sys/kernel/debug/hotscore/results
		echo "=== $n end"
		rmmod hotscore
		echo "=== rmmod $n rc=$?"
	fi
	dmesg -c
}

if [ "$cand" = 1 ]; then
	# hotfix-rewritten.c (in /hotscore.ko): vetted, then timed
	cand_load cand /hotscore.ko variants=hotfix,hotfix-cand,candidate \
		iterations=400000 runs=2
	# v2-ilog2.c (no clamp): refused against hotfix, the default ...
	cand_load v2-refused /hotscore-v2.ko variants=hotfix,candidate \
		iterations=12000 runs=1
	# ... timed against v2-ilog2, the first variant given ...
	cand_load v2-timed /hotscore-v2.ko variants=v2-ilog2,candidate \
		iterations=12000 runs=1 modes=throughput
	# ... and not this kernel's function
	cand_load v2-identify /hotscore-v2.ko mode=identify inputs=20000 \
		variants=hotfix iterations=12000 runs=1
	# against= rules over the first variant
	cand_load v2-against /hotscore-v2.ko variants=hotfix,candidate \
		against=v2-ilog2 iterations=12000 runs=1 modes=latency
else
	cand_load no-cand /hotscore.ko variants=hotfix,candidate \
		iterations=12000 runs=1
fi

# the prepared scorer as a kernel would carry it: one region a call, and
# the portable batch of 64 (and batching alone, hotfix-batch); the module
# checks every call against the model before it times any
cand_load prepared /hotscore.ko \
	variants=hotfix,fast,fast-batch-scalar,hotfix-batch dist=uniform \
	iterations=400000 runs=4
# identify gives each function the kernel's form: refused, in one line
cand_load idfast /hotscore.ko mode=identify variants=hotfix,fast \
	iterations=12000 runs=1

# each bad parameter alone, with nothing loaded, and its own message
for bad in variants=bogus variants=fast-batch variants=fast-prepare iterations=5 mode=fast dist=gauss inputs=0 runs=0 against=bogus; do
	[ -e /sys/module/hotscore ] && echo "=== hotscore still loaded"
	insmod /hotscore.ko $bad
	echo "=== insmod $bad rc=$?"
	echo "=== dmesg $bad begin"
	dmesg -c
	echo "=== dmesg $bad end"
done

# fuzz_one "i ok|bad PARAM shown" ARGS...: one load and its checks, in
# shell builtins where it can (a process costs about 50 ms under TCG)
fuzz_one() {
	hdr=$1
	shift
	i=${hdr%% *}
	rest=${hdr#* }
	want=${rest%% *}
	rest=${rest#* }
	p=${rest%% *}
	shown=${rest#* }
	why=
	finit /hotscore.ko "$@" 2>/tmp/fz.err
	rc=$?
	err=
	[ $rc -ne 0 ] && read -r err </tmp/fz.err
	dmesg -c >/tmp/fz.log
	# its hotscore lines: how many, the last one, one naming $p
	lines=0 last= named=
	while IFS= read -r l; do
		echo "$l"
		case $l in
		*hotscore*)
			lines=$((lines + 1))
			last=${l#*\] }
			case $l in
			*"hotscore: $p="* | *"hotscore: $p:"* | \
			*"for parameter \`$p'"*)
				named=1
				;;
			esac
			;;
		esac
	done </tmp/fz.log >>/tmp/fuzz.dmesg
	if [ "$want" = ok ]; then
		fz_ok=$((fz_ok + 1))
		if [ $rc -ne 0 ]; then
			why="rc $rc ($err): $last"
		else
			case $last in
			"hotscore: bench done"* | "hotscore: identify done"* | \
			"hotscore: capture: "*)
				;;
			*)
				why="loaded, but the last line is: $last"
				;;
			esac
		fi
		if [ -e /sys/module/hotscore ]; then
			rmmod hotscore
			rc=$?
			dmesg -c >>/tmp/fuzz.dmesg
			[ $rc -eq 0 ] && [ ! -e /sys/module/hotscore ] ||
				why="$why rmmod rc $rc"
		fi
	else
		fz_bad=$((fz_bad + 1))
		if [ -e /sys/module/hotscore ]; then
			why="loaded (rc $rc)"
			rmmod hotscore
			dmesg -c >>/tmp/fuzz.dmesg
		elif [ $rc -ne 22 ] || [ "${err%Invalid argument}" = "$err" ]; then
			why="rc $rc, not EINVAL: $err"
		elif [ $lines -ne 1 ]; then
			why="$lines hotscore lines, the last: $last"
		elif [ -z "$named" ]; then
			why="the line does not name $p: $last"
		fi
	fi
	if [ -n "$why" ]; then
		fz_fail=$((fz_fail + 1))
		echo "=== fuzz FAIL $i ($want $p): insmod /hotscore.ko $shown: $why"
	else
		echo "=== fuzz $i $want $p: ${last#hotscore: }"
	fi
}

# The parameter fuzz: $count loads with random values, seeded
meminfo() { awk '/^(Slab|VmallocUsed):/ { printf "%s %s ", $1, $2 }' /proc/meminfo; }
mem0=$(meminfo)
echo "=== fuzz: $count loads, seed $seed"
t0=$(up)
fz_ok=0 fz_bad=0 fz_fail=0
: >/tmp/fuzz.dmesg
awk -v what=params -v seed="$seed" -v count="$count" -v V="$variants" -v PR="$profiles" \
	-v U="$useronly" -v B="$benchonly" -v damon="$([ -d /sys/kernel/mm/damon ] && echo 1 || echo 0)" \
	"$FUZZ_AWK" >/tmp/fuzz.plan
set --
while IFS= read -r line; do
	case $line in
	"T "*)
		hdr=${line#T }
		set --
		;;
	"A "*)
		set -- "$@" "${line#A }"
		;;
	E)
		fuzz_one "$hdr" "$@"
		;;
	esac
done </tmp/fuzz.plan
t1=$(up)
[ -e /sys/module/hotscore ] && echo "=== fuzz: hotscore still loaded"
echo "=== fuzz problems begin"
grep -E 'Oops|BUG|WARNING|Call Trace|general protection|KASAN|UBSAN|kmemleak' /tmp/fuzz.dmesg
echo "=== fuzz problems end"
echo "=== fuzz memory: before $mem0 after $(meminfo)"
if [ -e $kl ]; then
	sleep 6		# kmemleak reports objects older than 5 s
	echo scan >$kl
	echo scan >$kl
	echo "=== kmemleak begin"
	cat $kl
	echo "=== kmemleak end"
fi
echo "=== fuzz done: $fz_ok good, $fz_bad bad, $fz_fail failed; $(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }') s"

# kdamond_setup PID: kdamond 0 on PID's address space, with a pageout
# scheme under a quota (6.1 scores regions only for a quota'd scheme)
kdamond_setup() {
	echo 1 >$k/nr_kdamonds
	echo 1 >$k/0/contexts/nr_contexts
	c=$k/0/contexts/0
	echo vaddr >$c/operations
	echo 1 >$c/targets/nr_targets
	echo $1 >$c/targets/0/pid_target
	echo 1 >$c/schemes/nr_schemes
	s=$c/schemes/0
	echo pageout >$s/action
	echo 4294967295 >$s/access_pattern/sz/max
	echo 4294967295 >$s/access_pattern/nr_accesses/max
	echo 4294967295 >$s/access_pattern/age/max
	echo 10 >$s/quotas/ms
	echo 1048576 >$s/quotas/bytes
	echo 1000 >$s/quotas/reset_interval_ms
	echo 0 >$s/quotas/weights/sz_permil
	echo 0 >$s/quotas/weights/nr_accesses_permil
	echo 1000 >$s/quotas/weights/age_permil
}

# DAMON: a kdamond with a pageout scheme under a quota, through sysfs
k=/sys/kernel/mm/damon/admin/kdamonds
if [ -d "$k" ]; then
	sleep 600 &
	target=$!
	kdamond_setup $target
	echo on >$k/0/state
	sleep 2
	echo "=== kdamond on: state $(cat $k/0/state), pid $(cat $k/0/pid)"
	echo off >$k/0/state
	sleep 1
	echo "=== kdamond off: state $(cat $k/0/state)"
	kill $target
	dmesg -c
else
	echo "=== no DAMON sysfs"
fi

# mode=capture: without DAMON it is refused in one line (capture_load);
# its bad parameters are refused in both kernels (capture_bad); with DAMON,
# a live kdamond's calls are captured, rmmod comes during a long capture,
# and a short one ends by itself (capture_live)
capinfo=/sys/kernel/debug/hotscore/capture_info
# cap KEY: a value of capture_info
cap() { sed -n "s/^$1: //p" $capinfo 2>/dev/null; }

# capture_load NAME PARAM...: one try through finit, its rc and log
capture_load() {
	n=$1
	shift
	finit /hotscore.ko mode=capture "$@" 2>/dev/null
	echo "=== insmod $n rc=$?"
	echo "=== dmesg $n begin"
	dmesg -c
	echo "=== dmesg $n end"
}

capture_bad() {
	for bad in calls=0 calls=4000001 calls=abc calls=1.5 duration=0 \
		duration=bogus duration=2h duration=3601s duration=999us \
		duration=1.5us duration=5parsecs 'duration="5 parsecs"'; do
		capture_load "capture $bad" $bad
		[ -e /sys/module/hotscore ] && rmmod hotscore &&
			echo "=== capture $bad: loaded"
	done
}

# capture_wait TEST: until the shell test TEST holds, 60 s at most
capture_wait() {
	i=0
	while ! eval "$1" && [ $i -lt 600 ]; do
		usleep 100000
		i=$((i + 1))
	done
}

# capture_show NAME: capture_info, and the CSV (its first 3000 rows)
capture_show() {
	echo "=== $1 info begin"
	cat $capinfo
	echo "=== $1 info end"
	echo "=== $1 csv begin"
	head -n 3001 /sys/kernel/debug/hotscore/capture
	echo "=== $1 csv end"
}

capture_live() {
	sleep 600 &
	target=$!
	kdamond_setup $target
	echo on >$k/0/state
	# a long capture, unloaded while it runs
	capture_load capture-long duration=10m calls=100000
	capture_wait '[ "$(cap calls)" != 0 ]'
	# two reads during the capture: the first a prefix of the second
	cat /sys/kernel/debug/hotscore/capture >/tmp/cap1
	usleep 500000
	cat /sys/kernel/debug/hotscore/capture >/tmp/cap2
	head -n "$(wc -l </tmp/cap1)" /tmp/cap2 | cmp -s - /tmp/cap1 &&
		echo "=== capture-long prefix: $(wc -l </tmp/cap1) then $(wc -l </tmp/cap2) lines" ||
		echo "=== capture-long prefix FAIL: the first read is no prefix of the second"
	capture_show capture-long
	rmmod hotscore
	echo "=== rmmod capture-long rc=$?"
	echo "=== dmesg capture-long-rmmod begin"
	dmesg -c
	echo "=== dmesg capture-long-rmmod end"
	echo "=== capture-long after rmmod: kdamond $(cat $k/0/state)"
	# a short capture that ends by itself
	capture_load capture-short duration=3s
	capture_wait '[ "$(cap state)" = done ]'
	capture_show capture-short
	rmmod hotscore
	echo "=== rmmod capture-short rc=$?"
	echo "=== dmesg capture-short-rmmod begin"
	dmesg -c
	echo "=== dmesg capture-short-rmmod end"
	echo off >$k/0/state
	sleep 1
	echo "=== capture kdamond off: state $(cat $k/0/state)"
	kill $target
	if [ -e $kl ]; then
		sleep 6
		echo scan >$kl
		echo scan >$kl
		echo "=== capture-kmemleak begin"
		cat $kl
		echo "=== capture-kmemleak end"
	fi
}

if [ -d "$k" ]; then
	capture_bad
	capture_live
else
	capture_load capture-nodamon
	capture_bad
fi

# DAMON: the live run (guest/live.sh): a real workload under a
# kdamond, its calls captured and its regions traced
if [ -d /sys/kernel/mm/damon/admin ] && [ -r /live.sh ]; then
	. /live.sh
	[ -r /live.conf ] && . /live.conf
	live_run
fi

echo "=== tainted $(cat /proc/sys/kernel/tainted)"
echo "=== ALL_DONE"
reboot -f
