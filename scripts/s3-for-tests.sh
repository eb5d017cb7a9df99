#!/usr/bin/env bash
# A throwaway S3-compatible server for the test suite: moto (PyPI's AWS mock) in server mode,
# on loopback only, holding one empty bucket `heddle-test`. Nothing in it outlives the tests.
#
#   scripts/s3-for-tests.sh install   # makes moto's virtualenv (needs python3-venv and PyPI)
#   scripts/s3-for-tests.sh start     # starts it unless it runs; prints its endpoint URL
#   scripts/s3-for-tests.sh url       # the endpoint of the running one (fails when none runs)
#   scripts/s3-for-tests.sh stop      # stops it
#
# HEDDLE_TEST_S3_VENV (default ~/.cache/heddle/moto-venv) holds moto, HEDDLE_TEST_S3_DIR
# (default /tmp/heddle-test-s3-$UID) its pid and log, HEDDLE_TEST_S3_PORT (default 55433) is
# its port. Clients use any access key; the tests pass AWS_ACCESS_KEY_ID=test and
# AWS_SECRET_ACCESS_KEY=test, region us-east-1, and AWS_ALLOW_HTTP=true.
set -euo pipefail

venv="${HEDDLE_TEST_S3_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/heddle/moto-venv}"
dir="${HEDDLE_TEST_S3_DIR:-/tmp/heddle-test-s3-$(id -u)}"
port="${HEDDLE_TEST_S3_PORT:-55433}"
url="http://127.0.0.1:${port}"
# moto 5's server; pinned so every machine tests against the same one.
moto_version="5.2.5"

running() {
  [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null \
    && curl -fsS -o /dev/null "$url/moto-api/" 2>/dev/null
}

install() {
  if [ ! -x "$venv/bin/moto_server" ]; then
    mkdir -p "$(dirname "$venv")"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$moto_version"
  fi
}

case "${1:-}" in
  install)
    install
    ;;
  start)
    mkdir -p "$dir"
    exec 9>"$dir.lock"
    flock 9
    if ! running; then
      install
      "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$dir/server.log" 2>&1 9>&- &
      echo $! >"$dir/pid"
      for _ in $(seq 1 100); do
        running && break
        sleep 0.1
      done
      running || { cat "$dir/server.log" >&2; echo "error: moto did not start" >&2; exit 1; }
      curl -fsS -o /dev/null -X PUT "$url/heddle-test"
    fi
    echo "$url"
    ;;
  url)
    running || { echo "error: no test S3 server runs on $url (start it first)" >&2; exit 1; }
    echo "$url"
    ;;
  stop)
    if [ -f "$dir/pid" ]; then
      kill "$(cat "$dir/pid")" 2>/dev/null || true
    fi
    rm -rf "$dir" "$dir.lock"
    ;;
  *)
    echo "usage: $0 install|start|url|stop" >&2
    exit 2
    ;;
esac
