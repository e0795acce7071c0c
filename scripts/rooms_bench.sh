#!/usr/bin/env bash
# Plays R rooms (2 players + 2 spectators each, 50 ms think) for SECONDS against a fresh Kibitz
# server or against the bare relay (scripts/relay), with `kibitz loadtest` as the outside
# client, and prints its report. The server runs with the per-address limits raised, since
# every connection of the benchmark comes from 127.0.0.1 (docs/operations.md, "Limits").
#
#   scripts/rooms_bench.sh kibitz 500 30 [PORT]
#   scripts/rooms_bench.sh relay 500 30 [PORT]     (needs `npm ci --prefix scripts/relay`)
#
# KIBITZ names the kibitz binary (default target/release/kibitz); JSON=FILE keeps the report.
set -euo pipefail
target=${1:?kibitz or relay}
rooms=${2:?rooms}
seconds=${3:-30}
port=${4:-9700}
kibitz=${KIBITZ:-target/release/kibitz}
here=$(cd "$(dirname "$0")" && pwd)
data=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$data"' EXIT
ulimit -n 20000 || true
case $target in
  kibitz)
    "$kibitz" serve --bind 127.0.0.1:"$port" --data "$data" \
      --connections-per-address 100000 --handshakes-per-address 100000 \
      --new-players-per-address 1000000 --open-rooms-per-address 1000000 \
      --player-messages 1000000 --spectator-messages 1000000 >"$data/server.log" 2>&1 &
    ;;
  relay) node "$here/relay/relay.mjs" 127.0.0.1:"$port" >"$data/server.log" 2>&1 & ;;
  *) echo "first argument: kibitz or relay" >&2; exit 2 ;;
esac
server=$!
for _ in $(seq 100); do
  grep -q "listening" "$data/server.log" 2>/dev/null && break
  sleep 0.1
done
"$kibitz" loadtest --url ws://127.0.0.1:"$port"/ws --rooms "$rooms" --spectators 2 \
  --think-ms 50 --duration "$seconds" --server-pid "$server" ${JSON:+--json "$JSON"}
