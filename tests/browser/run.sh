#!/usr/bin/env bash
# Runs the browser tests of the web client: installs Debian's Chromium when it is missing, builds the server, installs playwright-core (npm ci) and runs every *.test.mjs with node's test runner.
set -euo pipefail
cd "$(dirname "$0")"

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "== installing Debian's chromium"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
fi
export CHROMIUM

echo "== building the server (cargo build --bin kibitz)"
(cd ../.. && cargo build --bin kibitz)
if [ -z "${KIBITZ_BIN:-}" ]; then
  KIBITZ_BIN="${CARGO_TARGET_DIR:-$(cd ../.. && pwd)/target}/debug/kibitz"
  export KIBITZ_BIN
fi

echo "== npm ci (playwright-core only; it never downloads a browser)"
npm ci --no-audit --no-fund

echo "== browser tests"
# One file at a time: each starts its own server and browser, and the machine has 2 cores.
node --test --test-concurrency=1 ./*.test.mjs
