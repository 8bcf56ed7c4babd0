#!/usr/bin/env bash
# Make sure poppler-utils (pdftoppm, pdfinfo) is installed for the sheet tests (apt-get when it is missing).
# Safe to rerun; prints nothing when pdftoppm is already there.
set -euo pipefail
if command -v pdftoppm >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-poppler: no apt-get here; install poppler-utils yourself (the PDF rendering tests will be skipped)" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "ensure-poppler: not root and no sudo; install the poppler-utils package yourself" >&2
        exit 0
    fi
fi
echo "ensure-poppler: installing Debian's poppler-utils with apt-get ..." >&2
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q --no-install-recommends poppler-utils >/dev/null 2>&1; then
    $SUDO apt-get update -q >/dev/null 2>&1 || true
    $SUDO apt-get install -y -q --no-install-recommends poppler-utils >&2
fi
