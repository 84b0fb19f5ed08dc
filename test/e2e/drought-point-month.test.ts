// The month of a point answer (issue 21, part 6), through the real server over a small published version whose cells'
// records end at different months: without a month, a point is answered for its own cell's latest month with SPEI-1
// and says why (monthReason; batch items carry their month), while the province answer keeps the grid's national
// latest valid month. The score summary names a drought event under way (SPEI-3 below −1) even when SPEI-1 alone
// is above the drought levels, and never says "No drought" during one.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { writeProvinceIndex, writeProvincesJson } from "../../formats/province-index.ts";
import { ProvinceSummariesReader, writeProvinceSummaries } from "../../formats/province-summaries.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { INSIDE, writeCoverageMask } from "../../formats/coverage-mask.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { monthIndex } from "../../lib/months.ts";
import { CELL_LATEST_MONTH_RULE } from "../../lib/drought/cell-latest.ts";
import { createStaging, publishStaging } from "../../pipeline/publish/publish.ts";
import { CELLS, fixtureGridBytes, INDICES, PROVINCE_META, PROVINCES, writeVersionExtras } from "../tiles/fixture.ts";
import { startRealServer, type RealServer } from "./real-server.ts";

const MONTHS = ["2020-01", "2020-02", "2020-03"];
const [S1, S3] = [INDICES.indexOf("spei1"), INDICES.indexOf("spei3")];

/**
 * Per cell and month, SPEI-1 and SPEI-3 (NaN: missing); the other indices are 0.1 where SPEI-3 has a value.
 * 0: whole record; SPEI-1 back to normal in March inside a run of SPEI-3 below −1 since January.
 * 1: ends in February. 2: ends in January (the national month). 3: no SPEI-1 at all (other indices present).
 * 4: whole record, D1 in March, no run. 5: whole record, no drought and no run in March.
 */
const SERIES: Array<Array<[spei1: number, spei3: number]>> = [
  [[-1.4, -1.2], [-1.9, -1.5], [0.4, -1.1]],
  [[0.3, 0.2], [-0.6, -0.4], [NaN, NaN]],
  [[-1.0, -0.7], [NaN, NaN], [NaN, NaN]],
  [[NaN, 0.5], [NaN, 0.4], [NaN, 0.3]],
  [[0.2, 0.1], [0.1, 0.0], [-1.0, -0.5]],
  [[0.5, 0.4], [0.3, 0.2], [0.2, -0.2]],
];

let server: RealServer;
const get = (path: string) => fetch(server.base + path, { headers: { "x-api-key": server.key } });
const post = (path: string, body: unknown) =>
  fetch(server.base + path, { method: "POST", headers: { "x-api-key": server.key, "content-type": "application/json" }, body: JSON.stringify(body) });
const at = (c: number) => `lat=${CELLS[c][0]}&lng=${CELLS[c][1]}`;
const score = async (c: number) => (await (await post("/api/risk-map/score", { lat: CELLS[c][0], lng: CELLS[c][1], riskType: "drought" })).json()).data;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "point-month-"));
  const staging = createStaging(root, "20200401T000000Z-point-month");
  const nCells = CELLS.length;
  const nMonths = MONTHS.length;
  const values = new Float32Array(nCells * nMonths * INDICES.length);
  SERIES.forEach((months, c) =>
    months.forEach(([s1, s3], m) => {
      for (let i = 0; i < INDICES.length; i++) values[(c * nMonths + m) * INDICES.length + i] = i === S1 ? s1 : i === S3 ? s3 : Number.isNaN(s3) ? NaN : 0.1;
    }),
  );
  const firstMonth = monthIndex(2020, 1);
  const gridBytes = fixtureGridBytes(firstMonth, nMonths, values);
  writeFileSync(join(staging.dir, "drought-grid.bin"), gridBytes);
  const summaryBytes = writeProvinceSummaries({ indexNames: INDICES, nProvinces: 2, nMonths, firstMonth, values: new Float32Array(2 * nMonths * INDICES.length).fill(-0.6), cellsUsed: new Uint16Array(2 * nMonths).fill(2) });
  writeFileSync(join(staging.dir, "province-summaries.bin"), summaryBytes);
  await writeVersionExtras(staging.dir, openDroughtGrid(gridBytes), new ProvinceSummariesReader(summaryBytes));
  writeFileSync(join(staging.dir, "province-index.bin"), writeProvinceIndex(flattenRings(PROVINCES)));
  writeFileSync(join(staging.dir, "provinces.json"), writeProvincesJson(PROVINCE_META));
  writeFileSync(join(staging.dir, "coverage-mask.bin"), writeCoverageMask({ west: 100, south: 13, resolutionDeg: 0.5, nCols: 3, nRows: 2, state: new Uint8Array(6).fill(INSIDE) }));
  writeFileSync(join(staging.dir, "build-report.json"), JSON.stringify({ ok: true }));
  // The national latest valid month: January (in February and March not every cell has every index).
  await publishStaging(staging, {
    builtAt: "2020-04-01T00:00:00.000Z",
    inputs: {},
    baseline: { start: "1961-01", end: "1990-12" },
    monthRange: { first: MONTHS[0], last: MONTHS[2] },
    latestValidMonth: "2020-01",
    qc: {},
    report: "build-report.json",
    settings: {},
  });
  server = await startRealServer(root);
}, 60_000);

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe("the default month of a point is its cell's latest month with SPEI-1", () => {
  it("GET /api/risk-map/drought: March, February, January by cell, and says why; a named month is 'requested'", async () => {
    for (const [c, month] of [[0, "2020-03"], [1, "2020-02"], [2, "2020-01"], [4, "2020-03"]] as const) {
      const res = await get(`/api/risk-map/drought?${at(c)}`);
      expect(res.status, `cell ${c}`).toBe(200);
      const { data } = await res.json();
      expect(data.period, `cell ${c}`).toEqual({ month, monthReason: CELL_LATEST_MONTH_RULE, climatologyBaseline: "1961-1990" });
      expect(data.drought.indices.spei1).toBe(Math.round(Math.fround(SERIES[c][MONTHS.indexOf(month)][0]) * 1000) / 1000);
    }
    const named = (await (await get(`/api/risk-map/drought?${at(0)}&month=2020-01`)).json()).data;
    expect(named.period).toEqual({ month: "2020-01", monthReason: "requested", climatologyBaseline: "1961-1990" });
    expect((await get(`/api/risk-map/drought?${at(2)}&month=2020-03`)).status).toBe(404);
    const csv = parse(await (await get(`/api/risk-map/drought?${at(1)}&format=csv`)).text(), { columns: true }) as Record<string, string>[];
    expect(csv[0].month).toBe("2020-02");
  });

  it("a cell without any SPEI-1 is 404 naming the record searched", async () => {
    const res = await get(`/api/risk-map/drought?${at(3)}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toBe("no SPEI-1 value at the nearest grid point from 2020-01 to 2020-03");
  });

  it("POST /api/risk-map/score (drought): the cell's month in currentConditions, with its reason, and in the summary", async () => {
    const d = await score(1);
    expect(d.details.currentConditions).toMatchObject({ month: "2020-02", monthReason: CELL_LATEST_MONTH_RULE, spei1: -0.6 });
    expect(d.details.recentMonths[0].month).toBe("2020-02");
    expect(d.summary).toBe(`D0 (Abnormally Dry) in 2020-02 (${CELL_LATEST_MONTH_RULE}): SPEI-1 -0.60 at the nearest grid point, 0.0 km away.`);
  });

  it("POST /api/risk-map/batch: each item its cell's month (JSON, GeoJSON, CSV); no month where nothing was found", async () => {
    const locations = [0, 1, 2, 3].map((c) => ({ id: `c${c}`, lat: CELLS[c][0], lng: CELLS[c][1] }));
    const { data } = await (await post("/api/risk-map/batch", { riskType: "drought", locations })).json();
    expect(data.results.map((r: { month: string | null }) => r.month)).toEqual(["2020-03", "2020-02", "2020-01", null]);
    expect(data.results[3]).toMatchObject({ found: false, reason: "no SPEI-1 value at the nearest grid point from 2020-01 to 2020-03" });
    expect(data.results[0]).toMatchObject({ found: true, spei1: 0.4, severity: null });
    const fc = await (await post("/api/risk-map/batch", { riskType: "drought", format: "geojson", locations })).json();
    expect(fc.features.map((f: { properties: { month: string | null } }) => f.properties.month)).toEqual(["2020-03", "2020-02", "2020-01", null]);
    const csv = await (await post("/api/risk-map/batch", { riskType: "drought", format: "csv", locations })).text();
    expect(csv.split("\r\n")[0].replace(/\n.*/s, "")).toMatch(/^id,lat,lng,month,found,/);
    expect((parse(csv, { columns: true }) as Record<string, string>[]).map((r) => r.month)).toEqual(["2020-03", "2020-02", "2020-01", ""]);
  });

  it("the province answer keeps the national latest valid month", async () => {
    const { data } = await (await get("/api/risk-map/drought/province?name=Alpha")).json();
    expect(data.month).toBe("2020-01");
  });
});

describe("the score summary during a drought event", () => {
  it("names the current run of SPEI-3 below -1 when SPEI-1 is back above the drought levels, never 'No drought'", async () => {
    const d = await score(0);
    expect(d.details.currentConditions).toMatchObject({ month: "2020-03", spei1: 0.4, spei3: -1.1, severity: null });
    expect(d.details.droughtEvent.current).toMatchObject({ onset: "2020-01", months: 3 });
    expect(d.summary).not.toMatch(/no drought/i);
    expect(d.summary).toBe(
      `SPEI-1 0.40 in 2020-03 (${CELL_LATEST_MONTH_RULE}) is above the drought levels (D0 at -0.5) at the nearest grid point, 0.0 km away, ` +
        "but a drought event is under way: SPEI-3 below -1 since 2020-01 (3 months; -1.10 in 2020-03).",
    );
  });

  it("says 'No drought' only without a D-level and without a current run", async () => {
    const d4 = await score(4);
    expect(d4.details.droughtEvent.current).toBeNull();
    expect(d4.summary).toBe(`D1 (Moderate Drought) in 2020-03 (${CELL_LATEST_MONTH_RULE}): SPEI-1 -1.00 at the nearest grid point, 0.0 km away.`);
    const d5 = await score(5);
    expect(d5.details.droughtEvent.current).toBeNull();
    expect(d5.summary).toBe(`No drought in 2020-03 (${CELL_LATEST_MONTH_RULE}): SPEI-1 0.20 at the nearest grid point, 0.0 km away.`);
  });
});
