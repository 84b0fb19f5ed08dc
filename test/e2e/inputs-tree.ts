// An inputs tree as `make refresh` leaves one: the data mirror, linked entry by entry, with some files replaced or
// added (downloads in their live layout). Only the folders on the way to those files are real directories.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { dataDir } from "../../lib/config.ts";

function linkEntries(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const e of readdirSync(from)) symlinkSync(join(from, e), join(to, e));
}

/** A fresh directory mirroring DATA_DIR through symbolic links, with `files` (relative path → content) written in. */
export function inputsTreeWith(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), "inputs-tree-"));
  linkEntries(dataDir(), root);
  for (const [rel, content] of Object.entries(files)) {
    let cur = "";
    for (const part of dirname(rel).split("/").filter((p) => p !== "." && p !== "")) {
      cur = join(cur, part);
      const at = join(root, cur);
      if (existsSync(at) && lstatSync(at).isSymbolicLink()) {
        rmSync(at);
        mkdirSync(at);
        linkEntries(join(dataDir(), cur), at);
      } else if (!existsSync(at)) mkdirSync(at);
    }
    rmSync(join(root, rel), { force: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}
