#!/usr/bin/env bash
. "$(dirname "${BASH_SOURCE[0]}")/pkgs.sh"

# Sourced by scripts/kernel-test.sh and scripts/bench-kmod.sh: what both
# need to run hotscore.ko in a QEMU (TCG) guest.  Each function returns
# non-zero when it fails; the caller says what that means (a SKIP, a
# failure).  Nothing here loads a module into this machine's kernel: the
# module is only built here, and loaded inside the guest.

# kl_packages: the host's packages for a guest, installed (root, apt) if
# missing.
kl_packages() {
	pkgs_need linux-headers-amd64 qemu-system-x86 busybox-static make gcc python3 \
		libc6-dev patch perl
}

# kl_kver: the release of Debian's stock kernel that linux-headers-amd64
# names (never hard-coded: it moves with every point release).
kl_kver() {
	dpkg-query -W -f='${Depends}' linux-headers-amd64 |
		grep -o 'linux-headers-[^ ,]*' | head -1 |
		sed 's/^linux-headers-//'
}

# kl_vmlinuz CACHE KVER: the stock kernel image's path, extracted into
# CACHE from its package the first time, without installing it.
kl_vmlinuz() {
	local v=$1/vmlinuz-$2
	if [ ! -s "$v" ]; then
		(cd "$1" && apt-get download -qq -o APT::Sandbox::User=root \
			"linux-image-$2" >/dev/null &&
		 dpkg-deb --fsys-tarfile linux-image-"$2"_*.deb |
			tar -x -O "./boot/vmlinuz-$2" >"$v.tmp" &&
		 mv "$v.tmp" "$v" && rm -f linux-image-"$2"_*.deb) || return 1
	fi
	echo "$v"
}

# kl_build_module DIR KDIR ROOT [CANDIDATE [NAME]]: DIR/hotscore.ko from a
# copy of ROOT/kmod/ against the kernel build tree KDIR (out of tree);
# CANDIDATE, relative to ROOT or absolute, is compiled in, named NAME
# (default CANDIDATE) in the module's lines.  The log: DIR/build.log.
kl_build_module() {
	local c=() f=${4:-}
	mkdir -p "$1"
	cp "$3"/kmod/Kbuild "$3"/kmod/*.c "$3"/kmod/*.h "$1"/
	case $f in
	'') ;;
	/*) c=(CANDIDATE="$f" HS_CANDIDATE_NAME="${5:-$f}") ;;
	*) c=(CANDIDATE="$3/$f" HS_CANDIDATE_NAME="${5:-$f}") ;;
	esac
	make -s -C "$2" M="$1" HS_ROOT="$3" "${c[@]}" modules \
		>"$1/build.log" 2>&1
}

# kl_initrd DIR OUT: the tree DIR (its /init and what it needs) as a
# gzipped initramfs OUT.
kl_initrd() {
	(cd "$1" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) \
		>"$2"
}

# kl_boot KERNEL INITRD LOG: the guest, on one emulated CPU (TCG: KVM
# hangs on this project's hosts), until its /init reboots; its console,
# without CRs and terminal escapes, in LOG.  KL_WRAP, if set, is a command
# QEMU runs under ("taskset -c 0": scripts/live-runs.sh's slow host).
# A hung guest is stopped after KL_TIMEOUT seconds (1200): the longest
# guest, make test-kernel's 6.1 run, takes about 560 s on an idle 2-vCPU
# host and 600 s once the host is busy, and TCG is slower on other hosts.
kl_boot() {
	${KL_WRAP:-} timeout "${KL_TIMEOUT:-1200}" qemu-system-x86_64 -accel tcg -m 512M -nographic \
		-no-reboot -net none -kernel "$1" -initrd "$2" \
		-append 'console=ttyS0 quiet panic=-1' </dev/null 2>&1 |
		tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' >"$3"
}

# kl_guest_tools OUT ROOT: the guest's programs from ROOT/scripts/guest/,
# static (the guest has no libc): OUT/finit and OUT/tick.  The compiler's
# messages: OUT/guest-tools.log.
kl_guest_tools() {
	local p
	mkdir -p "$1"
	: >"$1/guest-tools.log"
	for p in finit tick; do
		gcc -O2 -Wall -static -o "$1/$p" "$2/scripts/guest/$p.c" \
			>>"$1/guest-tools.log" 2>&1 || return 1
	done
}

# kl_between LOG MARK: the console lines between "=== MARK begin/end"
kl_between() {
	sed -n "/^=== $2 begin/,/^=== $2 end/p" "$1" | sed '1d;$d'
}

# kl_unpack LOG MARK: a file the guest dumped between markers (gzip, base64)
kl_unpack() {
	kl_between "$1" "$2" | base64 -d 2>/dev/null | gunzip 2>/dev/null
}
