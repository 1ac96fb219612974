// SPDX-License-Identifier: GPL-2.0
/*
 * hotscore.ko - the DAMON Perf Test inside a kernel, done as hotscore's
 * user-space bench does it: the same engine (src/bench/engine.c), the same
 * variants (src/bench/damon.c) and the same model (src/score/), compiled as
 * they are.  Each timed batch runs with preemption and interrupts off (the
 * clock's enter/leave hooks), well under a millisecond on real hardware;
 * the module yields between rounds.  Results: a seed-format table in the
 * kernel log, and one JSON object per (distribution, mode, function) in
 * debugfs hotscore/results, which `hotscore bench --import` turns into the
 * user-space report.
 *
 * The prepared scorer's variants (fast, fast-batch-scalar, hotfix-batch)
 * are given calls built and vetted by the builder user space uses
 * (prepared.c); fast-batch's vector unit and fast-prepare stay in user
 * space.
 *
 * mode=identify instead calls the running kernel's own damon_hot_score()
 * (identify.c).  make kmod CANDIDATE=FILE compiles a candidate
 * damon_hot_score() in, against this kernel's headers (cand.c): the
 * variant "candidate".  mode=capture records a live kdamond's calls of the
 * kernel's scoring functions (capture.c).
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#include <hotscore/damon_bench.h>

#include "kmod.h"

/*
 * The parameters.  The kernel's own types cannot refuse a bad value with
 * -EINVAL and one line: a number past its type gives -ERANGE, a charp over
 * 1024 bytes -ENOSPC, and each failure is logged twice (by the type and by
 * parse_args()).  So every parameter is kept as the text it was given (a
 * copy, at most KMOD_PARAM_MAX characters), its .set never fails, and
 * hs_init() parses and checks them all, logging the first bad one.  Only a
 * parameter given without '=' is refused by the kernel itself: -EINVAL,
 * with its one line "`' invalid for parameter `runs'".
 */
static int param_set(const char *val, const struct kernel_param *kp)
{
	struct kmod_param *p = kp->arg;

	p->too_long = strscpy(p->text, val, sizeof(p->text)) < 0;
	p->given = true;
	return 0;
}

static int param_get(char *buf, const struct kernel_param *kp)
{
	const struct kmod_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%s\n", p->text);
}

const struct kernel_param_ops kmod_param_ops = {
	.set = param_set,
	.get = param_get,
};

/**
 * kmod_param_text() - a string parameter's text, if it is not too long.
 * @name:	the parameter, for the message.
 * @p:		the parameter.
 *
 * Return: the text, or NULL (logged) if the value did not fit.
 */
const char *kmod_param_text(const char *name, const struct kmod_param *p)
{
	if (p->too_long) {
		pr_err("%s=" KMOD_SHOW_FMT ": longer than %zu characters\n",
		       name, KMOD_SHOW(p->text), sizeof(p->text) - 1);
		return NULL;
	}
	return p->text;
}

/**
 * kmod_param_ulong() - a number parameter, parsed and checked.
 * @name:	the parameter, for the message.
 * @p:		the parameter: decimal, 0x hex or 0 octal, as the kernel's
 *		own ulong parameters.
 * @min:	its smallest value.
 * @max:	its largest.
 * @range:	the range as the message gives it ("1 to 100").
 * @val:	receives the value.
 *
 * Return: 0, or -EINVAL with one line logged.
 */
int kmod_param_ulong(const char *name, const struct kmod_param *p,
		     unsigned long min, unsigned long max, const char *range,
		     unsigned long *val)
{
	if (p->too_long || kstrtoul(p->text, 0, val) || *val < min ||
	    *val > max) {
		pr_err("%s=" KMOD_SHOW_FMT ": give %s\n", name,
		       KMOD_SHOW(p->text), range);
		return -EINVAL;
	}
	return 0;
}

static struct kmod_param mode_param = { "bench" };
module_param_cb(mode, &kmod_param_ops, &mode_param, 0444);
MODULE_PARM_DESC(mode, "bench (default), identify or capture");
static struct kmod_param variants_param = { "loop,fls,ilog2" };
module_param_cb(variants, &kmod_param_ops, &variants_param, 0444);
MODULE_PARM_DESC(variants, "variants to time, the first is the baseline");
static struct kmod_param dist_param = { "seed" };
module_param_cb(dist, &kmod_param_ops, &dist_param, 0444);
MODULE_PARM_DESC(dist, "input distribution: seed uniform young zero worst");
static struct kmod_param modes_param = { "throughput,latency" };
module_param_cb(modes, &kmod_param_ops, &modes_param, 0444);
MODULE_PARM_DESC(modes, "throughput, latency or both");
static struct kmod_param iterations_param = { "10000000" };
module_param_cb(iterations, &kmod_param_ops, &iterations_param, 0444);
MODULE_PARM_DESC(iterations,
		 "calls per variant per run, 12000 to 10^8 (the seed: 10^7)");
/* the interval resamples the runs: a verdict needs 6 (HS_MIN_ROUNDS) */
static struct kmod_param runs_param = { "10" };
module_param_cb(runs, &kmod_param_ops, &runs_param, 0444);
MODULE_PARM_DESC(runs, "runs, each after its own warm-up, 1 to 100 (default 10; the seed: 5)");
static struct kmod_param seed_param = { "1" };
module_param_cb(seed, &kmod_param_ops, &seed_param, 0444);
MODULE_PARM_DESC(seed, "seeds the input pool");
static struct kmod_param against_param = { "" };
module_param_cb(against, &kmod_param_ops, &against_param, 0444);
MODULE_PARM_DESC(against,
		 "the profile a candidate must equal before it is timed (default: the first model variant of variants, else hotfix)");

/* the parameters' values, once hs_init() has checked them */
static bool identify, capture;
static unsigned long iterations;
static unsigned int runs;
static unsigned long seed;

unsigned long kmod_seed(void)
{
	return seed;
}

/*
 * Inputs: user space's --pool 1000, not its default 16384 (a pool a
 * predictor cannot learn, docs/bench.md "Pools"), to keep a TCG guest's
 * load short; compare a module's figures with bench --pool 1000.
 */
#define POOL		1000
#define MAX_ROUNDS	256	/* per run, as the user-space bench */
#define MAX_FNS		(KMOD_MAX_VARIANTS + 1)
#define OUT_MAX		(256UL << 20)	/* the results file, at most */

static struct dentry *hs_dir;
static char *out;		/* the JSON lines */
static size_t out_len, out_cap;
static bool out_failed;		/* the results did not fit: load fails */

/* Make room for @need more bytes, doubling; false if impossible. */
static bool out_reserve(size_t need)
{
	size_t cap = out_cap ? out_cap : 1 << 16;
	char *p;

	if (out_len + need < out_cap)
		return true;
	while (cap <= out_len + need)
		cap *= 2;
	if (cap > OUT_MAX)
		return false;
	p = vmalloc(cap);
	if (!p)
		return false;
	if (out)
		memcpy(p, out, out_len);
	vfree(out);
	out = p;
	out_cap = cap;
	return true;
}

/* Append to the results file; if it cannot grow, the load will fail. */
void kmod_out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || out_failed || !out_reserve((size_t)n + 1)) {
		out_failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(out + out_len, out_cap - out_len, fmt, ap);
	va_end(ap);
	out_len += n;
}

static ssize_t results_read(struct file *f, char __user *buf, size_t len,
			    loff_t *pos)
{
	return simple_read_from_buffer(buf, len, pos, out, out_len);
}

static const struct file_operations results_fops = {
	.owner = THIS_MODULE,
	.read = results_read,
	.llseek = default_llseek,
};

static u64 hs_tsc(void)
{
	return hs_arch_counter();
}

/* Each timed batch runs with preemption and interrupts off. */
static unsigned long irq_flags;

static void batch_enter(void *ctx)
{
	preempt_disable();
	local_irq_save(irq_flags);
}

static void batch_leave(void *ctx)
{
	local_irq_restore(irq_flags);
	preempt_enable();
}

/**
 * kmod_clock() - the engine's clock in the kernel: the serialised TSC at
 * the kernel's own calibration (tsc_khz); its step measured here.
 * @clk:	receives the clock.
 *
 * Return: 0, or -ENODEV without a TSC frequency.
 */
int kmod_clock(struct hs_clock *clk)
{
	u64 step = U64_MAX, a, b;
	int i;

	memset(clk, 0, sizeof(*clk));
	clk->name = HS_ARCH_COUNTER_NAME;
	clk->read = hs_tsc;
	clk->hz = (u64)tsc_khz * 1000;
	clk->tsc = true;
	clk->enter = batch_enter;
	clk->leave = batch_leave;
	for (i = 0; i < 100; i++) {
		a = hs_tsc();
		do {
			b = hs_tsc();
		} while (b == a);
		step = min(step, b - a);
	}
	clk->step = step;
	if (!clk->hz) {
		pr_err("no TSC frequency (tsc_khz is 0)\n");
		return -ENODEV;
	}
	return 0;
}

/* Split @s at commas into @names; -EINVAL on an empty or long field. */
static int split(const char *param, const char *s, char names[][32],
		 unsigned int max, unsigned int *nr)
{
	const char *all = s;
	unsigned int i;

	*nr = 0;
	while (*s) {
		size_t len = strcspn(s, ",");

		if (!len || len >= 32 || *nr == max ||
		    (s[len] == ',' && !s[len + 1])) {
			pr_err("%s=" KMOD_SHOW_FMT ": give up to %u comma-separated names\n",
			       param, KMOD_SHOW(all), max);
			return -EINVAL;
		}
		memcpy(names[*nr], s, len);
		names[*nr][len] = '\0';
		for (i = 0; i < *nr; i++)
			if (!strcmp(names[i], names[*nr])) {
				pr_err("%s=" KMOD_SHOW_FMT ": '" KMOD_SHOW_FMT "' twice\n",
				       param, KMOD_SHOW(all),
				       KMOD_SHOW(names[i]));
				return -EINVAL;
			}
		(*nr)++;
		s += len + (s[len] == ',');
	}
	if (!*nr) {
		pr_err("%s: empty\n", param);
		return -EINVAL;
	}
	return 0;
}

struct config {
	struct kmod_fn v[KMOD_MAX_VARIANTS];
	unsigned int nr_v;
	enum hs_dist dist;
	enum hs_bench_mode modes[HS_NR_MODES];
	unsigned int nr_modes;
};

/* mode=: bench, identify or capture. */
static int parse_mode(void)
{
	const char *mode = kmod_param_text("mode", &mode_param);

	if (!mode)
		return -EINVAL;
	identify = !strcmp(mode, "identify");
	capture = !strcmp(mode, "capture");
	if (strcmp(mode, "bench") && !identify && !capture) {
		pr_err("mode=" KMOD_SHOW_FMT ": give bench, identify or capture\n",
		       KMOD_SHOW(mode));
		return -EINVAL;
	}
	return 0;
}

/* One name of variants=: a model variant or a built-in candidate. */
static int find_variant(struct kmod_fn *f, const char *name)
{
	f->v = hs_variant_find(name);
	f->cand = f->v ? NULL : kmod_cand_find(name);
	if (!f->v && !f->cand && kmod_cand_known(name)) {
		pr_err("variants: '%s': no candidate built in (make kmod CANDIDATE=FILE)\n",
		       name);
		return -EINVAL;
	}
	if (!f->v && !f->cand) {
		pr_err("variants: no variant '" KMOD_SHOW_FMT "'\n",
		       KMOD_SHOW(name));
		return -EINVAL;
	}
	if (f->v && f->v->user_only && f->v->vector) {
		pr_err("variants: '%s' is timed in user space only (hotscore bench): it takes a vector unit, which kernel code does not; the kernel's batch is fast-batch-scalar\n",
		       name);
		return -EINVAL;
	}
	if (f->v && f->v->user_only) {
		pr_err("variants: '%s' is timed in user space only (hotscore bench)\n",
		       name);
		return -EINVAL;
	}
	/* identify stores each input into the kernel's own structures */
	if (f->v && identify && f->v->call != HS_CALL_INPUT) {
		pr_err("variants: identify times damon_hot_score()'s own form only; time '%s' with mode=bench\n",
		       name);
		return -EINVAL;
	}
	f->name = f->v ? f->v->name : f->cand->name;
	return 0;
}

/* variants=: at most KMOD_IDENTIFY_VARIANTS of them for identify. */
static int parse_variants(struct config *c)
{
	char names[KMOD_MAX_VARIANTS][32];
	const char *variants = kmod_param_text("variants", &variants_param);
	unsigned int i, nr;

	if (!variants ||
	    split("variants", variants, names, KMOD_MAX_VARIANTS, &nr))
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (find_variant(&c->v[i], names[i]))
			return -EINVAL;
	c->nr_v = nr;
	if (identify && c->nr_v > KMOD_IDENTIFY_VARIANTS) {
		pr_err("variants: identify times at most %d next to the kernel's\n",
		       KMOD_IDENTIFY_VARIANTS);
		return -EINVAL;
	}
	return 0;
}

/* dist= and modes=, by user space's names. */
static int parse_inputs(struct config *c)
{
	char names[HS_NR_MODES][32];
	const char *dist = kmod_param_text("dist", &dist_param), *modes;
	unsigned int i, nr, k;

	if (!dist)
		return -EINVAL;
	for (k = 0; k < HS_NR_DISTS; k++)
		if (!strcmp(dist, hs_dist_name(k)))
			break;
	if (k == HS_NR_DISTS) {
		pr_err("dist: no distribution '" KMOD_SHOW_FMT "' (seed uniform young zero worst)\n",
		       KMOD_SHOW(dist));
		return -EINVAL;
	}
	c->dist = k;
	modes = kmod_param_text("modes", &modes_param);
	if (!modes || split("modes", modes, names, HS_NR_MODES, &nr))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < HS_NR_MODES; k++)
			if (!strcmp(names[i], hs_mode_name(k)))
				break;
		if (k == HS_NR_MODES) {
			pr_err("modes: no mode '" KMOD_SHOW_FMT "' (throughput latency)\n",
			       KMOD_SHOW(names[i]));
			return -EINVAL;
		}
		c->modes[i] = k;
	}
	c->nr_modes = nr;
	return 0;
}

/* iterations=, runs= and seed=. */
static int parse_numbers(void)
{
	unsigned long v;

	/* at most 10^8: a timed batch then stays under about a millisecond */
	if (kmod_param_ulong("iterations", &iterations_param, 12000,
			     100000000UL, "12000 to 10^8", &iterations))
		return -EINVAL;
	if (kmod_param_ulong("runs", &runs_param, 1, 100, "1 to 100", &v))
		return -EINVAL;
	runs = v;
	if (kmod_param_ulong("seed", &seed_param, 0, ULONG_MAX,
			     BITS_PER_LONG == 64 ? "0 to 2^64-1" : "0 to 2^32-1",
			     &seed))
		return -EINVAL;
	return 0;
}

/*
 * Every parameter, checked whatever the mode (one the mode does not use
 * is ignored); the first bad one logged: -EINVAL.
 */
static int parse_params(struct config *c)
{
	const char *against;

	if (parse_mode() || parse_variants(c) || parse_inputs(c) ||
	    parse_numbers() || kmod_identify_params() ||
	    kmod_capture_params())
		return -EINVAL;
	against = kmod_param_text("against", &against_param);
	if (!against || (against_param.given && !*against)) {
		if (against)
			pr_err("against=: give a profile (hotscore score --list-profiles)\n");
		return -EINVAL;
	}
	return kmod_cand_against(against, c->v, c->nr_v);
}

/*
 * N and the rounds, by the engine's plan as user space has them; but a
 * batch never grows past 2^18 calls, to keep interrupts off briefly.
 */
static void plan(const struct hs_clock *clk, const struct hs_pool *pool,
		 struct hs_plan *p)
{
	p->runs = runs;
	p->n = hs_plan_batch(clk, pool, 8192, 1UL << 18);
	hs_plan_rounds(p, iterations, MAX_ROUNDS);
}

/*
 * @src for a JSON string: '"', '\\' and control bytes become spaces, so
 * that no CPU's model name can break the line bench --import reads.
 */
static void json_plain(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i] == '"' || src[i] == '\\' ||
			 (unsigned char)src[i] < 0x20 ? ' ' : src[i];
	dst[i] = '\0';
}

/*
 * The flags that matter to user space's scorers, by /proc/cpuinfo's names
 * and in the order hs_cpu_flag_names() (src/simd/dispatch.c) writes them,
 * so that a report of the module's samples reads like one of user space's.
 */
static void cpu_flags(char *buf, size_t len)
{
	static const struct { int feature; const char *name; } flag[] = {
		{ X86_FEATURE_AVX2, "avx2" },
		{ X86_FEATURE_BMI1, "bmi1" },
		{ X86_FEATURE_BMI2, "bmi2" },
		{ X86_FEATURE_AVX512F, "avx512f" },
		{ X86_FEATURE_AVX512CD, "avx512cd" },
		{ X86_FEATURE_AVX512BW, "avx512bw" },
		{ X86_FEATURE_AVX512VL, "avx512vl" },
		{ X86_FEATURE_AVX512VBMI, "avx512vbmi" },
	};
	size_t at = 0, i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(flag) && at < len; i++)
		if (boot_cpu_has(flag[i].feature))
			at += scnprintf(buf + at, len - at, "%s%s",
					at ? " " : "", flag[i].name);
	if (!at)
		strscpy(buf, "none", len);
}

/*
 * The machine, for bench --import to report as the measured one rather
 * than the one importing: its CPU and flags, and the vector unit the
 * module scores fast-batch with, which is none ("scalar": the kernel runs
 * the portable loop, hs_fast_batch()).  Members a reader may lack: an
 * older module's results still import, reported as "unknown".
 */
static void emit_machine(struct kmod_json *j)
{
	char model[sizeof(boot_cpu_data.x86_model_id)], flags[96];

	json_plain(model, sizeof(model), boot_cpu_data.x86_model_id);
	cpu_flags(flags, sizeof(flags));
	kmod_json_str(j, "cpu_model", model);
	kmod_json_str(j, "cpu_flags", flags);
	kmod_json_str(j, "vector", "scalar");
}

/* One list member of @nr samples. */
static void emit_samples(struct kmod_json *j, const char *key, const u64 *v,
			 size_t nr)
{
	size_t i;

	kmod_json_list(j, key);
	for (i = 0; i < nr; i++)
		kmod_json_u64(j, NULL, v[i]);
	kmod_json_list_end(j);
}

static void emit_json(const struct hs_clock *clk, const char *dist,
		      enum hs_bench_mode m, const char *fn, size_t n,
		      size_t rounds, const u64 *mt, const u64 *scale,
		      size_t nr)
{
	struct kmod_json j;

	kmod_json_begin(&j);
	kmod_json_str(&j, "kernel", utsname()->release);
	kmod_json_str(&j, "clock", clk->name);
	kmod_json_u64(&j, "hz", clk->hz);
	kmod_json_u64(&j, "step", clk->step);
	kmod_json_u64(&j, "iterations", iterations);
	kmod_json_u64(&j, "runs", runs);
	kmod_json_u64(&j, "rounds_per_run", rounds);
	kmod_json_u64(&j, "n", n);
	kmod_json_u64(&j, "seed", seed);
	kmod_json_str(&j, "dist", dist);
	kmod_json_str(&j, "mode", hs_mode_name(m));
	kmod_json_str(&j, "fn", fn);
	if (kmod_cand_find(fn))	/* a candidate: its file too */
		kmod_json_str(&j, "file", kmod_cand_find(fn)->file);
	emit_machine(&j);	/* after "fn" and "file", which readers pair */
	emit_samples(&j, "mt", mt, nr);
	emit_samples(&j, "scale", scale, nr);
	kmod_json_end(&j);
}

/* ps as "12.345" ns, integers only. */
static void fmt_ns(char *buf, size_t len, u64 ps)
{
	snprintf(buf, len, "%llu.%03llu", ps / 1000, ps % 1000);
}

/*
 * A ratio in ppm as "1.757", half up in integers.  User space prints the
 * same ppm through printf's %.3f of a double, which rounds the binary value:
 * on an exact tie (1 in 2000) the two can differ in the last digit.
 */
static void fmt_ratio(char *buf, size_t len, u64 ppm)
{
	u64 milli = (ppm + 500) / 1000;

	snprintf(buf, len, "%llu.%03llu", milli / 1000, milli % 1000);
}

/*
 * The paired ratio of @c's function to its baseline, with its interval and
 * verdict, computed as user space computes it (src/bench/analysis.c, the
 * same seed): the runs are the blocks, whose resampling gives the
 * interval of a re-run, so that bench --import of these samples prints it
 * too.
 */
static void log_paired(const struct hs_cells *c, u64 *scratch, char *buf,
		       size_t len)
{
	struct hs_cell_stats st;
	char r[24], lo[24], hi[24];

	hs_cells_ratio(c, hs_bootstrap_seed(seed), scratch, &st);
	if (!st.ratio.value) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_ratio(r, sizeof(r), st.ratio.value);
	if (!st.ratio.low && !st.ratio.high) {
		snprintf(buf, len, "%s (%zu rounds: no interval)", r,
			 st.rounds);
		return;
	}
	fmt_ratio(lo, sizeof(lo), st.ratio.low);
	fmt_ratio(hi, sizeof(hi), st.ratio.high);
	snprintf(buf, len, "%s [%s - %s] %s", r, lo, hi,
		 hs_verdict_name(st.verdict));
}

/*
 * The seed's table, honestly: per function the median cost of a call over
 * every batch sample and its range, and each later variant's paired ratio
 * to the first variant with its 95 % interval and verdict.
 */
static void log_table(const struct hs_clock *clk, const char *dist,
		      enum hs_bench_mode m, const char *const *names,
		      const unsigned int *units, unsigned int nf, u64 **mt,
		      size_t nr)
{
	struct hs_cells c = { .empty = mt[0], .base = mt[1],
			      .base_units = units[1], .blocks = runs,
			      .placements = 1, .rounds = nr / 2 / runs };
	u64 *scratch = kvmalloc_array(HS_CELLS_SCRATCH(runs, 1, c.rounds) +
				      HS_PAIRED_SCRATCH(nr) + 2 * nr,
				      sizeof(u64), GFP_KERNEL);
	char med[24], lo[24], hi[24], ratio[96];
	struct hs_summary sum;
	unsigned int k;

	if (!scratch)
		return;
	pr_info("DAMON Perf Test, %s inputs, %s: %lu calls x %u run%s per function, batch-timed (N/2N, overhead cancelled), %s, TSC-derived\n",
		dist, hs_mode_name(m), iterations, runs, runs == 1 ? "" : "s",
		clk->name);
	pr_info("  %-24s %-14s %-22s %s\n", "function", "ns/call median",
		"[min - max]", "first variant / this [95% of re-runs]");
	for (k = 0; k < nf; k++) {
		hs_summary_nonzero(mt[k], nr, scratch, &sum);
		fmt_ns(med, sizeof(med), hs_mt_to_ps(sum.median, clk->hz));
		fmt_ns(lo, sizeof(lo), hs_mt_to_ps(sum.min, clk->hz));
		fmt_ns(hi, sizeof(hi), hs_mt_to_ps(sum.max, clk->hz));
		if (k > 1) {
			c.fn = mt[k];
			c.fn_units = units[k];
			log_paired(&c, scratch, ratio, sizeof(ratio));
			pr_info("  %-24s %-14s [%s - %s]  %s\n", names[k], med,
				lo, hi, ratio);
		} else {
			pr_info("  %-24s %-14s [%s - %s]\n", names[k], med, lo,
				hi);
		}
	}
	kvfree(scratch);
}

/* Under the table: which rows are per region of a batch call. */
static void log_units(const char *const *names, const unsigned int *units,
		      unsigned int nf)
{
	unsigned int k;

	for (k = 0; k < nf; k++)
		if (units[k] > 1)
			pr_info("  %-24s scores %u regions a call: its figures are per region\n",
				names[k], units[k]);
}

/* After each round: let others run; a fatal signal stops the bench. */
static int between_rounds(void *ctx, const struct hs_run_at *at)
{
	cond_resched();
	if (fatal_signal_pending(current)) {
		pr_err("interrupted\n");
		return -EINTR;
	}
	return 0;
}

/**
 * kmod_bench_fns() - the mixed stream of one mode: every function, paired
 * per round, as the user-space bench runs it; logged and written out.
 * @clk:	the clock.
 * @pools:	each function's inputs: the same inputs, in its form.
 * @fns:	the functions, fns[0] the empty baseline.
 * @names:	their names.
 * @nf:		how many.
 * @m:		the mode.
 * @dist:	the inputs' name, for the output.
 *
 * Return: 0 or -ENOMEM.
 */
int kmod_bench_fns(const struct hs_clock *clk,
		   const struct hs_pool *const *pools, const hs_bench_fn *fns,
		   const char *const *names, unsigned int nf,
		   enum hs_bench_mode m, const char *dist)
{
	u64 *mt[MAX_FNS] = { NULL }, *scale[MAX_FNS] = { NULL };
	unsigned int units[MAX_FNS];
	struct hs_bench_stream st = {
		.fns = fns, .pools = pools, .units = units, .mode = m,
		.mt = mt, .scale = scale,
	};
	struct hs_run run = {
		.clk = clk, .streams = &st, .nr_streams = 1, .nr_fns = nf,
		.placements = 1, .round = between_rounds,
	};
	struct hs_run_result res;
	void *s;	/* HS_RUN_SCRATCH(nf): too big for a stack */
	unsigned int k;
	size_t nr;
	int err = -ENOMEM;

	plan(clk, pools[0], &run.plan);
	nr = 2 * run.plan.rounds_per_run * runs;
	s = run.scratch = kzalloc(HS_RUN_SCRATCH(nf), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	for (k = 0; k < nf; k++) {
		/* a batch's samples are per region, as user space's */
		units[k] = pools[k]->units > 1 ? pools[k]->units : 1;
		mt[k] = kvmalloc_array(nr, sizeof(u64), GFP_KERNEL);
		scale[k] = kvmalloc_array(nr, sizeof(u64), GFP_KERNEL);
		if (!mt[k] || !scale[k])
			goto out;
	}
	/* each batch: preemption and interrupts off (the clock's hooks) */
	err = hs_bench_run(&run, &res);
	if (err)
		goto out;
	log_table(clk, dist, m, names, units, nf, mt, nr);
	log_units(names, units, nf);
	for (k = 0; k < nf; k++)
		emit_json(clk, dist, m, names[k], run.plan.n,
			  run.plan.rounds_per_run, mt[k], scale[k], nr);
out:
	for (k = 0; k < nf; k++) {
		kvfree(mt[k]);
		kvfree(scale[k]);
	}
	kfree(s);
	return err;
}

/*
 * Each model variant must return the model's score on every input of the
 * pool, which no profile may divide by zero on (user space's rule); a
 * candidate must first agree with against= (cand.c).
 */
static int check_variants(const struct config *c, const struct hs_input *in)
{
	unsigned int i, k;
	int err;

	for (k = 0; k < c->nr_v; k++) {
		const struct hs_variant *v = c->v[k].v;

		if (c->v[k].cand) {
			err = kmod_cand_vet(c->v[k].cand, in, POOL);
			if (err)
				return err;
			continue;
		}
		for (i = 0; i < POOL; i++) {
			struct hs_result r = hs_score(&v->comp, &in[i], NULL);
			/* a prepared or batch variant: prepared.c vets it */
			int got = r.status == HS_DIV0 ||
				  v->call != HS_CALL_INPUT ? r.hot :
				  v->fn(&in[i]);

			if (r.status == HS_DIV0 || got != r.hot) {
				pr_err("variants: %s returns %d where the model gives %d (%s) on input %u of dist %s: an internal error\n",
				       v->name, got, r.hot, hs_status_name(&r),
				       i, hs_dist_name(c->dist));
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * What each function is given, built before the timing: a candidate's
 * real structures (cand.c), a prepared or batch variant's calls
 * (prepared.c); the model's other variants take the pool as it is.
 */
struct fn_inputs {
	struct hs_pool cand[KMOD_MAX_VARIANTS];
	struct hs_calls calls[KMOD_MAX_VARIANTS];
};

static int build_inputs(const struct config *c, const struct hs_input *in,
			const struct hs_pool *pool, struct fn_inputs *fi,
			const struct hs_pool **pools)
{
	const char *dist = hs_dist_name(c->dist);
	unsigned int i;
	int err = 0;

	for (i = 0; i < c->nr_v && !err; i++) {
		const struct hs_variant *v = c->v[i].v;

		pools[i] = pool;
		if (c->v[i].cand) {
			err = kmod_cand_pool(c->v[i].cand, in, POOL,
					     &fi->cand[i]);
			pools[i] = &fi->cand[i];
		} else if (v->call != HS_CALL_INPUT) {
			err = kmod_calls_build(&fi->calls[i], v, in, POOL,
					       dist);
			pools[i] = &fi->calls[i].pool;
		}
	}
	return err;
}

static void free_inputs(struct fn_inputs *fi)
{
	unsigned int i;

	for (i = 0; i < KMOD_MAX_VARIANTS; i++) {
		kmod_cand_pool_free(&fi->cand[i]);
		kmod_calls_free(&fi->calls[i]);
	}
	kfree(fi);
}

static int run_bench(const struct config *c)
{
	struct hs_input *in = kvmalloc_array(POOL, sizeof(*in), GFP_KERNEL);
	struct fn_inputs *fi = kzalloc(sizeof(*fi), GFP_KERNEL);
	struct hs_pool pool = { in, sizeof(*in), POOL, 1 };
	const struct hs_pool *pools[MAX_FNS] = { &pool };
	hs_bench_fn fns[MAX_FNS] = { hs_bench_empty };
	const char *names[MAX_FNS] = { "empty" };
	struct hs_clock clk;
	unsigned int i;
	int err = -ENOMEM;

	if (!in || !fi)
		goto out;
	for (i = 0; i < POOL; i++)
		hs_dist_input(c->dist, seed, (u64)i * iterations / POOL,
			      &in[i]);
	err = check_variants(c, in);
	if (!err)
		err = build_inputs(c, in, &pool, fi, pools + 1);
	if (!err && kmod_clock(&clk))
		err = -ENODEV;
	for (i = 0; i < c->nr_v; i++) {
		names[i + 1] = c->v[i].name;
		fns[i + 1] = c->v[i].v ? c->v[i].v->fn : c->v[i].cand->bench;
	}
	for (i = 0; i < c->nr_modes && !err; i++)
		err = kmod_bench_fns(&clk, pools, fns, names, c->nr_v + 1,
				     c->modes[i], hs_dist_name(c->dist));
out:
	if (fi)
		free_inputs(fi);
	kvfree(in);
	return err;
}

/* mode=capture: its files are its only output, so debugfs is a must. */
static int start_capture(void)
{
	int err;

	hs_dir = debugfs_create_dir("hotscore", NULL);
	if (IS_ERR_OR_NULL(hs_dir)) {
		pr_err("capture: no debugfs, where its rows are read\n");
		hs_dir = NULL;
		return -ENODEV;
	}
	err = kmod_capture_start(hs_dir);
	if (err) {
		debugfs_remove_recursive(hs_dir);
		hs_dir = NULL;
	}
	return err;
}

static int __init hs_init(void)
{
	const char *mode;
	struct config c = { 0 };
	int err;

	err = parse_params(&c);
	if (err)
		return err;
	if (capture)
		return start_capture();
	mode = identify ? "identify" : "bench";
	if (identify)
		err = kmod_identify(c.v, c.nr_v);
	else
		err = run_bench(&c);
	if (!err && out_failed) {
		pr_err("the results do not fit in %lu MiB of memory\n",
		       OUT_MAX >> 20);
		err = -ENOMEM;
	}
	if (err) {
		vfree(out);
		return err;
	}
	hs_dir = debugfs_create_dir("hotscore", NULL);
	if (IS_ERR_OR_NULL(hs_dir)) {
		pr_info("%s done; no debugfs: the results are in this log only\n",
			mode);
		hs_dir = NULL;
		return 0;
	}
	debugfs_create_file("results", 0444, hs_dir, NULL, &results_fops);
	pr_info("%s done; results in debugfs hotscore/results (%zu bytes)\n",
		mode, out_len);
	return 0;
}

static void __exit hs_exit(void)
{
	kmod_capture_exit();
	debugfs_remove_recursive(hs_dir);
	vfree(out);
}

module_init(hs_init);
module_exit(hs_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("hotscore");
MODULE_DESCRIPTION("DAMON hot score: the honest bench and a live check");
