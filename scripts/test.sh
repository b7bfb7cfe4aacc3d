#!/usr/bin/env bash
# The test command: installs what the tests need, then runs the whole suite in release mode
# (perft and engine-vs-engine tests need optimized code to stay within minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
# the store's tests start a throwaway PostgreSQL cluster (scripts/pg-temp.sh)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "installing postgresql" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
export PATH="$PATH:/usr/games"
cargo test --release --all-targets "$@"
