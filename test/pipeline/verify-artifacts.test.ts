// The build's verification of a staged version (issue 39, item 1), on copies of the suite's built versions edited
// the way a broken build would write them: a file damaged and its manifest entry recomputed (bytes and sha256), so
// that no checksum can tell and only the content checks do. Structural edits (four bytes flipped mid-file, a
// truncated gzip stream) pass the cheap load-time check and must be caught here; value edits (impossible values,
// renamed or moved provinces, a wrong latest month, an empty or wrong month list) are caught here or at load.
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { MANIFEST_FILE, readManifest, sha256File, type Manifest } from "../../formats/manifest.ts";
import { validateVersion } from "../../formats/version-files.ts";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { ConfidenceGrid } from "../../formats/confidence-grid.ts";
import { ArtifactVerificationError, verifyDroughtVersion, type VerifyInputs } from "../../pipeline/build/verify-artifacts.ts";
import { loadRegion } from "../../pipeline/provinces/region.ts";
import { buildLandCells } from "../../pipeline/grid/land-cells.ts";

const regional = realpathSync(join(inject("artifactsDir"), "current"));
const stations = realpathSync(join(inject("stationArtifactsDir"), "current"));
let regionalInputs: VerifyInputs;

beforeAll(() => {
  const m = readManifest(regional);
  regionalInputs = { provinces: loadRegion(dataDir(), m.settings.countries as string[]) };
});

/** A copy of `source` with `edit` applied and the manifest's bytes and sha256 recomputed over the edited files. */
async function editedCopy(source: string, edit: (dir: string, manifest: Manifest) => void): Promise<{ dir: string; manifest: Manifest }> {
  const dir = mkdtempSync(join(tmpdir(), "verify-"));
  cpSync(source, dir, { recursive: true });
  const manifest = readManifest(dir);
  edit(dir, manifest);
  for (const name of readdirSync(dir).filter((n) => n !== MANIFEST_FILE)) {
    manifest.artifacts[name] = { bytes: readFileSync(join(dir, name)).length, sha256: await sha256File(join(dir, name)) };
  }
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return { dir, manifest };
}

const patch = (dir: string, name: string, change: (b: Buffer) => Buffer | void) => {
  const b = readFileSync(join(dir, name));
  writeFileSync(join(dir, name), change(b) ?? b);
};
/** Four bytes flipped in the middle of the file. */
const flipMiddle = (b: Buffer) => {
  const at = Math.floor(b.length / 2);
  for (let i = at; i < at + 4; i++) b[i] ^= 0xff;
};

/** The problems the verification reports (none: []). */
async function problemsOf(dir: string, manifest: Manifest, inputs: VerifyInputs): Promise<string[]> {
  try {
    await verifyDroughtVersion(dir, manifest, inputs);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ArtifactVerificationError);
    return (err as ArtifactVerificationError).problems;
  }
}

describe("the build's verification of a staged drought version", () => {
  it("passes the versions the suite built (the regional grid with tiles and exports, the station grid with its land cells)", async () => {
    expect(await problemsOf(regional, readManifest(regional), regionalInputs)).toEqual([]);
    const m = readManifest(stations);
    const region = loadRegion(dataDir(), ["THA"]);
    expect(await problemsOf(stations, m, { provinces: region, cells: buildLandCells(region.provinces, { resolutionDeg: m.settings.resolutionDeg as number }) })).toEqual([]);
  }, 60_000);

  it("refuses four bytes flipped mid-file in every PMTiles, Parquet, CSV gzip and binary index, and a truncated gzip stream, which the load accepts", async () => {
    const raster = readdirSync(regional).find((n) => n.startsWith("tiles-drought-spei1-"))!;
    const flipped = ["tiles-provinces.pmtiles", "tiles-cells.pmtiles", "tiles-countries.pmtiles", raster, "drought-cells.parquet", "province-index.bin", "drought-cells.csv.gz"];
    const { dir, manifest } = await editedCopy(regional, (d) => {
      for (const name of flipped) patch(d, name, flipMiddle);
      patch(d, "province-summaries.csv.gz", (b) => b.subarray(0, b.length - 1000));
    });
    // The cheap load-time check reads headers and footers: all of these load (issue 39: 12 of 68 such edits did).
    expect(await validateVersion(dir)).toEqual([]);
    const problems = await problemsOf(dir, manifest, regionalInputs);
    for (const name of [...flipped, "province-summaries.csv.gz"]) expect(problems.some((p) => p.startsWith(`${name}: `) || p.startsWith(`tiles-index.json: ${name}: `)), `${name} in ${problems.join("\n")}`).toBe(true);
    expect(problems.find((p) => p.startsWith("province-summaries.csv.gz"))).toMatch(/gzip stream cannot be read to its end: unexpected end of file/);
    expect(problems.find((p) => p.includes("tiles-provinces.pmtiles"))).toMatch(/tile \d+\/\d+\/\d+: tile gzip: |directory/);
    expect(problems.find((p) => p.includes(raster))).toMatch(/PNG|directory/);
    expect(problems.find((p) => p.startsWith("province-index.bin"))).toMatch(/vertex \d+ of province \d+ \(\w\w-\w+\)|differs from the rings/);
  }, 60_000);

  // Alone, so that the export cross-check names them: the province summaries' and the grid's values live in these
  // files and again in the Parquet exports; a flipped value disagrees.
  for (const name of ["province-summaries.bin", "drought-grid.bin", "province-summaries.parquet"]) {
    it(`refuses four bytes flipped in the middle of ${name}`, async () => {
      const { dir, manifest } = await editedCopy(regional, (d) => patch(d, name, flipMiddle));
      const problems = await problemsOf(dir, manifest, regionalInputs);
      expect(problems.join("\n")).toMatch(name === "drought-grid.bin" ? /^(drought-grid\.bin|drought-cells\.parquet): /m : /^province-summaries\.(bin|parquet): /m);
    }, 60_000);
  }

  it("refuses a province summary made NaN where its cells have values (the export disagrees)", async () => {
    // Province 0, month 100 (1987-05), spei3: 9 slots per record (8 indices and cells used).
    const { dir, manifest } = await editedCopy(regional, (d) => patch(d, "province-summaries.bin", (b) => void b.writeFloatLE(NaN, b.readUInt32LE(28) + (100 * 9 + 1) * 4)));
    expect(await validateVersion(dir)).toEqual([]); // one index NaN is a legitimate record at load
    expect((await problemsOf(dir, manifest, regionalInputs)).join("\n")).toMatch(/^province-summaries\.parquet: row 15700 column spei3: -?\d.*, the source has null/m);
  }, 60_000);

  it("refuses a renamed province, 200 province vertices moved by 0.5°, a grid cell the coverage mask calls outside, and tiles of other months than the index's", async () => {
    const { dir, manifest } = await editedCopy(regional, (d) => {
      patch(d, "provinces.json", (b) => Buffer.from(b.toString("utf8").replace('"nameEn": "Bangkok"', '"nameEn": "Bankok"')));
      patch(d, "province-index.bin", (b) => {
        const coords = new Float64Array(b.buffer, b.byteOffset + 32, 400);
        for (let i = 0; i < 400; i += 2) coords[i] += 0.5;
      });
      const grid = openDroughtGridFile(join(d, "drought-grid.bin"));
      patch(d, "coverage-mask.bin", (b) => {
        const dv = new DataView(b.buffer, b.byteOffset);
        const [cols, west, south, res] = [dv.getUint32(12, true), dv.getFloat64(24, true), dv.getFloat64(32, true), dv.getFloat64(40, true)];
        b[48 + Math.floor((grid.cellLat(0) - south) / res) * cols + Math.floor((grid.cellLng(0) - west) / res)] = 0;
      });
      patch(d, "tiles-index.json", (b) => {
        const index = JSON.parse(b.toString("utf8"));
        index.months = index.months.map((m: string) => m.replace(/^(\d{4})/, (y) => String(Number(y) - 1)));
        return Buffer.from(JSON.stringify(index));
      });
    });
    const problems = (await problemsOf(dir, manifest, regionalInputs)).join("\n");
    expect(problems).toMatch(/^provinces\.json: province \d+ \(TH-10\): nameEn "Bankok", the boundary input has "Bangkok"/m);
    expect(problems).toMatch(/^province-index\.bin: vertex 0 of province 0 \(\w\w-\w+\) is at /m);
    expect(problems).toMatch(/^coverage-mask\.bin: grid cell 0 \(id \d+, .*\) lies in a square the mask calls outside/m);
    expect(problems).toMatch(/^tiles-index\.json: its months end at \d{4}-\d\d, the version's latest valid month is/m);
  }, 60_000);

  const atOpen: Array<[string, (dir: string, m: Manifest) => void, RegExp]> = [
    ["a grid value of 30", (d) => patch(d, "drought-grid.bin", (b) => void b.writeFloatLE(30, b.length - 4)), /drought-grid: value 30 of mcdi .* is outside/],
    ["a grid value of −Inf", (d) => patch(d, "drought-grid.bin", (b) => void b.writeFloatLE(-Infinity, b.length - 8)), /value -Infinity of spi3 .* is outside/],
    ["a province summary of 30", (d) => patch(d, "province-summaries.bin", (b) => void b.writeFloatLE(30, b.readUInt32LE(28))), /province-summaries\.bin: value 30 of spei1 .* is outside/],
    ["latestValidMonth 2001-01", (_d, m) => void (m.latestValidMonth = "2001-01"), /manifest\.json: latestValidMonth 2001-01 is not the grid's \(\d{4}-\d\d: /],
    ["a tiles index without months", (d) => patch(d, "tiles-index.json", (b) => Buffer.from(JSON.stringify({ ...JSON.parse(b.toString("utf8")), months: [] }))), /tiles-index\.json: .*no month/],
    ["a coverage mask of zeros", (d) => patch(d, "coverage-mask.bin", (b) => void b.fill(0, 48)), /coverage-mask\.bin: no square is inside or mixed/],
  ];
  for (const [what, edit, reason] of atOpen) {
    it(`refuses ${what} (as the load does)`, async () => {
      const { dir, manifest } = await editedCopy(regional, edit);
      expect((await problemsOf(dir, manifest, regionalInputs)).join("\n")).toMatch(reason);
    });
  }

  it("refuses a province confidence of NaN where the province's cells have confidences (station grid, with its land cells)", async () => {
    const m = readManifest(stations);
    const region = loadRegion(dataDir(), ["THA"]);
    const cells = buildLandCells(region.provinces, { resolutionDeg: m.settings.resolutionDeg as number });
    const conf = new ConfidenceGrid(new Uint8Array(readFileSync(join(stations, "confidence.bin"))));
    let at = conf.nProvinces * conf.nMonths - 1; // the last province-month with a confidence
    while (conf.province(Math.floor(at / conf.nMonths), at % conf.nMonths) === null) at--;
    const fromEnd = (conf.nProvinces * conf.nMonths - at) * 4; // province confidences are the file's last section
    const { dir, manifest } = await editedCopy(stations, (d) => patch(d, "confidence.bin", (b) => void b.writeFloatLE(NaN, b.length - fromEnd)));
    expect(await validateVersion(dir)).toEqual([]); // NaN is the format's "no confidence": the load cannot tell
    expect((await problemsOf(dir, manifest, { provinces: region, cells })).join("\n")).toMatch(/^confidence\.bin: confidence of \w\w-\w+, \d{4}-\d\d is none \(NaN\), its cells give 0\.\d+/m);
  }, 60_000);
});
