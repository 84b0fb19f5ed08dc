// The drought part of `npm run validate` (issue 34): how good the regional grid's inputs are over Thailand, Vietnam and
// Malaysia, and how the two Thai drought grids compare. (1) CPC 1° precipitation against the GHCN-Daily stations the
// station grid uses; (2) GHCN-Monthly temperature at each station interpolated from the others, as the regional grid
// puts it on its cells (pipeline/grid/station-temperature.ts); (3) SPEI-3 of the station grid against SPEI-3 of the
// CPC grid, each 0.25° cell against the 1° cell containing it. Pure functions; run.ts reads the inputs.
import { haversineKm } from "../lib/geo/sphere.ts";
import { calendarMonthOf, formatMonth, type MonthIndex } from "../lib/months.ts";
import { stationTemperatureGrid, type TemperatureStation } from "../pipeline/grid/station-temperature.ts";

/** A correlation needs this many months both report: below it r says little and is not reported. */
export const MIN_MONTHS = 24;
/** SPEI-3 at or below this is drought here: the run threshold of the drought events (docs/methods/drought-events.md). */
export const DROUGHT_SPEI = -1;

export interface Correlation {
  /** Months both series report. */
  n: number;
  /** Pearson r; null with fewer than minMonths months or a constant series. */
  r: number | null;
}

/** Pearson r over the positions where both are finite. */
export function pearson(a: ArrayLike<number>, b: ArrayLike<number>, minMonths = MIN_MONTHS): Correlation {
  let n = 0, sa = 0, sb = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isFinite(a[i]) && Number.isFinite(b[i])) {
      n++;
      sa += a[i];
      sb += b[i];
    }
  }
  if (n < minMonths || n < 2) return { n, r: null };
  const ma = sa / n, mb = sb / n;
  let cab = 0, caa = 0, cbb = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) continue;
    cab += (a[i] - ma) * (b[i] - mb);
    caa += (a[i] - ma) ** 2;
    cbb += (b[i] - mb) ** 2;
  }
  return { n, r: caa === 0 || cbb === 0 ? null : cab / Math.sqrt(caa * cbb) };
}

/**
 * Both series with each calendar month's mean over the months both report taken away (NaN where either is missing):
 * raw monthly precipitation or temperature correlates through the seasonal cycle alone.
 */
export function withoutSeasonalCycle(a: ArrayLike<number>, b: ArrayLike<number>, firstMonth: MonthIndex): [Float64Array, Float64Array] {
  const sum = [new Float64Array(12), new Float64Array(12)];
  const count = new Uint32Array(12);
  const both = (i: number) => Number.isFinite(a[i]) && Number.isFinite(b[i]);
  for (let i = 0; i < a.length; i++) {
    if (!both(i)) continue;
    const k = calendarMonthOf(firstMonth + i) - 1;
    sum[0][k] += a[i];
    sum[1][k] += b[i];
    count[k]++;
  }
  const out: [Float64Array, Float64Array] = [new Float64Array(a.length).fill(NaN), new Float64Array(a.length).fill(NaN)];
  for (let i = 0; i < a.length; i++) {
    if (!both(i)) continue;
    const k = calendarMonthOf(firstMonth + i) - 1;
    out[0][i] = a[i] - sum[0][k] / count[k];
    out[1][i] = b[i] - sum[1][k] / count[k];
  }
  return out;
}

/** `series` (starting at `from`) on the months first..first+n−1, NaN outside it. */
export function onAxis(series: ArrayLike<number>, from: MonthIndex, first: MonthIndex, n: number): Float64Array {
  const out = new Float64Array(n).fill(NaN);
  for (let m = Math.max(first, from); m < Math.min(first + n, from + series.length); m++) out[m - first] = series[m - from];
  return out;
}

/** Whether the cell of width `step` centred on `centre` holds x (west/south edge in, east/north edge out). */
const holds = (centre: number, step: number, x: number) => x >= centre - step / 2 && x < centre + step / 2;

/** Index of the regularly spaced centre whose cell holds x, or −1. */
export function cellIndex(centres: ArrayLike<number>, x: number): number {
  const step = centres.length > 1 ? Math.abs(centres[1] - centres[0]) : 1;
  for (let i = 0; i < centres.length; i++) if (holds(centres[i], step, x)) return i;
  return -1;
}

export interface Spread {
  count: number;
  median: number | null;
  min: number | null;
  max: number | null;
}

export function spread(values: readonly (number | null)[]): Spread {
  const v = values.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { count: 0, median: null, min: null, max: null };
  const h = v.length >> 1;
  return { count: v.length, median: v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2, min: v[0], max: v[v.length - 1] };
}

// --- (1) CPC precipitation against the GHCN-Daily stations ---

/** A gridded monthly field as pipeline/inputs/netcdf reads it: values[(lat * nLng + lng) * nMonths + month]. */
export interface MonthlyField {
  lats: ArrayLike<number>;
  lngs: ArrayLike<number>;
  months: readonly MonthIndex[];
  values: ArrayLike<number>;
}

export interface StationPrecipitation {
  id: string;
  name: string;
  lat: number;
  lng: number;
  firstMonth: MonthIndex;
  /** mm per month, NaN where the month fails the station grid's completeness rule. */
  prcp: ArrayLike<number>;
}

export interface StationSkillRow {
  id: string;
  name: string;
  raw: Correlation;
  anomaly: Correlation;
  /** Why there is no pair: outside the grid, or the cell is masked (sea). */
  note: string;
}

/** Each station's monthly precipitation against the grid cell containing it, raw and without the seasonal cycle. */
export function stationsAgainstGrid(stations: readonly StationPrecipitation[], grid: MonthlyField, minMonths = MIN_MONTHS): StationSkillRow[] {
  const nMonths = grid.months.length;
  const first = grid.months[0];
  return stations.map((s) => {
    const none = { id: s.id, name: s.name, raw: { n: 0, r: null }, anomaly: { n: 0, r: null } };
    const i = cellIndex(grid.lats, s.lat);
    const j = cellIndex(grid.lngs, s.lng);
    if (i < 0 || j < 0) return { ...none, note: "outside the grid" };
    const offset = (i * grid.lngs.length + j) * nMonths;
    const cell = Float64Array.from({ length: nMonths }, (_, m) => grid.values[offset + m]);
    if (cell.every((v) => !Number.isFinite(v))) return { ...none, note: "cell masked (no land value)" };
    const station = onAxis(s.prcp, s.firstMonth, first, nMonths);
    const [sa, ca] = withoutSeasonalCycle(station, cell, first);
    const raw = pearson(station, cell, minMonths);
    return { id: s.id, name: s.name, raw, anomaly: pearson(sa, ca, minMonths), note: raw.n < minMonths ? `fewer than ${minMonths} months both report` : "" };
  });
}

// --- (2) GHCN-Monthly temperature held out ---

export interface IdentifiedStation extends TemperatureStation {
  id: string;
}

export interface HeldOutRow {
  id: string;
  /** Months with both the station's value and an interpolated one. */
  n: number;
  /** Mean of interpolated − observed, °C. */
  bias: number | null;
  rmse: number | null;
  /** r of the monthly anomalies (seasonal cycle removed as in withoutSeasonalCycle). */
  r: number | null;
}

/** Interpolated − observed over the months both have; bias and RMSE null below minMonths. */
export function heldOutErrors(id: string, predicted: ArrayLike<number>, observed: ArrayLike<number>, firstMonth: MonthIndex, minMonths = MIN_MONTHS): HeldOutRow {
  let n = 0, sum = 0, sq = 0;
  for (let i = 0; i < observed.length; i++) {
    const d = predicted[i] - observed[i];
    if (!Number.isFinite(d)) continue;
    n++;
    sum += d;
    sq += d * d;
  }
  const [pa, oa] = withoutSeasonalCycle(predicted, observed, firstMonth);
  if (n < minMonths) return { id, n, bias: null, rmse: null, r: null };
  return { id, n, bias: sum / n, rmse: Math.sqrt(sq / n), r: pearson(pa, oa, minMonths).r };
}

/**
 * Each target station's temperature interpolated from all the other stations exactly as the regional grid does it
 * (normal + anomaly by IDW, stationTemperatureGrid), compared with its own values on first..first+nMonths−1.
 * `excludeWithinKm` leaves out the stations that near too: the extract holds co-located duplicate records of one
 * station under other ids, which would predict it as if it were not held out.
 */
export function heldOutTemperature(
  stations: readonly IdentifiedStation[],
  isTarget: (s: IdentifiedStation) => boolean,
  firstMonth: MonthIndex,
  nMonths: number,
  baseline: { start: MonthIndex; end: MonthIndex },
  excludeWithinKm = 0,
  minMonths = MIN_MONTHS,
): HeldOutRow[] {
  const rows: HeldOutRow[] = [];
  stations.forEach((s, i) => {
    if (!isTarget(s)) return;
    const others = stations.filter((o, k) => k !== i && !(haversineKm(s.lat, s.lng, o.lat, o.lng) < excludeWithinKm));
    const t = stationTemperatureGrid(others, Float64Array.of(s.lat), Float64Array.of(s.lng), firstMonth, nMonths, { baselineStart: baseline.start, baselineEnd: baseline.end });
    rows.push(heldOutErrors(s.id, t.values, onAxis(s.tavg, s.firstMonth, firstMonth, nMonths), firstMonth, minMonths));
  });
  return rows;
}

export interface CountrySkill {
  /** GHCN country code: the id's first two letters. */
  country: string;
  stations: number;
  /** Stations without minMonths months of both (no figures). */
  withoutOverlap: number;
  bias: { median: number | null; worst: number | null };
  rmse: { median: number | null; worst: number | null };
  r: { median: number | null; worst: number | null };
}

/** Per country: median and worst (largest |bias|, largest RMSE, lowest r) of the held-out rows. */
export function byCountry(rows: readonly HeldOutRow[]): CountrySkill[] {
  const countries = [...new Set(rows.map((r) => r.id.slice(0, 2)))].sort();
  return countries.map((country) => {
    const of = rows.filter((r) => r.id.slice(0, 2) === country);
    const ok = of.filter((r) => r.bias !== null);
    const biases = ok.map((r) => r.bias!);
    const worstBias = biases.reduce<number | null>((w, b) => (w === null || Math.abs(b) > Math.abs(w) ? b : w), null);
    return {
      country,
      stations: ok.length,
      withoutOverlap: of.length - ok.length,
      bias: { median: spread(biases).median, worst: worstBias },
      rmse: { median: spread(ok.map((r) => r.rmse)).median, worst: spread(ok.map((r) => r.rmse)).max },
      r: { median: spread(ok.map((r) => r.r)).median, worst: spread(ok.map((r) => r.r)).min },
    };
  });
}

// --- (3) The two Thai grids side by side ---

/** One index layer of a grid on its cell centres: values[cell * nMonths + month]. */
export interface CellLayer {
  lat: ArrayLike<number>;
  lng: ArrayLike<number>;
  firstMonth: MonthIndex;
  nMonths: number;
  values: ArrayLike<number>;
}

export interface GridComparison {
  fineCells: number;
  /** Fine cells inside a coarse cell (the others are left out). */
  pairedCells: number;
  firstMonth: string;
  lastMonth: string;
  /** Over the paired cells with minMonths months of both. */
  r: Spread;
  /** Cell-months where both have a value, split by drought (≤ threshold) in each. */
  cellMonths: number;
  both: number;
  fineOnly: number;
  coarseOnly: number;
  neither: number;
  /** (both + neither) / cellMonths. */
  agreement: number | null;
}

/**
 * Pairs each fine cell with the coarse cell (resolution coarseDeg, centred) containing it and compares them over the
 * months both grids span, cut to `within` when given.
 */
export function compareGrids(
  fine: CellLayer,
  coarse: CellLayer,
  coarseDeg: number,
  within: { first: MonthIndex; last: MonthIndex } = { first: -Infinity, last: Infinity },
  threshold = DROUGHT_SPEI,
  minMonths = MIN_MONTHS,
): GridComparison {
  const first = Math.max(fine.firstMonth, coarse.firstMonth, within.first);
  const last = Math.min(fine.firstMonth + fine.nMonths - 1, coarse.firstMonth + coarse.nMonths - 1, within.last);
  const n = Math.max(0, last - first + 1);
  const at = (g: CellLayer, c: number) => Float64Array.from({ length: n }, (_, m) => g.values[c * g.nMonths + first - g.firstMonth + m]);
  const rs: (number | null)[] = [];
  const out = { both: 0, fineOnly: 0, coarseOnly: 0, neither: 0, cellMonths: 0, pairedCells: 0 };
  for (let c = 0; c < fine.lat.length; c++) {
    let k = -1;
    for (let q = 0; q < coarse.lat.length && k < 0; q++) {
      if (holds(coarse.lat[q], coarseDeg, fine.lat[c]) && holds(coarse.lng[q], coarseDeg, fine.lng[c])) k = q;
    }
    if (k < 0) continue;
    out.pairedCells++;
    const f = at(fine, c);
    const g = at(coarse, k);
    rs.push(pearson(f, g, minMonths).r);
    for (let m = 0; m < n; m++) {
      if (!Number.isFinite(f[m]) || !Number.isFinite(g[m])) continue;
      out.cellMonths++;
      const df = f[m] <= threshold, dg = g[m] <= threshold;
      if (df && dg) out.both++;
      else if (df) out.fineOnly++;
      else if (dg) out.coarseOnly++;
      else out.neither++;
    }
  }
  return {
    fineCells: fine.lat.length,
    firstMonth: formatMonth(first),
    lastMonth: formatMonth(last),
    r: spread(rs),
    ...out,
    agreement: out.cellMonths === 0 ? null : (out.both + out.neither) / out.cellMonths,
  };
}

// --- The section of docs/validation.md ---

export const DROUGHT_HEADING = "## Drought: the regional grid's inputs and the Thai grids compared";

export interface DroughtSkill {
  day: string;
  /** What the inputs were (files, policy, baselines), for the text. */
  setup: { dryDayPolicy: string; stationBaseline: string; cpcBaseline: string; seconds: number };
  precipitation: StationSkillRow[];
  /** Held out: the station alone, then with every station within `withinKm` of it. */
  temperature: { withinKm: number; alone: CountrySkill[]; near: CountrySkill[] };
  /** The whole overlap first, then its parts (labelled). */
  grids: { label: string; comparison: GridComparison }[];
}

const minus = (x: number | string) => String(x).replace("-", "−");
const f2 = (x: number | null) => (x === null ? "–" : minus(x.toFixed(2)));
const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);
const spreadText = (s: Spread) => (s.count === 0 ? "–" : `median ${f2(s.median)} (min ${f2(s.min)}, max ${f2(s.max)}; ${s.count} stations)`);

/** The section (heading included), lines without the trailing newline. */
export function droughtSkillMarkdown(d: DroughtSkill): string[] {
  const p = d.precipitation;
  const g = d.grids[0].comparison;
  const out = [
    DROUGHT_HEADING,
    "",
    `Measured ${d.day} by \`npm run validate\` (alone: \`npm run validate -- --only drought\`, ${d.setup.seconds} s;`,
    "validation/drought-skill.ts) on the data mirror: CPC 1° gauge precipitation (1979–2023), GHCN-Monthly v4 TAVG and",
    "the GHCN-Daily Thai stations. No published version is read: both grids are built in process by the pipeline's own",
    "functions.",
    "",
    "### CPC precipitation against the GHCN-Daily stations",
    "",
    `Each Thai GHCN-Daily station's monthly precipitation (the station grid's own months: the completeness rule of`,
    `pipeline/inputs/ghcnd/aggregate.ts, dry-day policy ${d.setup.dryDayPolicy}) against the CPC cell containing it, over the`,
    `months both report (CPC from 1979; the stations end in 2019); r only with ${MIN_MONTHS} months or more. Raw r`,
    "correlates through the monsoon cycle alone; the anomaly r (each calendar month's mean over the shared months taken",
    "away from both) is the skill that matters for drought. Not independent: CPC's analysis is made from gauge reports",
    "that include these synoptic stations' own (GTS), so r measures agreement of the two records, and a 1° cell's mean",
    "against one gauge.",
    "",
    `- raw monthly totals: r ${spreadText(spread(p.map((x) => x.raw.r)))}`,
    `- anomalies: r ${spreadText(spread(p.map((x) => x.anomaly.r)))}`,
    "",
    "| station | name | months | r | r of anomalies | note |",
    "|---|---|---|---|---|---|",
    ...p.map((x) => `| ${x.id} | ${x.name} | ${x.raw.n} | ${f2(x.raw.r)} | ${f2(x.anomaly.r)} | ${x.note} |`),
    "",
    "### GHCN-Monthly temperature, each station held out",
    "",
    "Each station of Thailand (TH), Vietnam (VM) and Malaysia (MY) interpolated from all the other stations of the",
    `mirror's extract exactly as the regional grid puts temperature on its cells (pipeline/grid/station-temperature.ts:`,
    `normal over ${d.setup.cpcBaseline} + anomaly, IDW, 1,200 km, 8 nearest; no elevation correction), against its own values`,
    "1979–2023. Bias: interpolated − observed (°C); r: of the monthly anomalies. Worst: largest |bias|, largest RMSE,",
    `lowest r. Stations with fewer than ${MIN_MONTHS} months of both are counted apart.`,
    "",
    `Held out: the station alone; then also every station within ${d.temperature.withinKm} km of it, since the extract holds co-located`,
    "duplicate records of one station under other ids (Ubon Ratchathani, Udon Thani, Da Nang, Saigon), which predict it",
    "as if it were not held out: the second is the skill away from any station.",
    "",
    "| country | held out | stations | without overlap | bias median | bias worst | RMSE median | RMSE worst | r median | r worst |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...[...d.temperature.alone.map((c) => [c, "itself"] as const), ...d.temperature.near.map((c) => [c, `within ${d.temperature.withinKm} km`] as const)]
      .sort((a, b) => a[0].country.localeCompare(b[0].country))
      .map(([c, how]) => `| ${c.country} | ${how} | ${c.stations} | ${c.withoutOverlap} | ${f2(c.bias.median)} | ${f2(c.bias.worst)} | ${f2(c.rmse.median)} | ${f2(c.rmse.worst)} | ${f2(c.r.median)} | ${f2(c.r.worst)} |`),
    "",
    "### SPEI-3: the station grid against the CPC grid over Thailand",
    "",
    `The station grid (GHCN-Daily, 0.25°, baseline ${d.setup.stationBaseline}) and the CPC grid (gridFromCpc over the Thai`,
    `provinces, 1°, baseline ${d.setup.cpcBaseline}), each 0.25° cell paired with the 1° cell containing it, over the`,
    `months both have (${g.firstMonth}..${g.lastMonth}): ${g.fineCells} station-grid cells, ${g.pairedCells} inside a CPC cell. r: per cell`,
    `over its months, then across cells. Drought: SPEI-3 ≤ ${minus(DROUGHT_SPEI)}; agreement: the share of cell-months both call drought`,
    "or both do not; joint: of the cell-months either calls drought, the share both do. The baselines differ: an SPEI value is",
    "relative to its own baseline's climate, so a drier or wetter 1991–2020 than 1961–1990 shifts one grid's values",
    "against the other's; r does not see that shift, the drought counts do. The station records thin out after 1998",
    "(docs/methods/station-data.md: most dry days unreported), hence the two periods.",
    "",
    "| months | cells | r median | r min | r max | cell-months | both drought | station grid only | CPC only | neither | agreement | joint | in drought: station grid / CPC |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...d.grids.map(({ label, comparison: c }) => {
      const either = c.both + c.fineOnly + c.coarseOnly;
      const share = (x: number) => pct(c.cellMonths === 0 ? null : x / c.cellMonths);
      return `| ${label} | ${c.r.count} | ${f2(c.r.median)} | ${f2(c.r.min)} | ${f2(c.r.max)} | ${c.cellMonths} | ${c.both} | ${c.fineOnly} | ${c.coarseOnly} | ${c.neither} | ${pct(c.agreement)} | ${pct(either === 0 ? null : c.both / either)} | ${share(c.both + c.fineOnly)} / ${share(c.both + c.coarseOnly)} |`;
    }),
  ];
  return out;
}

/** `doc` with its drought section (from DROUGHT_HEADING to the next "## " heading) replaced by `section`, or appended. */
export function replaceDroughtSection(doc: string, section: string[]): string {
  const lines = doc.replace(/\n$/, "").split("\n");
  const start = lines.indexOf(DROUGHT_HEADING);
  if (start < 0) return [...lines, "", ...section].join("\n") + "\n";
  let end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  if (end < 0) end = lines.length;
  const after = lines.slice(end);
  return [...lines.slice(0, start), ...section, ...(after.length ? ["", ...after] : [])].join("\n") + "\n";
}
