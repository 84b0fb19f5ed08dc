// The bulk route's output besides its scored rows (server/services/row-texts.ts writes those: a batch CSV line or the
// batch item as JSON), pure: the CSV header, a row that could not be read, the NDJSON end record, and the record that
// ends a stream which failed after its first rows were sent. Formats: docs/api.md "Bulk".
import { errorEnvelope, type ApiError } from "../errors.ts";
import { BATCH_CSV_HEADER } from "../routes/drought-csv.ts";
import { csvField } from "../../lib/drought/point-scorer.ts";
import type { BulkFormat, BulkInvalid } from "./bulk-input.ts";

export const BULK_OUTPUT_TYPES: Record<BulkFormat, string> = { csv: "text/csv", ndjson: "application/x-ndjson" };

/** What comes before the first row: the CSV header line; nothing in NDJSON. */
export const headerText = (format: BulkFormat): string => (format === "csv" ? BATCH_CSV_HEADER + "\n" : "");

/** A row that could not be read: found false, no coordinates, the reason; its id when one was read. */
export function invalidText(format: BulkFormat, r: BulkInvalid): string {
  if (format === "csv") return `${r.id === undefined ? "" : csvField(r.id)},,,,false,,,,,${csvField(r.reason)}\n`;
  const item = { id: r.id, lat: null, lng: null, found: false, month: null, riskScore: null, riskLevel: null, severity: null, spei1: null, reason: r.reason };
  return JSON.stringify(item) + "\n";
}

export interface BulkCounts {
  rows: number;
  found: number;
  notFound: number;
  invalid: number;
}

/** The last NDJSON line of a complete answer: counts, data version, the time of the found rows and freshness. */
export function endText(counts: BulkCounts, extra: Record<string, unknown>): string {
  return JSON.stringify({ end: { complete: true, ...counts, ...extra } }) + "\n";
}

/**
 * The last line of an answer cut short after rows were sent (budget spent, too many rows, a body that stopped
 * decoding): NDJSON `{"end": {"complete": false, "rows", "error": {code, message, details}}}`; CSV a row whose
 * `found` is empty (no data row has one) with `CODE after N rows: message` as its reason.
 */
export function errorText(format: BulkFormat, err: ApiError, rows: number): string {
  if (format === "ndjson") return JSON.stringify({ end: { complete: false, rows, error: errorEnvelope(err).error } }) + "\n";
  return `,,,,,,,,,${csvField(`${err.code} after ${rows} rows: ${err.message}`)}\n`;
}
