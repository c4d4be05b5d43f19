# OpenBench and other testing frameworks build with `make EXE=<name>`: a release build for this
# machine (see .cargo/config.toml), copied to <name>.
#
#   make [EXE=quintessence]     build and copy the engine
#   make bench                  print the bench signature
#   make clean
#
# EVALFILE is the OpenBench variable for a network file. Quintessence has no network yet (its
# evaluation is built in), so a build that asks for one stops with a message instead of
# silently ignoring it.

EXE ?= quintessence
CARGO ?= cargo

.PHONY: all bench clean

all:
ifneq ($(strip $(EVALFILE)),)
	$(error EVALFILE=$(EVALFILE): this version of Quintessence loads no network file)
endif
	$(CARGO) build --release
	cp target/release/quintessence$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

bench: all
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f quintessence
