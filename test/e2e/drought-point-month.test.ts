// The month of a point answer, through the real server over a small published version whose cells' records end at
// different months and lack different indices: without a month, every drought answer (point, score, batch, province)
// serves the grid's default month — the manifest's latest valid month, March here — where the cell has every index
// then; a cell lacking one answers its own latest month with every index, and a cell that never has every index its
// latest month with SPEI-1, each saying why (monthReason; batch items carry their month). Every answer states the days
// of that month (details.period, asOf) and whether they are current at the service clock; the score summary names a
// drought event under way (SPEI-3 below -1) even when SPEI-1 alone is above the drought levels, never says
// "No drought" during one, and speaks of a month that ended more than a year before today in the past tense.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { pino } from "pino";
import { writeProvinceIndex, writeProvincesJson } from "../../formats/province-index.ts";
import { ProvinceSummariesReader, writeProvinceSummaries } from "../../formats/province-summaries.ts";
import { openDroughtGrid } from "../../formats/drought-grid.ts";
import { INSIDE, writeCoverageMask } from "../../formats/coverage-mask.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";
import { monthIndex } from "../../lib/months.ts";
import { CELL_COMPLETE_MONTH_RULE, CELL_LATEST_MONTH_RULE, GRID_DEFAULT_MONTH_RULE } from "../../lib/drought/cell-latest.ts";
import { createStaging, publishStaging } from "../../pipeline/publish/publish.ts";
import { ArtifactStore } from "../../server/data/artifact-store.ts";
import { openDroughtArtifacts, type DroughtArtifacts } from "../../formats/drought-version.ts";
import { ArtifactDroughtService } from "../../server/services/drought-service.ts";
import { CELLS, fixtureGridBytes, INDICES, PROVINCE_META, PROVINCES, writeVersionExtras } from "../tiles/fixture.ts";
import { startRealServer, type RealServer } from "./real-server.ts";
import { expectTimeToday, timeOn, todayUtc } from "./answer-time.ts";

const MONTHS = ["2020-01", "2020-02", "2020-03"];
/** The days of each month (2020 is a leap year). */
const DAYS: Record<string, [from: string, to: string]> = {
  "2020-01": ["2020-01-01", "2020-01-31"],
  "2020-02": ["2020-02-01", "2020-02-29"],
  "2020-03": ["2020-03-01", "2020-03-31"],
};
/** The grid's default month: the manifest's latest valid month, set by hand below. */
const GRID_MONTH = "2020-03";
const [S1, S3, S12, MCDI] = [INDICES.indexOf("spei1"), INDICES.indexOf("spei3"), INDICES.indexOf("spei12"), INDICES.indexOf("mcdi")];

/**
 * Per cell and month, SPEI-1 and SPEI-3 (NaN: missing); the other indices are 0.1 where SPEI-3 has a value, except
 * the holes of HOLES. 0: whole record; SPEI-1 back to normal in March inside a run of SPEI-3 below −1 since January.
 * 1: every index to February; in March SPEI-1 but no MCDI (the grid's month lacks an index: February, its latest
 * month with every index). 2: SPEI-1 in January only, and never SPEI-12 (no month has every index: January, its latest
 * month with SPEI-1). 3: no SPEI-1 at all (other indices present). 4: whole record, D1 in March, no run. 5: whole
 * record, no drought and no run in March.
 */
const SERIES: Array<Array<[spei1: number, spei3: number]>> = [
  [[-1.4, -1.2], [-1.9, -1.5], [0.4, -1.1]],
  [[0.3, 0.2], [-0.6, -0.4], [0.5, 0.3]],
  [[-1.0, -0.7], [NaN, NaN], [NaN, NaN]],
  [[NaN, 0.5], [NaN, 0.4], [NaN, 0.3]],
  [[0.2, 0.1], [0.1, 0.0], [-1.0, -0.5]],
  [[0.5, 0.4], [0.3, 0.2], [0.2, -0.2]],
];
/** Missing values besides SERIES's: [cell, month offset, index]. */
const HOLES: Array<[number, number, number]> = [[1, 2, MCDI], [2, 0, S12], [2, 1, S12], [2, 2, S12]];

let server: RealServer;
let store: ArtifactStore<DroughtArtifacts>;
const get = (path: string) => fetch(server.base + path, { headers: { "x-api-key": server.key } });
const post = (path: string, body: unknown) =>
  fetch(server.base + path, { method: "POST", headers: { "x-api-key": server.key, "content-type": "application/json" }, body: JSON.stringify(body) });
const at = (c: number) => `lat=${CELLS[c][0]}&lng=${CELLS[c][1]}`;
const score = async (c: number) => (await (await post("/api/risk-map/score", { lat: CELLS[c][0], lng: CELLS[c][1], riskType: "drought" })).json()).data;
/** The same service in this process, its clock fixed at noon UTC of `day`. */
const scoreOn = (day: string, c: number) =>
  new ArtifactDroughtService(store, () => Date.parse(`${day}T12:00:00Z`)).score({ lat: CELLS[c][0], lng: CELLS[c][1], riskType: "drought", includeHistorical: false, timeframe: "30d" });
const r3 = (x: number) => Math.round(Math.fround(x) * 1000) / 1000;

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
  for (const [c, m, i] of HOLES) values[(c * nMonths + m) * INDICES.length + i] = NaN;
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
  // The grid's latest valid month, set by hand: March (the build's rule, 90 % of cells with every index, is not met
  // by six cells with holes; the server takes the manifest's month as the grid's default).
  await publishStaging(staging, {
    builtAt: "2020-04-01T00:00:00.000Z",
    inputs: {},
    baseline: { start: "1961-01", end: "1990-12" },
    monthRange: { first: MONTHS[0], last: MONTHS[2] },
    latestValidMonth: GRID_MONTH,
    qc: {},
    report: "build-report.json",
    settings: {},
  });
  server = await startRealServer(root);
  store = new ArtifactStore<DroughtArtifacts>({ root, open: openDroughtArtifacts, logger: pino({ level: "silent" }), label: "drought artifacts" });
  expect(await store.reload()).toBe("loaded");
}, 60_000);

afterAll(async () => {
  store?.stop();
  expect(await server.stop()).toBe(0);
});

describe("one default month: the grid's, else the cell's latest month with every index, else with SPEI-1", () => {
  it("GET /api/risk-map/drought: March where the cell has every index, else February, January by cell, and says why; a named month is 'requested'", async () => {
    const cases = [
      [0, "2020-03", GRID_DEFAULT_MONTH_RULE],
      [1, "2020-02", CELL_COMPLETE_MONTH_RULE],
      [2, "2020-01", CELL_LATEST_MONTH_RULE],
      [4, "2020-03", GRID_DEFAULT_MONTH_RULE],
      [5, "2020-03", GRID_DEFAULT_MONTH_RULE],
    ] as const;
    for (const [c, month, monthReason] of cases) {
      const before = todayUtc();
      const res = await get(`/api/risk-map/drought?${at(c)}`);
      expect(res.status, `cell ${c}`).toBe(200);
      const { data } = await res.json();
      expect(data.period, `cell ${c}`).toEqual({ month, monthReason, climatologyBaseline: "1961-1990" });
      const m = MONTHS.indexOf(month);
      expect(data.drought.indices.spei1).toBe(r3(SERIES[c][m][0]));
      expect(data.drought.indices.spei3).toBe(r3(SERIES[c][m][1]));
      // The time fields: the days of the month served, its last day, not current at today's clock (2020 is past).
      expectTimeToday(data.details, ...DAYS[month], before, `cell ${c}`);
      expect(data.details.currency.current).toBe(false);
      // Every index a number where the month has every index; SPEI-12 null at the cell that never has it.
      for (const k of INDICES) {
        if (c === 2 && k === "spei12") expect(data.drought.indices[k], `cell ${c} ${k}`).toBeNull();
        else expect(typeof data.drought.indices[k], `cell ${c} ${k}`).toBe("number");
      }
    }
    const named = (await (await get(`/api/risk-map/drought?${at(0)}&month=2020-01`)).json()).data;
    expect(named.period).toEqual({ month: "2020-01", monthReason: "requested", climatologyBaseline: "1961-1990" });
    expect(named.details.period).toEqual({ from: "2020-01-01", to: "2020-01-31" });
    // Named, the grid's month at cell 1 answers with its SPEI-1 and MCDI null (the hole that made its default February).
    const march1 = (await (await get(`/api/risk-map/drought?${at(1)}&month=2020-03`)).json()).data;
    expect(march1.drought.indices).toMatchObject({ spei1: 0.5, mcdi: null });
    expect((await get(`/api/risk-map/drought?${at(2)}&month=2020-03`)).status).toBe(404);
    const csvRes = await get(`/api/risk-map/drought?${at(1)}&format=csv`);
    const csv = parse(await csvRes.text(), { columns: true }) as Record<string, string>[];
    expect(csv[0].month).toBe("2020-02");
    // A CSV body has rows only: its time comes as headers, the JSON answer's details.
    expect([csvRes.headers.get("x-data-period"), csvRes.headers.get("x-data-as-of"), csvRes.headers.get("x-data-current")]).toEqual(["2020-02-01/2020-02-29", "2020-02-29", "false"]);
    expect(csvRes.headers.get("access-control-expose-headers")).toContain("X-Data-Period, X-Data-As-Of, X-Data-Current");
  });

  it("a cell without any SPEI-1 is 404 naming the record searched", async () => {
    const res = await get(`/api/risk-map/drought?${at(3)}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toBe("no SPEI-1 value at the nearest grid point from 2020-01 to 2020-03");
  });

  it("POST /api/risk-map/score (drought): the cell's month in currentConditions, with its reason and days, and in the summary (in the past: 2020-02 ended more than a year ago)", async () => {
    const before = todayUtc();
    const d = await score(1);
    expect(d.details.currentConditions).toMatchObject({ month: "2020-02", monthReason: CELL_COMPLETE_MONTH_RULE, spei1: -0.6 });
    expect(d.details.recentMonths[0].month).toBe("2020-02");
    expectTimeToday({ period: d.details.period, asOf: d.details.asOf, currency: d.details.currency }, "2020-02-01", "2020-02-29", before);
    expect(d.summary).toBe(`D0 (Abnormally Dry) in 2020-02 (${CELL_COMPLETE_MONTH_RULE}): SPEI-1 -0.60 at the nearest grid point, 0.0 km away. The data end in 2020-03.`);
    const geo = await (await post("/api/risk-map/score?format=geojson", { lat: CELLS[1][0], lng: CELLS[1][1], riskType: "drought" })).json();
    expect(geo.properties).toMatchObject({ periodFrom: "2020-02-01", periodTo: "2020-02-29", asOf: "2020-02-29", current: false });
  });

  it("POST /api/risk-map/batch: each item its cell's month (JSON, GeoJSON, CSV); no month where nothing was found", async () => {
    const locations = [0, 1, 2, 3].map((c) => ({ id: `c${c}`, lat: CELLS[c][0], lng: CELLS[c][1] }));
    const { data } = await (await post("/api/risk-map/batch", { riskType: "drought", locations })).json();
    expect(data.results.map((r: { month: string | null }) => r.month)).toEqual(["2020-03", "2020-02", "2020-01", null]);
    expect(data.results[3]).toMatchObject({ found: false, reason: "no SPEI-1 value at the nearest grid point from 2020-01 to 2020-03" });
    expect(data.results[0]).toMatchObject({ found: true, spei1: 0.4, severity: null });
    expect(data.results[1]).toMatchObject({ found: true, spei1: -0.6, severity: "D0" });
    expect(data.results[2]).toMatchObject({ found: true, spei1: -1, severity: "D1" });
    const fc = await (await post("/api/risk-map/batch", { riskType: "drought", format: "geojson", locations })).json();
    expect(fc.features.map((f: { properties: { month: string | null } }) => f.properties.month)).toEqual(["2020-03", "2020-02", "2020-01", null]);
    const csvRes = await post("/api/risk-map/batch", { riskType: "drought", format: "csv", locations });
    const csv = await csvRes.text();
    expect(csv.split("\r\n")[0].replace(/\n.*/s, "")).toMatch(/^id,lat,lng,month,found,/);
    expect((parse(csv, { columns: true }) as Record<string, string>[]).map((r) => r.month)).toEqual(["2020-03", "2020-02", "2020-01", ""]);
    // The rows' months as the JSON answer's details: the first day of the oldest to the last of the newest.
    expect(data.details).toMatchObject({ period: { from: "2020-01-01", to: "2020-03-31" }, asOf: "2020-03-31", currency: { current: false } });
    expect([csvRes.headers.get("x-data-period"), csvRes.headers.get("x-data-as-of"), csvRes.headers.get("x-data-current")]).toEqual(["2020-01-01/2020-03-31", "2020-03-31", "false"]);
    // No row with data: no time headers (each row says why; JSON has details null and its reason).
    const none = await post("/api/risk-map/batch", { riskType: "drought", format: "csv", locations: [locations[3]] });
    expect(none.status).toBe(200);
    expect([none.headers.get("x-data-period"), none.headers.get("x-data-as-of"), none.headers.get("x-data-current")]).toEqual([null, null, null]);
  });

  it("the province and the choropleth answer the grid's month, with its days", async () => {
    const before = todayUtc();
    const { data } = await (await get("/api/risk-map/drought/province?name=Alpha")).json();
    expect(data.month).toBe(GRID_MONTH);
    expectTimeToday(data.details, ...DAYS[GRID_MONTH], before);
    const map = await (await get("/api/risk-map/drought/provinces")).json();
    expect(map.month).toBe(GRID_MONTH);
    expectTimeToday(map.details, ...DAYS[GRID_MONTH], before);
  });

  it("where the cell has every index in the grid's month, the point, the score, the batch item and the province name that month", async () => {
    // Cell 0 lies in Alpha, cells 4 and 5 in Beta (fixture PROVINCE_CELLS).
    for (const [c, province] of [[0, "Alpha"], [4, "Beta"], [5, "Beta"]] as const) {
      const point = (await (await get(`/api/risk-map/drought?${at(c)}`)).json()).data;
      const s = await score(c);
      const batch = (await (await post("/api/risk-map/batch", { riskType: "drought", locations: [{ lat: CELLS[c][0], lng: CELLS[c][1] }] })).json()).data.results[0];
      const p = (await (await get(`/api/risk-map/drought/province?name=${province}`)).json()).data;
      expect([point.period.month, s.details.currentConditions.month, batch.month, p.month], `cell ${c}`).toEqual([GRID_MONTH, GRID_MONTH, GRID_MONTH, GRID_MONTH]);
      expect(s.details.currentConditions.monthReason).toBe(GRID_DEFAULT_MONTH_RULE);
      expect(s.details.period).toEqual(p.details.period);
    }
  });
});

describe("the score summary during a drought event", () => {
  it("names the run of SPEI-3 below -1 when SPEI-1 is back above the drought levels, never 'No drought'; in the past tense with the data's end, as the month ended over a year ago", async () => {
    const d = await score(0);
    expect(d.details.currentConditions).toMatchObject({ month: "2020-03", monthReason: GRID_DEFAULT_MONTH_RULE, spei1: 0.4, spei3: -1.1, severity: null });
    expect(d.details.droughtEvent.current).toMatchObject({ onset: "2020-01", months: 3 });
    expect(d.summary).not.toMatch(/no drought/i);
    expect(d.summary).toBe(
      `SPEI-1 0.40 in 2020-03 (${GRID_DEFAULT_MONTH_RULE}) was above the drought levels (D0 at -0.5) at the nearest grid point, 0.0 km away, ` +
        "but a drought event was under way in 2020-03: SPEI-3 below -1 since 2020-01 (3 months; -1.10 in 2020-03). The data end in 2020-03.",
    );
  });

  it("says 'No drought' only without a D-level and without a current run", async () => {
    const d4 = await score(4);
    expect(d4.details.droughtEvent.current).toBeNull();
    expect(d4.summary).toBe(`D1 (Moderate Drought) in 2020-03 (${GRID_DEFAULT_MONTH_RULE}): SPEI-1 -1.00 at the nearest grid point, 0.0 km away. The data end in 2020-03.`);
    const d5 = await score(5);
    expect(d5.details.droughtEvent.current).toBeNull();
    expect(d5.summary).toBe(`No drought in 2020-03 (${GRID_DEFAULT_MONTH_RULE}): SPEI-1 0.20 at the nearest grid point, 0.0 km away. The data end in 2020-03.`);
    const d2 = await score(2);
    expect(d2.summary).toBe(`D1 (Moderate Drought) in 2020-01 (${CELL_LATEST_MONTH_RULE}): SPEI-1 -1.00 at the nearest grid point, 0.0 km away. The data end in 2020-03.`);
  });

  it("at a clock within a year of the month's end, the same answers are in the present tense, without the data's end; current within 92 days", () => {
    const soon = scoreOn("2020-04-15", 0);
    expect(soon.summary).toBe(
      `SPEI-1 0.40 in 2020-03 (${GRID_DEFAULT_MONTH_RULE}) is above the drought levels (D0 at -0.5) at the nearest grid point, 0.0 km away, ` +
        "but a drought event is under way: SPEI-3 below -1 since 2020-01 (3 months; -1.10 in 2020-03).",
    );
    expect({ period: soon.details.period, asOf: soon.details.asOf, currency: soon.details.currency }).toEqual(timeOn("2020-03-01", "2020-03-31", "2020-04-15"));
    expect(soon.details.currency).toMatchObject({ current: true, ageDays: 15 });
    expect(scoreOn("2020-04-15", 5).summary).toBe(`No drought in 2020-03 (${GRID_DEFAULT_MONTH_RULE}): SPEI-1 0.20 at the nearest grid point, 0.0 km away.`);
    // 92 days after 2020-03-31 is current, 93 is not.
    expect(scoreOn("2020-07-01", 4).details.currency).toMatchObject({ current: true, ageDays: 92 });
    expect(scoreOn("2020-07-02", 4).details.currency).toMatchObject({ current: false, ageDays: 93 });
    // A year (365 days) after the month's end still speaks in the present; a day more in the past.
    const year = scoreOn("2021-03-31", 4);
    expect(year.details.currency).toMatchObject({ current: false, ageDays: 365 });
    expect(year.summary).toBe(`D1 (Moderate Drought) in 2020-03 (${GRID_DEFAULT_MONTH_RULE}): SPEI-1 -1.00 at the nearest grid point, 0.0 km away.`);
    const later = scoreOn("2021-04-01", 0);
    expect(later.details.currency).toMatchObject({ current: false, ageDays: 366 });
    expect(later.summary).toMatch(/ was above the drought levels .* but a drought event was under way in 2020-03: .* The data end in 2020-03\.$/);
  });
});
