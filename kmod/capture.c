// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - mode=capture: the inputs and results of a live kdamond's
 * damon_hot_score() and damon_cold_score() calls, as `hotscore score
 * --input` reads them.
 *
 * A kretprobe on each function reads, at entry, the fields the model takes
 * from the arguments (ctx, region, scheme) into its instance's data, and at
 * return stores them with the int returned into a buffer of calls= records
 * allocated at load.  The kdamond never waits: a record's slot is reserved
 * by an atomic increment (a full buffer counts the call as dropped) and is
 * published by a release store once complete, so that a reader stops at
 * the first slot not yet published and sees a consistent prefix.  After
 * duration= a delayed work unregisters the probes; rmmod may come first.
 */
#define pr_fmt(fmt) "hotscore: " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <linux/damon.h>

#include <hotscore/bench_kparam.h>

#include "kmod.h"

static struct kmod_param calls_param = { "100000" };
module_param_cb(calls, &kmod_param_ops, &calls_param, 0444);
MODULE_PARM_DESC(calls, "capture: calls to record, 1 to 4000000 (default 100000)");
static struct kmod_param duration_param = { "60s" };
module_param_cb(duration, &kmod_param_ops, &duration_param, 0444);
MODULE_PARM_DESC(duration,
		 "capture: how long, 1ms to 1h: ns us ms s m h, a bare number in us (default 60s)");

#define CALLS_MAX	4000000UL
#define DURATION_MIN	1000ULL		/* us: 1 ms */
#define DURATION_MAX	3600000000ULL	/* us: 1 h */

/* the parameters' values, once kmod_capture_params() has checked them */
static unsigned long calls_max;
static u64 duration_us;

/**
 * kmod_capture_params() - check calls= and duration=, whatever the mode.
 *
 * Return: 0, or -EINVAL with one line logged.
 */
int kmod_capture_params(void)
{
	const char *d;
	u64 ns;

	if (kmod_param_ulong("calls", &calls_param, 1, CALLS_MAX,
			     "1 to 4000000", &calls_max))
		return -EINVAL;
	d = kmod_param_text("duration", &duration_param);
	if (!d)
		return -EINVAL;
	/* as the CLI takes a time (src/bench/kparam.c) */
	if (!hs_kparam_time_ns(d, &ns) || ns % NSEC_PER_USEC ||
	    ns / NSEC_PER_USEC < DURATION_MIN ||
	    ns / NSEC_PER_USEC > DURATION_MAX) {
		pr_err("duration=" KMOD_SHOW_FMT ": give a time from 1ms to 1h, in whole us (ns us ms s m h; a bare number is us)\n",
		       KMOD_SHOW(d));
		return -EINVAL;
	}
	duration_us = ns / NSEC_PER_USEC;
	return 0;
}

#if KMOD_HAVE_ATTRS && IS_ENABLED(CONFIG_KRETPROBES)

/*
 * One call: what the entry read, then the int returned.  @published is
 * stored last, with release; a reader loads it with acquire.
 */
struct rec {
	unsigned long sample_us, aggr_us;
#if KMOD_HAVE_SIS
	unsigned long passed_sis, next_aggr_sis;
	unsigned int nr_accesses_bp;
#endif
	unsigned int nr_accesses, last_nr_accesses, age;
	unsigned int weight_nr_accesses, weight_age;
	int returned;
	u8 fn;			/* FN_HOT or FN_COLD */
	u8 from_cold;		/* a hot call made by the cold function */
	u8 published;
};

enum { FN_HOT, FN_COLD };

static struct {
	struct rec *rec;		/* calls_max of them */
	atomic_long_t next;		/* slots reserved, past the end too */
	atomic_long_t full;		/* calls dropped: the buffer was full */
	atomic_long_t nr[2];		/* published, per FN_ */
	unsigned long cold_start, cold_end;	/* the cold function's text */
	u64 start_ns, end_ns;		/* the capture's window */
	u64 stopped_ns;			/* when the probes went */
	unsigned long missed_start;	/* missed_now() at the start */
	unsigned long missed_end;	/* and when the probes went */
	bool on;			/* within the window: record */
	bool done;			/* the window passed, probes gone */
	bool registered;
	struct dentry *csv, *info;
	struct delayed_work end;
} cap;

/* Entry: the fields the model reads, from the arguments. */
static int cap_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct damon_ctx *c = (void *)regs_get_kernel_argument(regs, 0);
	const struct damon_region *r = (void *)regs_get_kernel_argument(regs, 1);
	const struct damos *s = (void *)regs_get_kernel_argument(regs, 2);
	struct rec *e = (struct rec *)ri->data;

	if (!smp_load_acquire(&cap.on))
		return 1;	/* no return handler */
	e->sample_us = c->attrs.sample_interval;
	e->aggr_us = c->attrs.aggr_interval;
#if KMOD_HAVE_SIS
	e->passed_sis = c->passed_sample_intervals;
	e->next_aggr_sis = c->next_aggregation_sis;
	e->nr_accesses_bp = r->nr_accesses_bp;
#endif
	e->nr_accesses = r->nr_accesses;
	e->last_nr_accesses = r->last_nr_accesses;
	e->age = r->age;
	e->weight_nr_accesses = s->quota.weight_nr_accesses;
	e->weight_age = s->quota.weight_age;
	return 0;
}

/*
 * Return: the record, into the next slot if the window is still open.  A
 * hot call returning into the cold function's text was made by it: the
 * instance's return address tells, whatever CPU the kdamond moved to.
 */
static void cap_return(struct kretprobe_instance *ri, struct pt_regs *regs,
		       u8 fn)
{
	struct rec *e = (struct rec *)ri->data, *slot;
	unsigned long ret = get_kretprobe_retaddr(ri);
	long i;

	if (ktime_get_mono_fast_ns() >= cap.end_ns)
		return;		/* past the end: neither kept nor dropped */
	/* full: no increment, so that the count never wraps to slot 0 */
	if (atomic_long_read(&cap.next) >= calls_max ||
	    (i = atomic_long_inc_return(&cap.next) - 1) >= calls_max) {
		atomic_long_inc(&cap.full);
		return;
	}
	slot = &cap.rec[i];
	/* all but @published, which only the release store below writes */
	memcpy(slot, e, offsetof(struct rec, published));
	slot->returned = (int)regs_return_value(regs);
	slot->fn = fn;
	slot->from_cold = fn == FN_HOT && ret >= cap.cold_start &&
			  ret < cap.cold_end;
	smp_store_release(&slot->published, 1);
	atomic_long_inc(&cap.nr[fn]);
}

static int hot_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	cap_return(ri, regs, FN_HOT);
	return 0;
}

static int cold_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	cap_return(ri, regs, FN_COLD);
	return 0;
}

/*
 * Instances: one per call in flight.  A kdamond holds at most two (cold,
 * then the hot it calls), even when preempted between entry and return.
 */
#define MAXACTIVE 128

static struct kretprobe hot_rp = {
	.kp.symbol_name = "damon_hot_score",
	.entry_handler = cap_entry,
	.handler = hot_return,
	.data_size = sizeof(struct rec),
	.maxactive = MAXACTIVE,
};

static struct kretprobe cold_rp = {
	.entry_handler = cap_entry,
	.handler = cold_return,
	.data_size = sizeof(struct rec),
	.maxactive = MAXACTIVE,
};

/*
 * Calls the probes missed so far: no free instance (rp.nmissed), or a
 * probe hit while another kprobe ran (kp.nmissed).
 */
static unsigned long missed_now(void)
{
	return READ_ONCE(hot_rp.nmissed) + READ_ONCE(cold_rp.nmissed) +
	       READ_ONCE(hot_rp.kp.nmissed) + READ_ONCE(cold_rp.kp.nmissed);
}

/*
 * Calls not recorded within the window: the buffer was full, or the probes
 * missed them (counted from the window's start to the probes' removal).
 */
static unsigned long dropped(void)
{
	unsigned long end = cap.registered ? missed_now() : cap.missed_end;

	return atomic_long_read(&cap.full) + end - cap.missed_start;
}

/* The rows published: the buffer's prefix, every slot complete. */
static unsigned long published(void)
{
	return atomic_long_read(&cap.nr[FN_HOT]) +
	       atomic_long_read(&cap.nr[FN_COLD]);
}

static u64 elapsed_ns(void)
{
	u64 end = smp_load_acquire(&cap.done) ? cap.stopped_ns : ktime_get_ns();

	return end - cap.start_ns;
}

/* The probes off: handlers that are running have returned. */
static void unregister(void)
{
	struct kretprobe *rps[] = { &hot_rp, &cold_rp };

	WRITE_ONCE(cap.on, false);
	unregister_kretprobes(rps, ARRAY_SIZE(rps));
	cap.missed_end = missed_now();
	cap.registered = false;
	cap.stopped_ns = min(ktime_get_ns(), cap.end_ns);
}

/* The one line that ends a capture: @where its rows can be read. */
static void log_end(const char *where)
{
	pr_info("capture: %lu calls (%ld hot, %ld cold, %lu dropped) in %llu ms; %s\n",
		published(), atomic_long_read(&cap.nr[FN_HOT]),
		atomic_long_read(&cap.nr[FN_COLD]), dropped(),
		elapsed_ns() / NSEC_PER_MSEC, where);
}

static void end_work(struct work_struct *w)
{
	u64 now = ktime_get_ns();

	/* a jiffy can end early (a partial first tick): wait out the rest */
	if (now < cap.end_ns) {
		schedule_delayed_work(&cap.end,
				      nsecs_to_jiffies(cap.end_ns - now) + 1);
		return;
	}
	unregister();
	smp_store_release(&cap.done, true);
	log_end("in debugfs hotscore/capture");
}

static void *csv_start(struct seq_file *m, loff_t *pos)
{
	unsigned long nr = min_t(unsigned long, atomic_long_read(&cap.next),
				 calls_max);

	if (*pos == 0)
		return SEQ_START_TOKEN;
	if (*pos > nr || !smp_load_acquire(&cap.rec[*pos - 1].published))
		return NULL;
	return &cap.rec[*pos - 1];
}

static void *csv_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return csv_start(m, pos);
}

static void csv_stop(struct seq_file *m, void *v)
{
}

static int csv_show(struct seq_file *m, void *v)
{
	const struct rec *r = v;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, KMOD_HAVE_SIS ?
			 "fn,caller,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,passed_sis,next_aggr_sis,nr_accesses_bp,weight_nr_accesses,weight_age,returned\n" :
			 "fn,caller,sample_us,aggr_us,nr_accesses,last_nr_accesses,age,weight_nr_accesses,weight_age,returned\n");
		return 0;
	}
	seq_printf(m, "%s,%s,%lu,%lu,%u,%u,%u,", r->fn == FN_HOT ? "hot" : "cold",
		   r->from_cold ? "cold" : "ops", r->sample_us, r->aggr_us,
		   r->nr_accesses, r->last_nr_accesses, r->age);
#if KMOD_HAVE_SIS
	seq_printf(m, "%lu,%lu,%u,", r->passed_sis, r->next_aggr_sis,
		   r->nr_accesses_bp);
#endif
	seq_printf(m, "%u,%u,%d\n", r->weight_nr_accesses, r->weight_age,
		   r->returned);
	return 0;
}

static const struct seq_operations csv_sops = {
	.start = csv_start,
	.next = csv_next,
	.stop = csv_stop,
	.show = csv_show,
};
DEFINE_SEQ_ATTRIBUTE(csv);

static int info_show(struct seq_file *m, void *v)
{
	seq_printf(m, "kernel: %s\n", utsname()->release);
	seq_printf(m, "state: %s\n",
		   smp_load_acquire(&cap.done) ? "done" : "capturing");
	seq_printf(m, "calls: %lu\n", published());
	seq_printf(m, "hot: %ld\n", atomic_long_read(&cap.nr[FN_HOT]));
	seq_printf(m, "cold: %ld\n", atomic_long_read(&cap.nr[FN_COLD]));
	seq_printf(m, "dropped: %lu\n", dropped());
	seq_printf(m, "calls_max: %lu\n", calls_max);
	seq_printf(m, "duration_us: %llu\n", duration_us);
	seq_printf(m, "elapsed_us: %llu\n", elapsed_ns() / NSEC_PER_USEC);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(info);

/*
 * The cold function under its name of this kernel (damon_pageout_score()
 * before the rename), and the range of its text from its size, which
 * sprint_symbol() gives as "name+0xOFF/0xSIZE".
 */
static int register_cold(void)
{
	static const char *const names[] = { "damon_cold_score",
					     "damon_pageout_score" };
	char sym[KSYM_SYMBOL_LEN];
	unsigned long off, size;
	const char *plus;
	unsigned int i;
	int err = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(names) && err == -ENOENT; i++) {
		cold_rp.kp.symbol_name = names[i];
		cold_rp.kp.addr = NULL;
		err = register_kretprobe(&cold_rp);
	}
	if (err) {
		pr_err("capture: cannot probe damon_cold_score: kretprobe error %d\n",
		       err);
		return err;
	}
	sprint_symbol(sym, (unsigned long)cold_rp.kp.addr);
	plus = strrchr(sym, '+');
	if (!plus || sscanf(plus, "+%lx/%lx", &off, &size) != 2) {
		pr_err("capture: no size for %s ('%s')\n",
		       cold_rp.kp.symbol_name, sym);
		unregister_kretprobe(&cold_rp);
		return -ENOENT;
	}
	cap.cold_start = (unsigned long)cold_rp.kp.addr - off;
	cap.cold_end = cap.cold_start + size;
	return 0;
}

/*
 * Both probes.  Nothing is recorded until cap.on, so the hot one can go
 * first, and its absence say that this kernel has no DAMON.
 */
static int register_probes(void)
{
	int err = register_kretprobe(&hot_rp);

	if (err == -ENOENT) {
		pr_err("capture: no DAMON in this kernel (damon_hot_score not found)\n");
		return err;
	}
	if (err) {
		pr_err("capture: cannot probe damon_hot_score: kretprobe error %d\n",
		       err);
		return err;
	}
	err = register_cold();
	if (err) {
		unregister_kretprobe(&hot_rp);
		return err;
	}
	cap.registered = true;
	return 0;
}

/**
 * kmod_capture_start() - mode=capture: hook the scoring functions for
 * duration=, into a buffer of calls= records read through debugfs.
 * @dir:	hotscore's debugfs directory.
 *
 * Return: 0, or an errno with one line logged: -ENOENT without DAMON,
 * -ENOMEM, or register_kretprobe()'s.
 */
int kmod_capture_start(struct dentry *dir)
{
	int err;

	cap.rec = vzalloc(array_size(calls_max, sizeof(*cap.rec)));
	if (!cap.rec) {
		pr_err("capture: no memory for calls=%lu (%zu bytes each)\n",
		       calls_max, sizeof(*cap.rec));
		return -ENOMEM;
	}
	INIT_DELAYED_WORK(&cap.end, end_work);
	err = register_probes();
	if (err) {
		vfree(cap.rec);
		cap.rec = NULL;
		return err;
	}
	cap.start_ns = ktime_get_ns();
	cap.end_ns = cap.start_ns + duration_us * NSEC_PER_USEC;
	cap.missed_start = missed_now();
	smp_store_release(&cap.on, true);
	cap.csv = debugfs_create_file("capture", 0444, dir, NULL, &csv_fops);
	cap.info = debugfs_create_file("capture_info", 0444, dir, NULL,
				       &info_fops);
	schedule_delayed_work(&cap.end, usecs_to_jiffies(duration_us));
	pr_info("capture: %pS and %pS for %llu us, at most %lu calls; in debugfs hotscore/capture\n",
		hot_rp.kp.addr, cold_rp.kp.addr, duration_us, calls_max);
	return 0;
}

/**
 * kmod_capture_exit() - at rmmod: the probes off if the capture is still
 * on (this waits for their handlers), the end's work cancelled, the files
 * removed (which waits for their readers), the buffer freed.
 */
void kmod_capture_exit(void)
{
	if (!cap.rec)
		return;
	cancel_delayed_work_sync(&cap.end);
	if (cap.registered) {
		unregister();
		log_end("stopped by rmmod");
	}
	debugfs_remove(cap.csv);
	debugfs_remove(cap.info);
	vfree(cap.rec);
	cap.rec = NULL;
}

#else

int kmod_capture_start(struct dentry *dir)
{
	pr_err("capture: needs Linux 6.1 or later, with kretprobes\n");
	return -EOPNOTSUPP;
}

void kmod_capture_exit(void)
{
}

#endif
