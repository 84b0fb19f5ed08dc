// Paged GeoJSON searches (GDACS' event search API): the origin answers at most `pageSize` features per request, so a
// query is read page by page (`pagenumber` from 1) until a page holds fewer than a full page, and the pages'
// features are written as one FeatureCollection. An empty answer (no body, as GDACS gives for a page past the last)
// is an empty page.
import { withParams } from "./arcgis.ts";
import { decodeText } from "./content-check.ts";
import { fetchWithPolicy, type FetchPolicy } from "./http-fetch.ts";

export interface GeojsonPaging {
  /** Features per full page (the query's own page size). */
  pageSize: number;
  /** More pages than this is a runaway query: refused, the previous copy kept. */
  maxPages: number;
  /** The page number's query parameter (1-based). */
  pageParam: string;
}

/** Every page of the query as one FeatureCollection; attempts counts every request made. */
export async function fetchGeojsonPages(url: string, paging: GeojsonPaging, policy: FetchPolicy): Promise<{ bytes: Uint8Array; attempts: number; pages: number }> {
  const features: unknown[] = [];
  let attempts = 0;
  for (let page = 1; ; page++) {
    if (page > paging.maxPages) throw new Error(`paged search: more than ${paging.maxPages} pages of ${paging.pageSize}`);
    const r = await fetchWithPolicy(withParams(url, { [paging.pageParam]: page }), policy);
    attempts += r.attempts;
    if (r.kind !== "body") throw new Error("paged search answered 304 without a conditional request");
    const text = decodeText(r.bytes).trim();
    let got: unknown[] = [];
    if (text !== "") {
      let body: { type?: unknown; features?: unknown };
      try {
        body = JSON.parse(text) as typeof body;
      } catch (err) {
        throw new Error(`page ${page}: not valid JSON (${(err as Error).message})`);
      }
      if (!Array.isArray(body.features)) throw new Error(`page ${page}: no "features" array`);
      got = body.features;
    }
    features.push(...got);
    if (got.length < paging.pageSize) {
      const collection = { type: "FeatureCollection", features };
      return { bytes: new TextEncoder().encode(JSON.stringify(collection)), attempts, pages: page };
    }
  }
}
