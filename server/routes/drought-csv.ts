// CSV forms of the drought answers (format=csv or Accept: text/csv): one header row, one row per location or
// month, empty for null, RFC 4180 quoting where needed. The columns are listed in docs/api.md ("CSV").
import type { Request } from "express";
import { csvField } from "../../lib/drought/point-scorer.ts";
import type { BatchItem, BatchTime, DroughtGridData, DroughtHistoryData, ProvinceDroughtData, ProvinceHistoryData } from "../services/types.ts";

type Cell = string | number | boolean | null | undefined;

function table(header: readonly string[], rows: readonly Cell[][]): string {
  const line = (cells: readonly Cell[]) => cells.map((c) => (c === null || c === undefined ? "" : csvField(String(c)))).join(",");
  return [header.join(","), ...rows.map(line)].join("\n") + "\n";
}

/**
 * The time of a CSV answer, which JSON answers carry in `details`: the period its data span, the newest datum, and
 * whether that reaches the present (docs/methods/currency.md). As headers, since a CSV body has rows only; a bulk CSV
 * answer sends them as trailers, known once its rows are scored. None when no row has drought data (each row says why).
 */
export const CSV_TIME_HEADERS = ["X-Data-Period", "X-Data-As-Of", "X-Data-Current"] as const;

export function csvTimeHeaders(time: BatchTime | null): Record<string, string> {
  if (time === null) return {};
  return { "X-Data-Period": `${time.period.from}/${time.period.to}`, "X-Data-As-Of": time.asOf, "X-Data-Current": String(time.currency.current) };
}

const INDEX_COLUMNS = ["spei1", "spei3", "spei6", "spei12", "spi1", "mcdi"] as const;

/** format=csv, or no format and an Accept header that prefers text/csv to JSON. */
export function wantsCsv(req: Request, format: string | undefined): boolean {
  if (format !== undefined) return format === "csv";
  const accept = req.headers.accept;
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(",")) {
    const [type, ...params] = part.trim().toLowerCase().split(";");
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qp === undefined ? 1 : Number(qp.slice(2));
    if (type === "text/csv") csv = Math.max(csv, q);
    else if (type === "application/json" || type === "*/*") json = Math.max(json, type === "*/*" ? q / 2 : q);
  }
  return csv > 0 && csv > json;
}

export function droughtCsv(d: DroughtGridData): string {
  const l = d.location;
  return table(
    ["requested_lat", "requested_lng", "grid_id", "grid_lat", "grid_lng", "distance_km", "country", "month", "score", "level", "severity", ...INDEX_COLUMNS],
    [[l.requestedLat, l.requestedLng, l.gridId, l.gridLat, l.gridLng, l.distanceKm, l.country, d.period.month, d.drought.score, d.drought.level, d.drought.severity.spei1, ...INDEX_COLUMNS.map((k) => d.drought.indices[k])]],
  );
}

export function provinceCsv(d: ProvinceDroughtData): string {
  return table(
    ["province", "country", "month", "score", "level", "severity", "spei1", "spei3", "spei6"],
    [[d.province, d.country, d.month, d.score, d.level, d.severity.spei1, d.indices.spei1, d.indices.spei3, d.indices.spei6]],
  );
}

export function historyCsv(d: DroughtHistoryData): string {
  const names = Object.keys(d.series[0]?.indices ?? {});
  const l = d.location;
  return table(
    ["grid_id", "grid_lat", "grid_lng", "month", "valid", "score", "level", "severity", ...names],
    d.series.map((m) => [l.gridId, l.gridLat, l.gridLng, m.month, m.valid, m.score, m.level, m.severity, ...names.map((n) => m.indices[n])]),
  );
}

export function provinceHistoryCsv(d: ProvinceHistoryData): string {
  return table(
    ["province", "month", "valid", "score", "level", "severity", "spei1", "spei3", "spei6", "cells_used"],
    d.series.map((m) => [d.province, m.month, m.valid, m.score, m.level, m.severity, m.indices.spei1, m.indices.spei3, m.indices.spei6, m.cellsUsed]),
  );
}

/** The batch CSV's header line (no newline): the batch route's and the bulk route's columns. */
export const BATCH_CSV_HEADER = "id,lat,lng,month,found,riskScore,riskLevel,severity,spei1,reason";

/** A cell of a batch row: empty for null or undefined, else the value as text (as table() writes it). */
const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? "" : String(v));

/**
 * One batch item as a CSV line (no newline), written by hand: one template per row instead of an array of cells (the
 * bulk route writes a million). Only id and reason can need quoting; month, level and severity are fixed tokens.
 */
export function batchCsvLine(r: BatchItem): string {
  const id = r.id === undefined ? "" : csvField(r.id);
  if (!r.found) return `${id},${cell(r.lat)},${cell(r.lng)},${cell(r.month)},false,,,,,${csvField(r.reason)}`;
  return `${id},${r.lat},${r.lng},${r.month},true,${r.riskScore},${r.riskLevel},${cell(r.severity)},${r.spei1},`;
}

export function batchCsv(results: readonly BatchItem[]): string {
  let out = BATCH_CSV_HEADER + "\n";
  for (const r of results) out += batchCsvLine(r) + "\n";
  return out;
}
