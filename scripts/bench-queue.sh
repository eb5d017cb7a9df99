#!/usr/bin/env bash
# The run queue's overhead (issue "Team scale"): the same chain of STAGES no-op command stages
# run locally (`heddle run` in a clone, worktree checkpoints) and queued (`heddle run --queue`,
# then `heddle worker --once` cloning a bare remote and pushing every checkpoint), RUNS times
# each, alternately, in one sitting; then 8 workers draining 8 x PER_WORKER queued one-stage
# runs. Uses the test suite's throwaway PostgreSQL (scripts/postgres-for-tests.sh).
#
# Usage: scripts/bench-queue.sh HEDDLE_BIN [STAGES=20] [RUNS=3] [PER_WORKER=5]
# Prints, per run: wall time, time from enqueue to the first stage's start (queued) or from
# the command's start (local), and ms per stage inside the run (first stage start to last
# stage end, from the run's events); then the drain time of the 8 workers.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${1:?usage: scripts/bench-queue.sh HEDDLE_BIN [STAGES] [RUNS] [PER_WORKER]}")"
stages="${2:-20}"
runs="${3:-3}"
per_worker="${4:-5}"

server="$(scripts/postgres-for-tests.sh start)"
db="heddle_bench_$(date +%s)"
psql -q "$server" -c "CREATE DATABASE $db"
export HEDDLE_DATABASE_URL="${server%/*}/$db"
export HEDDLE_TRUST_WORKFLOWS=1
dir="$(mktemp -d /var/tmp/bench-queue.XXXXXX)"
trap 'rm -rf "$dir"' EXIT

now_ms() { date +%s%3N; }
gitq() { git -c user.name=bench -c user.email=bench@heddle -c init.defaultBranch=main "$@"; }

# The team's repository: a chain of `stages` no-op commands, and a one-stage workflow.
mkdir -p "$dir/repo"
{
  echo "digraph Chain {"
  echo "  start [shape=Mdiamond]; exit [shape=Msquare];"
  prev=start
  for i in $(seq 1 "$stages"); do
    echo "  s$i [shape=parallelogram, script=\"true\"];"
    echo "  $prev -> s$i;"
    prev="s$i"
  done
  echo "  $prev -> exit;"
  echo "}"
} > "$dir/repo/chain.dot"
printf 'digraph One {\n  start [shape=Mdiamond]; exit [shape=Msquare];\n  one [shape=parallelogram, script="true"];\n  start -> one -> exit;\n}\n' > "$dir/repo/one.dot"
(cd "$dir/repo" && gitq init -q && gitq add -A && gitq commit -qm bench)
gitq clone -q --bare "$dir/repo" "$dir/remote.git"

# ms from the first stage.started to the last stage.completed of the run in `folder`, and the
# first stage.started's time (ms since the epoch).
stage_times() {
  python3 - "$1/progress.jsonl" <<'EOF'
import json, sys, datetime
starts, ends = [], []
for line in open(sys.argv[1]):
    e = json.loads(line)
    t = datetime.datetime.fromisoformat(e["ts"].replace("Z", "+00:00")).timestamp() * 1000
    if e["event"] == "stage.started" and e.get("node_id") not in ("start", "exit"):
        starts.append(t)
    if e["event"] == "stage.completed" and e.get("node_id") not in ("start", "exit"):
        ends.append(t)
print(f"{max(ends) - min(starts):.0f} {min(starts):.0f}")
EOF
}

printf '%-7s %3s %9s %18s %12s\n' mode run "wall ms" "to 1st stage ms" "ms/stage"
for i in $(seq 1 "$runs"); do
  # Local: a clone, `heddle run` in it.
  gitq clone -q "$dir/remote.git" "$dir/local$i"
  home="$dir/home-local$i"
  t0=$(now_ms)
  (cd "$dir/local$i" && HEDDLE_HOME="$home" "$bin" run --checkpoints worktree chain.dot >/dev/null 2>&1)
  t1=$(now_ms)
  read -r inside first < <(stage_times "$(ls -d "$home"/runs/*/ | head -n 1)")
  printf '%-7s %3s %9s %18s %12s\n' local "$i" $((t1 - t0)) $((first - t0)) \
    "$(python3 -c "print(f'{$inside / $stages:.1f}')")"

  # Queued: enqueue from the repository, one worker on another home.
  t0=$(now_ms)
  (cd "$dir/repo" && HEDDLE_HOME="$dir/home-q" "$bin" run --queue chain.dot >/dev/null 2>&1)
  HEDDLE_HOME="$dir/home-w$i" "$bin" worker --remote "$dir/remote.git" --once >/dev/null
  t1=$(now_ms)
  read -r inside first < <(stage_times "$(ls -d "$dir/home-w$i"/runs/*/ | head -n 1)")
  printf '%-7s %3s %9s %18s %12s\n' queued "$i" $((t1 - t0)) $((first - t0)) \
    "$(python3 -c "print(f'{$inside / $stages:.1f}')")"
done

# Throughput: 8 workers drain 8 x per_worker one-stage runs.
total=$((8 * per_worker))
for _ in $(seq 1 "$total"); do
  (cd "$dir/repo" && HEDDLE_HOME="$dir/home-q" "$bin" run --queue one.dot >/dev/null 2>&1)
done
t0=$(now_ms)
pids=()
for w in $(seq 1 8); do
  HEDDLE_HOME="$dir/home-d$w" "$bin" worker --remote "$dir/remote.git" --once --name "d$w" \
    >"$dir/drain$w.out" &
  pids+=("$!")
done
for pid in "${pids[@]}"; do wait "$pid"; done
t1=$(now_ms)
done_runs=$(cat "$dir"/drain*.out | grep -c ' success$' || true)
busy=$(for w in $(seq 1 8); do grep -c ' success$' "$dir/drain$w.out" || true; done | tr '\n' ' ')
echo "8 workers: $done_runs of $total one-stage runs in $((t1 - t0)) ms" \
  "($(python3 -c "print(f'{$done_runs / (($t1 - $t0) / 1000):.2f}')") runs/s; per worker: $busy)"
psql -q "$server" -c "DROP DATABASE $db" || true
