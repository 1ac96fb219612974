# Sourced: Debian packages that a build step or a test suite needs,
# installed by the step itself when they are missing, so that no step
# depends on one that ran before it (a cache, a package another suite
# happened to install).  Used by scripts/deps.sh, scripts/kernel-lib.sh,
# scripts/damon-kernel.sh, tests/kerneldoc.sh and tests/damo.sh.

# pkgs_missing PKG...: print those of PKG that dpkg does not have installed
pkgs_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'ok installed' || printf '%s ' "$p"
	done
}

# pkgs_need PKG...: install those of PKG that are missing, as root with
# apt-get (one "installing" line on stderr).  Returns 1, installing
# nothing, when some are missing and this is not root or has no apt-get.
pkgs_need() {
	local need
	need=$(pkgs_missing "$@")
	[ -z "$need" ] && return 0
	if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
		return 1
	fi
	echo "installing $need" >&2
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086	# a list of words
	apt-get update -qq &&
		apt-get install -y -qq --no-install-recommends $need >/dev/null
}
