// The refusal rule (pipeline/snapshots/row-drop.ts): a feed whose accepted rows fall by more than
// FEED_MAX_ROW_DROP (default 20 %) against the serving snapshot is not published, the refusal is logged with
// both counts, the previous snapshot keeps serving and `pipeline snapshots` exits 1. The data directory is
// written here: the real GDACS folder linked in, the DFO archive copied whole or shortened (never committed).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { dataDir, PROJECT_ROOT } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";
import { readManifest } from "../../formats/manifest.ts";
import { buildSnapshots } from "../../pipeline/snapshots/build-snapshots.ts";
import { snapshotRoot } from "../../pipeline/snapshots/publish-snapshot.ts";
import { maxRowDropFromEnv, ROW_REFERENCE_FILE, rowDrops } from "../../pipeline/snapshots/row-drop.ts";
import { pruneVersions } from "../../pipeline/publish/publish.ts";

const work = mkdtempSync(join(tmpdir(), "row-drop-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const data = join(work, "data");
const artifacts = join(work, "artifacts");
mkdirSync(join(data, "feeds", "dfo"), { recursive: true });
symlinkSync(join(dataDir(), "feeds", "gdacs"), join(data, "feeds", "gdacs"));
const dfoLines = readFileSync(join(dataDir(), "feeds", "dfo", "FloodArchive.csv"), "utf8").split("\n");
/** The DFO archive cut after `rows` data rows. */
const writeDfo = (rows: number) => writeFileSync(join(data, "feeds", "dfo", "FloodArchive.csv"), dfoLines.slice(0, rows + 1).join("\n") + "\n");

const floodRoot = snapshotRoot(artifacts, "flood");
const serving = () => readlinkSync(join(floodRoot, "current")).replace(/^versions\//, "");
const acceptedRows = () => readManifest(join(floodRoot, "current")).qc.acceptedRows as Record<string, number>;
const build = (day: number, env: NodeJS.ProcessEnv = {}) =>
  buildSnapshots({ dataDir: data, artifactsDir: artifacts, only: ["flood"], env, now: new Date(Date.UTC(2026, 10, day)) });

describe("refusing a feed whose accepted rows fell", () => {
  it("publishes, accepts a small fall, refuses a large one (logged with both counts), then obeys FEED_MAX_ROW_DROP", async () => {
    writeDfo(4797);
    const first = await build(1);
    expect(first.flood.status).toBe("published");
    expect(acceptedRows()).toEqual({ dfo: 4669, gdacsFloodTable: 3826, gdacsGeoJson: 20 });

    writeDfo(4700); // −2.1 %: within the share
    const second = await build(2);
    expect(second.flood.status).toBe("published");
    expect(acceptedRows().dfo).toBe(4572);
    const kept = second.flood.version!;

    writeDfo(3000); // 2,943 accepted, −35.6 %
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const third = await build(3);
    // The reference is the largest count of the recent snapshots: the first one's 4,669.
    expect(third.flood).toEqual({
      status: "refused",
      version: kept,
      error: `flood: refused, accepted rows fell by more than 20 % against the largest of the last 5 snapshots (serving ${kept}): dfo 4669 (${first.flood.version}) → 2943 (−37 %)`,
    });
    expect(error).toHaveBeenCalledWith(
      { snapshot: "flood", serving: kept, maxRowDrop: 0.2, drops: [{ feed: "dfo", previous: 4669, now: 2943, reference: first.flood.version }] },
      "snapshot refused: accepted rows fell; previous snapshot kept",
    );
    error.mockRestore();
    expect(serving()).toBe(kept);

    // The command line exits 1 and prints the refusal.
    const cli = spawnSync(process.execPath, ["--import", "tsx", join(PROJECT_ROOT, "pipeline", "cli.ts"), "snapshots", "flood"], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: data, ARTIFACTS_DIR: artifacts, LOG_LEVEL: "silent", FEED_MAX_ROW_DROP: "" },
      encoding: "utf8",
    });
    expect(cli.status).toBe(1);
    expect(JSON.parse(cli.stdout).flood).toMatchObject({ status: "refused", version: kept });
    expect(serving()).toBe(kept);

    const fourth = await build(4, { FEED_MAX_ROW_DROP: "0.5" });
    expect(fourth.flood.status).toBe("published");
    expect(serving()).toBe(fourth.flood.version);
    expect(acceptedRows().dfo).toBe(2943);
  });

  it("builds each 15 % smaller cannot ratchet the count down: the reference is the largest of the recent snapshots, kept beside versions/", async () => {
    const root = join(work, "ratchet");
    const ratchet = (day: number, env: NodeJS.ProcessEnv = {}) =>
      buildSnapshots({ dataDir: data, artifactsDir: root, only: ["flood"], env, now: new Date(Date.UTC(2026, 11, day)) });
    const rootFlood = snapshotRoot(root, "flood");
    const dfoNow = () => (readManifest(join(rootFlood, "current")).qc.acceptedRows as Record<string, number>).dfo;
    writeDfo(4797);
    const first = await ratchet(1);
    expect(dfoNow()).toBe(4669);
    writeDfo(4080); // −15 % against the first
    expect((await ratchet(2)).flood.status).toBe("published");
    const second = dfoNow();
    expect(second / 4669).toBeGreaterThan(0.8);
    expect(second / 4669).toBeLessThan(0.86);
    writeDfo(3470); // −15 % against the second, −28 % against the first
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const third = await ratchet(3);
    expect(third.flood.status).toBe("refused");
    expect(third.flood.error).toMatch(new RegExp(`dfo 4669 \\(${first.flood.version}\\) → \\d+ \\(−2\\d\\.\\d %\\)`));
    // Pruning every old version does not lose the reference: it lives in the snapshot root.
    expect(await pruneVersions(rootFlood, 1)).not.toHaveLength(0);
    expect((await ratchet(4)).flood.status).toBe("refused");
    error.mockRestore();
    expect(JSON.parse(readFileSync(join(rootFlood, ROW_REFERENCE_FILE), "utf8")).builds.map((b: { acceptedRows: { dfo: number } }) => b.acceptedRows.dfo)).toEqual([4669, second]);
    // A deliberate change of source: FEED_MAX_ROW_DROP=1 publishes and restarts the reference from it.
    expect((await ratchet(5, { FEED_MAX_ROW_DROP: "1" })).flood.status).toBe("published");
    const restarted = dfoNow();
    writeDfo(3400);
    expect((await ratchet(6)).flood.status).toBe("published");
    expect(dfoNow() / restarted).toBeGreaterThan(0.8);
  });

  it("the share: default 0.2, a share in [0, 1] from FEED_MAX_ROW_DROP, anything else refused", async () => {
    expect(maxRowDropFromEnv({})).toBe(0.2);
    expect(maxRowDropFromEnv({ FEED_MAX_ROW_DROP: "0.35" })).toBe(0.35);
    expect(() => maxRowDropFromEnv({ FEED_MAX_ROW_DROP: "20%" })).toThrow('FEED_MAX_ROW_DROP must be a share between 0 and 1, got "20%"');
    await expect(build(5, { FEED_MAX_ROW_DROP: "1.5" })).rejects.toThrow("FEED_MAX_ROW_DROP must be a share between 0 and 1");
    // Exactly at the share is allowed; inputs a new build no longer reports are not compared.
    expect(rowDrops({ a: 100, b: 100, gone: 5 }, { a: 80, b: 79 }, 0.2)).toEqual([{ feed: "b", previous: 100, now: 79 }]);
  });
});
