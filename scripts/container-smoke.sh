#!/usr/bin/env bash
# Build canasta's image (Containerfile) with podman and run tests/deploy/test_stack.py against it: three containers
# of the image on one PostgreSQL, Caddy with deploy/Caddyfile in front, a table played through it, one container
# stopped by SIGTERM. Prints how long each part took.
#
#   scripts/container-smoke.sh               build, then test            (make image-test)
#   scripts/container-smoke.sh --build-only  build localhost/canasta      (make image)
#
# BASE: the image to build on. By default the official Python image; where no registry answers, a Debian bookworm
# made with debootstrap from Debian's mirror and imported as localhost/canasta-base:bookworm (once; ~2 minutes).
# Where podman's defaults cannot start a container (crun on a mixed cgroup v1/v2 machine, limits above this
# machine's hard limits), it runs with runc and this machine's limits (a containers.conf of its own).
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=0
[[ ${1:-} == --build-only ]] && build_only=1
image=${CANASTA_IMAGE:-localhost/canasta:latest}
work=${CANASTA_CONTAINER_WORK:-/var/tmp/canasta-container}
official=docker.io/library/python:3.11-slim-bookworm
local_base=localhost/canasta-base:bookworm
mkdir -p "$work"
say() { echo "container-smoke: $*" >&2; }
die() { say "$*"; exit 1; }
seconds() { echo $(( $(date +%s) - $1 )); }

scripts/ensure-debian-package.sh podman
command -v podman >/dev/null || die "podman is not installed (apt-get install podman)"

base=${BASE:-}
if [[ -z $base ]]; then
    if podman image exists "$official" || podman pull -q "$official" >/dev/null 2>&1; then
        base=$official
    else
        base=$local_base
        if ! podman image exists "$base"; then
            say "no registry answers: making $base with debootstrap"
            scripts/ensure-debian-package.sh debootstrap
            started=$(date +%s)
            rm -rf "$work/rootfs"
            debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$work/rootfs" \
                http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
                || { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
            tar -C "$work/rootfs" -c . | podman import --quiet - "$base" >/dev/null
            rm -rf "$work/rootfs"
            say "base image made in $(seconds "$started") s"
        fi
    fi
fi

# Can podman start a container here as it is? If not, with runc and this machine's limits.
if ! podman run --rm "$base" true >/dev/null 2>&1; then
    command -v runc >/dev/null || scripts/ensure-debian-package.sh runc
    cat >"$work/containers.conf" <<EOF
# container-smoke.sh: podman's defaults do not start a container on this machine
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
EOF
    export CONTAINERS_CONF=$work/containers.conf
    podman run --rm "$base" true >/dev/null || die "podman cannot start a container here, even with runc"
    say "podman runs containers here with runc and this machine's limits ($CONTAINERS_CONF)"
fi

# The build fetches packages (Debian's, PyPI's): it trusts what this machine trusts (a proxy's own authority).
volumes=()
if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$work/pip.conf"
    volumes=(--volume /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro
             --volume "$work/pip.conf:/etc/pip.conf:ro")
fi
started=$(date +%s)
# --format docker: an OCI image would drop the HEALTHCHECK.
podman build --format docker --build-arg "BASE=$base" "${volumes[@]}" --tag "$image" --file Containerfile . \
    >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "the build failed ($work/build.log)"; }
say "$image built on $base in $(seconds "$started") s ($(podman image inspect --format '{{.Size}}' "$image" \
    | awk '{printf "%d MB", $1 / 1e6}'))"
[[ $build_only == 1 ]] && exit 0

python=${PYTHON:-.venv/bin/python}
started=$(date +%s)
CANASTA_CONTAINER_IMAGE=$image "$python" -m pytest tests/deploy/test_stack.py -p no:cacheprovider -q -rs
say "tests/deploy/test_stack.py, processes and containers, in $(seconds "$started") s"
