#!/usr/bin/env bash
# Installs the reference engines from Debian's packages when they are missing, and the engines
# no one here wrote that the tests calibrate from outside (Toga II, Glaurung, GNU Chess).
# Engines land in /usr/games, which is not on every PATH; skillcal looks there too.
set -euo pipefail
missing=()
command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ] || missing+=(stockfish)
command -v fairy-stockfish >/dev/null 2>&1 || [ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
for e in toga2 glaurung gnuchess; do
  command -v "$e" >/dev/null 2>&1 || [ -x "/usr/games/$e" ] || missing+=("$e")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing reference engines: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
