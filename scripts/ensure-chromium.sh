#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (apt-get when it is missing).
# Safe to rerun; prints nothing when Chromium is already there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: no apt-get here; install Chromium yourself (browser tests will be skipped)" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "ensure-chromium: not root and no sudo; install the chromium package yourself" >&2
        exit 0
    fi
fi
echo "ensure-chromium: installing Debian's chromium with apt-get ..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1; then
    $SUDO apt-get update -q >/dev/null 2>&1 || true
    $SUDO apt-get install -y -q --no-install-recommends chromium >&2
fi
