#!/usr/bin/env bash
# Usage: scripts/ensure-debian-package.sh COMMAND [PACKAGE]   (PACKAGE defaults to COMMAND)
# Make sure COMMAND is on this machine, installing Debian's PACKAGE with apt-get when it is
# missing (chromium for the browser tests, poppler-utils for pdftoppm). Safe to rerun;
# prints nothing when COMMAND is already there, and only a warning where it cannot install.
set -euo pipefail
command_name="$1"
package="${2:-$1}"
if command -v "$command_name" >/dev/null 2>&1 || [ -x "/usr/bin/$command_name" ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-debian-package: no apt-get here; install $package yourself (its tests will be skipped)" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "ensure-debian-package: not root and no sudo; install the $package package yourself" >&2
        exit 0
    fi
fi
echo "ensure-debian-package: installing Debian's $package with apt-get ..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q --no-install-recommends "$package" >/dev/null 2>&1; then
    $SUDO apt-get update -q >/dev/null 2>&1 || true
    $SUDO apt-get install -y -q --no-install-recommends "$package" >&2
fi
