// Drought answers from the published artifacts: nearest grid cell, province summaries, score and batch items.
// Every call takes the artifact version once (store.current()) and uses only it, so a hot swap never mixes
// versions inside one response. Numbers come from lib/drought-scale.ts; nothing here invents a value: no data
// means NotFoundError (or found:false in a batch).
import type { GridSourceName } from "../../lib/drought/grid-sources.ts";
import { NotFoundError } from "../errors.ts";
import { confidenceLabel, droughtLevel, droughtScore, riskLevel, D_LEVEL_NAMES } from "../../lib/drought-scale.ts";
import { formatMonth, parseMonth, type MonthIndex } from "../../lib/months.ts";
import { closeMatches, looseName, normalizeName } from "../../lib/province-names.ts";
import { ArtifactStore } from "../data/artifact-store.ts";
import { DROUGHT_KIND } from "../../formats/version-files.ts";
import { locateCell, locateReason, NO_CELL_NEAR_REASON, noMonthReason, noValueReason, OUTSIDE_AREA_REASON } from "../../lib/drought/locate-cell.ts";
import { DEFAULT_HISTORY_INDICES } from "../schemas-drought.ts";
import { droughtRuns, rankOf } from "../../lib/drought/runs.ts";
import { gridIdOf } from "../../lib/drought/grid-id.ts";
import { ANSWER_INDICES, DEFAULT_RULES, noValueInRecordReason, type MonthReason } from "../../lib/drought/cell-latest.ts";
import { DROUGHT_OPENED_FILES, isCovered, openDroughtArtifacts, type DroughtArtifacts } from "../data/drought-artifacts.ts";
import { log } from "../../lib/log.ts";
import { clockNow, currencyOf, monthsPeriod, type Currency, type Period } from "../../lib/currency.ts";
import { DAY_MS } from "../../lib/days.ts";
import type {
  BatchItem,
  DroughtHistory,
  DroughtHistoryData,
  ProvinceChoropleth,
  ProvinceHistoryData,
  DroughtGridData,
  DroughtService,
  ProvinceDroughtData,
  ScoreData,
  ScoreQuery,
} from "./types.ts";

/** Months of recent history that each timeframe shows (the data are monthly; shorter windows show one month). */
export const TIMEFRAME_MONTHS: Record<ScoreQuery["timeframe"], number> = { "7d": 1, "30d": 1, "90d": 3, "1y": 12 };

const INDEX_KEYS = ANSWER_INDICES;
/** SPEI-3 below −1 (moderate drought on the McKee scale) marks a drought month for the events. */
const EVENT_THRESHOLD = -1;

function round(x: number, digits: number): number | null {
  if (!Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

interface CellHit {
  a: DroughtArtifacts;
  cell: number;
  distanceKm: number;
  month: MonthIndex;
  offset: number;
  spei1: number;
  monthReason: MonthReason;
}

/** The time fields of a drought answer (lib/currency.ts): the months it describes, as days. */
export interface DroughtTime {
  period: Period;
  asOf: string;
  currency: Currency;
}

/** A month that ended more than this many days ago is spoken of in the past tense. */
const PAST_AFTER_DAYS = 365;

export class ArtifactDroughtService implements DroughtService, DroughtHistory {
  /** Time fields per month span, for one version and one day (a drought answer's period is a few fields, not a lookup). */
  private readonly times = { version: "", day: -1, bySpan: new Map<number, DroughtTime>() };

  constructor(
    private readonly store: ArtifactStore<DroughtArtifacts>,
    private readonly now: () => number = clockNow,
  ) {}

  /** The period of the months lo..hi, its last day as asOf and whether it is current (a monthly series). */
  private timeOf(a: DroughtArtifacts, lo: number, hi: number): DroughtTime {
    const now = this.now();
    const day = Math.floor(now / DAY_MS);
    const c = this.times;
    if (c.version !== a.version || c.day !== day || c.bySpan.size > 10_000) {
      c.version = a.version;
      c.day = day;
      c.bySpan.clear();
    }
    const key = lo * 65_536 + hi;
    let t = c.bySpan.get(key);
    if (t === undefined) {
      const period = monthsPeriod(formatMonth(lo), formatMonth(hi));
      t = { period, asOf: period.to, currency: currencyOf(period.to, "monthly", now) };
      c.bySpan.set(key, t);
    }
    return t;
  }

  private artifacts(): DroughtArtifacts {
    return this.store.require().data;
  }

  dataVersion(): string {
    return this.store.versionOrNone();
  }

  gridSource(): GridSourceName | undefined {
    return this.store.current()?.data.gridSource;
  }

  /** Month of a province or choropleth request: the given YYYY-MM (already validated) or the latest valid month. */
  private month(a: DroughtArtifacts, month: string | undefined): MonthIndex {
    return month === undefined ? a.defaultMonth : (parseMonth(month) as MonthIndex);
  }

  /** The months [from, to] clamped to the record, or a 404 naming the record's span. */
  private monthRange(first: MonthIndex, last: MonthIndex, from: string | undefined, to: string | undefined): [MonthIndex, MonthIndex] {
    const lo = Math.max(first, from === undefined ? first : (parseMonth(from) as MonthIndex));
    const hi = Math.min(last, to === undefined ? last : (parseMonth(to) as MonthIndex));
    if (lo > hi) {
      throw new NotFoundError(`no drought data from ${from ?? formatMonth(first)} to ${to ?? formatMonth(last)}: the record covers ${formatMonth(first)} to ${formatMonth(last)}`, {
        from: from ?? null,
        to: to ?? null,
        coverage: { from: formatMonth(first), to: formatMonth(last) },
      });
    }
    return [lo, hi];
  }

  history(q: { lat: number; lng: number; from?: string; to?: string; indices?: readonly string[] }): DroughtHistoryData {
    const a = this.artifacts();
    const cell = locateCell(a, q.lat, q.lng);
    if (cell < 0) throw new NotFoundError(locateReason(cell), { lat: q.lat, lng: q.lng });
    const { distanceKm } = a.grid.nearestCell(q.lat, q.lng);
    const [lo, hi] = this.monthRange(a.grid.firstMonth, a.grid.lastMonth, q.from, q.to);
    const names = q.indices ?? DEFAULT_HISTORY_INDICES;
    const nos = names.map((n) => a.grid.indexNo(n));
    const series = [];
    for (let m = lo; m <= hi; m++) {
      const rec = a.grid.record(cell, m - a.grid.firstMonth);
      const indices: Record<string, number | null> = {};
      names.forEach((n, i) => (indices[n] = nos[i] < 0 ? null : round(rec[nos[i]], 3)));
      series.push({ month: formatMonth(m), ...scoreOf(rec[a.spei1Index]), indices });
    }
    return {
      location: {
        requestedLat: q.lat,
        requestedLng: q.lng,
        gridId: gridId(a, cell),
        gridLat: a.grid.cellLat(cell),
        gridLng: a.grid.cellLng(cell),
        distanceKm: round(distanceKm, 2) as number,
        country: a.grid.cellCountry(cell),
      },
      period: { from: formatMonth(lo), to: formatMonth(hi), months: hi - lo + 1, climatologyBaseline: a.baselineLabel },
      series,
      details: this.timeOf(a, lo, hi),
    };
  }

  provinceHistory(q: { name: string; country: string; from?: string; to?: string }): ProvinceHistoryData {
    const a = this.artifacts();
    if (q.country.toUpperCase() !== "THA") {
      throw new NotFoundError(`no province data for country ${q.country}: only Thailand (THA) is covered`, { country: q.country });
    }
    const p = findProvince(a, q.name);
    const s = a.summaries;
    const [lo, hi] = this.monthRange(s.firstMonth, (s.firstMonth + s.nMonths - 1) as MonthIndex, q.from, q.to);
    const names = s.indexNames;
    const keep = ["spei1", "spei3", "spei6"].map((n) => names.indexOf(n));
    const series = [];
    for (let m = lo; m <= hi; m++) {
      const rec = s.record(p, m - s.firstMonth);
      series.push({
        month: formatMonth(m),
        ...scoreOf(rec[keep[0]]),
        indices: { spei1: round(rec[keep[0]], 3), spei3: round(rec[keep[1]], 3), spei6: round(rec[keep[2]], 3) },
        cellsUsed: s.cellsUsed(p, m - s.firstMonth),
      });
    }
    return {
      province: a.provinces[p].nameEn,
      country: "THA",
      period: { from: formatMonth(lo), to: formatMonth(hi), months: hi - lo + 1, climatologyBaseline: a.baselineLabel },
      series,
      details: this.timeOf(a, lo, hi),
    };
  }

  choropleth(month?: string): ProvinceChoropleth {
    const a = this.artifacts();
    if (!a.shapes) throw new NotFoundError(`version ${a.version} has no province outlines (built before they existed): rebuild with \`make artifacts\``, { version: a.version });
    const m = this.month(a, month);
    const s = a.summaries;
    const off = s.monthOffset(m);
    if (off < 0) {
      throw new NotFoundError(`no province summaries for ${formatMonth(m)}: they cover ${formatMonth(s.firstMonth)} to ${formatMonth(s.firstMonth + s.nMonths - 1)}`, { month: formatMonth(m) });
    }
    const names = s.indexNames;
    const [i1, i3, i6] = ["spei1", "spei3", "spei6"].map((n) => names.indexOf(n));
    const shapes = a.shapes;
    return {
      type: "FeatureCollection",
      month: formatMonth(m),
      climatologyBaseline: a.baselineLabel,
      details: this.timeOf(a, m, m),
      features: a.provinces.map((p, i) => {
        const rec = s.record(i, off);
        return {
          type: "Feature" as const,
          id: p.code,
          geometry: shapes[i].geometry,
          properties: {
            code: p.code,
            province: p.nameEn,
            provinceTh: p.nameTh,
            region: p.region,
            month: formatMonth(m),
            ...scoreOf(rec[i1]),
            spei1: round(rec[i1], 3),
            spei3: round(rec[i3], 3),
            spei6: round(rec[i6], 3),
            cellsUsed: s.cellsUsed(i, off),
          },
        };
      }),
    };
  }

  /**
   * The grid cell for a coordinate, or the reason there is none. A point is covered when it lies inside one of
   * Thailand's 77 province polygons (sea and other countries are not), a grid cell lies near it (the grid's
   * constant-time coverage test: a grid that leaves part of the area without cells answers there with no data
   * rather than with a far cell's values), and its nearest land cell has SPEI-1 for the month. Without a month, the
   * month is the cell's default month (the grid's latest valid month where the cell has every index then, else the
   * cell's own: lib/drought/cell-latest.ts; precomputed per cell when the version was opened: one array read).
   */
  private locate(a: DroughtArtifacts, lat: number, lng: number, month: MonthIndex | undefined): CellHit | string {
    let offset = month === undefined ? -1 : a.grid.monthOffset(month);
    if (month !== undefined && offset < 0) {
      return noMonthReason(formatMonth(month), formatMonth(a.grid.firstMonth), formatMonth(a.grid.lastMonth));
    }
    if (!isCovered(a, lat, lng)) return OUTSIDE_AREA_REASON;
    if (!a.grid.covers(lat, lng)) return NO_CELL_NEAR_REASON;
    const { cell, distanceKm } = a.grid.nearestCell(lat, lng);
    if (month === undefined) {
      offset = a.cellDefaultOffset[cell];
      if (offset < 0) return noValueInRecordReason(formatMonth(a.grid.firstMonth), formatMonth(a.grid.lastMonth));
    }
    // The cell's own latest month: its SPEI-1 was kept when the version was opened (no read of a paged grid).
    const spei1 = month === undefined ? a.cellDefaultSpei1[cell] : a.grid.value(cell, offset, a.spei1Index);
    if (Number.isNaN(spei1)) return noValueReason(formatMonth(a.grid.firstMonth + offset));
    const monthReason: MonthReason = month === undefined ? DEFAULT_RULES[a.cellDefaultRule[cell]] : "requested";
    return { a, cell, distanceKm, month: a.grid.firstMonth + offset, offset, spei1, monthReason };
  }

  private locateOrThrow(lat: number, lng: number, month: string | undefined): CellHit {
    const a = this.artifacts();
    const hit = this.locate(a, lat, lng, month === undefined ? undefined : (parseMonth(month) as MonthIndex));
    if (typeof hit === "string") throw new NotFoundError(hit, { lat, lng, ...(month ? { month } : {}) });
    return hit;
  }

  private indices(hit: CellHit) {
    const rec = hit.a.grid.record(hit.cell, hit.offset);
    const names = hit.a.grid.indexNames;
    const out = {} as Record<(typeof INDEX_KEYS)[number], number | null>;
    for (const k of INDEX_KEYS) out[k] = round(rec[names.indexOf(k)], 3);
    return out;
  }

  drought(lat: number, lng: number, month?: string): DroughtGridData {
    const hit = this.locateOrThrow(lat, lng, month);
    const { a, cell } = hit;
    const score = droughtScore(hit.spei1);
    return {
      location: {
        requestedLat: lat,
        requestedLng: lng,
        gridId: gridId(a, cell),
        gridLat: a.grid.cellLat(cell),
        gridLng: a.grid.cellLng(cell),
        distanceKm: round(hit.distanceKm, 2) as number,
        country: a.grid.cellCountry(cell),
      },
      period: { month: formatMonth(hit.month), monthReason: hit.monthReason, climatologyBaseline: a.baselineLabel },
      drought: {
        score,
        level: riskLevel(score),
        indices: this.indices(hit),
        severity: { spei1: droughtLevel(hit.spei1) },
        ...confidenceOf(a, a.confidence?.cell(cell, hit.offset) ?? null),
      },
      details: this.timeOf(a, hit.month, hit.month),
    };
  }

  score(q: ScoreQuery): ScoreData {
    if (q.riskType !== "drought") {
      throw new NotFoundError(`no data for risk type ${q.riskType} yet: only drought is served`, { riskType: q.riskType });
    }
    const hit = this.locateOrThrow(q.lat, q.lng, undefined);
    const idx = this.indices(hit);
    const score = droughtScore(hit.spei1);
    const severity = droughtLevel(hit.spei1);
    const monthLabel = formatMonth(hit.month);
    const distanceKm = round(hit.distanceKm, 2) as number;
    const time = this.timeOf(hit.a, hit.month, hit.month);
    const details: ScoreData["details"] & Record<string, unknown> = {
      ...time,
      currentConditions: {
        spei1: idx.spei1,
        spei3: idx.spei3,
        spei6: idx.spei6,
        spei12: idx.spei12,
        severity,
        distanceKm,
        month: monthLabel,
        monthReason: hit.monthReason,
        ...confidenceOf(hit.a, hit.a.confidence?.cell(hit.cell, hit.offset) ?? null),
      },
      recentMonths: this.recentMonths(hit, TIMEFRAME_MONTHS[q.timeframe]),
    };
    if (q.includeHistorical) details.historical = this.historical(hit);
    const event = this.droughtEvent(hit);
    details.droughtEvent = event;
    return {
      location: { lat: q.lat, lng: q.lng },
      riskType: "drought",
      riskScore: score,
      riskLevel: riskLevel(score),
      summary: summaryText({
        severity,
        spei1: idx.spei1,
        spei3: idx.spei3,
        distanceKm,
        month: monthLabel,
        monthReason: hit.monthReason,
        run: event.current,
        past: time.currency.ageDays > PAST_AFTER_DAYS ? { dataEnd: formatMonth(hit.a.grid.lastMonth) } : null,
      }),
      details,
      dataSources: hit.a.dataSources,
      timestamp: new Date().toISOString(),
    };
  }

  /**
   * The run of SPEI-3 below EVENT_THRESHOLD that the served month is in (run theory, lib/drought/runs.ts), counted
   * up to the served month, and its rank among every run of the cell's record up to then.
   */
  private droughtEvent(hit: CellHit) {
    const g = hit.a.grid;
    const k = g.indexNo("spei3");
    const series = new Float64Array(hit.offset + 1);
    for (let m = 0; m <= hit.offset; m++) series[m] = g.value(hit.cell, m, k);
    const runs = droughtRuns(series, EVENT_THRESHOLD);
    const base = { index: "spei3" as const, threshold: EVENT_THRESHOLD, method: "run theory (Yevjevich 1967): consecutive months below the threshold; a missing month ends a run", recordFrom: formatMonth(g.firstMonth), runsInRecord: runs.length };
    const run = runs.at(-1);
    if (!run || run.end !== hit.offset) {
      const v = series[hit.offset];
      const why = Number.isNaN(v) ? `no SPEI-3 value in ${formatMonth(hit.month)}` : `SPEI-3 is ${v.toFixed(2)} in ${formatMonth(hit.month)}, not below ${EVENT_THRESHOLD}`;
      return { ...base, current: null, reason: `${why}: no drought run at this cell` };
    }
    let peakAt = run.start;
    for (let m = run.start; m <= run.end; m++) if (series[m] === run.peak) peakAt = m;
    return {
      ...base,
      current: {
        onset: formatMonth(g.firstMonth + run.start),
        months: run.duration,
        peak: round(run.peak, 3) as number,
        peakMonth: formatMonth(g.firstMonth + peakAt),
        cumulativeDeficit: round(run.deficit, 3) as number,
        rankBySeverity: rankOf(runs, run, (r) => r.deficit),
        rankByDuration: rankOf(runs, run, (r) => r.duration),
      },
    };
  }

  /** The served month and the ones before it, newest first, as far as the grid goes. */
  private recentMonths(hit: CellHit, n: number) {
    const out = [];
    const g = hit.a.grid;
    for (let i = 0; i < n && hit.offset - i >= 0; i++) {
      const off = hit.offset - i;
      const s1 = g.value(hit.cell, off, 0);
      out.push({
        month: formatMonth(g.firstMonth + off),
        spei1: round(s1, 3),
        spei3: round(g.value(hit.cell, off, g.indexNo("spei3")), 3),
        score: Number.isNaN(s1) ? null : droughtScore(s1),
        severity: droughtLevel(s1),
      });
    }
    return out;
  }

  /** The cell's whole record: how often each D-level occurred and where the current month ranks. */
  private historical(hit: CellHit) {
    const g = hit.a.grid;
    const counts: Record<string, number> = { D0: 0, D1: 0, D2: 0, D3: 0, D4: 0 };
    let n = 0;
    let drierOrEqual = 0;
    let driest = Infinity;
    let driestOff = -1;
    for (let off = 0; off < g.nMonths; off++) {
      const v = g.value(hit.cell, off, 0);
      if (Number.isNaN(v)) continue;
      n++;
      const d = droughtLevel(v);
      if (d) counts[d]++;
      if (v <= hit.spei1) drierOrEqual++;
      if (v < driest) {
        driest = v;
        driestOff = off;
      }
    }
    return {
      baseline: hit.a.baselineLabel,
      recordStart: formatMonth(g.firstMonth),
      recordEnd: formatMonth(g.lastMonth),
      monthsWithData: n,
      droughtMonths: counts,
      droughtMonthShare: round((counts.D0 + counts.D1 + counts.D2 + counts.D3 + counts.D4) / n, 4),
      currentPercentile: round((100 * drierOrEqual) / n, 1),
      driestMonth: driestOff < 0 ? null : { month: formatMonth(g.firstMonth + driestOff), spei1: round(driest, 3) },
    };
  }

  province(name: string, country: string, month?: string): ProvinceDroughtData {
    const a = this.artifacts();
    if (country.toUpperCase() !== "THA") {
      throw new NotFoundError(`no province data for country ${country}: only Thailand (THA) is covered`, { country });
    }
    const p = findProvince(a, name);
    const m = this.month(a, month);
    const off = a.summaries.monthOffset(m);
    const meta = a.provinces[p];
    const rec = off < 0 ? undefined : a.summaries.record(p, off);
    const names = a.summaries.indexNames;
    const spei1 = rec ? rec[names.indexOf("spei1")] : NaN;
    if (!rec || Number.isNaN(spei1)) {
      throw new NotFoundError(`no drought data for ${meta.nameEn} in ${formatMonth(m)}`, { province: meta.nameEn, month: formatMonth(m) });
    }
    const score = droughtScore(spei1);
    return {
      province: meta.nameEn,
      country: "THA",
      month: formatMonth(m),
      score,
      level: riskLevel(score),
      indices: {
        spei1: round(spei1, 3),
        spei3: round(rec[names.indexOf("spei3")], 3),
        spei6: round(rec[names.indexOf("spei6")], 3),
      },
      severity: { spei1: droughtLevel(spei1) },
      ...confidenceOf(a, a.confidence?.province(p, a.grid.monthOffset(m)) ?? null),
      details: this.timeOf(a, m, m),
    };
  }

  batchTime(results: readonly BatchItem[]): DroughtTime | null {
    let lo = "";
    let hi = "";
    for (const r of results) {
      if (r.month === null) continue;
      if (lo === "" || r.month < lo) lo = r.month;
      if (r.month > hi) hi = r.month;
    }
    if (lo === "") return null;
    return this.timeOf(this.artifacts(), parseMonth(lo) as MonthIndex, parseMonth(hi) as MonthIndex);
  }

  batchItem(id: string | undefined, lat: number, lng: number): BatchItem {
    const a = this.artifacts();
    // A batch names no month: each point gets its cell's default month (lib/drought/cell-latest.ts), which the item states.
    const hit = this.locate(a, lat, lng, undefined);
    // Plain literals, no spread (this runs 100 times per batch request); the keys in the order of confidenceOf's.
    if (typeof hit === "string") {
      return { id, lat, lng, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: hit };
    }
    const score = droughtScore(hit.spei1);
    const c = a.confidence?.cell(hit.cell, hit.offset) ?? null;
    const month = a.monthLabels[hit.offset];
    const spei1 = round(hit.spei1, 3) as number;
    if (c !== null) return { id, lat, lng, found: true, month, riskScore: score, riskLevel: riskLevel(score), severity: droughtLevel(hit.spei1), spei1, confidence: round(c, 2) as number, confidenceLabel: confidenceLabel(c) };
    return { id, lat, lng, found: true, month, riskScore: score, riskLevel: riskLevel(score), severity: droughtLevel(hit.spei1), spei1, confidence: null, confidenceLabel: null, confidenceReason: noConfidenceReason(a) };
  }
}

/**
 * A province by any of its spellings: exactly (normalised), else by its loose romanisation key when that names one
 * province. Unknown and ambiguous names are 404s with close matches.
 */
export function findProvince(a: Pick<DroughtArtifacts, "provinceByName" | "provinceByLooseName" | "provinces">, name: string): number {
  const exact = a.provinceByName.get(normalizeName(name));
  if (exact !== undefined) return exact;
  const loose = a.provinceByLooseName.get(looseName(name)) ?? [];
  if (loose.length === 1) return loose[0];
  if (loose.length > 1) {
    const names = loose.map((i) => a.provinces[i].nameEn);
    throw new NotFoundError(`ambiguous province name "${name}": it may mean ${names.join(" or ")}`, { name, closeMatches: names });
  }
  const matches = closeMatches(a.provinces, name, 3).map((m) => m.nameEn);
  throw new NotFoundError(`unknown province "${name}"`, { name, closeMatches: matches });
}

/** The confidence fields of an answer (docs/methods/confidence.md); null with the reason where there is none. */
function confidenceOf(a: DroughtArtifacts, c: number | null) {
  if (c !== null) return { confidence: round(c, 2) as number, confidenceLabel: confidenceLabel(c) };
  return { confidence: null, confidenceLabel: null, confidenceReason: noConfidenceReason(a) };
}

function noConfidenceReason(a: DroughtArtifacts): string {
  return a.confidence ? "no interpolation support for this month" : "this grid has no confidence (only the station grid is calibrated)";
}

/** Score, level, D-level and validity of a month from its SPEI-1 (the drought scale of lib/drought-scale.ts). */
function scoreOf(spei1: number) {
  if (!Number.isFinite(spei1)) return { valid: false, score: null, level: null, severity: null };
  const score = droughtScore(spei1);
  return { valid: true, score, level: riskLevel(score), severity: droughtLevel(spei1) };
}

/** Grid ids name the grid and the cell: "TH025-<row*nCols+col>" (lib/drought/grid-id.ts). */
function gridId(a: DroughtArtifacts, cell: number): string {
  return gridIdOf(a.grid.resolutionDeg, a.grid.cellId(cell));
}

interface SummaryParts {
  severity: ReturnType<typeof droughtLevel>;
  spei1: number | null;
  spei3: number | null;
  distanceKm: number;
  month: string;
  monthReason: MonthReason;
  /** The current drought run (droughtEvent.current), or null. */
  run: { onset: string; months: number } | null;
  /** Set when the month ended more than a year ago: the sentence speaks in the past and names the data's end. */
  past: { dataEnd: string } | null;
}

/**
 * The score answer's one sentence: the D-level of SPEI-1 in the served month (and why that month), and the current
 * drought event when one is under way (docs/methods/drought-events.md) — so SPEI-1 back above −0.5 inside a run of
 * SPEI-3 below the threshold never reads as "no drought".
 */
function summaryText(p: SummaryParts): string {
  const when = `in ${p.month} (${p.monthReason === "requested" ? "the requested month" : p.monthReason})`;
  const where = `at the nearest grid point, ${p.distanceKm.toFixed(1)} km away`;
  // A month more than a year ago is history: "was", and where the data end, so no one reads it as today.
  const is = p.past ? "was" : "is";
  const end = p.past ? ` The data end in ${p.past.dataEnd}.` : "";
  const run = p.run
    ? `a drought event ${is} under way${p.past ? ` in ${p.month}` : ""}: SPEI-3 below ${EVENT_THRESHOLD} since ${p.run.onset} (${p.run.months} month${p.run.months === 1 ? "" : "s"}; ${p.spei3?.toFixed(2)} in ${p.month})`
    : "";
  if (p.severity) {
    const cond = `${p.severity} (${D_LEVEL_NAMES[p.severity]}) ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}.`;
    return (run ? `${cond} ${run[0].toUpperCase()}${run.slice(1)}.` : cond) + end;
  }
  if (run) return `SPEI-1 ${p.spei1?.toFixed(2)} ${when} ${is} above the drought levels (D0 at -0.5) ${where}, but ${run}.${end}`;
  if (p.spei3 === null) return `No drought level ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}; SPEI-3 has no value that month, so whether a drought event ${is} under way is not known.${end}`;
  return `No drought ${when}: SPEI-1 ${p.spei1?.toFixed(2)} ${where}.${end}`;
}

/** Opens the artifact store at ARTIFACTS_DIR and the service over it; the store follows `current`. */
export async function openDroughtService(artifactsDir: string, opts: { pollMs?: number; now?: () => number } = {}) {
  const store = new ArtifactStore<DroughtArtifacts>({
    root: artifactsDir,
    open: openDroughtArtifacts,
    openedFiles: DROUGHT_OPENED_FILES,
    logger: log,
    kind: DROUGHT_KIND,
    label: "drought artifacts",
    pollMs: opts.pollMs,
  });
  await store.reload();
  store.start();
  return { service: new ArtifactDroughtService(store, opts.now), store };
}
