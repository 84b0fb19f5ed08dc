// The storm snapshot's recent tracks: NOAA's native last-3-years list when a refresh linked it into the inputs tree,
// else the mirror's compact table. The test's native list is the mirror's ACTIVE list (a native file of the same
// layout, 2025-08-27..2025-09-11), so the global recent record starts where it starts instead of in 2022 (before
// the registry linked the download, the builder read the compact table whatever the refresh brought).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { IBTRACS_RECENT_FILE } from "../../pipeline/snapshots/feed-builders.ts";
import { SOURCES } from "../../pipeline/sources/registry.ts";
import { snapshotRoot } from "../../formats/snapshot-layout.ts";

const IBTRACS = join("feeds", "ibtracs");

describe("storm snapshot from NOAA's last-3-years list", () => {
  it("the refresh links the download where the builder reads it", async () => {
    const recent = SOURCES.find((s) => s.name === "ibtracs_recent")!;
    const specs = await recent.resources({ origin: "https://example.org/x.csv", dataDir: dataDir(), env: {}, now: new Date() });
    expect(specs.find((s) => s.url)?.dataDirFile).toBe("feeds/ibtracs/ibtracs.last3years.list.v04r01.csv");
  });

  it("is read instead of the compact table", async () => {
    const inputs = mkdtempSync(join(tmpdir(), "ibtracs-recent-data-"));
    const artifacts = mkdtempSync(join(tmpdir(), "ibtracs-recent-art-"));
    mkdirSync(join(inputs, IBTRACS), { recursive: true });
    for (const f of readdirSync(join(dataDir(), IBTRACS))) symlinkSync(join(dataDir(), IBTRACS, f), join(inputs, IBTRACS, f));
    symlinkSync(join(dataDir(), IBTRACS, "ibtracs.ACTIVE.list.v04r01.csv"), join(inputs, IBTRACS_RECENT_FILE));

    const r = await buildSnapshots({ dataDir: inputs, artifactsDir: artifacts, only: ["storm"] });
    expect(r.storm.status).toBe("published");
    const dir = join(snapshotRoot(artifacts, "storm"), "current");
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(Object.keys(manifest.inputs)).toEqual([IBTRACS_RECENT_FILE, join(IBTRACS, "ibtracs.ACTIVE.list.v04r01.csv"), join(IBTRACS, "ibtracs_wp_tracks.parquet")]);
    const records = JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8")).records as { id: string; start: string; end: string }[];
    // The compact table starts on 2022-01-07; the native list given here on 2025-08-27.
    expect(records.find((x) => x.id === "global")).toMatchObject({ start: "2025-08-27", end: "2025-09-11" });
  }, 120_000);
});
