#!/bin/sh
# Rebuild the bundled Longcat packs (run from the repository root; needs termarcade
# installed, e.g. `pip install -e .`). Every pack is reproducible: the arduboy levels come
# from the public data file, the generated packs from fixed seeds.
#
#   sh levels/longcat/make-packs.sh [path/to/arduboy-100.txt]
set -eu
ARDUBOY="${1:-../shared/data/longcat/arduboy-100.txt}"
OUT=levels/longcat
# The generated packs' levels were chosen with the predictor of their first release
# (--predictor solution-paths); their titles and descriptions are then written by
# `longcat describe` with today's predictor, so every place shows one difficulty (issue 30).
gen() {
  out="$1"; shift
  termarcade longcat generate --force --predictor solution-paths "$@" -o "$out"
  termarcade longcat describe "$out" --force -o "$out"
}

termarcade longcat describe "$ARDUBOY" --force -o "$OUT/01-arduboy.levels" \
  --prefix Arduboy --title "Arduboy Longcat" --author "OBONO" \
  --description "The 100 levels of the Arduboy Longcat game by OBONO (MIT License, Copyright (c) 2016-2018 OBONO), from jaguile6/arduboy-longcat, longcat/src/Map/maps.h. Titles end with the predicted difficulty; par is the shortest solution." \
  --comment "Longcat levels from jaguile6/arduboy-longcat, longcat/src/Map/maps.h" \
  --comment "MIT License, Copyright (c) 2016-2018 OBONO: the levels are used under its terms." \
  --comment "Rebuilt by levels/longcat/make-packs.sh (termarcade longcat describe)."

gen "$OUT/02-generated-easy.levels" --method sd,template,fractal --size 8x8 --count 12 --seed 1000 --difficulty easy \
  --title "Generated: easy (20-50)"
gen "$OUT/03-generated-hard.levels" --method sd,template,fractal --size 8x8 --count 12 --seed 2000 --difficulty hard \
  --title "Generated: hard (50-80)"
gen "$OUT/04-generated-very-hard.levels" --method sd --size 8x8 --count 10 --seed 3000 --difficulty very_hard \
  --title "Generated: very hard (80-200)"
gen "$OUT/05-generated-large.levels" --method sd,template,fractal --size 12x10 --count 8 --seed 4000 --difficulty 50:200 \
  --title "Generated: large 12x10"
