// GET /api/risk-map/events: the events of a feed snapshot inside a box, as GeoJSON, for map layers (flood and
// wildfire events as points, storms as their tracks).
import { z } from "zod";

export const EVENT_RISK_TYPES = ["flood", "wildfire", "storm"] as const;
export const MAX_EVENTS = 2000;

export const bboxText = z
  .string()
  .transform((s, ctx) => {
    const v = s.split(",").map((x) => Number(x.trim()));
    const [w, so, e, n] = v;
    if (v.length !== 4 || v.some((x) => !Number.isFinite(x)) || w < -180 || e > 180 || so < -90 || n > 90 || w >= e || so >= n) {
      ctx.addIssue({ code: "custom", message: "bbox must be west,south,east,north in degrees, west < east, south < north" });
      return z.NEVER;
    }
    return [w, so, e, n] as [number, number, number, number];
  })
  .describe("west,south,east,north in degrees (WGS 84), e.g. 97,5,106,21");

export const eventsQuery = z.object({
  riskType: z.enum(EVENT_RISK_TYPES).describe("flood and wildfire: one point per event; storm: one track per storm (its fixes in the box)"),
  bbox: bboxText,
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "since must be YYYY-MM-DD").optional().describe("only events (storms: fixes) from this day on, YYYY-MM-DD"),
  limit: z.coerce.number().int().min(1).max(MAX_EVENTS).default(500).describe(`the newest events (storms) first, at most this many (1–${MAX_EVENTS}, default 500)`),
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

export const eventsCollection = z.object({
  type: z.literal("FeatureCollection"),
  riskType: z.enum(EVENT_RISK_TYPES),
  asOf: z.string().describe("the snapshot's as-of time"),
  snapshotVersion: z.string(),
  truncated: z.boolean().describe("more events matched than limit; the newest were kept"),
  features: z.array(
    z.object({
      type: z.literal("Feature"),
      id: z.string(),
      geometry: z.union([
        z.object({ type: z.literal("Point"), coordinates: z.tuple([z.number(), z.number()]) }),
        z.object({ type: z.literal("LineString"), coordinates: z.array(z.tuple([z.number(), z.number()])) }),
      ]),
      properties: eventProps,
    }),
  ),
});
export type EventsCollection = z.infer<typeof eventsCollection>;
