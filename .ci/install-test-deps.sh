#!/usr/bin/env bash
# The system programs the test suite starts: redis-server (test/server/redis.test.ts), Chromium at
# /usr/bin/chromium (test/tiles/browser.test.ts), promtool (test/e2e/metrics.test.ts, Debian package
# prometheus) and GDAL with its Python bindings (test/tiles/gdal.test.ts: ogr2ogr, and GEOS validity through
# /usr/bin/python3's osgeo; Debian packages gdal-bin and python3-gdal) and nginx (test/e2e/nginx-replicas.test.ts,
# Debian package nginx-light; only the binary is used, no service is started), systemd-analyze and logger
# (test/tooling/compiled-start.test.ts: the deploy units verified, the alert script; Debian packages systemd and
# bsdutils; no systemd is started), curl and jq (test/e2e/readme-examples.test.ts runs the README's examples).
# `make test` runs this first. Installs what is missing with
# apt-get as root; otherwise names the packages and the command to run, and fails.
set -euo pipefail

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v ogr2ogr >/dev/null 2>&1 || need+=(gdal-bin)
/usr/bin/python3 -c "import osgeo.ogr" >/dev/null 2>&1 || need+=(python3-gdal)
command -v ss >/dev/null 2>&1 || need+=(iproute2)
{ [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1; } || need+=(nginx-light)
command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
command -v logger >/dev/null 2>&1 || need+=(bsdutils)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v jq >/dev/null 2>&1 || need+=(jq)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "test-deps: the tests need the Debian package(s) ${need[*]}, which are not installed. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${need[*]}" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: the tests need ${need[*]} (redis-server, promtool, ogr2ogr, ss, nginx, systemd-analyze, logger, curl and jq on PATH, Chromium at /usr/bin/chromium, GDAL's Python bindings for /usr/bin/python3); install them with your package manager." >&2
  exit 1
fi
echo "test-deps: installing ${need[*]} (apt-get)"
export DEBIAN_FRONTEND=noninteractive
# apt's own chatter (debconf notes, progress) only when it fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq "${need[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "test-deps: apt-get failed; install ${need[*]} and run make test again" >&2
  exit 1
fi
