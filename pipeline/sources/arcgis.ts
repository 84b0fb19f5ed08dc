// ArcGIS feature-service queries (IMF PortWatch): the service answers at most maxRecordCount features per
// request, so a query is read page by page (resultOffset) until the service stops saying exceededTransferLimit,
// and the features' attributes are written as CSV in the mirror's column order, dates (epoch ms) as YYYY-MM-DD.
import { csvLine } from "./merge.ts";
import { decodeText } from "./content-check.ts";
import { fetchWithPolicy, type FetchPolicy } from "./http-fetch.ts";

/** More pages than this is a runaway query, not a daily series. */
export const MAX_PAGES = 200;

interface ArcgisPage {
  features?: { attributes?: Record<string, unknown> }[];
  exceededTransferLimit?: boolean;
  error?: { code?: number; message?: string };
}

export function withParams(url: string, params: Record<string, string | number>): string {
  const q = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join("&");
  return `${url}${url.includes("?") ? "&" : "?"}${q}`;
}

function cell(v: unknown, isDate: boolean): string {
  if (v === null || v === undefined) return "";
  if (isDate && typeof v === "number") return new Date(v).toISOString().slice(0, 10);
  return String(v);
}

/** CSV text of ArcGIS features, `columns` in order. */
export function arcgisToCsv(features: readonly { attributes?: Record<string, unknown> }[], columns: readonly string[], dateColumns: readonly string[]): string {
  const dates = new Set(dateColumns);
  const lines = [csvLine(columns)];
  for (const f of features) lines.push(csvLine(columns.map((c) => cell(f.attributes?.[c], dates.has(c)))));
  return lines.join("\n") + "\n";
}

/** Every page of the query as one CSV; attempts counts every request made. */
export async function fetchArcgisCsv(
  urlTemplate: string,
  spec: { pageSize: number; columns: readonly string[]; dateColumns: readonly string[] },
  policy: FetchPolicy,
): Promise<{ bytes: Uint8Array; attempts: number }> {
  const features: NonNullable<ArcgisPage["features"]> = [];
  let attempts = 0;
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) throw new Error(`ArcGIS query: more than ${MAX_PAGES} pages`);
    const r = await fetchWithPolicy(withParams(urlTemplate, { resultOffset: features.length, resultRecordCount: spec.pageSize }), policy);
    attempts += r.attempts;
    if (r.kind !== "body") throw new Error("ArcGIS query answered 304 without a conditional request");
    let body: ArcgisPage;
    try {
      body = JSON.parse(decodeText(r.bytes)) as ArcgisPage;
    } catch (err) {
      throw new Error(`ArcGIS page ${page + 1}: not valid JSON (${(err as Error).message})`);
    }
    if (body.error) throw new Error(`ArcGIS error ${body.error.code ?? ""}: ${body.error.message ?? "unknown"}`);
    if (!Array.isArray(body.features)) throw new Error(`ArcGIS page ${page + 1}: no "features" array`);
    features.push(...body.features);
    if (!body.exceededTransferLimit || body.features.length === 0) break;
  }
  return { bytes: new TextEncoder().encode(arcgisToCsv(features, spec.columns, spec.dateColumns)), attempts };
}
