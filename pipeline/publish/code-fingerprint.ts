// A fingerprint of the code behind a published version, so a code change yields a new version even when the
// inputs are the same (and an unchanged build publishes nothing).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../../lib/config.ts";

export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out.sort();
}

/** sha256 over the paths and contents of the .ts files under the given project-relative folders or files. */
export function codeFingerprint(entries: readonly string[]): string {
  const h = createHash("sha256");
  for (const entry of entries) {
    const path = join(PROJECT_ROOT, entry);
    const files = statSync(path).isDirectory() ? filesUnder(path) : [path];
    for (const f of files) {
      if (f.endsWith(".ts")) h.update(relative(PROJECT_ROOT, f)).update(readFileSync(f));
    }
  }
  return h.digest("hex");
}
