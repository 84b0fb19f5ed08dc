#!/usr/bin/env bash
# Runs a command that prints nothing for a long while (npm ci, the compile) so that a terminal never stays still:
# on a terminal one line "LABEL: N s[, M packages so far]" is redrawn in place every second until the command ends
# (the packages counted in TICKER_COUNT_DIR, when set), then erased; off a terminal the command runs as it is.
# Usage: scripts/ticker.sh LABEL COMMAND [ARGS…]; the exit status is the command's.
label=$1
shift
shopt -s nullglob
if [ ! -t 1 ]; then exec "$@"; fi
"$@" &
pid=$!
start=$SECONDS
# Ctrl-C reaches the command itself (same process group); the loop ends with it.
while kill -0 "$pid" 2>/dev/null; do
  sleep 1
  count=""
  if [ -n "${TICKER_COUNT_DIR:-}" ] && [ -d "$TICKER_COUNT_DIR" ]; then
    packages=("$TICKER_COUNT_DIR"/*/package.json "$TICKER_COUNT_DIR"/@*/*/package.json)
    count=", ${#packages[@]} packages so far"
  fi
  printf '\r\033[K  %s: %d s%s' "$label" $((SECONDS - start)) "$count"
done
printf '\r\033[K'
wait "$pid"
