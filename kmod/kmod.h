/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - what the module's files share.
 */
#ifndef HOTSCORE_KMOD_H
#define HOTSCORE_KMOD_H

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/version.h>

#include <hotscore/bench.h>
#include <hotscore/bench_calls.h>
#include <hotscore/bench_damon.h>

#define KMOD_MAX_VARIANTS 8
#define KMOD_IDENTIFY_VARIANTS 4	/* timed next to the kernel's */

/*
 * identify and the candidates drive struct damon_ctx's attrs, which
 * appeared in 6.1
 */
#define KMOD_HAVE_ATTRS (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0))
/*
 * the moving sum of accesses: struct damon_ctx's passed_sample_intervals
 * and next_aggregation_sis, struct damon_region's nr_accesses_bp (6.7)
 */
#define KMOD_HAVE_SIS (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0))

struct damon_ctx;
struct damon_region;
struct damos;
typedef int (*kmod_score_fn)(struct damon_ctx *c, struct damon_region *r,
			     struct damos *s);

/**
 * struct kmod_cand - a damon_hot_score() compiled into the module from a
 * C file, against this kernel's headers (candidates.c, make kmod CANDIDATE=).
 * @name:	as variants= takes it: "candidate", or "hotfix-cand" for
 *		examples/candidates/hotfix.c compiled and called the same way.
 * @file:	the C file, as given to make.
 * @hot:	its damon_hot_score().
 * @bench:	@hot on a struct kmod_cand_call, for the engine.
 */
struct kmod_cand {
	const char *name;
	const char *file;
	kmod_score_fn hot;
	hs_bench_fn bench;
};

/**
 * struct kmod_fn - a function variants= names: a variant of the model, or
 * a candidate.
 * @name:	its name.
 * @v:		the model's variant, or NULL.
 * @cand:	the candidate, or NULL.
 */
struct kmod_fn {
	const char *name;
	const struct hs_variant *v;
	const struct kmod_cand *cand;
};

/**
 * struct kmod_config - what a load runs, once the parameters are checked
 * (params.c); iterations=, runs= and seed= are read through kmod_seed(),
 * kmod_iterations() and kmod_runs().
 * @v:		the functions variants= names.
 * @nr_v:	how many.
 * @dist:	dist=.
 * @modes:	modes=.
 * @nr_modes:	how many.
 * @identify:	mode=identify.
 * @capture:	mode=capture.
 */
struct kmod_config {
	struct kmod_fn v[KMOD_MAX_VARIANTS];
	unsigned int nr_v;
	enum hs_dist dist;
	enum hs_bench_mode modes[HS_NR_MODES];
	unsigned int nr_modes;
	bool identify, capture;
};

/* params.c: the parameters */
int kmod_parse_params(struct kmod_config *c);
unsigned long kmod_seed(void);
unsigned long kmod_iterations(void);
unsigned int kmod_runs(void);

/* output.c: the results file, and the bench's figures */
void kmod_out(const char *fmt, ...) __printf(1, 2);
int kmod_output_capture(void);
int kmod_output_done(const char *mode, int err);
void kmod_output_exit(void);
void kmod_emit_json(const struct hs_clock *clk, const char *dist,
		    enum hs_bench_mode m, const char *fn, size_t n,
		    size_t rounds, const u64 *mt, const u64 *scale, size_t nr);
void kmod_log_table(const struct hs_clock *clk, const char *dist,
		    enum hs_bench_mode m, const char *const *names,
		    const unsigned int *units, unsigned int nf, u64 **mt,
		    size_t nr);
void kmod_log_units(const char *const *names, const unsigned int *units,
		    unsigned int nf);

#define KMOD_JSON_DEPTH	2	/* a line's object, and one list in it */

/**
 * struct kmod_json - one results line being written (json.c).
 * @depth:	containers open: the object, and a list in it.
 * @nr:		members or elements written so far into each.
 */
struct kmod_json {
	unsigned int depth;
	unsigned int nr[KMOD_JSON_DEPTH];
};

void kmod_json_begin(struct kmod_json *j);
void kmod_json_end(struct kmod_json *j);
void kmod_json_str(struct kmod_json *j, const char *key, const char *s);
void kmod_json_u64(struct kmod_json *j, const char *key, u64 v);
void kmod_json_list(struct kmod_json *j, const char *key);
void kmod_json_list_end(struct kmod_json *j);
/* module.c: the clock, and one mode's bench */
int kmod_clock(struct hs_clock *clk);
int kmod_bench_fns(const struct hs_clock *clk,
		   const struct hs_pool *const *pools, const hs_bench_fn *fns,
		   const char *const *names, unsigned int nf,
		   enum hs_bench_mode m, const char *dist);

/* identify.c: mode=identify */
int kmod_identify(const struct kmod_fn *fns, unsigned int nr);
int kmod_identify_params(void);

/* make_input.c: identify's inputs, also the candidates' checks */
void kmod_make_input(u64 i, u64 *rnd, struct hs_input *in);
void kmod_fit_input(struct hs_input *in);
void kmod_set_input(const struct hs_input *in, struct damon_ctx *c,
		    struct damon_region *r, struct damos *s);
int kmod_input_args(char *buf, size_t size, const struct hs_input *in);
bool kmod_any_div0(const struct hs_input *in);

/* capture.c: mode=capture */
struct dentry;
int kmod_capture_params(void);
int kmod_capture_start(struct dentry *dir);
void kmod_capture_exit(void);

/* damos_probe.c: debugfs hotscore/damos_kprobes, beside a capture */
void kmod_damos_probes(struct dentry *dir);

/* cand_user.c, cand_hotfix.c: aliases of the files' damon_hot_score() */
int kmod_cand_user_hot(struct damon_ctx *c, struct damon_region *r,
		       struct damos *s);
int kmod_cand_hotfix_hot(struct damon_ctx *c, struct damon_region *r,
			 struct damos *s);

/* candidates.c: the candidates built in (none without CANDIDATE=) */
const struct kmod_cand *kmod_cand_find(const char *name);
bool kmod_cand_known(const char *name);
const struct kmod_cand *kmod_candidate(void);
const char *kmod_cand_base(void);
int kmod_cand_against(const char *given, const struct kmod_fn *fns,
		      unsigned int nr);
int kmod_cand_vet(const struct kmod_cand *c, const struct hs_input *pool,
		  size_t nr);
int kmod_cand_pool(const struct kmod_cand *c, const struct hs_input *in,
		   size_t nr, struct hs_pool *pool);
void kmod_cand_pool_free(struct hs_pool *pool);

/* prepared.c: the calls of fast and of the portable batches */
int kmod_calls_build(struct hs_calls *c, const struct hs_variant *v,
		     const struct hs_input *in, size_t nr, const char *dist);
void kmod_calls_free(struct hs_calls *c);

#define KMOD_MAX_PROFILES 16	/* the model's profiles, at most */

/*
 * A parameter as given at load, checked by kmod_parse_params() (params.c):
 * its .set only copies the text, so that every bad value is refused the
 * same way.
 */
#define KMOD_PARAM_MAX 255	/* characters: 8 variant names fit */
struct kmod_param {
	char text[KMOD_PARAM_MAX + 1];
	bool too_long;		/* given longer: refused */
	bool given;		/* set at load, not the default */
};
extern const struct kernel_param_ops kmod_param_ops;
const char *kmod_param_text(const char *name, const struct kmod_param *p);
int kmod_param_ulong(const char *name, const struct kmod_param *p,
		     unsigned long min, unsigned long max, const char *range,
		     unsigned long *val);

/* A given value in a message: escaped, one line, at most 40 characters. */
#define KMOD_SHOW_MAX 40
#define KMOD_SHOW_FMT "%*pE%s"
#define KMOD_SHOW(s)							\
	(int)min_t(size_t, strlen(s), KMOD_SHOW_MAX), (s),		\
	strlen(s) > KMOD_SHOW_MAX ? "..." : ""

#endif /* HOTSCORE_KMOD_H */
