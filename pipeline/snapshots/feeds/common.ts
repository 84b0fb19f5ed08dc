// What every feed builder shares: the build context, reading inputs (fetched or from DATA_DIR) with their checksums,
// the adapters' rejections, the score distribution of a built snapshot, the refusal of data dated after today, and
// writing the snapshot's files (finish).
import { afterToday, clockNow } from "../../../lib/currency.ts";
import { isoDay } from "../../../lib/days.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Bytes, type FileChecksum } from "../../../formats/manifest.ts";
import type { SnapshotInput } from "../publish-snapshot.ts";
import { EventIndex, writeEventIndex, type EventInput } from "../../../formats/event-index.ts";
import { fetchFeed, type FetchOutcome } from "../../feeds/fetch.ts";
import { FootprintIndex } from "../../../formats/footprint-index.ts";
import type { AdapterResult, FeedRecord } from "../../feeds/records.ts";
import { FEED_SNAPSHOT_FORMAT, type EventRecord, type FeedRiskType, type FeedSnapshot, type SnapshotJson, type SnapshotMeta } from "../../../formats/feed-snapshot.ts";
import { assess } from "../../../lib/feed-risk/assess.ts";
import { NotCoveredError, type Place } from "../../../lib/feed-risk/answer.ts";
import { placeLocator } from "../../../lib/feed-risk/place.ts";
import { YEAR_MS } from "../../../lib/feed-risk/scoring.ts";

export interface BuildContext {
  dataDir: string;
  /** Where the drought artifact is published (ARTIFACTS_DIR); its current/drought-grid.bin feeds the flood climate term. */
  artifactsDir?: string;
  env: NodeJS.ProcessEnv;
  now: Date;
}

/** What a snapshot builder hands to publishSnapshot: everything but where and under which name. */
export type BuiltSnapshot = Pick<SnapshotInput, "files" | "asOf" | "sources" | "inputs" | "qc" | "report"> & {
  /** Accepted rows per input feed, for the refusal rule (row-drop.ts). */
  acceptedRows: Record<string, number>;
};

/** The whole globe as a coverage box. */
export const WORLD: [number, number, number, number] = [-180, -90, 180, 90];

export const GDACS_GEOJSON_FILE = "feeds/gdacs/gdacs_20260530T1858Z.geojson";

export const PARAMS = {
  // annualRateRef: the median land cell (0.1°) of the multi-year fire records in hand (Greece, Israel, Tunisia 2000–2021,
  // Malaysia 2023–24: λ 15.0 weighted MODIS detections a year) scores 30, the edge of "medium": 15.0 / -ln(0.7) ≈ 42
  // (docs/methods/feed-risks.md, "Wildfire rates").
  wildfire: { radiusKm: 100, decayKm: 30, annualRateRef: 42, recentRef: 3 },
  storm: { radiusKm: 300, decayKm: 150, annualRateRef: 0.2, recentRef: 0.3 },
  // inlandKm: three e-folding distances (exposure factor < 5 %); beyond it a point answers 0 with its distance.
  sea_level_rise: { radiusKm: 300, rateRefMmYr: 10, coastDecayKm: 50, inlandKm: 150, minYears: 20 },
} as const;


export class Inputs {
  readonly checksums: Record<string, FileChecksum> = {};
  readonly fetches: Record<string, Omit<FetchOutcome, "text">> = {};
  constructor(private readonly ctx: BuildContext) {}
  /** Text of a feed file (downloaded when FEED_URL_<name> is set), recorded with its checksum. */
  async text(rel: string, feedName?: string): Promise<string> {
    const path = join(this.ctx.dataDir, rel);
    let text: string;
    if (feedName) {
      const { text: t, ...outcome } = await fetchFeed({ name: feedName, fallbackPath: path }, { env: this.ctx.env });
      text = t;
      this.fetches[rel] = outcome;
    } else text = readFileSync(path, "utf8");
    const bytes = new TextEncoder().encode(text);
    this.checksums[rel] = { bytes: bytes.length, sha256: sha256Bytes(bytes) };
    return text;
  }
  /** Bytes of a file, recorded with its checksum. */
  bytes(rel: string): Buffer {
    const b = readFileSync(join(this.ctx.dataDir, rel));
    this.checksums[rel] = { bytes: b.length, sha256: sha256Bytes(b) };
    return b;
  }
  /** Texts of files of one folder, each recorded with its checksum (as `text` does, without a download). */
  folder(rel: string, names: string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const name of [...names].sort()) out.set(name, this.bytes(`${rel}/${name}`).toString("utf8"));
    return out;
  }
}

export function rejections(r: AdapterResult<unknown>) {
  return { rows: r.rows, accepted: r.records.length, rejected: r.rejected, reasons: r.reasons, rejectedAt: r.rejectedAt };
}

/** The build report's adapter table and the accepted rows of each adapter's input. */
export function adapterQc(adapters: Record<string, AdapterResult<unknown>>) {
  return {
    adapters: Object.fromEntries(Object.entries(adapters).map(([name, r]) => [name, rejections(r)])),
    acceptedRows: Object.fromEntries(Object.entries(adapters).map(([name, r]) => [name, r.records.length])),
  };
}

/** A feed with no usable rows, or mostly rejected rows, is a failed validation. */
export function requireValid(name: string, r: AdapterResult<unknown>): void {
  if (r.records.length === 0) throw new Error(`${name}: no valid records`);
  if (r.rejected > 0.5 * r.rows) throw new Error(`${name}: ${r.rejected} of ${r.rows} rows rejected`);
}

export const toEvent = (r: FeedRecord, set?: string): EventInput => ({
  id: r.id, source: r.source, time: r.time, endTime: r.endTime, lng: r.lng, lat: r.lat, bbox: r.bbox, magnitude: r.magnitude, name: r.name, group: r.group, ...(set === undefined ? {} : { set }),
});


/** Thai locations every 1° (lat 6..20, lng 98..105) for the build report's score distribution. */
export function thaiGrid(): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (let lat = 6; lat <= 20; lat += 1) for (let lng = 98; lng <= 105; lng += 1) out.push({ lat, lng });
  return out;
}

/** World locations every 10° (lat −50..70, lng −180..170) for the build report's score distribution. */
export function worldGrid(): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (let lat = -50; lat <= 70; lat += 10) for (let lng = -180; lng < 180; lng += 10) out.push({ lat, lng });
  return out;
}

export function scoreDistribution(snap: FeedSnapshot, points: { lat: number; lng: number }[], locate: (lat: number, lng: number) => Place, grid: string) {
  const scores: number[] = [];
  let notCovered = 0;
  for (const p of points) {
    try {
      scores.push(assess(snap, { ...p, timeframe: "1y", includeHistorical: false }, locate(p.lat, p.lng)).riskScore);
    } catch (err) {
      if (!(err instanceof NotCoveredError)) throw err;
      notCovered++;
    }
  }
  scores.sort((x, y) => x - y);
  const q = (f: number) => (scores.length ? scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] : null);
  const levels = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const s of scores) levels[s >= 80 ? "critical" : s >= 60 ? "high" : s >= 30 ? "medium" : "low"]++;
  return { grid, locations: scores.length + notCovered, notCovered, min: q(0), p25: q(0.25), median: q(0.5), p75: q(0.75), max: scores.at(-1) ?? null, levels };
}

export function distribution(json: SnapshotJson, files: Record<string, Uint8Array | string>) {
  // Parse the bytes exactly as the server will read them.
  const bin = files["events.bin"];
  const fp = files["footprints.bin"];
  const snap: FeedSnapshot = { version: "build", footprints: fp instanceof Uint8Array ? new FootprintIndex(aligned(fp)) : undefined, meta: json.meta, heat: json.heat, gauges: json.gauges, climateGrid: json.climateGrid, dailyHeat: json.dailyHeat, records: json.records, events: bin instanceof Uint8Array ? new EventIndex(aligned(bin)) : undefined };
  const locate = placeLocator();
  return {
    thailand: scoreDistribution(snap, thaiGrid(), locate, "1° lat 6..20 × lng 98..105, timeframe 1y"),
    world: scoreDistribution(snap, worldGrid(), locate, "10° lat −50..70 × lng −180..170, timeframe 1y"),
  };
}

export function aligned(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(b.length));
  out.set(b);
  return out;
}

export function finish(
  meta: SnapshotMeta,
  events: EventInput[] | undefined,
  extra: Omit<SnapshotJson, "meta">,
  inputs: Inputs,
  adapters: Record<string, AdapterResult<unknown>>,
  more: Record<string, unknown>,
  extraFiles: Record<string, Uint8Array> = {},
): BuiltSnapshot {
  refuseFutureData(meta, events, extra);
  const { adapters: adapterTable, acceptedRows } = adapterQc(adapters);
  const qc = { adapters: adapterTable, ...more };
  const json: SnapshotJson = { meta, ...extra };
  const files: Record<string, Uint8Array | string> = { "snapshot.json": JSON.stringify(json) };
  if (events) files["events.bin"] = writeEventIndex(events, { riskType: meta.riskType, unit: meta.unit });
  Object.assign(files, extraFiles);
  const report = { riskType: meta.riskType, asOf: meta.asOf, recordStart: meta.recordStart, coverage: meta.coverage, events: events?.length ?? null, fetches: inputs.fetches, ...qc, scoreDistribution: distribution(json, files) };
  files["build-report.json"] = JSON.stringify(report, null, 2);
  return { files, asOf: meta.asOf, sources: meta.dataSources, inputs: inputs.checksums, qc: { ...qc, scoreDistribution: report.scoreDistribution }, report: "build-report.json", acceptedRows };
}

/**
 * An answer whose data end in the future would present a wrong date as the present: a snapshot whose as-of, events,
 * records or station years lie after today (lib/currency.ts afterToday) is refused, as other impossible values are,
 * and the previous snapshot keeps serving.
 */
export function refuseFutureData(meta: SnapshotMeta, events: EventInput[] | undefined, extra: Omit<SnapshotJson, "meta">, now = clockNow()): void {
  const check = (what: string, date: string) => {
    if (afterToday(date, now)) throw new Error(`${meta.riskType} snapshot refused: ${what} ${date.slice(0, 10)} lies after today (${isoDay(now)}): a wrong date in the feed`);
  };
  check("its data end", meta.asOf);
  for (const e of events ?? []) check(`event ${e.id} starts`, isoDay(e.time));
  for (const r of extra.records ?? []) check(`record ${r.id} ends`, r.end);
  for (const st of extra.dailyHeat?.stations ?? []) check(`station ${st.id}'s year ends`, st.to);
  for (const g of extra.gauges ?? []) check(`gauge ${g.id}'s last year begins`, `${g.lastYear}-01-01`);
}

export function eventMeta(riskType: FeedRiskType, events: EventInput[], asOf: number, coverage: SnapshotMeta["coverage"], dataSources: string[], unit: string, params: Record<string, number>): SnapshotMeta {
  let start = Infinity;
  for (const e of events) if (e.time < start) start = e.time;
  return {
    riskType,
    format: FEED_SNAPSHOT_FORMAT,
    asOf: new Date(asOf).toISOString(),
    recordStart: new Date(start).toISOString(),
    recordYears: Math.max(1 / 365, (asOf - start) / YEAR_MS),
    coverage,
    dataSources,
    params,
    unit,
  };
}

export function latest(events: { time: number }[]): number {
  let t = -Infinity;
  for (const e of events) if (e.time > t) t = e.time;
  return t;
}

/** One record of a feed: its first and last event and its event groups. */
export function recordOf(id: string, name: string, events: EventInput[]): EventRecord {
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e.time < first) first = e.time;
    if (e.time > last) last = e.time;
  }
  return { id, name, start: isoDay(first), end: isoDay(last), events: new Set(events.map((e) => e.group ?? e.id)).size };
}
