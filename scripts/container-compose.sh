#!/usr/bin/env bash
# Run compose.yaml with podman-compose, as the project canasta-test: play a table through Caddy
# (tests/deploy/test_compose.py), take everything down and up again, and find the table where it was (the named
# volumes). Removes the project's containers and volumes at the end. Prints how long each part took.
#
#   scripts/container-compose.sh          (make compose-test)
#
# The proxy listens on 127.0.0.1:18443 and :18080 here (tests/deploy/standins/compose.test.yaml), not 443 and 80.
# Where no registry answers, the official postgres and caddy images are replaced by stand-ins built from Debian's
# packages (tests/deploy/standins). Builds the image first (scripts/container-smoke.sh --build-only).
set -euo pipefail
cd "$(dirname "$0")/.."

work=${CANASTA_CONTAINER_WORK:-/var/tmp/canasta-container}
python=${PYTHON:-.venv/bin/python}
standins=tests/deploy/standins
say() { echo "container-compose: $*" >&2; }
die() { say "$*"; exit 1; }
seconds() { echo $(( $(date +%s) - $1 )); }

scripts/container-smoke.sh --build-only
[[ -f $work/containers.conf ]] && export CONTAINERS_CONF=$work/containers.conf  # as container-smoke.sh found

if [[ ! -x $work/podman-compose/bin/podman-compose ]]; then
    python3 -m venv "$work/podman-compose"
    "$work/podman-compose/bin/pip" install --quiet podman-compose
fi
files=(-f compose.yaml -f "$standins/compose.test.yaml")
for official in docker.io/library/postgres:16-bookworm docker.io/library/caddy:2; do
    if ! podman image exists "$official" && ! podman pull -q "$official" >/dev/null 2>&1; then
        say "no registry answers: stand-ins for the postgres and caddy images"
        started=$(date +%s)
        for name in postgres caddy; do
            podman build --quiet --build-arg BASE=localhost/canasta-base:bookworm \
                --tag "localhost/canasta-standin-$name:latest" --file "$standins/$name.Containerfile" "$standins" \
                >"$work/standin-$name.log" 2>&1 || { tail -n 20 "$work/standin-$name.log" >&2; die "$name"; }
        done
        say "stand-ins built in $(seconds "$started") s"
        files+=(-f "$standins/compose.standins.yaml")
        break
    fi
done

export POSTGRES_PASSWORD
POSTGRES_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export CANASTA_SITE=localhost
compose() { "$work/podman-compose/bin/podman-compose" --project-name canasta-test "${files[@]}" "$@"; }
cleanup() { compose down --volumes >"$work/compose-down.log" 2>&1 || true; }
trap cleanup EXIT

ca_file() {
    local volume
    volume=$(podman volume inspect --format '{{.Mountpoint}}' canasta-test_caddy-data 2>/dev/null) || return 1
    echo "$volume/caddy/pki/authorities/local/root.crt"
}

# Up, and wait until Caddy answers /readyz over TLS that trusts Caddy's own authority (from the caddy-data volume).
up() {
    local started ca
    started=$(date +%s)
    compose up -d >"$work/compose-up.log" 2>&1 || { tail -n 30 "$work/compose-up.log" >&2; die "compose up failed"; }
    for _ in $(seq 1 240); do
        ca=$(ca_file || true)
        if [[ -n $ca && -f $ca ]] && python3 - "$ca" <<'EOF' 2>/dev/null; then
import json, ssl, sys, urllib.request
context = ssl.create_default_context(cafile=sys.argv[1])
with urllib.request.urlopen("https://localhost:18443/readyz", context=context, timeout=3) as answer:
    sys.exit(0 if json.load(answer)["ready"] else 1)
EOF
            say "up and ready through Caddy in $(seconds "$started") s; restarts: $(podman ps --quiet \
                --filter name=canasta-test_ | xargs podman inspect --format '{{.Name}}={{.RestartCount}}' | xargs)"
            export CANASTA_COMPOSE_CA=$ca
            return 0
        fi
        sleep 0.5
    done
    compose ps >&2 || true
    compose logs >&2 || true
    die "the site did not answer https://localhost:18443/readyz within 120 s"
}

table=$work/compose-table.json
up
podman volume ls --format '{{.Name}}' | grep -E '^canasta-test_' >&2
started=$(date +%s)
CANASTA_COMPOSE_URL=https://localhost:18443 CANASTA_COMPOSE_TABLE_FILE=$table \
    "$python" -m pytest tests/deploy/test_compose.py -p no:cacheprovider -q -rs
say "played through the proxy in $(seconds "$started") s"

started=$(date +%s)
compose down >"$work/compose-down.log" 2>&1
say "down (the servers drained) in $(seconds "$started") s; up again"
up
CANASTA_COMPOSE_URL=https://localhost:18443 CANASTA_COMPOSE_EARLIER=$(cat "$table") \
    "$python" -m pytest tests/deploy/test_compose.py -p no:cacheprovider -q -rs -k earlier
