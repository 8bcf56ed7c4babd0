#!/usr/bin/env bash
# Start a private PostgreSQL for the tests, installing it first if needed, and print its URL.
#
#   scripts/ensure-postgres.sh [DIR]        start (or find running) the cluster kept in DIR (default .pg)
#   scripts/ensure-postgres.sh DIR stop     stop it, if it runs
#
# Port 54329 (or the next free one), or $CANASTA_PG_PORT; trust authentication on 127.0.0.1 only; database canasta_test.
# Prints exactly one line on stdout, the URL; anything else goes to stderr. Safe to rerun.
set -euo pipefail

dir=${1:-.pg}
action=${2:-start}
port=${CANASTA_PG_PORT:-54329}
db=canasta_test

die() { echo "ensure-postgres: $*" >&2; exit 1; }

find_bin() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -n $d && -x $d/initdb && -x $d/pg_ctl ]]; then echo "$d"; return; fi
    d=$(command -v initdb 2>/dev/null || true)
    if [[ -n $d && -x $(dirname "$d")/pg_ctl ]]; then dirname "$d"; fi
}

[[ $action == stop && ! -d $dir ]] && exit 0
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# One run at a time per directory (two `make test` at once would both initdb); the server must not inherit fd 9.
if command -v flock >/dev/null; then
    exec 9>"$dir/.lock"
    flock 9
fi

bin=$(find_bin)
if [[ -z $bin ]]; then
    [[ $action == stop ]] && exit 0
    command -v apt-get >/dev/null || die "PostgreSQL is not installed and there is no apt-get: install PostgreSQL"
    echo "ensure-postgres: installing PostgreSQL with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -qq postgresql >&2; then
        apt-get update -qq >&2
        apt-get install -y -qq postgresql >&2
    fi
    bin=$(find_bin)
    [[ -n $bin ]] || die "apt-get installed postgresql but no initdb was found under /usr/lib/postgresql/*/bin"
fi

# The server refuses to run as root: as root it runs as the postgres system user.
if [[ $EUID -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    as_pg() { (cd / && runuser -u postgres -- "$@"); }
    chown postgres: "$dir"
    base=$dir
    # The postgres user must reach DIR; under a private home (/root is 0700) keep the cluster in /tmp instead.
    if ! as_pg test -w "$dir"; then
        base=/tmp/canasta-pg-$(printf %s "$dir" | sha256sum | cut -c1-16)
        mkdir -p "$base"
        chown postgres: "$base"
        chmod 700 "$base"
        ln -sfn "$base" "$dir/cluster"
    fi
else
    as_pg() { "$@"; }
    base=$dir
fi
data=$base/data
log=$base/server.log

running() { [[ -f $data/PG_VERSION ]] && as_pg "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; }

if [[ $action == stop ]]; then
    if running; then as_pg "$bin/pg_ctl" stop -D "$data" -m fast -w >/dev/null; fi
    exit 0
fi
[[ $action == start ]] || die "unknown action '$action': start or stop"

if [[ ! -f $data/PG_VERSION ]]; then
    # initdb into a fresh directory, then move it into place: an interrupted run leaves no half cluster.
    rm -rf "$data.new"
    as_pg "$bin/initdb" -D "$data.new" -U postgres --auth=trust -E UTF8 --no-locale >"$base/initdb.log" 2>&1 \
        || { tail -n 20 "$base/initdb.log" >&2; die "initdb failed"; }
    cat >>"$data.new/postgresql.conf" <<'EOF'

# ensure-postgres.sh: a private test server, reachable from this machine only
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 200
EOF
    mv "$data.new" "$data"
fi

# Something already listening on the port (another checkout's test server): take the next free one,
# unless CANASTA_PG_PORT names the port.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if ! running; then
    if [[ -z ${CANASTA_PG_PORT:-} ]]; then
        for _ in $(seq 1 50); do
            listening "$port" || break
            port=$((port + 1))
        done
    fi
    if ! as_pg "$bin/pg_ctl" start -D "$data" -l "$log" -o "-p $port" -w -t 60 >/dev/null 2>&1 9>&-; then
        tail -n 20 "$log" >&2 || true
        die "the server in $data did not start (is port $port taken? set CANASTA_PG_PORT)"
    fi
fi

# A server started earlier with another CANASTA_PG_PORT still listens where it started.
port=$(sed -n 4p "$data/postmaster.pid")
for _ in $(seq 1 100); do
    "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres && break
    sleep 0.1
done
"$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres || die "the server on port $port does not answer"

exists=$("$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -XtAq \
    -c "SELECT 1 FROM pg_database WHERE datname = '$db'")
if [[ $exists != 1 ]]; then
    "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"
fi

echo "postgresql://postgres@127.0.0.1:$port/$db"
