#!/usr/bin/env bash
# The nightly as cron and the systemd unit run it (docs/deploy.md §2): the pipeline's own exit status — 0 all
# published, 1 something failed and the rest published, 2 nothing published — and, off a terminal, one JSON document
# on stdout. Run through make, exit 1 reached cron as 2 (GNU make reports any failed recipe as 2), and make's own lines
# (the install and the compile of a first run) came before the summary on stdout. Here the preparation writes to
# stderr, and the pipeline's exit status is the script's. `make nightly` runs this script too.
set -u
cd "$(dirname "$0")/.."
if ! make -s build >&2; then
  echo '{"exitCode":2,"result":"nothing published","failed":["preparation: the install or the compile (make build) failed; its output is on stderr"],"frozen":[],"published":[],"refresh":{}}'
  exit 2
fi
exec node dist/pipeline/cli.js nightly "$@"
