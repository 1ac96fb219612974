// SPDX-License-Identifier: GPL-2.0
/*
 * embed.c - the sources a candidate is compiled with (object/env.h and
 * object/shim.c), carried in the binary so that an installed hotscore
 * needs no source tree.  .incbin reads them at build time, from the top
 * of the tree, where make runs; the Makefile names them as prerequisites.
 */
__asm__(".section .rodata\n"
	".global hs_cand_env_h\n"
	".type hs_cand_env_h, @object\n"
	"hs_cand_env_h:\n"
	".incbin \"src/cand/object/env.h\"\n"
	".byte 0\n"
	".global hs_cand_shim_c\n"
	".type hs_cand_shim_c, @object\n"
	"hs_cand_shim_c:\n"
	".incbin \"src/cand/object/shim.c\"\n"
	".byte 0\n"
	".previous\n");
