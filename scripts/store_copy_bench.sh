#!/usr/bin/env bash
# Measures `kibitz store copy` on a generated hall: GAMES finished games and ACCOUNTS accounts
# (server/examples/generated_hall.rs) in a SQLite store, copied into a PostgreSQL server of
# the script's own — over plain TCP and over TLS checked against a CA the script makes —
# and back into a new SQLite store. Prints each copy's report; everything it made is removed
# at the end. Usage: scripts/store_copy_bench.sh [GAMES] [ACCOUNTS]   (default 100000 10000)
set -euo pipefail

games=${1:-100000}
accounts=${2:-10000}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/test_ca.sh
source "$root/scripts/test_ca.sh"
cd "$root"
say() { echo "store_copy_bench: $*" >&2; }

cargo build --release -q --bin kibitz
cargo build --release -q -p kibitz-server --example generated_hall
kibitz=$root/target/release/kibitz

pg_bin=
for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
  [[ -x $dir/initdb && -x $dir/pg_ctl ]] && pg_bin=$dir
done
[[ -n $pg_bin ]] || { say "install Debian's package postgresql"; exit 1; }
as_postgres=()
if ((EUID == 0)); then
  as_postgres=(runuser -u postgres --)
fi

dir=$(mktemp -d /tmp/kibitz-copy-bench.XXXXXX)
chmod 711 "$dir"
mkdir -p "$dir/pg" "$dir/tls"
pg_started=
cleanup() {
  if [[ -n $pg_started ]]; then
    (cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast -w stop) >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT

# The CA and PostgreSQL's certificate for 127.0.0.1.
make_test_ca "$dir/tls" "bench CA" 2 || { say "openssl failed: $(cat "$dir/tls/openssl.log")"; exit 1; }
cp "$dir/tls/server.pem" "$dir/tls/server.key" "$dir/pg/"
chmod 600 "$dir/pg/server.key"
((EUID == 0)) && chown -R postgres: "$dir/pg"

port=$((20000 + RANDOM % 40000))
(cd "$dir" && "${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust \
  -E UTF8 --locale=C) >/dev/null
(cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w \
  -o "-p $port -k $dir/pg -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file=$dir/pg/server.pem -c ssl_key_file=$dir/pg/server.key" \
  start) >/dev/null
pg_started=1
for db in plain tls; do
  "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"
done
url=postgres://postgres@127.0.0.1:$port

say "generating a hall of $games games and $accounts accounts"
TIMEFORMAT='  generated in %R s'
time "$root/target/release/examples/generated_hall" "$dir/hall" "$games" "$accounts"
echo "kibitz.db: $(du -h "$dir/hall/kibitz.db" | cut -f1)"
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}'), fsync on; $(nproc) cores"

echo "== SQLite -> PostgreSQL, plain TCP"
"$kibitz" store copy --from "$dir/hall" --to "$url/plain" 2>/dev/null
echo "== SQLite -> PostgreSQL, TLS (sslmode=verify-full)"
"$kibitz" store copy --from "$dir/hall" --to "$url/tls?sslmode=verify-full&sslrootcert=$dir/tls/ca.pem" 2>/dev/null
echo "== PostgreSQL -> SQLite"
"$kibitz" store copy --from "$url/plain" --to "$dir/back" 2>/dev/null
