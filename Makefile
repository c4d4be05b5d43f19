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
#
# TUNE=1 builds the tuning engine (`--features spsa`): every search parameter of
# src/search/params.rs is a UCI spin option, as an OpenBench SPSA tune needs (slower: never for
# play). OpenBench cannot pass make variables, so a tune branch sets the default below to 1 in
# its own commit; `quintessence spsa-input` prints the parameters' lines for OpenBench's SPSA
# form (any build).

EXE ?= quintessence
CARGO ?= cargo
TUNE ?= 0
# Where cargo builds (CARGO_TARGET_DIR when set).
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

FEATURES := $(if $(filter 1,$(TUNE)),--features spsa,)

.PHONY: all bench clean

# EVALFILE is passed only when given: an empty one would differ from `cargo build`'s unset one
# and rebuild the engine that `cargo build --release` has just built.
EVALFILE_ENV := $(if $(EVALFILE),EVALFILE=$(abspath $(EVALFILE)),)

all:
	$(EVALFILE_ENV) $(CARGO) build --release $(FEATURES)
	cp $(TARGET_DIR)/release/quintessence$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

bench: all
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f quintessence
