// SPDX-License-Identifier: GPL-2.0
/* src/bench/kparam.c, compiled into the module as it is (no copy). */
#include <bench/kparam.c>
