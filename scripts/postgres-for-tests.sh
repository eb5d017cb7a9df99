#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite: its own cluster in a temp folder, on
# loopback only, without durability (fsync off: nothing in it outlives the tests).
#
#   scripts/postgres-for-tests.sh start   # starts it unless it runs; prints its URL
#   scripts/postgres-for-tests.sh url     # the URL of the running one (fails when none runs)
#   scripts/postgres-for-tests.sh stop    # stops it and removes the cluster
#
# HEDDLE_TEST_POSTGRES_DIR (default /tmp/heddle-test-postgres-$UID) holds the cluster,
# HEDDLE_TEST_POSTGRES_PORT (default 55432) is its port. Run as root, the server runs as the
# `postgres` user the Debian package creates (PostgreSQL refuses to run as root). Needs the
# `postgresql` package (scripts/install-deps.sh installs it).
set -euo pipefail

dir="${HEDDLE_TEST_POSTGRES_DIR:-/tmp/heddle-test-postgres-$(id -u)}"
port="${HEDDLE_TEST_POSTGRES_PORT:-55432}"
url="postgres://heddle@127.0.0.1:${port}/postgres"

bin=""
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/pg_ctl" ] && bin="$candidate"
done
if [ -z "$bin" ]; then
  pg_ctl_path="$(command -v pg_ctl || true)"
  [ -n "$pg_ctl_path" ] && bin="$(dirname "$pg_ctl_path")"
fi
if [ -z "$bin" ]; then
  echo "error: PostgreSQL's pg_ctl not found; install the postgresql package (scripts/install-deps.sh)" >&2
  exit 1
fi

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() {
  [ -f "$dir/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

case "${1:-}" in
  start)
    mkdir -p "$dir"
    # One start at a time: test processes may ask together. The server must not inherit the
    # lock (9>&- below), or it would hold it for as long as it runs.
    exec 9>"$dir.lock"
    flock 9
    if ! running; then
      rm -rf "$dir/data"
      mkdir -p "$dir/data"
      [ "$(id -u)" = 0 ] && chown -R postgres: "$dir"
      as_owner "$bin/initdb" -D "$dir/data" -U heddle --auth=trust --encoding=UTF8 \
        --no-sync >"$dir/initdb.log" 2>&1 9>&- || { cat "$dir/initdb.log" >&2; exit 1; }
      as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        >/dev/null 9>&- || { cat "$dir/server.log" >&2; exit 1; }
    fi
    echo "$url"
    ;;
  url)
    running || { echo "error: no test PostgreSQL runs in $dir (start it first)" >&2; exit 1; }
    echo "$url"
    ;;
  stop)
    if running; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    fi
    rm -rf "$dir" "$dir.lock"
    ;;
  *)
    echo "usage: $0 start|url|stop" >&2
    exit 2
    ;;
esac
