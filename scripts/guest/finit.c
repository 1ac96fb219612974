// SPDX-License-Identifier: GPL-2.0
/*
 * finit MODULE [PARAM]...: load MODULE with finit_module() once, for the
 * guests of scripts/kernel-test.sh.  busybox insmod retries a failed
 * finit_module() with init_module(), so every refusal the parameter fuzz
 * provokes would be logged twice.  Exits 0 or the errno, with strerror on
 * stderr.  Built static (kl_guest_tools), as the guest has no libc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 1;
	char *params;
	int fd, i;

	for (i = 2; i < argc; i++)
		len += strlen(argv[i]) + 1;
	params = calloc(1, len);
	fd = argc > 1 ? open(argv[1], O_RDONLY | O_CLOEXEC) : -1;
	if (!params || fd < 0) {
		perror("finit");
		return 2;
	}
	for (i = 2; i < argc; i++) {	/* as insmod joins them */
		strcat(params, argv[i]);
		if (i + 1 < argc)
			strcat(params, " ");
	}
	if (syscall(SYS_finit_module, fd, params, 0)) {
		i = errno;
		fprintf(stderr, "finit: %s: %s\n", argv[1], strerror(i));
		return i;
	}
	return 0;
}
