#!/bin/sh
# The parts of the official postgres image's entrypoint that docintel's tests and compose use:
# on first start, initdb with POSTGRES_USER / POSTGRES_PASSWORD and create POSTGRES_DB; then the
# server on every address, with passwords (scram-sha-256) required over TCP.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"

if [ "${1:-}" = postgres ] || [ "${1#-}" != "${1:-}" ]; then
  [ "${1:-}" = postgres ] && shift
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    if [ -z "${POSTGRES_PASSWORD:-}" ]; then
      echo "postgres: set POSTGRES_PASSWORD (the server takes TCP connections with a password only)" >&2
      exit 1
    fi
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --encoding=UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    if [ "$db" != postgres ]; then
      echo "CREATE DATABASE \"$db\"" | postgres --single -D "$PGDATA" -j postgres >/dev/null
    fi
    echo "postgres: initialised $PGDATA (user $user, database $db)"
  fi
  exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
