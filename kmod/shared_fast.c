// SPDX-License-Identifier: GPL-2.0
/* src/score/fast.c, compiled into the module as it is (no copy). */
#include <score/fast.c>
