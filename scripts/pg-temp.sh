#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and checks: data and Unix socket in DIR, no TCP
# (listen_addresses=''), so it never meets a system cluster. PostgreSQL refuses to run as root:
# as root the server runs as the `postgres` user.
#
#   scripts/pg-temp.sh start DIR    # creates the cluster on first use; prints its store URL
#   scripts/pg-temp.sh stop DIR     # a clean stop (start again with `start DIR`)
#   scripts/pg-temp.sh destroy DIR  # stops it at once and removes DIR
set -euo pipefail
cmd=${1:?usage: pg-temp.sh start|stop|destroy DIR}
dir=${2:?usage: pg-temp.sh start|stop|destroy DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
  echo "pg-temp.sh: no PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
password=skillcal
url() {
  local port sock
  port=$(cat "$dir/port")
  sock=$(cd "$dir/sock" && pwd)
  echo "postgresql://postgres:${password}@${sock//\//%2F}:${port}/skillcal"
}
case "$cmd" in
  start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      mkdir -p "$dir/data" "$dir/sock"
      # the socket lives in DIR, so the port only names it; still one no other test uses
      echo $((20000 + RANDOM % 30000)) >"$dir/port"
      echo "$password" >"$dir/pw"
      if [ "$(id -u)" -eq 0 ]; then
        chown -R postgres "$dir"
        runuser -u postgres -- test -w "$dir" ||
          { echo "pg-temp.sh: $dir: the postgres user cannot reach it (a parent folder closed to it?)" >&2; exit 1; }
      fi
      as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=scram-sha-256 \
        --pwfile="$dir/pw" -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
      fresh=1
    fi
    port=$(cat "$dir/port")
    as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir/sock -c listen_addresses='' -p $port -c fsync=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    if [ -n "${fresh:-}" ]; then
      PGPASSWORD=$password "$bin/createdb" -h "$dir/sock" -p "$port" -U postgres skillcal
    fi
    url
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  destroy)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "pg-temp.sh: unknown command $cmd (start, stop, destroy)" >&2
    exit 2
    ;;
esac
