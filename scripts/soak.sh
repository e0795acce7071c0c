#!/usr/bin/env bash
# The load soak: a fresh `kibitz serve` plays R rooms (2 players + 2 spectators each, 50 ms
# think; `kibitz loadtest` as the outside client) for SECONDS, while the server's resident
# memory, open files and threads are sampled from /proc every STEP seconds. At the end it
# prints the samples and the growth after the warm-up (the first fifth of the run), and fails
# if the load generator saw any error, or if memory grew 5% or more, or open files grew at all,
# after the warm-up, or if the store's write-ahead log file ever passed 64 MiB. Threads are
# printed too (the runtime's workers, the store's writer and checkpointer, and blocking readers
# that come and go). docs/operations.md ("Soak under load") has a run's figures.
#
#   scripts/soak.sh 600 1800        about half the capacity measured on a 2-core machine, 30 min
#
# KIBITZ names the kibitz binary (default target/release/kibitz).
set -euo pipefail
rooms=${1:?rooms}
seconds=${2:-1800}
step=${STEP:-30}
port=${PORT:-9710}
kibitz=${KIBITZ:-target/release/kibitz}
data=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$data"' EXIT
ulimit -n 20000 || true
"$kibitz" serve --bind 127.0.0.1:"$port" --data "$data" \
  --connections-per-address 100000 --handshakes-per-address 100000 \
  --new-players-per-address 1000000 --open-rooms-per-address 1000000 \
  --player-messages 1000000 --spectator-messages 1000000 >"$data/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  grep -q "listening" "$data/server.log" 2>/dev/null && break
  sleep 0.1
done
"$kibitz" loadtest --url ws://127.0.0.1:"$port"/ws --rooms "$rooms" --spectators 2 \
  --think-ms 50 --duration "$seconds" --server-pid "$server" --json "$data/report.json" \
  >"$data/loadtest.txt" 2>&1 &
loadtest=$!
sample() {
  local rss fds threads wal
  rss=$(awk '/^VmRSS/ {print $2}' /proc/"$server"/status)
  fds=$(ls /proc/"$server"/fd | wc -l)
  threads=$(awk '/^Threads/ {print $2}' /proc/"$server"/status)
  wal=$(($(stat -c %s "$data/kibitz.db-wal" 2>/dev/null || echo 0) / 1024))
  echo "$1 $rss $fds $threads $wal"
}
start=$(date +%s)
: >"$data/samples"
while kill -0 "$loadtest" 2>/dev/null; do
  sample $(($(date +%s) - start)) >>"$data/samples"
  sleep "$step"
done
wait "$loadtest" || true
cat "$data/loadtest.txt"
echo "seconds  rss_kib  open_files  threads  wal_kib"
column -t "$data/samples"
# Samples during the load only: the last one may be taken as the generator closes its sockets.
awk -v warm=$((seconds / 5)) -v end="$seconds" '
  $1 >= warm && $1 < end { if (!base) { base = $2; f0 = $3; t0 = $4 }
                           if ($2 > rss) rss = $2; if ($3 > f) f = $3; if ($4 > t) t = $4 }
  $5 > wal { wal = $5 }
  END {
    growth = (rss - base) * 100 / base
    printf "after the warm-up: RSS %d -> peak %d KiB (%+.1f%%), open files %d -> peak %d, threads %d -> peak %d\n",
      base, rss, growth, f0, f, t0, t
    printf "write-ahead log: peak %d KiB\n", wal
    exit !(growth < 5 && f <= f0 && wal <= 65536)
  }' "$data/samples"
verdict=$?
errors=$(grep -c "errors: none" "$data/loadtest.txt" || true)
if [ "$errors" != 1 ]; then echo "the load generator saw errors"; exit 1; fi
exit $verdict
