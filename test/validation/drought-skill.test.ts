// The drought section of `npm run validate` (validation/drought-skill.ts): correlations, held-out temperature and
// the two grids compared, on synthetic series whose results are worked by hand in the comments.
import { describe, expect, it } from "vitest";
import { monthIndex } from "../../lib/months.ts";
import {
  byCountry,
  cellIndex,
  compareGrids,
  DROUGHT_HEADING,
  droughtSkillMarkdown,
  heldOutErrors,
  heldOutTemperature,
  onAxis,
  pearson,
  replaceDroughtSection,
  spread,
  stationsAgainstGrid,
  withoutSeasonalCycle,
  type DroughtSkill,
  type HeldOutRow,
} from "../../validation/drought-skill.ts";

const JAN_2000 = monthIndex(2000, 1);
const nan = NaN;

describe("pearson", () => {
  it("is r over the positions both report", () => {
    // a = 1,2,3 (mean 2), b = 2,4,7 (mean 13/3): Σdadb = 5, Σda² = 2, Σdb² = 38/3, r = 5 / √(76/3).
    const c = pearson([1, 2, 3, nan], [2, 4, 7, 100], 2);
    expect(c.n).toBe(3);
    expect(c.r).toBeCloseTo(5 / Math.sqrt(76 / 3), 12);
  });
  it("is null below the months asked for and for a constant series, with n counted", () => {
    expect(pearson([1, 2, 3], [2, 4, 7], 4)).toEqual({ n: 3, r: null });
    expect(pearson([1, 1, 1], [2, 4, 7], 2)).toEqual({ n: 3, r: null });
  });
});

describe("withoutSeasonalCycle", () => {
  it("takes away each calendar month's mean over the months both report", () => {
    // Indices 0 and 12 are January 2000 and 2001, 1 is February 2000 (b missing there).
    const a = new Array(13).fill(nan);
    const b = new Array(13).fill(nan);
    [a[0], a[1], a[12]] = [10, 5, 14];
    [b[0], b[1], b[12]] = [1, nan, 3];
    const [x, y] = withoutSeasonalCycle(a, b, JAN_2000);
    expect([x[0], x[12], y[0], y[12]]).toEqual([-2, 2, -1, 1]); // January means 12 and 2
    expect(x[1]).toBeNaN(); // February: b does not report
    expect(y[1]).toBeNaN();
  });
});

describe("onAxis, cellIndex, spread", () => {
  it("puts a series on an axis, NaN outside it, cut at both ends", () => {
    expect(Array.from(onAxis([1, 2, 3], 5, 4, 3))).toEqual([nan, 1, 2]);
    expect(Array.from(onAxis([1, 2, 3], 2, 4, 2))).toEqual([3, nan]);
  });
  it("finds the cell holding a point: lower edge in, upper edge out", () => {
    const centres = [5.5, 6.5, 7.5];
    expect(cellIndex(centres, 6)).toBe(1);
    expect(cellIndex(centres, 5)).toBe(0);
    expect(cellIndex(centres, 7.99)).toBe(2);
    expect(cellIndex(centres, 8)).toBe(-1);
  });
  it("gives median, min and max of the values there are", () => {
    expect(spread([3, null, 1, 2, nan])).toEqual({ count: 3, median: 2, min: 1, max: 3 });
    expect(spread([4, 1])).toEqual({ count: 2, median: 2.5, min: 1, max: 4 });
    expect(spread([null])).toEqual({ count: 0, median: null, min: null, max: null });
  });
});

describe("stationsAgainstGrid", () => {
  // Two years on one 1° column: cell (10.5, 100.5) has values, cell (11.5, 100.5) is masked.
  // Cell = 100·k + x, station = 100·k + y (k the calendar month, 0-based); x is +1 in 2000 and −1 in 2001, y is
  // +1 in January–June 2000 and July–December 2001, −1 otherwise, so x and y are uncorrelated.
  const months = Array.from({ length: 24 }, (_, m) => JAN_2000 + m);
  const x = (m: number) => (m < 12 ? 1 : -1);
  const y = (m: number) => ((m % 12 < 6) === m < 12 ? 1 : -1);
  const values = new Float64Array(48).fill(nan);
  for (let m = 0; m < 24; m++) values[m] = 100 * (m % 12) + x(m);
  const grid = { lats: [10.5, 11.5], lngs: [100.5], months, values };
  const station = (id: string, lat: number, firstMonth: number, prcp: number[]) => ({ id, name: id, lat, lng: 100.9, firstMonth, prcp });

  it("correlates through the seasonal cycle raw and not at all once it is taken away", () => {
    const [row] = stationsAgainstGrid([station("A", 10.2, JAN_2000, months.map((_, m) => 100 * (m % 12) + y(m)))], grid);
    // Raw: the shared part is 100·k, Σ(100·(k − 5.5))² over two years = 2,860,000; x and y add 24 to each variance
    // and nothing to the covariance. Anomalies: x → ±1, y → ±1 with Σxy = 6 − 6 + 6 − 6 = 0.
    expect(row.raw).toEqual({ n: 24, r: expect.closeTo(2_860_000 / 2_860_024, 12) });
    expect(row.anomaly.n).toBe(24);
    expect(row.anomaly.r).toBeCloseTo(0, 12);
    expect(row.note).toBe("");
  });
  it("says why a station has no figures", () => {
    const rows = stationsAgainstGrid(
      [
        station("masked", 11.3, JAN_2000, new Array(24).fill(1)),
        station("outside", 20, JAN_2000, new Array(24).fill(1)),
        station("short", 10.2, JAN_2000 - 12, new Array(24).fill(1)), // 1999–2000: 12 months on the grid's axis
      ],
      grid,
    );
    expect(rows.map((r) => r.note)).toEqual(["cell masked (no land value)", "outside the grid", "fewer than 24 months both report"]);
    expect(rows[2].raw).toEqual({ n: 12, r: null });
  });
});

describe("heldOutErrors", () => {
  it("gives bias and RMSE of interpolated − observed and r of their anomalies", () => {
    // January 2000/2001 at 0/12, February at 1/13. Differences 1, 1, 2, −1: bias 3/4, RMSE √(7/4).
    // Anomalies: predicted −1.5, 0, +1.5, 0 (January mean 12.5, February 21); observed −1, −1, +1, +1: r = 3/√18.
    const predicted = new Array(14).fill(nan);
    const observed = new Array(14).fill(nan);
    [predicted[0], predicted[1], predicted[12], predicted[13]] = [11, 21, 14, 21];
    [observed[0], observed[1], observed[12], observed[13]] = [10, 20, 12, 22];
    const row = heldOutErrors("X", predicted, observed, JAN_2000, 4);
    expect(row.n).toBe(4);
    expect(row.bias).toBeCloseTo(0.75, 12);
    expect(row.rmse).toBeCloseTo(Math.sqrt(7 / 4), 12);
    expect(row.r).toBeCloseTo(3 / Math.sqrt(18), 12);
    expect(heldOutErrors("X", predicted, observed, JAN_2000, 5)).toEqual({ id: "X", n: 4, bias: null, rmse: null, r: null });
  });
});

describe("heldOutTemperature", () => {
  it("interpolates each target from the others only", () => {
    // On the equator, target T at 100 °E, A at 101 (1°) and B at 97 (3°): IDW weights 1 and 1/9, i.e. 0.9 and 0.1.
    // Ten years 2000–2009, the baseline. A = 25 + k/10 with January 2005 +2 (A's January normal 25.2, anomalies
    // −0.2 and +1.8 in 2005); B = 29 + k/10. At T: normal 0.9·25 + 0.1·29 = 25.4 (+ k/10; January 25.58), anomaly
    // 0.9·A's, so January 25.4 and 27.2 in 2005, every other month 25.4 + k/10.
    // T = 25 + k/10 with January 2005 +1: difference 0.4 in 119 months and 1.2 in one: bias 48.8/120,
    // RMSE √(20.48/120); the January anomalies of both are proportional to A's: r = 1.
    const series = (base: number, extra: number) => Float64Array.from({ length: 120 }, (_, m) => base + (m % 12) / 10 + (m === 60 ? extra : 0));
    const stations = [
      { id: "TH_T", lat: 0, lng: 100, firstMonth: JAN_2000, tavg: series(25, 1) },
      { id: "LA_A", lat: 0, lng: 101, firstMonth: JAN_2000, tavg: series(25, 2) },
      { id: "CB_B", lat: 0, lng: 97, firstMonth: JAN_2000, tavg: series(29, 0) },
    ];
    const rows = heldOutTemperature(stations, (s) => s.id.startsWith("TH"), JAN_2000, 120, { start: JAN_2000, end: JAN_2000 + 119 });
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe("TH_T");
    expect(rows[0].n).toBe(120);
    expect(rows[0].bias).toBeCloseTo(48.8 / 120, 6); // the interpolation is float32
    expect(rows[0].rmse).toBeCloseTo(Math.sqrt(20.48 / 120), 6);
    expect(rows[0].r).toBeCloseTo(1, 6);

    // A duplicate record of T under another id at the same place (as THW00041017 of TH000048407): it alone makes
    // the estimate (a station at the point) unless the stations within 1 km are held out too, giving the above again.
    const withDuplicate = [...stations, { ...stations[0], id: "LA_D" }];
    const [fooled] = heldOutTemperature(withDuplicate, (s) => s.id.startsWith("TH"), JAN_2000, 120, { start: JAN_2000, end: JAN_2000 + 119 });
    expect(fooled.bias).toBeCloseTo(0, 5); // float32 rounding of 25–27 °C: ~1e-6
    expect(fooled.rmse).toBeCloseTo(0, 5);
    const [held] = heldOutTemperature(withDuplicate, (s) => s.id.startsWith("TH"), JAN_2000, 120, { start: JAN_2000, end: JAN_2000 + 119 }, 1);
    expect(held.bias).toBeCloseTo(48.8 / 120, 6);
  });
});

describe("byCountry", () => {
  it("gives per country the median and the worst: largest |bias|, largest RMSE, lowest r", () => {
    const row = (id: string, bias: number | null, rmse: number | null, r: number | null): HeldOutRow => ({ id, n: bias === null ? 3 : 100, bias, rmse, r });
    const out = byCountry([row("TH1", 0.5, 1, 0.9), row("TH2", -0.8, 2, 0.7), row("TH3", 0.1, 0.5, 0.8), row("TH4", null, null, null), row("VM1", 0.2, 0.3, null)]);
    expect(out).toEqual([
      { country: "TH", stations: 3, withoutOverlap: 1, bias: { median: 0.1, worst: -0.8 }, rmse: { median: 1, worst: 2 }, r: { median: 0.8, worst: 0.7 } },
      { country: "VM", stations: 1, withoutOverlap: 0, bias: { median: 0.2, worst: 0.2 }, rmse: { median: 0.3, worst: 0.3 }, r: { median: null, worst: null } },
    ]);
  });
});

describe("compareGrids", () => {
  // Fine cells (0.25°): two inside the coarse cell centred 10.5 °N 100.5 °E, one outside. Fine months 2000-01..04,
  // coarse 2000-02..05: both 2000-02..04.
  const fine = { lat: [10.125, 10.875, 12.125], lng: [100.125, 100.875, 100.125], firstMonth: JAN_2000, nMonths: 4, values: [9, -1.5, 0.5, -1, 9, 0, -2, nan, 9, -3, -3, -3] };
  const coarse = { lat: [10.5], lng: [100.5], firstMonth: JAN_2000 + 1, nMonths: 4, values: [-1, 1, -0.5, 9] };
  it("pairs each fine cell with the coarse cell holding it over the months both have", () => {
    // Cell 0: −1.5/−1 both (−1 counts as drought), 0.5/1 neither, −1/−0.5 fine only; fine = coarse − 0.5: r 1.
    // Cell 1: 0/−1 coarse only, −2/1 fine only, the third month missing; two points falling: r −1.
    const c = compareGrids(fine, coarse, 1, undefined, -1, 2);
    expect(c).toEqual({
      fineCells: 3,
      pairedCells: 2,
      firstMonth: "2000-02",
      lastMonth: "2000-04",
      r: { count: 2, median: expect.closeTo(0, 12), min: expect.closeTo(-1, 12), max: expect.closeTo(1, 12) },
      cellMonths: 5,
      both: 1,
      fineOnly: 2,
      coarseOnly: 1,
      neither: 1,
      agreement: 0.4,
    });
  });
  it("keeps to the months asked for", () => {
    const c = compareGrids(fine, coarse, 1, { first: JAN_2000 + 2, last: JAN_2000 + 2 }, -1, 2);
    expect([c.firstMonth, c.lastMonth, c.cellMonths, c.neither, c.fineOnly, c.agreement]).toEqual(["2000-03", "2000-03", 2, 1, 1, 0.5]);
    expect(c.r.count).toBe(0); // one month: no r
  });
});

describe("the section in docs/validation.md", () => {
  const skill: DroughtSkill = {
    day: "2026-11-28",
    setup: { dryDayPolicy: "assume-dry", stationBaseline: "1961-01..1990-12", cpcBaseline: "1991-01..2020-12", seconds: 50 },
    precipitation: [
      { id: "TH1", name: "ONE", raw: { n: 400, r: 0.9 }, anomaly: { n: 400, r: 0.8 }, note: "" },
      { id: "TH2", name: "TWO", raw: { n: 300, r: 0.85 }, anomaly: { n: 300, r: -0.2 }, note: "" },
      { id: "TH3", name: "THREE", raw: { n: 0, r: null }, anomaly: { n: 0, r: null }, note: "fewer than 24 months both report" },
    ],
    temperature: { withinKm: 10, alone: [], near: [] },
    grids: [{ label: "all", comparison: compareGrids({ lat: [0.125], lng: [0.125], firstMonth: 0, nMonths: 2, values: [-1.2, 0.3] }, { lat: [0.5], lng: [0.5], firstMonth: 0, nMonths: 2, values: [-1.3, -1.1] }, 1, undefined, -1, 2) }],
  };
  it("states the spread over stations and the grids' counts", () => {
    const md = droughtSkillMarkdown(skill);
    expect(md[0]).toBe(DROUGHT_HEADING);
    expect(md).toContain("- anomalies: r median 0.30 (min −0.20, max 0.80; 2 stations)");
    expect(md).toContain("| TH3 | THREE | 0 | – | – | fewer than 24 months both report |");
    // Both in drought in month 0, CPC only in month 1: agreement 1/2, joint 1/2; both rise: r = 1.
    expect(md).toContain("| all | 1 | 1.00 | 1.00 | 1.00 | 2 | 1 | 0 | 1 | 0 | 50.0 % | 50.0 % | 50.0 % / 100.0 % |");
  });
  it("replaces its own section and keeps the others, or appends itself", () => {
    const doc = ["# V", "", "## A", "a", "", DROUGHT_HEADING, "old", "", "## B", "b", ""].join("\n");
    expect(replaceDroughtSection(doc, [DROUGHT_HEADING, "new"])).toBe(["# V", "", "## A", "a", "", DROUGHT_HEADING, "new", "", "## B", "b", ""].join("\n"));
    expect(replaceDroughtSection("# V\n\n## A\na\n", [DROUGHT_HEADING, "new"])).toBe(`# V\n\n## A\na\n\n${DROUGHT_HEADING}\nnew\n`);
    expect(replaceDroughtSection(`# V\n\n${DROUGHT_HEADING}\nold\n### sub\nold\n`, [DROUGHT_HEADING, "new"])).toBe(`# V\n\n${DROUGHT_HEADING}\nnew\n`);
  });
});
