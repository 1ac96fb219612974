// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_workload.c - `hotscore workload CONFIG|stairs|zigzag`: the masim workload
 * that hotscore sim models, performed for real (src/workload/workload.c), so
 * that a real kdamond can watch it; and the access rate it achieved, to
 * give sim --rate.  --wait maps the regions, says "ready" and waits for
 * SIGUSR1, so that a monitor can attach before the first access.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hotscore/json_out.h>
#include <hotscore/workload.h>

#include "cli.h"
#include "opt.h"
#include "outfile.h"

enum { O_WORKLOAD, O_DURATION, O_SEED, O_WAIT, O_JSON };

static const struct opt workload_opts[] = {
	{ .id = O_WORKLOAD, .name = "workload", .type = OPT_STR,
	  .arg = "NAME|FILE", .flags = OPT_INPUT,
	  .words = "stairs zigzag @file",
	  .help = "stairs, zigzag, or a masim config file, as sim's; also"
		  " the bare argument", .example = "zigzag" },
	{ .id = O_DURATION, .name = "duration", .type = OPT_TIME, .arg = "T",
	  .dflt = "one pass of the workload", .min = 1,
	  .max = HS_WL_MAX_MS * 1000,
	  .help = "how long to run, the phases repeating", .example = "5s" },
	{ .id = O_SEED, .name = "seed", .type = OPT_COUNT, .arg = "N",
	  .dflt = "1", .help = "seed of the line choices and random offsets",
	  .example = "2" },
	{ .id = O_WAIT, .name = "wait", .type = OPT_FLAG,
	  .help = "map the regions, print 'pid N ready' on stderr and wait"
		  " for SIGUSR1" },
	{ .id = O_JSON, .name = "json", .type = OPT_STR, .arg = "FILE",
	  .flags = OPT_OUTPUT | OPT_WRITE, .words = "@file",
	  .help = "the counts per phase, line and region (docs/sim.md)",
	  .example = "w.json" },
};

struct workload_cmd {
	const char *name;		/* as given: built-in or a file */
	uint64_t duration_us;		/* 0: one pass */
	uint64_t seed;
	bool wait;
	const char *json;
	char command[1024];
	char *text;
	struct hs_workload wl;
	struct hs_wlrun run;
};

/* Set by the handlers; the run reads them between batches. */
static volatile sig_atomic_t stop_sig, go;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void on_go(int sig)
{
	(void)sig;
	go = 1;
}

static void set(void *ctx, const struct opt *o, const struct opt_val *v,
		unsigned int nr)
{
	struct workload_cmd *c = ctx;

	(void)nr;
	switch (o->id) {
	case O_WORKLOAD:
		if (c->name)
			cli_usage_die("one workload at a time ('%s' and '%s')",
				      c->name, v->s);
		c->name = v->s;
		break;
	case O_DURATION: c->duration_us = v->u; break;
	case O_SEED: c->seed = v->u; break;
	case O_WAIT: c->wait = true; break;
	case O_JSON: c->json = v->s; break;
	}
}

/* The config text: a built-in one, or the file's. */
static void load(struct workload_cmd *c)
{
	const char *text = hs_workload_builtin(c->name);
	char err[256];
	size_t len;
	FILE *f;

	if (!text) {
		f = fopen(c->name, "rb");
		if (!f)
			cli_die("no workload '%s': %s (built-in: stairs, zigzag)",
				c->name, strerror(errno));
		c->text = cli_read_stream(f, 16 << 20, &len);
		if (!c->text)
			cli_die("%s: %s", c->name, errno == EFBIG ?
				"larger than 16 MiB" : strerror(errno));
		fclose(f);
		text = c->text;
	}
	len = strlen(text);
	if (hs_workload_parse(text, len, c->name, &c->wl, err, sizeof(err)))
		cli_die("%s", err);
}

/*
 * SIGINT and SIGTERM stop the run, which then reports what it did; a
 * SIGINT ignored from the start stays ignored, as cli_out_init() leaves
 * it.  SIGUSR1 is --wait's go.
 */
static void catch_signals(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
		sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_go;
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Map the regions; with --wait, then say so and sleep until SIGUSR1 (or a
 * stop).  The signals are blocked from before the mapping to the sleep, so
 * that one sent as soon as the line appears is not lost.
 */
static void map_and_wait(struct workload_cmd *c)
{
	sigset_t block, old, wait_mask;
	char err[320];

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (hs_wlrun_map(&c->run, err, sizeof(err)))
		cli_die("%s: %s", c->name, err);
	wait_mask = old;
	sigdelset(&wait_mask, SIGUSR1);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	if (c->wait) {
		fprintf(stderr, "hotscore workload: pid %ld ready\n",
			(long)getpid());
		fflush(stderr);
		while (!go && !stop_sig)
			sigsuspend(&wait_mask);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static uint64_t per_ms(uint64_t accesses, uint64_t ns)
{
	return ns ? (uint64_t)((double)accesses * 1e6 / (double)ns + 0.5) : 0;
}

/* The achieved rate: accesses per ms of the phases that have lines. */
static uint64_t rate_of(const struct hs_wlrun *r)
{
	return per_ms(r->accesses, r->active_ns);
}

static void tick(const struct hs_wlrun *r, void *ctx)
{
	const struct workload_cmd *c = ctx;
	uint64_t total = c->duration_us ? c->duration_us * 1000 :
		c->wl.total_ms * 1000000;

	uint64_t ns = hs_wlrun_now_ns() - r->t0_ns;

	cli_progress_at(total ? (double)ns / (double)total : 0,
			"workload: %s, phase '%s', %.1f of %.1f s, %llu accesses per ms",
			c->name, c->wl.phases[r->phase].name, (double)ns / 1e9,
			(double)total / 1e9,
			(unsigned long long)per_ms(r->accesses, ns));
}

/* @s as one shell word. */
static void shell_word(char *buf, size_t size, const char *s)
{
	size_t at = 0;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_=.,:/+@%") == strlen(s)) {
		snprintf(buf, size, "%s", s);
		return;
	}
	buf[at++] = '\'';
	for (; *s && at + 5 < size; s++) {
		if (*s == '\'') {
			memcpy(buf + at, "'\\''", 4);
			at += 4;
		} else {
			buf[at++] = *s;
		}
	}
	buf[at++] = '\'';
	buf[at] = '\0';
}

/* The sim run that models this one: the same workload, time and seed. */
static void sim_command(const struct workload_cmd *c, char *buf, size_t size)
{
	char name[512], t[32];
	size_t at;

	shell_word(name, sizeof(name), c->name);
	at = (size_t)snprintf(buf, size, "hotscore sim --workload %s --rate %llu",
			      name, (unsigned long long)rate_of(&c->run));
	if (c->duration_us && at < size) {
		cli_format_time_us(c->duration_us, t, sizeof(t));
		at += (size_t)snprintf(buf + at, size - at, " --duration %s", t);
	}
	if (c->seed != CLI_DEFAULT_SEED && at < size)
		snprintf(buf + at, size - at, " --seed %llu",
			 (unsigned long long)c->seed);
}

static void report_phase(FILE *f, const struct hs_wlrun *r, unsigned int j)
{
	const struct hs_wl_phase *ph = &r->wl->phases[j];
	uint64_t n = 0;
	size_t i;

	for (i = r->first[j]; i < r->first[j + 1]; i++)
		n += r->count[i];
	fprintf(f, "  %-24s %8.1f %6llu %14llu ", ph->name,
		(double)r->phase_ns[j] / 1e6,
		(unsigned long long)r->phase_runs[j], (unsigned long long)n);
	if (!ph->nr_access)
		fputs("(idle)\n", f);
	else if (!r->phase_ns[j])
		fprintf(f, "%10s\n", "-");	/* it never ran */
	else
		fprintf(f, "%10llu\n",
			(unsigned long long)per_ms(n, r->phase_ns[j]));
}

/* What ran, per phase, and the rate to give sim. */
static void report(FILE *f, const struct workload_cmd *c)
{
	const struct hs_wlrun *r = &c->run;
	uint64_t mapped = 0;
	char cmd[1024];
	unsigned int i;

	for (i = 0; i < c->wl.nr_regions; i++)
		mapped += r->bytes[i];
	fprintf(f, "hotscore workload: %s, %u region%s, %.1f MiB mapped; %u phase%s, %.1f s a pass; seed %llu\n",
		c->wl.name, c->wl.nr_regions, cli_s(c->wl.nr_regions),
		(double)mapped / (1 << 20), c->wl.nr_phases,
		cli_s(c->wl.nr_phases), (double)c->wl.total_ms / 1000,
		(unsigned long long)c->seed);
	fprintf(f, "  %-24s %8s %6s %14s %10s\n", "phase", "ms", "runs",
		"accesses", "per ms");
	for (i = 0; i < c->wl.nr_phases; i++)
		report_phase(f, r, i);
	fprintf(f, "  %-24s %8.1f %6llu %14llu %10llu\n", "all",
		(double)r->elapsed_ns / 1e6, (unsigned long long)r->passes,
		(unsigned long long)r->accesses,
		(unsigned long long)per_ms(r->accesses, r->elapsed_ns));
	if (r->stopped)
		fprintf(f, "interrupted after %.3f s\n",
			(double)r->elapsed_ns / 1e9);
	if (!rate_of(r)) {
		fputs("no accesses made: no rate to give sim\n", f);
		return;
	}
	sim_command(c, cmd, sizeof(cmd));
	fprintf(f, "achieved %llu accesses per ms: %s\n",
		(unsigned long long)rate_of(r), cmd);
}

/* Phase @j's lines and their regions' sums. */
static json_t *json_phase(const struct hs_wlrun *r, unsigned int j)
{
	const struct hs_wl_phase *ph = &r->wl->phases[j];
	static const char *const modes[] = { "wo", "ro", "rw" };
	json_t *lines = json_array(), *regions = json_object();
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < ph->nr_access; i++) {
		const struct hs_wl_access *a = &ph->access[i];
		const char *name = r->wl->regions[a->region].name;
		uint64_t k = r->count[r->first[j] + i];
		json_t *sum = json_object_get(regions, name);

		n += k;
		json_object_set_new(regions, name, hs_json_u64(k +
			(sum ? (uint64_t)json_integer_value(sum) : 0)));
		json_array_append_new(lines, json_pack("{s:s, s:b, s:o, s:o, s:s, s:o}",
			"region", name, "random", a->random,
			"stride", hs_json_u64(a->stride),
			"probability", hs_json_u64(a->prob),
			"mode", modes[a->mode], "accesses", hs_json_u64(k)));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", hs_json_text(ph->name),
			 "duration_ms", hs_json_u64(ph->duration_ms),
			 "runs", hs_json_u64(r->phase_runs[j]),
			 "ns", hs_json_u64(r->phase_ns[j]),
			 "accesses", hs_json_u64(n),
			 "rate_per_ms", hs_json_u64(per_ms(n, r->phase_ns[j])),
			 "regions", regions, "lines", lines);
}

/* Each region's accesses over the whole run. */
static json_t *json_regions(const struct hs_wlrun *r)
{
	const struct hs_workload *wl = r->wl;
	json_t *list = json_array();
	unsigned int i, j, k;

	for (i = 0; i < wl->nr_regions; i++) {
		uint64_t n = 0;

		for (j = 0; j < wl->nr_phases; j++)
			for (k = 0; k < wl->phases[j].nr_access; k++)
				if (wl->phases[j].access[k].region == i)
					n += r->count[r->first[j] + k];
		json_array_append_new(list, json_pack("{s:o, s:o, s:o, s:o}",
			"name", hs_json_text(wl->regions[i].name),
			"size", hs_json_u64(wl->regions[i].size),
			"mapped_bytes", hs_json_u64(r->bytes[i]),
			"accesses", hs_json_u64(n)));
	}
	return list;
}

/* --json: the summary, and the counts per phase, line and region. */
static int write_json(const struct workload_cmd *c, FILE *f)
{
	const struct hs_wlrun *r = &c->run;
	json_t *doc, *phases = json_array();
	char cmd[1024];
	unsigned int j;

	sim_command(c, cmd, sizeof(cmd));
	for (j = 0; j < c->wl.nr_phases; j++)
		json_array_append_new(phases, json_phase(r, j));
	doc = json_pack("{s:s, s:i, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o,"
			" s:o, s:o, s:o, s:o, s:o}",
			"tool", "hotscore workload", "schema", 1,
			"command", hs_json_text(c->command),
			"workload", hs_json_text(c->wl.name),
			"seed", hs_json_u64(c->seed),
			"duration_us", hs_json_u64(c->duration_us ? c->duration_us :
						   c->wl.total_ms * 1000),
			"wait", c->wait,
			"elapsed_ns", hs_json_u64(r->elapsed_ns),
			"active_ns", hs_json_u64(r->active_ns),
			"passes", hs_json_u64(r->passes),
			"accesses", hs_json_u64(r->accesses),
			"rate_per_ms", hs_json_u64(rate_of(r)),
			"sim_command", hs_json_text(rate_of(r) ? cmd : ""),
			"regions", json_regions(r), "phases", phases);
	return hs_json_write_doc(f, doc, 0);
}

static void parse_args(struct workload_cmd *c, int argc, char **argv)
{
	c->seed = CLI_DEFAULT_SEED;
	opt_parse(&cmd_workload, argc, argv, set, c);
	opt_parsed(&cmd_workload);	/* HOTSCORE_CHECK_ARGS: the options */
	if (!c->name)
		cli_usage_die("which workload? (hotscore workload stairs|zigzag|CONFIG)");
	opt_reproduce(&cmd_workload, c->command, sizeof(c->command));
}

static int workload_run(int argc, char **argv)
{
	struct workload_cmd *c = calloc(1, sizeof(*c));
	char err[256];
	FILE *json_f;

	if (!c)
		cli_die("out of memory");
	parse_args(c, argc, argv);
	load(c);
	if (hs_wlrun_init(&c->run, &c->wl, err, sizeof(err)))
		cli_die("%s", err);
	c->run.duration_ns = c->duration_us * 1000;
	c->run.seed = c->seed;
	c->run.stop = &stop_sig;
	c->run.tick = tick;
	c->run.ctx = c;
	json_f = cli_out_open("--json", c->json);
	catch_signals();
	map_and_wait(c);
	if (!stop_sig)
		hs_wlrun_run(&c->run);
	c->run.stopped = stop_sig;
	cli_progress_done();
	report(stdout, c);
	if (stop_sig) {
		fflush(stdout);
		fputs("hotscore workload: interrupted; no output file was changed\n",
		      stderr);
		cli_exit(CLI_EXIT_INTERRUPTED);	/* the temporary file goes */
	}
	if (c->json && write_json(c, json_f))
		cli_die("--json: %s: %s", c->json, strerror(errno));
	cli_out_done(json_f);
	cli_out_commit();
	hs_wlrun_free(&c->run);
	hs_workload_free(&c->wl);
	free(c->text);
	free(c);
	return 0;
}

const struct cli_cmd cmd_workload = {
	.name = "workload",
	.summary = "the workload sim models, run for real: the rate for sim --rate",
	.usage = "hotscore workload NAME|FILE [--duration T] [--seed N]"
		 " [--wait] [--json FILE]",
	.about = "Perform a masim workload (stairs, zigzag or a config file,"
		 " read as hotscore sim\nreads it) in real memory: each region"
		 " an anonymous mapping, each phase for its\nduration in wall"
		 " time, its accesses real loads and stores shared among its"
		 " lines\nby probability.  A real kdamond can watch it.  Reports"
		 " the accesses per ms it\nachieved, overall and per phase, and"
		 " the hotscore sim command with that --rate.",
	.notes = "--wait maps the regions, prints 'hotscore workload: pid N"
		 " ready' on stderr and\nwaits for SIGUSR1 before the first"
		 " phase, so that a monitor can start first.\nSIGINT or SIGTERM"
		 " stops the run at once: the summary so far, no --json, exit"
		 " 130.\nT is a time: 5000 (us), 5ms, 1.5s; ns, us, ms, s, m, h.",
	.opts = workload_opts,
	.nr_opts = sizeof(workload_opts) / sizeof(workload_opts[0]),
	.operand = "workload",
	.run = workload_run,
};
