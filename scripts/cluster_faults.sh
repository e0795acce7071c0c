#!/usr/bin/env bash
# The cluster fault suite, long: runs the fault tests of tests/e2e/server_cluster_faults/ (real
# `kibitz serve` nodes on a real PostgreSQL and Redis, each started by the tests: Debian's
# `postgresql` and `redis-server` packages) RUNS times in a row, with the SIGKILL drill repeated
# ROUNDS times a run, and prints each drill's times (from the kill of a room's owner to the
# next move taken elsewhere and to the game of a player who died with it decided; from the
# kill of a player's node to its seat offline and its game decided) with their minimum,
# median and maximum.
# It fails at the first failing run. docs/benchmarks.md ("Cluster faults") has a run's figures.
#
#   scripts/cluster_faults.sh 10 5       ten runs, five kills each
#
# PROFILE=debug builds and runs the debug build (faster to build; the drills wait on leases,
# not on the CPU).
set -euo pipefail
runs=${1:-10}
rounds=${2:-5}
cd "$(dirname "$0")/.."
profile=()
[ "${PROFILE:-release}" = release ] && profile=(--release)
out=$(mktemp)
trap 'rm -f "$out" "$out.run"' EXIT
cargo test "${profile[@]}" --test e2e server_cluster_faults:: --no-run >/dev/null 2>&1
for run in $(seq "$runs"); do
  if ! KIBITZ_FAULT_ROUNDS=$rounds cargo test "${profile[@]}" --test e2e server_cluster_faults:: \
      -- --nocapture >"$out.run" 2>&1; then
    cat "$out.run"
    echo "run $run of $runs failed"
    exit 1
  fi
  grep -o '{"fault"[^}]*}' "$out.run" >>"$out" || true
  echo "run $run of $runs: $(grep -o 'test result: ok. [0-9]* passed' "$out.run")"
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
for fault in sorted({r["fault"] for r in rows}):
    mine = [r for r in rows if r["fault"] == fault]
    print(f"{fault}: {len(mine)} drills")
    for key in sorted(k for k in mine[0] if k.endswith("_ms")):
        v = sorted(r[key] for r in mine)
        print(f"  {key}: min {v[0]}  median {statistics.median(v):.0f}  max {v[-1]}")
PY
