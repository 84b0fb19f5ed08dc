// The `next` link of a paged collection: the request's own path and query parameters (those its schema knows, as the
// client sent them) with the next page's cursor.
import type { Request } from "express";
import type { z } from "zod";

export function pageLinks(req: Request, schema: z.ZodObject, nextCursor: string | null) {
  if (nextCursor === null) return { truncated: false, next: null, links: [] };
  const params: string[] = [];
  for (const key of Object.keys(schema.shape)) {
    const v = req.query[key];
    if (key !== "cursor" && typeof v === "string") params.push(`${key}=${encode(v)}`);
  }
  params.push(`cursor=${encode(nextCursor)}`);
  const href = `${req.path}?${params.join("&")}`;
  return { truncated: true, next: href, links: [{ rel: "next" as const, type: "application/geo+json" as const, href }] };
}

/** Percent-encoding, but for the commas of a bbox and the @ of a cursor, which a query may hold as they are (RFC 3986). */
function encode(v: string): string {
  return encodeURIComponent(v).replace(/%2C/gi, ",").replace(/%40/g, "@");
}
