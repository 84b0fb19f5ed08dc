// Paging of the map-layer collections (GET /api/risk-map/events, GET /api/supply-chain/ports): a page cursor in the
// query, and the fields that say whether more follow and where (OGC API - Features' numberMatched and next link).
import { z } from "zod";

/** `<offset>@<snapshot version>`: the position of the page's first feature in the answer's order, in that version. */
const CURSOR_PATTERN = /^(\d{1,9})@([A-Za-z0-9._-]{1,100})$/;

export interface Cursor {
  offset: number;
  version: string;
}

export const cursorText = z
  .string()
  .regex(CURSOR_PATTERN, "must be the cursor of a next link (<offset>@<snapshot version>)")
  .transform((s): Cursor => {
    const m = CURSOR_PATTERN.exec(s)!;
    return { offset: Number(m[1]), version: m[2] };
  })
  .optional()
  .describe(
    "the page to answer, as the `next` link of the previous page gives it; without it the first page. A cursor names the snapshot " +
      "version its order belongs to: once another version is served it is 404 NOT_FOUND (start again from the first page)",
  );

export const nextLink = z.object({
  rel: z.literal("next"),
  type: z.literal("application/geo+json"),
  href: z.string().describe("path and query of the next page: the same query with its cursor"),
});

/** The fields every paged collection carries. */
export const pageFields = {
  numberMatched: z.int().min(0).describe("features the query matches over all pages"),
  truncated: z.boolean().describe("more features follow this page: `next` names them"),
  next: z.string().nullable().describe("path and query of the next page (the same query with `cursor`); null on the last page"),
  links: z.array(nextLink).describe("the next page as a link (rel next), as OGC API - Features gives it; empty on the last page"),
};
