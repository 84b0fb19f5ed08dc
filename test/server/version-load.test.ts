// Loading a published drought version: every file is parsed and validated before the version serves. A version
// whose checksums match but whose content is broken (a corrupted tiles-index.json, a grid value of 1e30) is
// refused and logged, and the previous version keeps answering; a `current` link to a missing directory or a
// version without manifest.json is logged once, not on every poll.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactStore } from "../../server/data/artifact-store.ts";
import { openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { errorHandler } from "../../server/http/error-handler.ts";
import { createTilesRouter } from "../../server/routes/tiles.ts";
import { ArtifactDroughtService } from "../../server/services/drought-service.ts";
import { createStaging, listVersions, publishStaging, pruneVersions, type ManifestBody } from "../../pipeline/publish/publish.ts";
import { readManifest, type Manifest } from "../../formats/manifest.ts";
import { PROVINCE_SHAPES_FILE } from "../../formats/province-shapes.ts";
import { CELLS, INDICES, JAN, SPEI1_FEB, writeFixture, writeVersionExtras } from "../tiles/fixture.ts";
import { CONFIDENCE_FILE, writeConfidenceGrid } from "../../formats/confidence-grid.ts";
import { EXPORT_FILE_NAMES } from "../../formats/drought-export.ts";
import { missingFiles } from "../../formats/version-files.ts";
import { checkMvt, checkPng } from "../../formats/pmtiles-archive.ts";
import { tilesCovering } from "../../tiles/tile-math.ts";
import { ExportService } from "../../server/services/export-service.ts";

const BODY: ManifestBody = {
  builtAt: "2020-03-01T00:00:00.000Z",
  inputs: {},
  baseline: { start: "1961-01", end: "1990-12" },
  monthRange: { first: "2020-01", last: "2020-02" },
  latestValidMonth: "2020-02",
  qc: {},
  report: "build-report.json",
  settings: {},
};

let source: string;

/** Offset of value (cell, month, index) in the fixture's drought-grid.bin (6 cells, 2 months, 6 indices, 1 country). */
function gridValueOffset(bytes: Buffer, cell: number, month: number, index: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = view.getFloat64(64, true) - CELLS.length * 2 * INDICES.length * 4;
  return values + ((cell * 2 + month) * INDICES.length + index) * 4;
}

/** Publishes a copy of the fixture version under `root` (checksums computed after `damage`), made current. */
async function publish(root: string, version: string, damage?: (dir: string) => void): Promise<string> {
  const staging = createStaging(root, version);
  cpSync(source, staging.dir, { recursive: true });
  damage?.(staging.dir);
  return publishStaging(staging, BODY);
}

function capture() {
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (s: string) => lines.push(s) });
  return { logger, lines, messages: () => lines.map((l) => JSON.parse(l) as { msg: string; err?: string; level: number }) };
}

function openStore(root: string, logger: pino.Logger) {
  return new ArtifactStore<DroughtArtifacts>({ root, open: openDroughtArtifacts, logger, label: "drought artifacts" });
}

beforeAll(async () => {
  source = mkdtempSync(join(tmpdir(), "version-load-src-"));
  writeFixture(source);
  const fx = writeFixture(mkdtempSync(join(tmpdir(), "version-load-fx-")));
  await writeVersionExtras(source, fx.grid, fx.summaries);
  const confidence = { nCells: CELLS.length, nMonths: 2, firstMonth: JAN, binConfidence: Float64Array.of(0.4, 0.9), nProvinces: 2 };
  writeFileSync(join(source, CONFIDENCE_FILE), writeConfidenceGrid({ ...confidence, cellBins: new Uint8Array(CELLS.length * 2).fill(1), provinceConfidence: new Float32Array(4).fill(0.9) }));
  writeFileSync(join(source, "build-report.json"), JSON.stringify({ ok: true }));
});

/** Publishes a good copy of the fixture, then edits the published version's manifest and files behind its back. */
async function publishEdited(root: string, version: string, edit: (dir: string, artifacts: Manifest["artifacts"], manifest: Manifest) => void): Promise<string> {
  const dir = await publish(root, version);
  const manifest = readManifest(dir);
  edit(dir, manifest.artifacts, manifest);
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return dir;
}

/** A store serving a good `good` under `root` refuses the version `publishBad` makes current, logs why and keeps serving. */
async function expectSwapRefused(root: string, log: ReturnType<typeof capture>, good: string, publishBad: () => Promise<unknown>, reason: RegExp): Promise<void> {
  await publish(root, good);
  const store = openStore(root, log.logger);
  expect(await store.reload()).toBe("loaded");
  await publishBad();
  expect(await store.reload()).toBe("refused");
  expect(store.current()?.version).toBe(good);
  expect(log.messages().at(-1)).toMatchObject({ msg: "artifact version refused; previous version keeps serving", err: expect.stringMatching(reason) });
}

describe("a version whose manifest and directory disagree, or that lacks a file of its kind", () => {
  const cases: Array<[string, (dir: string, artifacts: Manifest["artifacts"], manifest: Manifest) => void, RegExp]> = [
    ["a manifest listing no artifacts", (_dir, artifacts) => Object.keys(artifacts).forEach((k) => delete artifacts[k]), /manifest\.json: lists no artifacts/],
    ["tiles-index.json removed with its manifest entry", (dir, artifacts) => (rmSync(join(dir, "tiles-index.json")), delete artifacts["tiles-index.json"]), /^tiles-index\.json: required of a drought version/],
    ["province-shapes.json removed with its entry", (dir, artifacts) => (rmSync(join(dir, PROVINCE_SHAPES_FILE)), delete artifacts[PROVINCE_SHAPES_FILE]), /^province-shapes\.json: required/],
    ["a Parquet export removed with its entry", (dir, artifacts) => (rmSync(join(dir, "drought-cells.parquet")), delete artifacts["drought-cells.parquet"]), /^drought-cells\.parquet: required/],
    [
      "a station-built version without confidence.bin",
      (dir, artifacts, manifest) => (rmSync(join(dir, CONFIDENCE_FILE)), delete artifacts[CONFIDENCE_FILE], (manifest.qc = { gridSource: "stations" })),
      /^confidence\.bin: required/,
    ],
    ["a listed file missing on disk", (dir) => rmSync(join(dir, "coverage-mask.bin")), /^coverage-mask\.bin: ENOENT/],
    ["a wrong bytes", (_dir, artifacts) => void (artifacts["provinces.json"].bytes += 1), /^provinces\.json: \d+ bytes, manifest says \d+/],
    ["a wrong sha256", (_dir, artifacts) => void (artifacts["provinces.json"].sha256 = "0".repeat(64)), /^provinces\.json: sha256 /],
    ["an unlisted file on disk", (dir) => writeFileSync(join(dir, "extra.bin"), "x"), /^extra\.bin: file on disk not listed in the manifest/],
  ];

  for (const [what, edit, reason] of cases) {
    it(`${what}: refused at start and by hot swap; the previous version keeps serving`, async () => {
      const root = mkdtempSync(join(tmpdir(), "version-load-"));
      const log = capture();
      await publishEdited(root, "v1", edit);
      const cold = openStore(root, log.logger);
      expect(await cold.reload()).toBe("refused");
      expect(cold.current()).toBeUndefined();
      expect(log.messages().at(-1)?.err).toMatch(reason);

      await expectSwapRefused(root, log, "v2", () => publishEdited(root, "v3", edit), reason);
    });
  }

  it("a drought grid without a spei1 index: refused at start and by hot swap (every score is made from SPEI-1)", async () => {
    // The grid's first index renamed in place; publishing checksums the edited file, so only the reader can refuse it.
    const renameSpei1 = (dir: string) => {
      const path = join(dir, "drought-grid.bin");
      const bytes = readFileSync(path);
      const at = bytes.indexOf(Buffer.from("spei1\0"));
      expect(at).toBeGreaterThan(0);
      bytes.write("spex1", at, "ascii");
      writeFileSync(path, bytes);
    };
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1", renameSpei1);
    const cold = openStore(root, log.logger);
    expect(await cold.reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toMatch(/no spei1 index \(indices: spex1, spei3, spei6, spei12, spi1, mcdi\)/);
    await expectSwapRefused(root, log, "v2", () => publish(root, "v3", renameSpei1), /no spei1 index/);
  });

  it("nothing published yet (a first start) is said once at info, not as a warning; a link that leads nowhere is an error (refused)", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("missing");
    expect(await store.reload()).toBe("missing");
    expect(log.messages().map((m) => [m.level, m.msg])).toEqual([[30, "no published version to serve yet"]]);
    symlinkSync(join(root, "versions", "gone"), join(root, "current"));
    expect(await store.reload()).toBe("missing");
    expect(log.messages().slice(1).map((m) => m.level)).toEqual([50]);
  });

  it("a version of another kind is refused by a store that expects drought", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publishEdited(root, "v1", (_dir, _a, manifest) => void (manifest.kind = "heatwave"));
    const store = new ArtifactStore<DroughtArtifacts>({ root, open: openDroughtArtifacts, logger: log.logger, label: "drought artifacts", kind: "drought" });
    expect(await store.reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toBe('manifest.json: kind "heatwave", expected "drought"');
  });
});

/** The tiles router over `store` (and any `routes`) on a loopback port, errors in the envelope. */
async function serveTiles(store: ArtifactStore<DroughtArtifacts>, logger: pino.Logger, routes?: (app: express.Express) => void): Promise<{ server: ReturnType<express.Express["listen"]>; base: string }> {
  const app = express();
  const tiles = createTilesRouter({ current: () => store.current(), logger });
  app.use(tiles);
  routes?.(app);
  app.use(errorHandler(logger));
  const server = app.listen(0, "127.0.0.1");
  server.once("close", () => void tiles.close()); // its archive files with it
  await new Promise((r) => server.once("listening", r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Publishes a copy of the fixture without its tiles and exports, its manifest deferring them (make serve's first run). */
async function publishDeferred(root: string, version: string, edit?: (dir: string, body: ManifestBody) => void): Promise<string> {
  const staging = createStaging(root, version);
  cpSync(source, staging.dir, { recursive: true });
  for (const name of readdirSync(staging.dir)) if (name.startsWith("tiles-") || EXPORT_FILE_NAMES.includes(name)) rmSync(join(staging.dir, name));
  const body: ManifestBody = { ...BODY, deferred: ["tiles", "exports"] };
  edit?.(staging.dir, body);
  return publishStaging(staging, body);
}

describe("a version published with its tiles and exports deferred (make serve's first run)", () => {
  let root: string;
  let store: ArtifactStore<DroughtArtifacts>;
  let server: ReturnType<express.Express["listen"]>;
  let base: string;
  const log = capture();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "version-load-"));
    await publishDeferred(root, "v1");
    store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    const exports = new ExportService(store);
    ({ server, base } = await serveTiles(store, log.logger, (app) => {
      app.get("/exports", (_req, res) => void res.json(exports.list()));
      app.get("/exports/:name", (req, res) => void res.json(exports.file(req.params.name)));
    }));
  });

  afterAll(() => server?.close());

  it("loads, says its archives are deferred, renders raster and vector tiles on request, and its exports answer 503", async () => {
    expect(log.messages().filter((m) => m.level >= 40)).toEqual([]);
    const index = await (await fetch(`${base}/tiles/index.json`)).json();
    expect(index.data).toMatchObject({ version: "v1", precomputedMonths: [], archivesDeferred: true });
    const raster = await fetch(`${base}/tiles/drought-spei1/0/0/0.png?month=2020-02`);
    expect(raster.status).toBe(200);
    expect(raster.headers.get("content-type")).toBe("image/png");
    const vector = await fetch(`${base}/tiles/provinces/0/0/0.mvt`);
    expect(vector.status).toBe(200);
    expect((await (await fetch(`${base}/tiles/archives/tiles-provinces.pmtiles`)).json()).error.code).toBe("NOT_FOUND");
    expect(await (await fetch(`${base}/exports`)).json()).toEqual({ version: "v1", files: [], pending: expect.stringMatching(/published before its exports/) });
    const file = await fetch(`${base}/exports/drought-cells.parquet`);
    expect(file.status).toBe(503);
    expect((await file.json()).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { reason: "exports-deferred", version: "v1" } });
  });

  it("the complete version of the same data is taken up; its archived tile is the tile rendered on request before", async () => {
    const rendered = Buffer.from(await (await fetch(`${base}/tiles/drought-spei1/4/12/7.png?month=2020-02`)).arrayBuffer());
    expect(rendered.length).toBeGreaterThan(0);
    await publish(root, "v2");
    expect(await store.reload()).toBe("loaded");
    const index = await (await fetch(`${base}/tiles/index.json`)).json();
    expect(index.data).toMatchObject({ version: "v2", precomputedMonths: ["2020-02"], archivesDeferred: false });
    const archived = Buffer.from(await (await fetch(`${base}/tiles/drought-spei1/4/12/7.png?month=2020-02`)).arrayBuffer());
    expect(archived.equals(rendered)).toBe(true);
    expect((await (await fetch(`${base}/exports`)).json()).files.map((f: { name: string }) => f.name).sort()).toEqual([...EXPORT_FILE_NAMES].sort());
  });

  const refused: Array<[string, (dir: string, body: ManifestBody) => void, RegExp]> = [
    ["a deferred version that holds tiles-index.json anyway", (dir) => cpSync(join(source, "tiles-index.json"), join(dir, "tiles-index.json")), /^tiles-index\.json: present, but the manifest defers tiles/],
    ["a deferred version that holds an export anyway", (dir) => cpSync(join(source, "drought-cells.csv.gz"), join(dir, "drought-cells.csv.gz")), /^drought-cells\.csv\.gz: present, but the manifest defers exports/],
    ["a manifest deferring something unknown", (_dir, body) => void (body.deferred = ["tiles", "exports", "grid"]), /^manifest\.json: "deferred" must list one or more of tiles, exports/],
    ["a manifest deferring only the tiles, without the exports", (_dir, body) => void (body.deferred = ["tiles"]), /^drought-cells\.parquet: required of a drought version/],
  ];
  for (const [what, edit, reason] of refused) {
    it(`${what} is refused`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "version-load-"));
      const l = capture();
      await publishDeferred(dir, "v1", edit);
      expect(await openStore(dir, l.logger).reload()).toBe("refused");
      expect(l.messages().at(-1)?.err).toMatch(reason);
    });
  }

  it("only a drought version may defer", () => {
    const manifest = { manifestFormat: 1, version: "s1", kind: "heatwave", deferred: ["tiles"], artifacts: { "snapshot.json": { bytes: 1, sha256: "" } }, report: "snapshot.json", qc: {}, settings: {}, builtAt: "", inputs: {} } as Manifest;
    expect(missingFiles(manifest)).toEqual(['manifest.json: "deferred" is only allowed in a drought version, not a heatwave one']);
  });
});

describe("a version whose checksums match but whose tiles-index.json is broken", () => {
  let root: string;
  let server: ReturnType<express.Express["listen"]>;
  let base: string;
  const log = capture();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "version-load-"));
    await publish(root, "v1");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    await publish(root, "v2", (dir) => writeFileSync(join(dir, "tiles-index.json"), '{"version":1,"indices":["spei1"],"months":'));
    expect(await store.reload()).toBe("refused");
    ({ server, base } = await serveTiles(store, log.logger));
  });

  afterAll(() => server?.close());

  it("is refused with a log line naming the file; the previous version's tiles keep answering", async () => {
    const refused = log.messages().filter((m) => m.msg.startsWith("artifact version refused"));
    expect(refused).toHaveLength(1);
    expect(refused[0].err).toMatch(/^tiles-index\.json: /);
    const index = await fetch(`${base}/tiles/index.json`);
    expect(index.status).toBe(200);
    expect((await index.json()).data).toMatchObject({ version: "v1", precomputedMonths: ["2020-02"] });
    const tile = await fetch(`${base}/tiles/drought-spei1/0/0/0.png`);
    expect(tile.status).toBe(200);
    expect(tile.headers.get("content-type")).toBe("image/png");
  });

  it("a tiles-index.json of the wrong shape (archives not a list) is refused too", async () => {
    await publish(root, "v3", (dir) => {
      const index = JSON.parse(readFileSync(join(dir, "tiles-index.json"), "utf8"));
      writeFileSync(join(dir, "tiles-index.json"), JSON.stringify({ ...index, archives: "all" }));
    });
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toMatch(/^tiles-index\.json: .*archives/);
  });

  it("a PMTiles archive with a damaged header is refused", async () => {
    await publish(root, "v4", (dir) => {
      const path = join(dir, "tiles-drought-spei1-2020-02.pmtiles");
      const bytes = readFileSync(path);
      bytes.write("NOTILES", 0, "ascii");
      writeFileSync(path, bytes);
    });
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toMatch(/^tiles-drought-spei1-2020-02\.pmtiles: .*magic/);
  });
});

describe("a version with out-of-range values and matching checksums", () => {
  it("a grid value of 1e30 is refused; the drought answers keep coming from the previous version", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    await publish(root, "v2", (dir) => {
      const path = join(dir, "drought-grid.bin");
      const bytes = readFileSync(path);
      bytes.writeFloatLE(1e30, gridValueOffset(bytes, 0, 1, 0)); // cell 0, February, spei1
      writeFileSync(path, bytes);
    });
    expect(await store.reload()).toBe("refused");
    const answer = new ArtifactDroughtService(store).drought(CELLS[0][0], CELLS[0][1]);
    expect(answer.drought.indices.spei1).toBe(SPEI1_FEB[0]);
    expect(answer.drought.level).toBe("critical");
    const refused = log.messages().filter((m) => m.msg.startsWith("artifact version refused"));
    expect(refused).toHaveLength(1);
    expect(refused[0].err).toMatch(/^drought-grid\.bin: .*1e\+30.*spei1/);
  });

  // Issue 39: under the old ±40 rule a grid value of 30 or −Inf, and a province summary of 30, loaded and served.
  const impossible: Array<[string, string, (bytes: Buffer) => void, RegExp]> = [
    ["a grid value of 30", "drought-grid.bin", (b) => void b.writeFloatLE(30, gridValueOffset(b, 0, 1, 0)), /^drought-grid\.bin: .*value 30 of spei1 .* is outside \[-38\.4674, 8\.2095\]/],
    ["a grid value of −Inf", "drought-grid.bin", (b) => void b.writeFloatLE(-Infinity, gridValueOffset(b, 2, 1, 1)), /^drought-grid\.bin: .*value -Infinity of spei3 .* is outside/],
    ["an mcdi of 5 (beyond what mcdi's clamped components give)", "drought-grid.bin", (b) => void b.writeFloatLE(5, gridValueOffset(b, 1, 1, INDICES.indexOf("mcdi"))), /value 5 of mcdi .* is outside \[-4\.2258, 4\.2258\]/],
    ["a province summary of 30", "province-summaries.bin", (b) => void b.writeFloatLE(30, b.readUInt32LE(28)), /^province-summaries\.bin: value 30 of spei1 for province 0, 2020-01 is outside/],
    ["a province summary of +Inf", "province-summaries.bin", (b) => void b.writeFloatLE(Infinity, b.readUInt32LE(28) + 4), /^province-summaries\.bin: value Infinity of spei3 for province 0, 2020-01 is outside/],
  ];
  for (const [what, file, edit, reason] of impossible) {
    it(`${what} is refused; the previous version keeps serving`, async () => {
      const root = mkdtempSync(join(tmpdir(), "version-load-"));
      await expectSwapRefused(root, capture(), "v1", () => publish(root, "v2", (dir) => patch(dir, file, edit)), reason);
    });
  }

  it("a manifest's latestValidMonth outside the grid, or not the month the build's rule gives, is refused", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await expectSwapRefused(root, log, "v1", () => publishEdited(root, "v2", (_d, _a, m) => void (m.latestValidMonth = "2001-01")), /^manifest\.json: latestValidMonth 2001-01 lies outside the grid's months 2020-01\.\.2020-02/);
    const other = mkdtempSync(join(tmpdir(), "version-load-"));
    await publishEdited(other, "v1", (_d, _a, m) => void (m.settings = { validCellShare: 0.9 }));
    expect(await openStore(other, log.logger).reload()).toBe("loaded");
    await publishEdited(other, "v2", (_d, _a, m) => void ((m.settings = { validCellShare: 0.9 }), (m.latestValidMonth = "2020-01")));
    expect(await openStore(other, log.logger).reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toMatch(/^manifest\.json: latestValidMonth 2020-01 is not the grid's \(2020-02: the latest month with each answer index on 90 % of the cells\)/);
  });

  it("a province summary of 1e30 is refused", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1", (dir) => {
      const path = join(dir, "province-summaries.bin");
      const bytes = readFileSync(path);
      const dataOffset = bytes.readUInt32LE(28);
      bytes.writeFloatLE(-1e30, dataOffset + 4); // province 0, January, spei3
      writeFileSync(path, bytes);
    });
    expect(await openStore(root, log.logger).reload()).toBe("refused");
    expect(log.messages().at(-1)?.err).toMatch(/^province-summaries\.bin: .*-1e\+30.*spei3/);
  });
});

/** Rewrites a file of the version in place. */
const patch = (dir: string, name: string, change: (bytes: Buffer) => Buffer | void) => {
  const bytes = readFileSync(join(dir, name));
  writeFileSync(join(dir, name), change(bytes) ?? bytes);
};

describe("a version with a corrupted file of each format and matching checksums is refused; the previous keeps serving", () => {
  const cases: Array<[string, (dir: string) => void, RegExp]> = [
    ["a coverage-mask state outside its enumeration", (dir) => patch(dir, "coverage-mask.bin", (b) => void (b[48 + 4] = 3)), /^coverage-mask\.bin: square 4 \(row 1, col 1\) has state 3/],
    // Issue 39: a mask of all zeros loaded, and every point then answered 404.
    ["a coverage mask that covers no square", (dir) => patch(dir, "coverage-mask.bin", (b) => void b.fill(0, 48)), /^coverage-mask\.bin: no square is inside or mixed: every point would answer 404/],
    [
      "a tiles index with no month",
      (dir) => patch(dir, "tiles-index.json", (b) => Buffer.from(JSON.stringify({ ...JSON.parse(b.toString("utf8")), months: [] }))),
      /^tiles-index\.json: .*months.*no month/,
    ],
    [
      "NaN over a province's record that has cells",
      (dir) => patch(dir, "province-summaries.bin", (b) => INDICES.forEach((_, k) => b.writeFloatLE(NaN, b.readUInt32LE(28) + ((1 * 2 + 1) * (INDICES.length + 1) + k) * 4))),
      /^province-summaries\.bin: province 1, 2020-02 has 0 index values \(the others NaN\) but 2 cells used/,
    ],
    ["a bin confidence of 1.5", (dir) => patch(dir, CONFIDENCE_FILE, (b) => void b.writeDoubleLE(1.5, 32)), /^confidence\.bin: bin 0 confidence 1\.5 outside 0\.\.1/],
    ["a province confidence of −0.5", (dir) => patch(dir, CONFIDENCE_FILE, (b) => void b.writeFloatLE(-0.5, b.length - 4)), /^confidence\.bin: province confidence -0\.5 outside 0\.\.1/],
    ["a Parquet export without its leading magic", (dir) => patch(dir, "drought-cells.parquet", (b) => void b.write("XXXX", 0, "ascii")), /^drought-cells\.parquet: does not start with the Parquet magic/],
    [
      "a Parquet export with bytes cut from its body (footer intact)",
      (dir) => patch(dir, "province-summaries.parquet", (b) => Buffer.concat([b.subarray(0, 4), b.subarray(54)])),
      /^province-summaries\.parquet: row group 0 column .* lies outside the data/,
    ],
    ["a CSV export with another header", (dir) => patch(dir, "province-summaries.csv.gz", () => gzipSync("a,b\n1,2\n")), /^province-summaries\.csv\.gz: header "a,b" does not start with province_code/],
    [
      "a PMTiles archive whose tile data would end beyond the file",
      (dir) => patch(dir, "tiles-provinces.pmtiles", (b) => void b.writeBigUInt64LE(BigInt(b.length), 64)),
      /^tiles-provinces\.pmtiles: tile data \(\d+\+\d+\) ends beyond the file's \d+ bytes/,
    ],
  ];

  for (const [what, damage, reason] of cases) {
    it(what, async () => {
      const root = mkdtempSync(join(tmpdir(), "version-load-"));
      await expectSwapRefused(root, capture(), "v1", () => publish(root, "v2", damage), reason);
    });
  }
});

describe("a tile that cannot be read answers 500 INTERNAL_ERROR in the envelope, never a 200 with a broken body (issue 39, item 3)", () => {
  /** Four bytes flipped in the middle of an archive's tile data: headers and directories intact, so the load takes it. */
  const flipTileData = (b: Buffer) => {
    const at = Number(b.readBigUInt64LE(56)) + Math.floor(Number(b.readBigUInt64LE(64)) / 2);
    for (let i = at; i < at + 4; i++) b[i] ^= 0xff;
  };

  it("every tile of a damaged MVT and PNG archive answers 200 with a body that decodes, 204, or 500 in the envelope, logged", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1", (dir) => {
      patch(dir, "tiles-provinces.pmtiles", flipTileData);
      patch(dir, "tiles-drought-spei1-2020-02.pmtiles", flipTileData);
    });
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded"); // load-time checks read headers only: the build's verification reads the tiles
    const { server, base } = await serveTiles(store, log.logger);
    try {
      const index = JSON.parse(readFileSync(join(root, "current", "tiles-index.json"), "utf8")) as { bbox: [number, number, number, number]; maxZoom: number };
      for (const [url, check] of [["provinces", checkMvt], ["drought-spei1", checkPng]] as const) {
        const statuses: number[] = [];
        for (const [z, x, y] of tilesCovering(index.bbox, 0, index.maxZoom)) {
          const r = await fetch(`${base}/tiles/${url}/${z}/${x}/${y}.${url === "provinces" ? "mvt" : "png"}?month=2020-02`);
          statuses.push(r.status);
          if (r.status === 200) check(new Uint8Array(await r.arrayBuffer()));
          else if (r.status === 500) expect((await r.json()).error).toMatchObject({ code: "INTERNAL_ERROR", message: "Unexpected server error" });
          else expect(r.status).toBe(204);
        }
        expect(statuses).toContain(500);
        expect(statuses).toContain(200);
      }
      const errors = log.messages().filter((m) => m.level >= 50);
      expect(errors.some((m) => /tiles-provinces\.pmtiles of data version v1: tile \d+\/\d+\/\d+ cannot be read/.test(JSON.stringify(m)))).toBe(true);
      expect(errors.some((m) => /tiles-drought-spei1-2020-02\.pmtiles of data version v1: tile \d+\/\d+\/\d+ cannot be read: PNG/.test(JSON.stringify(m)))).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe("versions that cannot be read at all", () => {
  it("a current link to a missing directory is logged once, not on every poll; the loaded version keeps serving", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    symlinkSync(join("versions", "gone"), join(root, "current.tmp"));
    renameSync(join(root, "current.tmp"), join(root, "current"));
    for (let i = 0; i < 3; i++) expect(await store.reload()).toBe("missing");
    const lines = log.messages().filter((m) => m.level >= 40);
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toMatch(/^artifact version refused/);
    expect(lines[0].err).toMatch(/current points to .*versions\/gone.*does not exist/);
    expect(store.current()?.version).toBe("v1");
  });

  it("a version without manifest.json is logged once; publishing a good one afterwards loads it", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    const bare = join(root, "versions", "v2");
    mkdirSync(bare);
    cpSync(source, bare, { recursive: true });
    rmSync(join(bare, "manifest.json"), { force: true });
    symlinkSync(join("versions", "v2"), join(root, "current.tmp"));
    renameSync(join(root, "current.tmp"), join(root, "current"));
    for (let i = 0; i < 3; i++) expect(await store.reload()).toBe("missing");
    const lines = log.messages().filter((m) => m.level >= 40);
    expect(lines).toHaveLength(1);
    expect(lines[0].err).toMatch(/versions\/v2 has no manifest\.json/);
    await publish(root, "v3");
    expect(await store.reload()).toBe("loaded");
    expect(store.current()?.version).toBe("v3");
  });
});

describe("a version that sorts before the served one (issue 39, item 4)", () => {
  it("is refused and logged once; the served version keeps serving; a later one loads", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "20261123T100000Z-old");
    await publish(root, "20261123T110000Z-new");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    expect(store.versionOrNone()).toBe("20261123T110000Z-new");
    // `current` switched back to the older version (by hand, or an old copy synced over).
    symlinkSync(join("versions", "20261123T100000Z-old"), join(root, "current.tmp"));
    renameSync(join(root, "current.tmp"), join(root, "current"));
    expect(await store.reload()).toBe("refused");
    for (let i = 0; i < 2; i++) expect(await store.reload()).toBe("unchanged"); // the same state: not checked again
    expect(store.versionOrNone()).toBe("20261123T110000Z-new");
    const refusals = log.messages().filter((m) => m.level >= 40);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      msg: "artifact version refused; previous version keeps serving",
      err: "version 20261123T100000Z-old sorts before the served version 20261123T110000Z-new: versions only move forward (restart the server to serve an older one)",
    });
    await publish(root, "20261123T120000Z-next");
    expect(await store.reload()).toBe("loaded");
    expect(store.versionOrNone()).toBe("20261123T120000Z-next");
    // A server started afresh serves what current leads to, whatever its id.
    symlinkSync(join("versions", "20261123T100000Z-old"), join(root, "current.tmp"));
    renameSync(join(root, "current.tmp"), join(root, "current"));
    const fresh = openStore(root, log.logger);
    expect(await fresh.reload()).toBe("loaded");
    expect(fresh.versionOrNone()).toBe("20261123T100000Z-old");
    store.stop();
    fresh.stop();
  });
});

describe("retention and the served version", () => {
  it("a store holds a lease on the version it serves: pruning keeps it until the store moves on or stops", async () => {
    const root = mkdtempSync(join(tmpdir(), "version-load-"));
    const log = capture();
    await publish(root, "v1");
    const store = openStore(root, log.logger);
    expect(await store.reload()).toBe("loaded");
    await publish(root, "v2");
    await publish(root, "v3");
    expect(await pruneVersions(root, 1)).toEqual(["v2"]);
    expect(listVersions(root)).toEqual(["v1", "v3"]);
    expect(await store.reload()).toBe("loaded");
    expect(store.current()?.version).toBe("v3");
    expect(await pruneVersions(root, 1)).toEqual(["v1"]);
    await publish(root, "v4");
    store.stop();
    expect(await pruneVersions(root, 1)).toEqual(["v3"]);
  });
});
