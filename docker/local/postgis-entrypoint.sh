#!/bin/sh
# The entry point of docker/local/Dockerfile.postgis: the official postgres image's first-run steps that
# docker/compose.yml relies on, then PostgreSQL as the postgres user.
set -e
if [ "${1#-}" != "$1" ]; then set -- postgres "$@"; fi
if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb --username=postgres --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA" >/dev/null
  rm -f "$password_file"
  printf '\nlisten_addresses = '"'"'*'"'"'\n' >>"$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  # First start on the socket only: the database and PostGIS, as the postgis image's init script does.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  database=${POSTGRES_DB:-postgres}
  if [ "$database" != postgres ]; then psql -v ON_ERROR_STOP=1 -U postgres -qc "CREATE DATABASE \"$database\""; fi
  psql -v ON_ERROR_STOP=1 -U postgres -d "$database" -qc 'CREATE EXTENSION IF NOT EXISTS postgis'
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "PostgreSQL initialised: database $database with PostGIS"
fi
exec "$@"
