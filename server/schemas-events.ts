// GET /api/risk-map/events: the events of a feed snapshot inside a box, as GeoJSON, for map layers (flood and
// wildfire events as points, storms as their tracks), a page at a time.
import { z } from "zod";
import { DECIMAL_PATTERN, queryInteger } from "./schemas-common.ts";
import { cursorText, pageFields } from "./schemas-paging.ts";

export const EVENT_RISK_TYPES = ["flood", "wildfire", "storm"] as const;
export const MAX_EVENTS = 2000;

const BBOX_MESSAGE = "bbox must be west,south,east,north in decimal degrees, west ≠ east, south < north";

export const bboxText = z
  .string()
  .transform((s, ctx) => {
    const parts = s.split(",");
    const v = parts.map(Number);
    const [w, so, e, n] = v;
    if (v.length !== 4 || parts.some((x) => !DECIMAL_PATTERN.test(x)) || w < -180 || w > 180 || e < -180 || e > 180 || so < -90 || n > 90 || w === e || so >= n) {
      ctx.addIssue({ code: "custom", message: BBOX_MESSAGE });
      return z.NEVER;
    }
    return [w, so, e, n] as [number, number, number, number];
  })
  .describe(
    "west,south,east,north in decimal degrees (WGS 84), e.g. 97,5,106,21. west > east is a box across the antimeridian: " +
      "170,-20,-170,20 holds 170° to 180° and -180° to -170°",
  );

export const eventsQuery = z.object({
  riskType: z.enum(EVENT_RISK_TYPES).describe("flood and wildfire: one Point per event; storm: one MultiLineString per storm (its fixes in the box)"),
  bbox: bboxText,
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "since must be YYYY-MM-DD").optional().describe("only events (storms: fixes) from this day on, YYYY-MM-DD"),
  limit: queryInteger(z.int().min(1).max(MAX_EVENTS)).default(500).describe(`features per page (1–${MAX_EVENTS}, default 500), newest first`),
  cursor: cursorText,
});
export type EventsQuery = z.output<typeof eventsQuery>;

const eventProps = z.object({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  start: z.string().describe("first day, YYYY-MM-DD"),
  end: z.string().describe("last day, YYYY-MM-DD"),
  magnitude: z.number().nullable().describe("flood: DFO magnitude or GDACS alert score; wildfire: FRP MW; storm: highest wind in the box, kt"),
  unit: z.string(),
});

const position = z.tuple([z.number(), z.number()]);

const collectionFields = {
  type: z.literal("FeatureCollection"),
  asOf: z.string().describe("the snapshot's as-of time"),
  snapshotVersion: z.string().describe("the snapshot version the features and the page order come from"),
  ...pageFields,
};

/** Flood and wildfire: every feature a Point. */
export const pointEvents = z.object({
  ...collectionFields,
  riskType: z.enum(["flood", "wildfire"]),
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string(),
      geometry: z.object({ type: z.literal("Point"), coordinates: position }),
      properties: eventProps,
    }),
  ),
});

/**
 * Storms: every feature a MultiLineString, the storm's track in the box cut at the antimeridian (RFC 7946 3.1.9): one
 * line, or one per side of ±180°; a storm with one fix in the box is the degenerate line of that fix twice.
 */
export const stormTracks = z.object({
  ...collectionFields,
  riskType: z.literal("storm"),
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string(),
      geometry: z
        .object({ type: z.literal("MultiLineString"), coordinates: z.array(z.array(position).min(2)).min(1) })
        .describe(
          "the storm's fixes in the box in time order, one line; where the track crosses the antimeridian it is cut there " +
            "(RFC 7946 3.1.9) into one line per side, the crossing interpolated; a single fix is one line of that fix twice (length zero)",
        ),
      properties: eventProps.extend({ fixes: z.int().min(1).describe("the storm's fixes in the box") }),
    }),
  ),
});

export const eventsCollection = z.discriminatedUnion("riskType", [pointEvents, stormTracks]);
export type EventsCollection = z.infer<typeof eventsCollection>;
