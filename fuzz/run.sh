#!/usr/bin/env bash
# Runs one coverage-guided fuzz target for SECONDS (default 600), seeded from the kept corpus:
#   fuzz/run.sh parse_client 600      (targets: parse_client, parse_server, notation)
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). A crash is written to
# fuzz/artifacts/TARGET/ and replayed with `cargo +nightly fuzz run TARGET FILE`.
set -euo pipefail
target=${1:?"target: parse_client, parse_server or notation"}
seconds=${2:-600}
cd "$(dirname "$0")"
work="corpus/$target"
mkdir -p "$work"
seeds=corpus/frames.txt
[ "$target" = parse_server ] && seeds=corpus/server_frames.txt
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" > "$work/seed-$n"
done < "$seeds"
exec cargo +nightly fuzz run "$target" "$work" -- -max_total_time="$seconds" -max_len=8192
