// SPDX-License-Identifier: GPL-2.0
/*
 * damos_probe.c - the two kprobe events that hotscore replay reads beside a
 * 6.12 kdamond's damos_before_apply and damon_aggregated tracepoints, as
 * tracefs' kprobe_events takes them, for this kernel: its structs'
 * offsets and the address of jiffies_64 are known only here, compiled
 * against its headers.  mode=capture writes them to debugfs
 * hotscore/damos_kprobes; scripts/guest/damos.sh appends the file to
 * kprobe_events.
 *
 *   hs_tick   at each sample's check (the vaddr ops' check_accesses(),
 *             entered after passed_sample_intervals++): the sample and
 *             jiffies;
 *   hs_quota  at the ops' apply_scheme(), entered right after
 *             trace_damos_before_apply(): the scheme's quota state.
 *
 * The fetch arguments name x86-64's argument registers (ctx in %di, the
 * region in %dx, the scheme in %cx): the module builds for x86 only.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/damon.h>

#include "kmod.h"

#if KMOD_HAVE_SIS && defined(CONFIG_X86_64)

#define Q(field)	(offsetof(struct damos, quota) + \
			 offsetof(struct damos_quota, field))

static char text[512];
static size_t text_len;

static ssize_t probes_read(struct file *f, char __user *buf, size_t n,
			   loff_t *pos)
{
	return simple_read_from_buffer(buf, n, pos, text, text_len);
}

static const struct file_operations probes_fops = {
	.owner = THIS_MODULE,
	.read = probes_read,
	.llseek = default_llseek,
};

/**
 * kmod_damos_probes() - debugfs hotscore/damos_kprobes: the hs_tick and
 * hs_quota kprobe event definitions for this kernel.
 * @dir:	hotscore's debugfs directory.
 */
void kmod_damos_probes(struct dentry *dir)
{
	unsigned long sis = offsetof(struct damon_ctx, passed_sample_intervals);

	text_len = scnprintf(text, sizeof(text),
		"p:" "hs_tick damon_va_check_accesses sis=+%lu(%%di):u64 j=@0x%lx:u64\n"
		"p:" "hs_quota damon_va_apply_scheme sis=+%lu(%%di):u64 start=+%lu(%%dx):u64 esz=+%lu(%%cx):u64 charged=+%lu(%%cx):u64 from=+%lu(%%cx):u64 min=+%lu(%%cx):u32 tsz=+%lu(%%cx):u64 tns=+%lu(%%cx):u64\n",
		sis, (unsigned long)&jiffies_64,
		sis, (unsigned long)offsetof(struct damon_region, ar.start),
		(unsigned long)Q(esz), (unsigned long)Q(charged_sz),
		(unsigned long)Q(charged_from), (unsigned long)Q(min_score),
		(unsigned long)Q(total_charged_sz),
		(unsigned long)Q(total_charged_ns));
	debugfs_create_file("damos_kprobes", 0444, dir, NULL, &probes_fops);
}

#else

void kmod_damos_probes(struct dentry *dir)
{
}

#endif
