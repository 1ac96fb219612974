// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - what the module gives its reader: the results file in debugfs
 * (hotscore/results: JSON lines, in a buffer that grows), and the bench's
 * figures, a seed-format table in the kernel log and one JSON line per
 * (distribution, mode, function) for `hotscore bench --import`.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>

#include <hotscore/bench_damon.h>

#include "kmod.h"

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

/**
 * kmod_out() - append to the results file; if it cannot grow, the load
 * will fail (kmod_output_done()).
 * @fmt:	as printf().
 */
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

/**
 * kmod_output_capture() - mode=capture's start: its files are its only
 * output, so debugfs is a must.
 *
 * Return: 0, or -ENODEV without debugfs, or the capture's error.
 */
int kmod_output_capture(void)
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
		return err;
	}
	kmod_damos_probes(hs_dir);
	return 0;
}

/**
 * kmod_output_done() - the end of a load that ran: the results file in
 * debugfs, or the error that ends the load.
 * @mode:	the mode that ran, for the log.
 * @err:	its error, or 0.
 *
 * Return: 0, or @err, or -ENOMEM if the results did not fit.
 */
int kmod_output_done(const char *mode, int err)
{
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

/**
 * kmod_output_exit() - at unload: the results and their files go.
 */
void kmod_output_exit(void)
{
	debugfs_remove_recursive(hs_dir);
	vfree(out);
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

/**
 * kmod_emit_json() - one function's samples as a results line.
 * @clk:	the clock.
 * @dist:	the inputs' name.
 * @m:		the mode.
 * @fn:		the function's name.
 * @n:		calls per batch.
 * @rounds:	rounds per run.
 * @mt:		the function's samples.
 * @scale:	their scales.
 * @nr:		how many.
 */
void kmod_emit_json(const struct hs_clock *clk, const char *dist,
		    enum hs_bench_mode m, const char *fn, size_t n,
		    size_t rounds, const u64 *mt, const u64 *scale, size_t nr)
{
	struct kmod_json j;

	kmod_json_begin(&j);
	kmod_json_str(&j, "kernel", utsname()->release);
	kmod_json_str(&j, "clock", clk->name);
	kmod_json_u64(&j, "hz", clk->hz);
	kmod_json_u64(&j, "step", clk->step);
	kmod_json_u64(&j, "iterations", kmod_iterations());
	kmod_json_u64(&j, "runs", kmod_runs());
	kmod_json_u64(&j, "rounds_per_run", rounds);
	kmod_json_u64(&j, "n", n);
	kmod_json_u64(&j, "seed", kmod_seed());
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
 * same seed): the runs are the blocks, and the interval their trimmed
 * mean's confidence interval, so that bench --import of these samples
 * prints it too.
 */
static void log_paired(const struct hs_cells *c, const struct hs_interval *iv,
		       u64 *scratch, char *buf, size_t len)
{
	struct hs_cell_stats st;
	char r[24], lo[24], hi[24];

	hs_cells_ratio(c, iv->seed, scratch, &st);
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

/**
 * kmod_log_table() - the seed's table, honestly: per function the median
 * cost of a call over every batch sample and its range, and each later
 * variant's paired ratio to the first variant with its 95 % interval and
 * verdict.
 * @clk:	the clock.
 * @dist:	the inputs' name.
 * @m:		the mode.
 * @names:	the functions' names, names[0] the empty baseline.
 * @units:	regions a call of each scores.
 * @nf:		how many functions.
 * @mt:		their samples.
 * @nr:		samples per function.
 */
void kmod_log_table(const struct hs_clock *clk, const char *dist,
		    enum hs_bench_mode m, const char *const *names,
		    const unsigned int *units, unsigned int nf, u64 **mt,
		    size_t nr)
{
	unsigned int runs = kmod_runs();
	struct hs_cells c = { .empty = mt[0], .base = mt[1],
			      .base_units = units[1], .blocks = runs,
			      .placements = 1, .rounds = nr / 2 / runs };
	u64 *scratch = kvmalloc_array(HS_CELLS_SCRATCH(runs, 1, c.rounds) +
				      HS_PAIRED_SCRATCH(nr) + 2 * nr,
				      sizeof(u64), GFP_KERNEL);
	char med[24], lo[24], hi[24], ratio[96];
	struct hs_interval iv;
	struct hs_summary sum;
	unsigned int k;

	if (!scratch)
		return;
	/* the engine's decision, as bench --import of these samples takes it */
	hs_interval_choose(&iv, runs, 1, HS_BLOCKS_MODULE_RUNS, kmod_seed());
	pr_info("DAMON Perf Test, %s inputs, %s: %lu calls x %u run%s per function, batch-timed (N/2N, overhead cancelled), %s, TSC-derived\n",
		dist, hs_mode_name(m), kmod_iterations(), runs,
		runs == 1 ? "" : "s",
		clk->name);
	pr_info("  %-24s %-14s %-22s %s\n", "function", "ns/call median",
		"[min - max]", "first variant / this [95% CI]");
	for (k = 0; k < nf; k++) {
		hs_summary_nonzero(mt[k], nr, scratch, &sum);
		fmt_ns(med, sizeof(med), hs_mt_to_ps(sum.median, clk->hz));
		fmt_ns(lo, sizeof(lo), hs_mt_to_ps(sum.min, clk->hz));
		fmt_ns(hi, sizeof(hi), hs_mt_to_ps(sum.max, clk->hz));
		if (k > 1) {
			struct hs_interval own = iv;

			/* each comparison its stream, as bench --import's */
			own.seed = hs_comparison_seed(iv.seed,
						      hs_comparison_key(names[k],
									m));
			c.fn = mt[k];
			c.fn_units = units[k];
			log_paired(&c, &own, scratch, ratio, sizeof(ratio));
			pr_info("  %-24s %-14s [%s - %s]  %s\n", names[k], med,
				lo, hi, ratio);
		} else {
			pr_info("  %-24s %-14s [%s - %s]\n", names[k], med, lo,
				hi);
		}
	}
	kvfree(scratch);
}

/**
 * kmod_log_units() - under the table: which rows are per region of a batch
 * call.
 * @names:	the functions' names.
 * @units:	regions a call of each scores.
 * @nf:		how many.
 */
void kmod_log_units(const char *const *names, const unsigned int *units,
		    unsigned int nf)
{
	unsigned int k;

	for (k = 0; k < nf; k++)
		if (units[k] > 1)
			pr_info("  %-24s scores %u regions a call: its figures are per region\n",
				names[k], units[k]);
}
