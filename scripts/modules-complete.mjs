/* global process */
// Exits 0 when node_modules already holds every package of package-lock.json (npm's hidden lock file
// node_modules/.package-lock.json lists each one and is newer than package.json and package-lock.json), else 1.
// scripts/npm-ci.sh asks this before an `npm ci --omit=dev`: a full install (the test and bench tools too) already
// serves the server and the pipeline, and reinstalling it without them would remove the tools from under a
// developer's `npm ci`, a running test suite or `make bench` (which calls `make build`).
import { readFileSync, statSync } from "node:fs";

const mtime = (path) => statSync(path).mtimeMs;
try {
  const hidden = "node_modules/.package-lock.json";
  if (mtime(hidden) < Math.max(mtime("package.json"), mtime("package-lock.json"))) process.exit(1);
  const installed = JSON.parse(readFileSync(hidden, "utf8")).packages ?? {};
  const wanted = JSON.parse(readFileSync("package-lock.json", "utf8")).packages ?? {};
  const missing = Object.keys(wanted).filter((p) => p !== "" && !(p in installed) && !wanted[p].optional);
  process.exit(missing.length === 0 ? 0 : 1);
} catch {
  process.exit(1);
}
