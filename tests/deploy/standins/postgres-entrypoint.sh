#!/bin/sh
# The stand-in's start: a cluster made on the first start, as the official image does, then the server.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/password
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/password --auth-host=scram-sha-256 --auth-local=trust \
        -E UTF8 --no-locale >/dev/null
    rm /tmp/password
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
    createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
    pg_ctl -D "$PGDATA" -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
