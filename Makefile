# Entry points: `make serve` (build what is needed, start the service), `make test` (install what the suite
# needs, type check, lint, run it), `make artifacts`, `make nightly`, `make bench`. DATA_DIR defaults to the
# raw-data mirror ../shared/data. npm runs with --loglevel=error / -s: the warnings it prints on this kind of
# machine (a nodedir setting in ~/.npmrc, a transitive package asking for Node 22) are not the project's to act on.
SHELL := /bin/bash
DATA_DIR ?= $(abspath ../shared/data)
ARTIFACTS_DIR ?= $(abspath artifacts)
PORT ?= 8080
export DATA_DIR ARTIFACTS_DIR PORT

# Two installs from the same lock file: what running needs (dependencies: the server, the pipeline and esbuild for
# npm run build) for make serve, start and the builds; everything (the test, lint and benchmark tools too) for make
# test, check, unit and bench. npm ci removes node_modules first, so a stamp there says what the last install held.
NODE_MODULES := node_modules/.make-runtime
DEV_MODULES := node_modules/.make-dev
BIN := node_modules/.bin
PIPELINE_SOURCES := $(shell find lib formats tiles pipeline/inputs pipeline/indices pipeline/grid pipeline/provinces pipeline/publish pipeline/build.ts pipeline/build pipeline/build-settings.ts -name '*.ts' 2>/dev/null)
# The inputs the drought build reads; a change in any of them (or in the code) triggers a rebuild.
DROUGHT_INPUTS := $(shell find $(DATA_DIR)/climate/ghcnd-thailand $(DATA_DIR)/climate/cpc-seasia-1deg $(DATA_DIR)/climate/ghcnm-v4-tavg $(DATA_DIR)/boundaries/geoboundaries-tha-adm1 \
	$(DATA_DIR)/boundaries/geoboundaries-vnm-adm1 $(DATA_DIR)/boundaries/geoboundaries-mys-adm1 $(DATA_DIR)/boundaries/admin1-name-variants \
	$(DATA_DIR)/boundaries/province_name_variants.csv $(DATA_DIR)/boundaries/opengisdata-thailand -type f 2>/dev/null)
PUBLISHED := $(ARTIFACTS_DIR)/current/manifest.json
# The server and the pipeline run compiled JavaScript (npm run build → dist/): no TypeScript loader at start-up.
# npm run build compiles file by file with esbuild (scripts/build.mjs: 4–6 s here, tsc 35–40 s on the same loaded
# machine); the type check is `make check` / `make test` (tsc --noEmit).
SERVER_SOURCES := $(shell find server lib formats tiles pipeline -name '*.ts' 2>/dev/null) tsconfig.json scripts/build.mjs
DIST := dist/server/main.js
# The pipeline's builds run compiled (npm run build → dist/): under tsx the drought build's imports alone took 7–9 s
# on this 2-core machine, compiled 1 s. `npm run pipeline -- …` (tsx) stays the command for a person.
PIPELINE := node dist/pipeline/cli.js
# `make serve` sets --defer: the grid first, its map tiles and exports afterwards in the background (scripts/serve.sh).
BUILD_FLAGS ?=

.PHONY: all artifacts snapshots validate nightly refresh serve start build test test-on-node test-deps check unit bench clean-artifacts keys

all: artifacts

# npm ci prints nothing until it ends (25–75 s here): on a terminal scripts/ticker.sh redraws the seconds and packages.
# scripts/npm-ci.sh: --prefer-offline first (the lock pins every version; npm's cache serves), then as npm does.
# --omit=dev took 0.71 of the full install's time on this machine (issue 25).
$(NODE_MODULES): package.json package-lock.json
	@echo "npm ci --omit=dev: installing what the server and the pipeline run on (package-lock.json)"
	@TICKER_COUNT_DIR=node_modules bash scripts/ticker.sh "npm ci" bash scripts/npm-ci.sh --omit=dev
	@touch $@

$(DEV_MODULES): package.json package-lock.json
	@echo "npm ci: installing every package of package-lock.json, the test and lint tools too"
	@TICKER_COUNT_DIR=node_modules bash scripts/ticker.sh "npm ci" bash scripts/npm-ci.sh
	@touch $@ $(NODE_MODULES)

# A complete version: a version published with its tiles and exports deferred (make serve's first run, no
# tiles-index.json) is completed here, in a new version of the same data (`build` without --defer).
artifacts: $(PUBLISHED)
	@test -e $(ARTIFACTS_DIR)/current/tiles-index.json || $(PIPELINE) build

$(PUBLISHED): $(NODE_MODULES) $(PIPELINE_SOURCES) $(DROUGHT_INPUTS) | $(DIST)
	@$(PIPELINE) build $(BUILD_FLAGS)

# Feed snapshots (flood, wildfire, heatwave, storm, sea level, outbreaks, ports): fetched where a source is
# configured, otherwise read from DATA_DIR; a feed that fails keeps its previous snapshot. A snapshot whose inputs
# and code are unchanged is not rebuilt ("unchanged"); `npm run pipeline -- snapshots --force` rebuilds all.
snapshots: $(DIST)
	@$(PIPELINE) snapshots

# Nightly: every source from its public origin into the raw cache (ARTIFACTS_DIR/raw/; SOURCES_OFFLINE=1 or no
# network: the data directory stays the input and the status says so), then rebuild what changed and publish, with a
# summary table. Exits non-zero only when nothing could be published.
refresh: $(NODE_MODULES)
	@npm run -s pipeline -- refresh

# Science check: landmark events and controls (validation/catalogue/) scored through the service on the published
# snapshots; prints AUC and levels per hazard and writes docs/validation.md.
validate: snapshots
	@npm run -s validate

# The nightly's exit status is 0, 1 or 2 (docs/deploy.md §2.1); make reports 1 as 2 as well, so cron and the systemd
# unit run scripts/nightly.sh itself.
nightly:
	@bash scripts/nightly.sh

$(DIST): $(NODE_MODULES) $(SERVER_SOURCES)
	@echo "compiling the server and the pipeline (npm run build → dist/)"
	@bash scripts/ticker.sh "npm run build" npm run -s build
	@touch $@

build: $(DIST)

# First run (issue 25): npm ci, the compile, the drought grid without its map tiles and exports (build --defer),
# then the server, listening once the grid is published; the feed snapshots and the tiles and exports are built in
# the background and taken up by the server as each is published (scripts/serve.sh; logs in ARTIFACTS_DIR/logs/).
# The development key lives in .dev-key (git-ignored, mode 0600) and is reused while usable; the server prints it,
# what is not served yet and a few requests to try once it is listening. Later runs rebuild only what changed.
serve: BUILD_FLAGS := --defer
serve: $(PUBLISHED) $(DIST)
	@bash scripts/serve.sh

start: $(DIST)
	@npm run -s start

check: $(DEV_MODULES)
	$(BIN)/tsc --noEmit
	$(BIN)/eslint .

# System programs the suite starts (redis-server, Chromium): installed with apt-get as root, else named.
test-deps:
	@bash .ci/install-test-deps.sh

unit: $(DEV_MODULES)
	node test/run-vitest.mjs

# Type check, lint and the suite in one run; the last line counts every failure ("N passed, N failed"). The suite
# builds what it serves itself (test/global-setup.ts, into test-output/), so no `artifacts` here: on a fresh clone
# that full build with every tile cost CI minutes the tests never read.
# The suite runs on Node 22 LTS, as CI does (.ci/node-lts.sh: from the npm registry, once, into a cache folder). On
# the machine's Node 20 (end of life) undici's fetch, which the tests use, fails an internal assertion
# (client-h1.js `assert(!this.paused)`) when a server closes a connection while a body is still being read.
test:
	@. .ci/node-lts.sh && $(MAKE) --no-print-directory test-on-node

test-on-node: $(DEV_MODULES) test-deps
	@node test/run-vitest.mjs --checks

# Every benchmark in turn into bench/RESULTS.md; `make bench BENCH="feeds geo"` re-measures only those sections.
bench: $(DEV_MODULES) artifacts $(DIST)
	npx tsx bench/run.ts $(BENCH)

clean-artifacts:
	rm -rf $(ARTIFACTS_DIR)
