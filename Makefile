# Entry points: `make serve` (build artifacts if needed, start the service), `make test`, `make artifacts`,
# `make nightly`, `make bench`. DATA_DIR defaults to the raw-data mirror ../shared/data.
SHELL := /bin/bash
DATA_DIR ?= $(abspath ../shared/data)
ARTIFACTS_DIR ?= $(abspath artifacts)
PORT ?= 8080
export DATA_DIR ARTIFACTS_DIR PORT

NODE_MODULES := node_modules/.package-lock.json
PIPELINE_SOURCES := $(shell find lib formats tiles pipeline/inputs pipeline/indices pipeline/grid pipeline/provinces pipeline/publish pipeline/build.ts pipeline/build-settings.ts -name '*.ts' 2>/dev/null)
# The inputs the drought build reads; a change in any of them (or in the code) triggers a rebuild.
DROUGHT_INPUTS := $(shell find $(DATA_DIR)/climate/ghcnd-thailand $(DATA_DIR)/boundaries/geoboundaries-tha-adm1 \
	$(DATA_DIR)/boundaries/province_name_variants.csv $(DATA_DIR)/boundaries/opengisdata-thailand -type f 2>/dev/null)
PUBLISHED := $(ARTIFACTS_DIR)/current/manifest.json

.PHONY: all artifacts snapshots nightly refresh serve start test check unit bench clean-artifacts keys

all: artifacts

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund || npm install --no-audit --no-fund
	@touch $@

artifacts: $(PUBLISHED)

$(PUBLISHED): $(NODE_MODULES) $(PIPELINE_SOURCES) $(DROUGHT_INPUTS)
	npm run -s pipeline -- build

# Feed snapshots (flood, wildfire, heatwave, storm, sea level, outbreaks, ports): fetched where a source is
# configured, otherwise read from DATA_DIR; a feed that fails keeps its previous snapshot.
snapshots: $(NODE_MODULES)
	npm run -s pipeline -- snapshots

# Nightly: refresh inputs where a source is configured (offline: keep the data directory and say so),
# then rebuild what changed and publish.
refresh: $(NODE_MODULES)
	npm run -s pipeline -- refresh

nightly: refresh
	$(MAKE) artifacts
	$(MAKE) snapshots

serve: artifacts snapshots
	npm run -s keys -- dev
	npm start

start: $(NODE_MODULES)
	npm start

check: $(NODE_MODULES)
	npx tsc --noEmit
	npx eslint .

unit: $(NODE_MODULES)
	node test/run-vitest.mjs

test: artifacts check
	node test/run-vitest.mjs

bench: artifacts
	npx tsx bench/run.ts

clean-artifacts:
	rm -rf $(ARTIFACTS_DIR)
