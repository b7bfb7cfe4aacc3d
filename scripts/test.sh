#!/usr/bin/env bash
# The test command: installs what the tests need, then runs the whole suite in release mode
# (perft and engine-vs-engine tests need optimized code to stay within minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-engines.sh
export PATH="$PATH:/usr/games"
cargo test --release --all-targets "$@"
