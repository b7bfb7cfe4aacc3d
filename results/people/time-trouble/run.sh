#!/bin/bash
# time-trouble matching: the level with its clock (HumanTime, 1% of a person's time) and without
set -e
cd "$(dirname "$0")/../../.."
B=${SKILLCAL:-target/release/skillcal}
G=${HUMAN_DIR:-../shared/human}/lichess_clocked_2022_18k.pgn.zst
common=(--matching-only --bands 1400-2199 --min-ply 10 --min-clock 0 --max-clock 30 --concurrency 2 --sample-positions 500 --sample-seed 1)
$B analyse --human $G "${common[@]}" --out results/people/time-trouble/with-clock --match-limit clock \
  --match-engine "builtin:Style=human,UCI_EloScale=lichess-blitz,HumanTime=true,HumanTimeScale=1,RandomSeed=1" \
  --match-engine "builtin:Style=human,UCI_EloScale=lichess-blitz,HumanTime=true,HumanTimeScale=1,RandomSeed=2"
$B analyse --human $G "${common[@]}" --out results/people/time-trouble/without-clock --match-limit nodes=10000000 \
  --match-engine "builtin:Style=human,UCI_EloScale=lichess-blitz,RandomSeed=1" \
  --match-engine "builtin:Style=human,UCI_EloScale=lichess-blitz,RandomSeed=2"
