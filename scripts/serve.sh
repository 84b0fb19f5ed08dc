#!/usr/bin/env bash
# The last step of `make serve`, once the drought grid is published (on a first run without its map tiles and
# exports: `build --defer`) and the server compiled: the development key, then in the background — in a session of
# its own, ended with the server — the feed snapshots and the drought version's deferred tiles and exports, each
# logged to a file under ARTIFACTS_DIR/logs/; then the server in the foreground. The server takes up every version
# the background publishes (it follows each `current` link), so it listens within seconds of the grid being built.
# Nothing here rebuilds what is current: the snapshots say "unchanged", and a complete drought version (one with
# tiles-index.json) is not built again.
set -euo pipefail
: "${ARTIFACTS_DIR:?ARTIFACTS_DIR must be set (the Makefile sets it)}"

node dist/server/keys-cli.js dev

logs="$ARTIFACTS_DIR/logs"
mkdir -p "$logs"
# LOG_FORMAT=pretty: one readable line per record in the files (lib/terminal-log.ts; no redraws off a terminal).
# setsid: the background's processes form a group of their own, ended as one when the server stops, and Ctrl-C
# at the terminal reaches only the server (which stops; then the trap ends the group).
# While they run, one line every SERVE_PROGRESS_SECONDS (10) on the terminal says how far each has got (the newest
# record of its log), so that the terminal is never quiet for long before everything is published; then one line
# when both are done.
LOG_FORMAT=pretty setsid bash -c '
  node dist/pipeline/cli.js snapshots > "$1/snapshots.log" 2>&1 &
  if [ -e "$ARTIFACTS_DIR/current/tiles-index.json" ]; then
    echo "$(date -u +%FT%TZ) the current drought version holds its tiles and exports: nothing to add" > "$1/drought.log"
  else
    node dist/pipeline/cli.js build > "$1/drought.log" 2>&1 &
  fi
  newest() { grep -E "^ *[0-9.]+s  " "$1" 2>/dev/null | tail -n 1 | sed -E "s/^ +//; s/  +/ /g" | cut -c1-80; }
  while [ -n "$(jobs -rp)" ]; do
    sleep "${SERVE_PROGRESS_SECONDS:-10}"
    [ -n "$(jobs -rp)" ] || break
    d=$(newest "$1/drought.log"); f=$(newest "$1/snapshots.log")
    echo "background, ${SECONDS} s: drought tiles and exports: ${d:-starting}; feed snapshots: ${f:-starting} (logs: $1)" >&2
  done
  wait
  d=$(newest "$1/drought.log"); [ -n "$d" ] || d=$(tail -n 1 "$1/drought.log" | cut -c1-80)
  echo "background done after ${SECONDS} s: drought: $d; feed snapshots: see $1/snapshots.log" >&2
  ' serve-background "$logs" < /dev/null &
background=$!
trap 'kill -TERM -- "-$background" 2>/dev/null || true' EXIT HUP INT TERM

DEV_KEY_FILE=.dev-key SERVE_BACKGROUND_LOG="$logs/" npm run -s start
