#!/usr/bin/env bash
# The libraries hotscore links: jansson (damo records, bench --import) and
# zlib (damo's json_compressed records).  Missing headers are installed
# with apt when run as root; otherwise one line says what to install.
# Run by make before the first compile; writes STAMP when all are there.
set -euo pipefail
stamp=${1:?usage: deps.sh STAMP}

. "$(dirname "$0")/pkgs.sh"

need=()
[ -e /usr/include/jansson.h ] || need+=(libjansson-dev)
[ -e /usr/include/zlib.h ] || need+=(zlib1g-dev)
if [ ${#need[@]} -gt 0 ] && ! pkgs_need "${need[@]}"; then
	echo "hotscore needs ${need[*]}: run 'apt-get install ${need[*]}' as root" >&2
	exit 1
fi
mkdir -p "$(dirname "$stamp")"
touch "$stamp"
