// bench/synthetic-grid.ts publishes a valid, clearly synthetic version that the server opens; and the drought
// service answers "no data" where the grid has no cell near a covered point instead of serving a far cell's values.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { publishSyntheticGrid, type SyntheticGridResult } from "../../bench/synthetic-grid.ts";
import { missingFiles } from "../../formats/version-files.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { readManifest, verifyArtifacts } from "../../formats/manifest.ts";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { NotFoundError } from "../../server/errors.ts";
import { startRealServer, type RealServer } from "../e2e/real-server.ts";

const HAT_YAI = [7.01, 100.47] as const; // southern Thailand: inside the synthetic grid
const CHIANG_MAI = [18.79, 98.98] as const; // northern Thailand: covered by the provinces, ~650 km from any cell

let out: string;
let published: SyntheticGridResult;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "synthetic-grid-"));
  // Cells only south of 12°N: the north of the covered area has no grid cell near it.
  published = await publishSyntheticGrid({ cells: 5000, out, from: inject("artifactsDir"), months: 3, seed: 7, bbox: [-90, -180, 12, 180] });
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("npm run bench:grid (publishSyntheticGrid)", () => {
  it("publishes exactly N cells as the current version of the directory, marked synthetic, with valid checksums", async () => {
    const dir = realpathSync(join(out, "current"));
    expect(dir).toBe(published.dir);
    const manifest = readManifest(dir);
    expect(manifest.version).toBe(published.version);
    expect(manifest.version).toMatch(/^\d{8}T\d{6}Z-synthetic5000$/);
    expect(manifest.qc.synthetic).toBe(true);
    expect(manifest.settings.synthetic).toBe(true);
    expect(manifest.settings.seed).toBe(7);
    expect(manifest.sources?.[0]).toMatch(/^SYNTHETIC values \(bench\/synthetic-grid\.ts, seed 7\), for benchmarks and tests only/);
    // Its own grid; every other required file of the source version (shapes, tiles, exports, report) but the
    // stations' confidence, so the server's completeness check accepts it (formats/version-files.ts).
    expect(Object.keys(manifest.artifacts)).toEqual(expect.arrayContaining(["coverage-mask.bin", "drought-grid.bin", "province-index.bin", "province-summaries.bin", "provinces.json", "tiles-index.json", manifest.report]));
    expect(Object.keys(manifest.artifacts)).not.toContain("confidence.bin");
    expect(missingFiles(manifest)).toEqual([]);
    expect(await verifyArtifacts(dir, manifest)).toEqual([]);

    const source = readManifest(join(inject("artifactsDir"), "current"));
    expect(manifest.latestValidMonth).toBe(source.latestValidMonth);
    expect(manifest.monthRange?.last).toBe(source.latestValidMonth);
    const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
    expect(grid.nCells).toBe(5000);
    expect(grid.nMonths).toBe(3);
    expect(grid.resolutionDeg).toBe(published.resolutionDeg);
    expect(Math.max(...grid.cellLats)).toBeLessThanOrEqual(12);
    expect(grid.indexNames).toEqual(["spei1", "spei3", "spei6", "spei12", "spei24", "spi1", "spi3", "mcdi"]);
  });

  it("draws the same values from the same seed", async () => {
    const again = mkdtempSync(join(tmpdir(), "synthetic-grid-"));
    try {
      await publishSyntheticGrid({ cells: 5000, out: again, from: inject("artifactsDir"), months: 3, seed: 7, bbox: [-90, -180, 12, 180] });
      const a = readFileSync(join(out, "current", "drought-grid.bin"));
      const b = readFileSync(join(again, "current", "drought-grid.bin"));
      expect(b.equals(a)).toBe(true);
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  });

  it("refuses to publish into the artifacts directory the service serves by default", async () => {
    await expect(publishSyntheticGrid({ cells: 10, out: resolve(PROJECT_ROOT, "artifacts"), from: inject("artifactsDir") })).rejects.toThrow(
      `refusing to publish synthetic data into ${resolve(PROJECT_ROOT, "artifacts")}`,
    );
    await expect(publishSyntheticGrid({ cells: 0, out, from: inject("artifactsDir") })).rejects.toThrow("--cells must be an integer");
  });
});

describe("drought service on a grid that leaves part of the covered area without cells", () => {
  it("answers no data far from every cell instead of a far cell's values", async () => {
    const { service, store } = await openDroughtService(out, { pollMs: 3_600_000 });
    try {
      const south = service.batchItem("south", HAT_YAI[0], HAT_YAI[1]);
      expect(south.found).toBe(true);
      expect(service.drought(HAT_YAI[0], HAT_YAI[1]).location.distanceKm).toBeLessThan(published.resolutionDeg * 111);
      expect(service.batchItem("north", CHIANG_MAI[0], CHIANG_MAI[1])).toEqual({
        id: "north", lat: CHIANG_MAI[0], lng: CHIANG_MAI[1], found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null,
        reason: "no drought grid cell near the location",
      });
      expect(() => service.drought(CHIANG_MAI[0], CHIANG_MAI[1])).toThrow(NotFoundError);
      expect(service.batchItem(undefined, 48.85, 2.35)).toMatchObject({ found: false, reason: "location is outside the covered area (the land of Thailand)" });
    } finally {
      store.stop();
    }
  });

  describe("over HTTP, through the real server", () => {
    let server: RealServer;
    beforeAll(async () => {
      server = await startRealServer(out);
    }, 60_000);
    afterAll(async () => {
      expect(await server.stop()).toBe(0);
    });

    it("serves the synthetic version: 200 inside the grid, 404 NOT_FOUND far from its cells", async () => {
      const get = (lat: number, lng: number) => fetch(`${server.base}/api/risk-map/drought?lat=${lat}&lng=${lng}`, { headers: { "x-api-key": server.key } });
      const ok = await get(HAT_YAI[0], HAT_YAI[1]);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-data-version")).toBe(published.version);
      const body = await ok.json();
      expect(body.success).toBe(true);
      expect(body.data.location.country).toBe("THA");
      const far = await get(CHIANG_MAI[0], CHIANG_MAI[1]);
      expect(far.status).toBe(404);
      const error = await far.json();
      expect(error.success).toBe(false);
      expect(error.error.code).toBe("NOT_FOUND");
      expect(error.error.message).toBe("no drought grid cell near the location");
    });
  });
});
