#!/bin/sh
# A match of this build against a baseline with cutechess-cli (run from the repository root).
# Each opening of the book is played twice, colours reversed; add `-variant fischerandom` and a
# Chess960 book for Chess960 (the engine switches UCI_Chess960 on when cutechess asks).
cutechess-cli \
    -engine cmd=./target/release/quintessence name=Quintessence \
    -engine cmd=./quintessence-base name=Base \
    -each proto=uci tc=10+0.1 timemargin=50 option.Hash=64 option.Threads=1 \
    -openings file=tests/data/books/balanced-8ply.epd format=epd order=random -repeat \
    -games 2 -rounds 200 -concurrency 2 \
    -ratinginterval 20 -pgnout games.pgn
