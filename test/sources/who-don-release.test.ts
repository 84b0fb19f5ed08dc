// A new WHO DON release (found in the repository listing, named after its date) replaces the data directory's
// release in the raw cache, and the inputs tree the builders read shows the new one. Before the refresh recorded
// each file's place in the tree, the registry's list (built from the data directory's file names) no longer named
// the replaced file, so the builders kept reading the old release. The new release here is the mirror's with one
// row added, served by a local stand-in for the GitHub listing.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { readSourceState } from "../../pipeline/sources/raw-cache.ts";
import { startReplay, type Replay } from "./origin-replay.ts";

const OLD = "outbreaks_13052026.csv";
const NEW = "outbreaks_01112026.csv";
const mirrorText = readFileSync(join(dataDir(), "health/who-don", OLD), "utf8");
const extraRow = '"Thailand","TH","THA",2026,"a","b","c","d","e","f","1","2","3","g","h","i","Test disease","DON9999","added by the test"';
const newText = mirrorText.trimEnd() + "\n" + extraRow + "\n";
const artifactsDir = mkdtempSync(join(tmpdir(), "who-don-release-"));
let replay: Replay;

beforeAll(async () => {
  replay = await startReplay((path) => {
    if (path === "/listing") return Buffer.from(JSON.stringify([OLD, NEW, "README.md"].map((name) => ({ name, download_url: `${replay.base}/files/${name}` }))));
    if (path === `/files/${NEW}`) return Buffer.from(newText);
    return undefined;
  });
});
afterAll(() => replay.close());

describe("a new WHO DON release", () => {
  it("is what the builders read after the refresh", async () => {
    const env = { SOURCE_URL_WHO_DON: `${replay.base}/listing`, SOURCES_RETRIES: "0" };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir, env, only: ["who_don"], progress: { start() {}, source() {} } });
    expect(r).toMatchObject({ source: "who_don", outcome: "updated", dataAsOf: "2026-11-01" });
    expect(readSourceState(artifactsDir, "who_don")!.files[NEW]).toMatchObject({ from: "download", linkAs: join("health/who-don", OLD) });

    await writeInputOverlay(dataDir(), artifactsDir, env);
    const inputs = effectiveDataDir(dataDir(), artifactsDir);
    // The release's place in the tree (the one the builder finds by its pattern) now holds the new release.
    const linked = join(inputs, "health/who-don", OLD);
    expect(realpathSync(linked).startsWith(realpathSync(artifactsDir))).toBe(true);
    expect(readFileSync(linked, "utf8")).toBe(newText);
  });
});
