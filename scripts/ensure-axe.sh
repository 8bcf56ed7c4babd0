#!/bin/sh
# Install axe-core (the accessibility checker the browser tests run in the page) under
# tests/web/node_modules, from the npm registry, when it is missing.  Test-only: the pages never
# load it, and nothing is fetched from a CDN.  Prints the path of axe.min.js.
set -eu
dir="$(cd "$(dirname "$0")/.." && pwd)/tests/web"
axe="$dir/node_modules/axe-core/axe.min.js"
if [ ! -f "$axe" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "ensure-axe: npm is missing (apt-get install npm); the accessibility tests will be skipped" >&2
        exit 0
    fi
    (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund --silent axe-core@4 >&2)
fi
echo "$axe"
