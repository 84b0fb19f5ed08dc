# Entry points: `make serve` (build artifacts if needed, start the service), `make test` (install what the suite
# needs, type check, lint, run it), `make artifacts`, `make nightly`, `make bench`. DATA_DIR defaults to the
# raw-data mirror ../shared/data. npm runs with --loglevel=error / -s: the warnings it prints on this kind of
# machine (a nodedir setting in ~/.npmrc, a transitive package asking for Node 22) are not the project's to act on.
SHELL := /bin/bash
DATA_DIR ?= $(abspath ../shared/data)
ARTIFACTS_DIR ?= $(abspath artifacts)
PORT ?= 8080
export DATA_DIR ARTIFACTS_DIR PORT

NODE_MODULES := node_modules/.package-lock.json
BIN := node_modules/.bin
PIPELINE_SOURCES := $(shell find lib formats tiles pipeline/inputs pipeline/indices pipeline/grid pipeline/provinces pipeline/publish pipeline/build.ts pipeline/build-settings.ts -name '*.ts' 2>/dev/null)
# The inputs the drought build reads; a change in any of them (or in the code) triggers a rebuild.
DROUGHT_INPUTS := $(shell find $(DATA_DIR)/climate/ghcnd-thailand $(DATA_DIR)/boundaries/geoboundaries-tha-adm1 \
	$(DATA_DIR)/boundaries/province_name_variants.csv $(DATA_DIR)/boundaries/opengisdata-thailand -type f 2>/dev/null)
PUBLISHED := $(ARTIFACTS_DIR)/current/manifest.json

.PHONY: all artifacts snapshots validate nightly refresh serve start build test test-deps check unit bench clean-artifacts keys

all: artifacts

$(NODE_MODULES): package.json package-lock.json
	@echo "npm ci: installing the packages of package-lock.json"
	@npm ci --no-audit --no-fund --no-progress --loglevel=error
	@touch $@

artifacts: $(PUBLISHED)

$(PUBLISHED): $(NODE_MODULES) $(PIPELINE_SOURCES) $(DROUGHT_INPUTS)
	@npm run -s pipeline -- build

# Feed snapshots (flood, wildfire, heatwave, storm, sea level, outbreaks, ports): fetched where a source is
# configured, otherwise read from DATA_DIR; a feed that fails keeps its previous snapshot. A snapshot whose inputs
# and code are unchanged is not rebuilt ("unchanged"); `npm run pipeline -- snapshots --force` rebuilds all.
snapshots: $(NODE_MODULES)
	@npm run -s pipeline -- snapshots

# Nightly: every source from its public origin into the raw cache (ARTIFACTS_DIR/raw/; SOURCES_OFFLINE=1 or no
# network: the data directory stays the input and the status says so), then rebuild what changed and publish, with a
# summary table. Exits non-zero only when nothing could be published.
refresh: $(NODE_MODULES)
	@npm run -s pipeline -- refresh

# Science check: landmark events and controls (validation/catalogue/) scored through the service on the published
# snapshots; prints AUC and levels per hazard and writes docs/validation.md.
validate: snapshots
	@npm run -s validate

nightly: $(NODE_MODULES)
	@npm run -s pipeline -- nightly

# The development key lives in .dev-key (git-ignored, mode 0600) and is reused while usable; the server prints
# it and a few requests to try once it is listening.
# The server runs compiled JavaScript (npm run build → dist/): no TypeScript loader at start-up.
SERVER_SOURCES := $(shell find server lib formats tiles pipeline -name '*.ts' 2>/dev/null) tsconfig.json tsconfig.build.json
DIST := dist/server/main.js

$(DIST): $(NODE_MODULES) $(SERVER_SOURCES)
	@npm run -s build
	@touch $@

build: $(DIST)

serve: artifacts snapshots $(DIST)
	@npm run -s keys -- dev
	@DEV_KEY_FILE=.dev-key npm run -s start

start: $(DIST)
	@npm run -s start

check: $(NODE_MODULES)
	$(BIN)/tsc --noEmit
	$(BIN)/eslint .

# System programs the suite starts (redis-server, Chromium): installed with apt-get as root, else named.
test-deps:
	@bash .ci/install-test-deps.sh

unit: $(NODE_MODULES)
	node test/run-vitest.mjs

# Type check, lint and the suite in one run; the last line counts every failure ("N passed, N failed").
test: test-deps artifacts
	@node test/run-vitest.mjs --checks

# Every benchmark in turn into bench/RESULTS.md; `make bench BENCH="feeds geo"` re-measures only those sections.
bench: artifacts $(DIST)
	npx tsx bench/run.ts $(BENCH)

clean-artifacts:
	rm -rf $(ARTIFACTS_DIR)
