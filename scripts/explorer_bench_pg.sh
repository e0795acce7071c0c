#!/usr/bin/env bash
# Measures the opening explorer on PostgreSQL: starts a PostgreSQL server of the script's own
# (Debian's package, in a temporary directory, fsync on, plain TCP on 127.0.0.1), runs
# `explorer_bench` against a fresh database of it — GAMES generated games stored and indexed,
# then LOOKUPS look-ups — and removes everything at the end.
# Usage: scripts/explorer_bench_pg.sh [GAMES] [LOOKUPS]   (default 1000000 10000)
set -euo pipefail

games=${1:-1000000}
lookups=${2:-10000}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
say() { echo "explorer_bench_pg: $*" >&2; }

cargo build --release -q -p kibitz-server --example explorer_bench

pg_bin=
for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
  [[ -x $dir/initdb && -x $dir/pg_ctl ]] && pg_bin=$dir
done
[[ -n $pg_bin ]] || { say "install Debian's package postgresql"; exit 1; }
as_postgres=()
if ((EUID == 0)); then
  as_postgres=(runuser -u postgres --)
fi

dir=$(mktemp -d /tmp/kibitz-explorer-bench.XXXXXX)
chmod 711 "$dir"
mkdir -p "$dir/pg"
((EUID == 0)) && chown -R postgres: "$dir/pg"
pg_started=
cleanup() {
  if [[ -n $pg_started ]]; then
    (cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast -w stop) >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

port=$((20000 + RANDOM % 40000))
(cd "$dir" && "${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust \
  -E UTF8 --locale=C) >/dev/null
(cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w \
  -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1" start) >/dev/null
pg_started=1
"$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres explorer
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}'), fsync on; $(nproc) cores"
"$root/target/release/examples/explorer_bench" \
  "postgres://postgres@127.0.0.1:$port/explorer?sslmode=disable" "$games" "$lookups"
