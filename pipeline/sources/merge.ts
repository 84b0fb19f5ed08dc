// Append-only feeds keep their history: a download is merged into the copy it replaces instead of overwriting
// it. Two generic rules, on any list:
//   mergeByKey  — one row per key, the download's row wins (GHCN-Daily days by DATE, PortWatch days by date,
//                 FIRMS detections);
//   mergeGroups — every row of a group the download holds replaces that group's rows (GDACS events by id with
//                 all their polygons, IBTrACS tracks by SID); groups the download lacks stay.
// mergeCsv and mergeGeojson apply them to file text. CSV rows keep their original text, so an unchanged row is
// byte for byte the same after the merge; malformed rows (no key) are not carried over.
import { readCsv } from "../feeds/csv.ts";
import type { MergeSpec } from "./types.ts";

/** Rows of `next` replace rows of `previous` with the same key (in place); new keys follow in `next`'s order. */
export function mergeByKey<T>(previous: readonly T[], next: readonly T[], key: (t: T) => string): T[] {
  const incoming = new Map<string, T>();
  for (const t of next) incoming.set(key(t), t);
  const out: T[] = [];
  const placed = new Set<string>();
  for (const t of previous) {
    const k = key(t);
    if (placed.has(k)) continue;
    placed.add(k);
    out.push(incoming.get(k) ?? t);
  }
  for (const [k, t] of incoming) if (!placed.has(k)) out.push(t);
  return out;
}

/** Every item of a group present in `next` is replaced by `next`'s items of that group; other groups stay. */
export function mergeGroups<T>(previous: readonly T[], next: readonly T[], group: (t: T) => string): T[] {
  const renewed = new Set(next.map(group));
  return [...previous.filter((t) => !renewed.has(group(t))), ...next];
}

interface CsvParts {
  /** The header line and any non-data lines after it, as written. */
  headLines: string[];
  header: string[];
  rows: { fields: string[]; raw: string }[];
}

function splitCsv(text: string, file: string, skipRows: number): CsvParts {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const table = readCsv(text, file);
  const firstData = 2 + skipRows;
  return {
    headLines: lines.slice(0, firstData - 1),
    header: table.header.map((h) => h.trim()),
    rows: table.rows.filter((r) => r.line >= firstData).map((r) => ({ fields: r.fields, raw: lines[r.line - 1] })),
  };
}

/** One CSV record, quoting fields that need it (RFC 4180). */
export function csvLine(fields: readonly string[]): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",");
}

function keyOf(parts: CsvParts, spec: MergeSpec, file: string): (r: { fields: string[] }) => string {
  const idx = spec.key.map((k) => {
    const i = parts.header.indexOf(k);
    if (i < 0) throw new Error(`${file}: merge key column "${k}" missing`);
    return i;
  });
  return (r) => idx.map((i) => (r.fields[i] ?? "").trim()).join("|");
}

/** The rows whose date column lies within `days` days of its latest value (ISO dates compare as text). */
function withinDays<R extends { fields: string[] }>(rows: R[], header: string[], keep: { column: string; days: number }, file: string): R[] {
  const i = header.indexOf(keep.column);
  if (i < 0) throw new Error(`${file}: rolling-window column "${keep.column}" missing`);
  let latest = "";
  for (const r of rows) {
    const v = (r.fields[i] ?? "").trim();
    if (v > latest) latest = v;
  }
  const t = Date.parse(latest);
  if (!Number.isFinite(t)) return rows;
  const cutoff = new Date(t - keep.days * 86_400_000).toISOString().slice(0, 10);
  return rows.filter((r) => (r.fields[i] ?? "").trim() >= cutoff);
}

export interface MergeResult {
  text: string;
  /** How the copies were joined, for the state file. */
  note: string;
}

/** Merges the download `nextText` into the previous copy `prevText` (CSV, same or compatible header). */
export function mergeCsv(prevText: string, nextText: string, spec: MergeSpec, file: string, skipRows = 0): MergeResult {
  const prev = splitCsv(prevText, `${file} (previous copy)`, skipRows);
  const next = splitCsv(nextText, file, skipRows);
  const nextKey = keyOf(next, spec, file);
  let prevRows = prev.rows;
  let note = `merged by ${spec.key.join("+")}`;
  if (prev.header.join("\u0000") !== next.header.join("\u0000")) {
    if (spec.onHeaderChange === "remap") {
      const from = next.header.map((h) => prev.header.indexOf(h));
      prevRows = prev.rows.map((r) => {
        const fields = from.map((i) => (i < 0 ? "" : (r.fields[i] ?? "")));
        return { fields, raw: csvLine(fields) };
      });
      note += "; previous rows moved to the new header by column name";
    } else {
      const prevKey = keyOf(prev, spec, `${file} (previous copy)`);
      const first = (rows: { fields: string[] }[], k: (r: { fields: string[] }) => string) => rows.reduce((m, r) => (k(r) < m ? k(r) : m), "\uffff");
      const prevFirst = first(prev.rows, prevKey);
      const nextFirst = first(next.rows, nextKey);
      if (nextFirst <= prevFirst) return { text: nextText, note: `header changed: the download (from ${nextFirst}) replaces the previous copy (from ${prevFirst})` };
      throw new Error(`${file}: header changed and the download starts at ${nextFirst}, after the previous copy (${prevFirst}): not merged`);
    }
  }
  const merge = spec.kind === "csv-groups" ? mergeGroups : mergeByKey;
  const rows = merge(prevRows, next.rows, nextKey);
  if (spec.sort) rows.sort((a, b) => (nextKey(a) < nextKey(b) ? -1 : nextKey(a) > nextKey(b) ? 1 : 0));
  const kept = spec.keepDays ? withinDays(rows, next.header, spec.keepDays, file) : rows;
  if (kept.length < rows.length) note += `; ${rows.length - kept.length} rows older than ${spec.keepDays!.days} days before the latest ${spec.keepDays!.column} dropped`;
  return { text: [...next.headLines, ...kept.map((r) => r.raw)].join("\n") + "\n", note };
}

interface FeatureLike {
  properties?: Record<string, unknown> | null;
}

/** Merges GeoJSON FeatureCollections by feature property key; the download's other members win. */
export function mergeGeojson(prevText: string, nextText: string, spec: MergeSpec): MergeResult {
  const prev = JSON.parse(prevText) as { features: FeatureLike[] };
  const next = JSON.parse(nextText) as { features: FeatureLike[] } & Record<string, unknown>;
  const key = (f: FeatureLike) => spec.key.map((k) => String(f.properties?.[k] ?? "")).join("|");
  const features = spec.kind === "geojson-groups" ? mergeGroups(prev.features, next.features, key) : mergeByKey(prev.features, next.features, key);
  return { text: JSON.stringify({ ...next, features }), note: `merged by ${spec.key.join("+")}` };
}

export function mergeText(prevText: string, nextText: string, spec: MergeSpec, file: string, skipRows = 0): MergeResult {
  return spec.kind === "geojson-groups" ? mergeGeojson(prevText, nextText, spec) : mergeCsv(prevText, nextText, spec, file, skipRows);
}
