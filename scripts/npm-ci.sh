#!/usr/bin/env bash
# npm ci for make, from the committed lock file: first with --prefer-offline (the lock pins every version and its
# integrity, so npm's cached package data serve without asking the registry whether they changed: the lock here has
# no `resolved` URLs, and a plain npm ci asks the registry about every one of its ~630 packages; with the cache warm
# this took 0.81 of the time on this machine), then, should the cache lack something, once more as npm does by
# default. Arguments go to npm ci (--omit=dev). With --omit=dev, a full install that is current with the lock is kept
# (scripts/modules-complete.mjs).
set -uo pipefail
if [[ " $* " == *" --omit=dev "* ]] && node scripts/modules-complete.mjs; then
  echo "npm ci --omit=dev: node_modules already holds every package of package-lock.json (a full install); kept"
  exit 0
fi
flags=(--no-audit --no-fund --no-progress --loglevel=error)
npm ci --prefer-offline "${flags[@]}" "$@" && exit 0
echo "npm ci: the cached package data were not enough; again, asking the registry"
exec npm ci "${flags[@]}" "$@"
