// WHO GHO indicators in the OData API's JSON layout (what `make refresh` downloads) next to the portal's CSV export
// (the data mirror): the malaria and cholera adapters read both into the same series, and a refresh from a replay of
// the API puts the JSON where the builder reads it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import type { CaseSeries } from "../../lib/outbreaks/series.ts";
import { readCsvRecords, type CsvRejection } from "../../pipeline/feeds/csv.ts";
import { CHOLERA_CASES_JSON, choleraInput, readCholera } from "../../pipeline/health/who-cholera.ts";
import { MALARIA_CASES_FILE, MALARIA_CASES_JSON, MALARIA_DIR, malariaInput, parseGhoJsonByCountry, readMalaria } from "../../pipeline/health/who-gho-malaria.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";

const plain = (list: CaseSeries[]) => list.map((s) => ({ area: s.area, start: s.start, values: Array.from(s.values) }));

/** A GHO OData answer from observations. */
const odata = (value: object[]) => JSON.stringify({ "@odata.context": "https://ghoapi.azureedge.net/api/$metadata#MALARIA_CONF_CASES", value });

/** The mirror's malaria CSV as the OData API would answer it. */
function malariaAsOdata(): string {
  const csv = readCsvRecords(readFileSync(join(dataDir(), MALARIA_DIR, MALARIA_CASES_FILE), "utf8"), "csv");
  return odata(
    csv.records.map((r) => ({
      IndicatorCode: r.IndicatorCode,
      SpatialDimType: r.SpatialDimension,
      SpatialDim: r.SpatialDimensionValueCode,
      TimeDimType: "YEAR",
      TimeDim: Number(r.TimeDim),
      Value: r.Value,
      NumericValue: r.NumericValue === "" ? null : Number(r.NumericValue),
    })),
  );
}

/** A data directory holding only `files` (relative path → text). */
function dirWith(files: Record<string, string>): string {
  const d = mkdtempSync(join(tmpdir(), "gho-json-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(d, rel, ".."), { recursive: true });
    writeFileSync(join(d, rel), text);
  }
  return d;
}

describe("GHO OData JSON", () => {
  it("keeps countries, skips regions, reads Value when NumericValue is null, rejects an observation without a code", () => {
    const rejected: CsvRejection[] = [];
    const m = parseGhoJsonByCountry(
      odata([
        { SpatialDimType: "COUNTRY", SpatialDim: "THA", TimeDim: 2021, NumericValue: 3000, Value: "3 000" },
        { SpatialDimType: "COUNTRY", SpatialDim: "THA", TimeDim: 2020, NumericValue: null, Value: "28 569" },
        { SpatialDimType: "REGION", SpatialDim: "SEAR", TimeDim: 2021, NumericValue: 5e6, Value: "5 000 000" },
        { SpatialDimType: "COUNTRY", TimeDim: 2021, NumericValue: 1, Value: "1" },
        { SpatialDimType: "COUNTRY", SpatialDim: "LAO", TimeDim: 2021, NumericValue: null, Value: "No data" },
      ]),
      "MALARIA_CONF_CASES.json",
      rejected,
    );
    expect([...m]).toEqual([["THA", [[2020, 28569], [2021, 3000]]]]);
    expect(rejected).toEqual([{ file: "MALARIA_CONF_CASES.json", line: 4, reason: "observation 4: no country code (SpatialDim) or year (TimeDim)" }]);
    expect(() => parseGhoJsonByCountry("<html>", "x.json")).toThrow(/^x\.json: not JSON/);
    expect(() => parseGhoJsonByCountry('{"error":"busy"}', "x.json")).toThrow('x.json: no "value" array (not a GHO OData answer)');
  });

  it("malaria: the JSON of the mirror's rows gives the same series as the CSV", () => {
    const fromCsv = readMalaria(dataDir());
    expect(malariaInput(dataDir())).toBe(join(MALARIA_DIR, MALARIA_CASES_FILE));
    const d = dirWith({ [join(MALARIA_DIR, MALARIA_CASES_JSON)]: malariaAsOdata() });
    expect(malariaInput(d)).toBe(join(MALARIA_DIR, MALARIA_CASES_JSON));
    const fromJson = readMalaria(d);
    expect(fromJson.length).toBe(108);
    expect(plain(fromJson)).toEqual(plain(fromCsv));
  });

  it("cholera: countries by ISO code from the JSON, the same series as the CSV's names give; a former state left out", () => {
    const fromCsv = readCholera(dataDir());
    const rows = fromCsv.series.flatMap((s) =>
      Array.from(s.values).flatMap((v, i) => (Number.isNaN(v) ? [] : [{ SpatialDimType: "COUNTRY", SpatialDim: s.area, TimeDim: s.start + i, NumericValue: v, Value: String(v) }])),
    );
    rows.push({ SpatialDimType: "COUNTRY", SpatialDim: "SCG", TimeDim: 2004, NumericValue: 3, Value: "3" });
    const d = dirWith({ [CHOLERA_CASES_JSON]: odata(rows) });
    expect(choleraInput(d)).toBe(CHOLERA_CASES_JSON);
    const fromJson = readCholera(d);
    expect(fromJson.leftOut).toEqual(["SCG"]);
    expect(plain(fromJson.series)).toEqual(plain(fromCsv.series));
  });
});

describe("refresh of who_gho_cholera from a replay of the OData API", () => {
  let server: Server;
  let base = "";
  const body = odata([
    { SpatialDimType: "COUNTRY", SpatialDim: "THA", TimeDim: 2023, NumericValue: 12, Value: "12" },
    { SpatialDimType: "COUNTRY", SpatialDim: "THA", TimeDim: 2024, NumericValue: 7, Value: "7" },
  ]);
  beforeAll(async () => {
    server = createServer((req, res) => {
      const ok = /^\/api\/CHOLERA_000000000[123]$/.test(req.url ?? "");
      res.writeHead(ok ? 200 : 404, { "content-type": "application/json" });
      res.end(ok ? body : "{}");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("links the cases indicator into the inputs tree, where the cholera adapter reads it", async () => {
    const artifacts = mkdtempSync(join(tmpdir(), "gho-json-art-"));
    const env = { SOURCE_URL_WHO_GHO_CHOLERA: `${base}/api`, SOURCES_RETRIES: "0" };
    const [r] = await refreshSources({ dataDir: dataDir(), artifactsDir: artifacts, env, only: ["who_gho_cholera"], progress: { start() {}, source() {} } });
    expect(r).toMatchObject({ source: "who_gho_cholera", outcome: "updated", changed: 3, dataAsOf: "2024-12-31" });
    const { dir: tree } = await writeInputOverlay(dataDir(), artifacts, env);
    expect(choleraInput(tree)).toBe(CHOLERA_CASES_JSON);
    const tha = readCholera(tree).series.find((s) => s.area === "THA")!;
    expect([tha.start, Array.from(tha.values)]).toEqual([2023, [12, 7]]);
  });
});
