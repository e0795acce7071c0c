#!/usr/bin/env bash
# A Kibitz cluster on one machine, to try cluster mode: a PostgreSQL and a Redis of its own,
# then N nodes of `kibitz serve` sharing them, each on its own port. It prints one line per
# node (`node1 http://127.0.0.1:8081/`) and waits; Ctrl-C or SIGTERM stops the nodes, Redis
# and PostgreSQL and removes everything it made. See `scripts/cluster.sh --help`.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/cluster.sh [N] [options] [-- SERVE-FLAGS...]

Starts a Kibitz cluster on this machine for trying cluster mode: a PostgreSQL server and a
Redis server of its own (in a fresh temporary directory, on loopback ports), the database,
then N nodes (default 2) of `kibitz serve --store postgres://... --redis redis://...
--node-id nodeI`, with a bot key they share. It prints each node's address, then waits.
Ctrl-C or SIGTERM stops the nodes, Redis and PostgreSQL and removes the directory.

Open any node's address in a browser: every node serves every room. Stop a node (kill its
process) and another takes its rooms over once their leases expire (--lease-ms).

Options:
  N                   the number of nodes, 1 to 64 (default 2)
  --base-port P       node I listens on 127.0.0.1:P+I-1 (default 8081); 0: each node
                      takes a free port
  --pg-port P         PostgreSQL's port (default: a free one)
  --redis-port P      Redis's port (default: a free one)
  --lease-ms MS       how long a node's lease on a room lasts (default: kibitz's, 5000)
  --tls               every link over TLS: a CA of the script's own (made with openssl)
                      signs PostgreSQL's and Redis's certificates, and the nodes check them
                      (--store ...?sslmode=verify-full&sslrootcert=CA, --redis rediss://...
                      --redis-ca CA); Redis then has no plain port
  -h, --help          this text
  -- SERVE-FLAGS...   further flags for every node's `kibitz serve` (e.g. -- --grace-secs 10)

Environment:
  KIBITZ_BIN          the kibitz binary (default target/release/kibitz of this checkout,
                      built with `cargo build --release` when missing)

Needs Debian's packages `postgresql` (initdb, pg_ctl, createdb) and `redis-server` (and
`openssl` for --tls). Run as
root, PostgreSQL runs as the `postgres` user (it refuses root) and the directory is made
under /tmp, where that user can reach it.
EOF
}

die() {
  echo "cluster.sh: $*" >&2
  exit 1
}

say() {
  echo "cluster.sh: $*" >&2
}

# ---- options ------------------------------------------------------------------------------

nodes=2
base_port=8081
pg_port=
redis_port=
lease_ms=
tls=
serve_flags=()

is_port() {
  [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 <= 65535))
}

while (($# > 0)); do
  case $1 in
    -h | --help)
      usage
      exit 0
      ;;
    --base-port | --pg-port | --redis-port | --lease-ms)
      (($# >= 2)) || die "$1 needs a value (see --help)"
      case $1 in
        --base-port) base_port=$2 ;;
        --pg-port) pg_port=$2 ;;
        --redis-port) redis_port=$2 ;;
        --lease-ms) lease_ms=$2 ;;
      esac
      shift 2
      ;;
    --tls)
      tls=1
      shift
      ;;
    --)
      shift
      serve_flags=("$@")
      break
      ;;
    -*) die "unknown option $1 (see --help)" ;;
    *)
      if ! [[ $1 =~ ^[0-9]+$ ]] || ((10#$1 < 1 || 10#$1 > 64)); then
        die "the number of nodes must be 1 to 64, not '$1'"
      fi
      nodes=$((10#$1))
      shift
      ;;
  esac
done

is_port "$base_port" || die "--base-port must be a port number, not '$base_port'"
base_port=$((10#$base_port))
if ((base_port > 0 && base_port + nodes - 1 > 65535)); then
  die "--base-port $base_port leaves no room for $nodes nodes"
fi
for given in "$pg_port" "$redis_port"; do
  if [[ -n $given ]] && ! { is_port "$given" && ((10#$given > 0)); }; then
    die "--pg-port and --redis-port take a port number from 1, not '$given'"
  fi
done
pg_port=${pg_port:+$((10#$pg_port))}
redis_port=${redis_port:+$((10#$redis_port))}
[[ -z $lease_ms || $lease_ms =~ ^[0-9]+$ ]] || die "--lease-ms takes milliseconds, not '$lease_ms'"

# ---- what it needs ------------------------------------------------------------------------

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/test_ca.sh
source "$root/scripts/test_ca.sh"
kibitz=${KIBITZ_BIN:-$root/target/release/kibitz}
if [[ -z ${KIBITZ_BIN:-} && ! -x $kibitz ]]; then
  command -v cargo >/dev/null || die "$kibitz is missing and cargo is not installed to build it"
  say "building $kibitz (cargo build --release)"
  (cd "$root" && cargo build --release --bin kibitz) >&2
fi
[[ -x $kibitz ]] || die "KIBITZ_BIN=$kibitz is not an executable file"

# PostgreSQL's server tools: Debian keeps them in /usr/lib/postgresql/VERSION/bin (the newest
# is taken), off the PATH.
pg_bin=
for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
  [[ -x $dir/initdb && -x $dir/pg_ctl ]] && pg_bin=$dir
done
if [[ -z $pg_bin ]] && command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
  pg_bin=$(dirname "$(command -v initdb)")
fi
[[ -n $pg_bin ]] ||
  die "PostgreSQL's initdb and pg_ctl were not found (in /usr/lib/postgresql/*/bin or on the PATH): install Debian's package postgresql (apt-get install postgresql)"
createdb=$pg_bin/createdb
[[ -x $createdb ]] || createdb=$(command -v createdb) ||
  die "createdb was not found: install Debian's package postgresql-client (apt-get install postgresql-client)"
if [[ -n $tls ]]; then
  command -v openssl >/dev/null ||
    die "--tls makes its certificates with openssl: install Debian's package openssl"
fi
redis_server=$(command -v redis-server || true)
[[ -n $redis_server ]] ||
  die "redis-server was not found: install Debian's package redis-server (apt-get install redis-server)"

# PostgreSQL refuses to run as root: as root its commands run as the `postgres` user, which
# Debian's package creates, and the directory goes under /tmp (TMPDIR may lie inside a
# directory only root may enter).
as_postgres=()
tmp_parent=${TMPDIR:-/tmp}
if ((EUID == 0)); then
  id -u postgres >/dev/null 2>&1 ||
    die "running as root, PostgreSQL needs a 'postgres' user to run as: install Debian's package postgresql (apt-get install postgresql), or run as another user"
  command -v runuser >/dev/null || die "running as root needs runuser (Debian's package util-linux)"
  as_postgres=(runuser -u postgres --)
  tmp_parent=/tmp
fi

# ---- stopping -----------------------------------------------------------------------------

dir=
node_pids=()
redis_pid=
pg_started=

# Waits up to $2 tenths of a second for process $1 to end; false if it is still there.
ended_within() {
  local pid=$1 tenths=$2
  while ((tenths-- > 0)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  ! kill -0 "$pid" 2>/dev/null
}

# Stops what was started, newest first, and removes the directory. Runs once, on any exit.
stop_all() {
  local status=$? pid
  trap '' INT TERM HUP
  trap - EXIT
  for pid in "${node_pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${node_pids[@]}"; do
    if ! ended_within "$pid" 100; then
      say "node process $pid did not stop within 10 s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
  done
  if [[ -n $redis_pid ]]; then
    kill -TERM "$redis_pid" 2>/dev/null || true
    ended_within "$redis_pid" 100 || kill -KILL "$redis_pid" 2>/dev/null || true
    wait "$redis_pid" 2>/dev/null || true
  fi
  if [[ -n $pg_started ]] &&
    ! (cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast -w -t 60 stop) \
      >/dev/null 2>&1; then
    # Its directory stays, for its log and for stopping it by hand.
    say "pg_ctl could not stop PostgreSQL: see $dir/pg/log; stop it with" \
      "${as_postgres[*]} $pg_bin/pg_ctl -D $dir/pg/data stop, then remove $dir"
    exit 1
  fi
  if [[ -n $dir ]]; then
    rm -rf "$dir"
  fi
  exit "$status"
}
trap stop_all EXIT
# Ctrl-C and SIGTERM are how the cluster is meant to stop: the exit status says success.
trap 'exit 0' INT TERM
trap 'exit 129' HUP

dir=$(mktemp -d "$tmp_parent/kibitz-cluster.XXXXXX")
# PostgreSQL's user must pass through it to its own part, pg/.
chmod 711 "$dir"
mkdir -p "$dir/pg/sock" "$dir/redis"
if ((EUID == 0)); then
  chown -R postgres: "$dir/pg"
fi

# ---- TLS ----------------------------------------------------------------------------------

# A CA of the script's own, and one certificate it signs for 127.0.0.1 that PostgreSQL and
# Redis both present (P-256 keys: quick to make).
pg_tls=()
redis_tls=()
if [[ -n $tls ]]; then
  mkdir "$dir/tls"
  make_test_ca "$dir/tls" "Kibitz cluster CA" 30 ||
    die "openssl failed: $(cat "$dir/tls/openssl.log")"
  # PostgreSQL reads its key only if no one else may.
  cp "$dir/tls/server.pem" "$dir/tls/server.key" "$dir/pg/"
  chmod 600 "$dir/pg/server.key"
  if ((EUID == 0)); then
    chown postgres: "$dir/pg/server.pem" "$dir/pg/server.key"
  fi
  pg_tls=(-c ssl=on -c "ssl_cert_file='$dir/pg/server.pem'" -c "ssl_key_file='$dir/pg/server.key'")
  redis_tls=(--tls-cert-file "$dir/tls/server.pem" --tls-key-file "$dir/tls/server.key"
    --tls-ca-cert-file "$dir/tls/ca.pem" --tls-auth-clients no)
fi

# A loopback port nobody listens on now (another process may take it before it is used:
# the servers below are started again on another one when theirs is taken).
free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 40000))
    if ! (: </dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free loopback port found"
}

# ---- PostgreSQL ---------------------------------------------------------------------------

say "making a PostgreSQL cluster in $dir/pg"
(cd "$dir" && "${as_postgres[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -U postgres --auth=trust \
  -E UTF8 --locale=C --no-sync) >"$dir/initdb.log" 2>&1 ||
  die "initdb failed: $(cat "$dir/initdb.log")"
for try in 1 2 3; do
  port=${pg_port:-$(free_port)}
  if (cd "$dir" && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" \
    -w -t 60 -o "-p $port -k '$dir/pg/sock' -c listen_addresses=127.0.0.1 ${pg_tls[*]}" start) \
    </dev/null >/dev/null 2>&1; then
    pg_port=$port
    pg_started=1
    break
  fi
  if [[ -n $pg_port || $try == 3 ]]; then
    die "PostgreSQL did not start on port $port; its log:"$'\n'"$(cat "$dir/pg/log" 2>/dev/null)"
  fi
done
"$createdb" -h 127.0.0.1 -p "$pg_port" -U postgres kibitz ||
  die "createdb could not create the database kibitz"
store=postgres://postgres@127.0.0.1:$pg_port/kibitz
if [[ -n $tls ]]; then
  store="$store?sslmode=verify-full&sslrootcert=$dir/tls/ca.pem"
fi

# ---- Redis --------------------------------------------------------------------------------

# Whether a Redis server answers PING on port $1 (in a subshell, which closes the socket).
redis_answers() (
  if [[ -n $tls ]]; then
    [[ $(redis-cli --tls --cacert "$dir/tls/ca.pem" -h 127.0.0.1 -p "$1" PING 2>/dev/null) == PONG ]]
    exit
  fi
  exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
  printf 'PING\r\n' >&3
  read -r -t 2 reply <&3 || exit 1
  [[ $reply == +PONG* ]]
)

for try in 1 2 3; do
  port=${redis_port:-$(free_port)}
  if [[ -n $tls ]]; then
    ports=(--port 0 --tls-port "$port" "${redis_tls[@]}")
  else
    ports=(--port "$port")
  fi
  "$redis_server" --bind 127.0.0.1 "${ports[@]}" --save '' --appendonly no \
    --dir "$dir/redis" --logfile "$dir/redis.log" </dev/null >/dev/null 2>&1 &
  redis_pid=$!
  for _ in $(seq 200); do
    kill -0 "$redis_pid" 2>/dev/null || break
    redis_answers "$port" 2>/dev/null && break
    sleep 0.1
  done
  if kill -0 "$redis_pid" 2>/dev/null && redis_answers "$port" 2>/dev/null; then
    redis_port=$port
    break
  fi
  kill -KILL "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  redis_pid=
  if [[ -n $redis_port || $try == 3 ]]; then
    die "redis-server did not start on port $port; its log:"$'\n'"$(cat "$dir/redis.log" 2>/dev/null)"
  fi
done
redis=redis://127.0.0.1:$redis_port
redis_flags=(--redis "$redis")
if [[ -n $tls ]]; then
  redis=rediss://127.0.0.1:$redis_port
  redis_flags=(--redis "$redis" --redis-ca "$dir/tls/ca.pem")
fi

# ---- the nodes ----------------------------------------------------------------------------

bot_key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
lease_flags=()
if [[ -n $lease_ms ]]; then
  lease_flags=(--lease-ms "$lease_ms")
fi
for ((i = 1; i <= nodes; i++)); do
  port=0
  if ((base_port > 0)); then
    port=$((base_port + i - 1))
  fi
  mkdir "$dir/node$i"
  # Plain text in the log files: no colour codes.
  NO_COLOR=1 "$kibitz" serve --bind "127.0.0.1:$port" --data "$dir/node$i" --store "$store" \
    "${redis_flags[@]}" --node-id "node$i" --bot-key "$bot_key" "${lease_flags[@]}" \
    "${serve_flags[@]}" </dev/null >"$dir/node$i.log" 2>&1 &
  node_pids+=($!)
done

# Each node prints where it listens once it does.
addresses=()
for ((i = 1; i <= nodes; i++)); do
  pid=${node_pids[i - 1]}
  address=
  for _ in $(seq 600); do
    address=$(sed -n 's|^Kibitz is listening on \(http://[^ ]*\)$|\1|p' "$dir/node$i.log")
    [[ -n $address ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n $address ]] ||
    die "node$i did not start; its log:"$'\n'"$(sed '/^Stack backtrace:/,$d' "$dir/node$i.log" | tail -n 20)"
  addresses+=("$address")
done

echo "directory $dir"
echo "postgresql $store"
echo "redis $redis"
echo "bot-key $bot_key"
for ((i = 1; i <= nodes; i++)); do
  echo "node$i ${addresses[i - 1]}"
done
ws=${addresses[0]/#http:/ws:}
echo "A bot joins with: $kibitz bot --server ${ws}ws --key $bot_key"
echo "Logs: $dir/node*.log. Ctrl-C (or kill $$) stops the nodes, Redis and PostgreSQL and removes $dir."

# Until a signal: `wait` returns at once when one comes, and its trap stops everything.
wait
