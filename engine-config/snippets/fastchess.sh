#!/bin/sh
# The same match with fastchess, with an SPRT (run from the repository root).
fastchess \
    -engine cmd=./target/release/quintessence name=Quintessence \
    -engine cmd=./quintessence-base name=Base \
    -each tc=10+0.1 option.Hash=64 option.Threads=1 \
    -openings file=tests/data/books/balanced-8ply.epd format=epd order=random \
    -repeat -games 2 -rounds 2000 -concurrency 2 \
    -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
    -pgnout file=games.pgn
# UCI compliance check of the binary:
#   fastchess --compliance ./target/release/quintessence
