# OpenBench and other testing frameworks build with `make EXE=<name>`: a release build for this
# machine (see .cargo/config.toml), copied to <name>.
#
#   make [EXE=quintessence]     build and copy the engine
#   make bench                  print the bench signature
#   make clean
#
# EVALFILE is the OpenBench variable for a network file: `make EVALFILE=<path>` embeds that
# network instead of nets/default.nnue (build.rs stops the build if the file is not a sound
# network file).

EXE ?= quintessence
CARGO ?= cargo

.PHONY: all bench clean

all:
	EVALFILE=$(abspath $(EVALFILE)) $(CARGO) build --release
	cp target/release/quintessence$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

bench: all
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f quintessence
