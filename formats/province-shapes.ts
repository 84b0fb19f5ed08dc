// Simplified province outlines for map clients (format: province-shapes.md): the choropleth route draws them
// with each province's summary. Written by the build from the province boundaries (Douglas–Peucker through
// @turf/simplify — the one turf module, so the server that reads this file does not load all of turf; coordinates
// to 4 decimals); read and shape-checked when a version loads.
import { simplify } from "@turf/simplify";
import type { MultiPolygon } from "geojson";
import { z } from "zod";
import type { Province } from "../lib/geo/province-rings.ts";

export const PROVINCE_SHAPES_FILE = "province-shapes.json";
/** Degrees; about 1 km at Thai latitudes: outlines stay recognisable at the country's scale. */
export const SHAPES_TOLERANCE_DEG = 0.01;

const position = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
const ring = z.array(position).min(4);
const shapesFile = z.object({
  toleranceDeg: z.number().positive(),
  provinces: z.array(z.object({ code: z.string().regex(/^[A-Z]{2}-[0-9A-Z]{1,3}(-[A-Z]+)?$/), geometry: z.object({ type: z.literal("MultiPolygon"), coordinates: z.array(z.array(ring).min(1)).min(1) }) })),
});
export type ProvinceShapes = z.infer<typeof shapesFile>;

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** The outlines of the provinces in build order; rings that simplify below 4 positions are dropped. */
export function writeProvinceShapes(provinces: readonly Province[], toleranceDeg = SHAPES_TOLERANCE_DEG): string {
  const out: ProvinceShapes = {
    toleranceDeg,
    provinces: provinces.map((p) => {
      const simple = simplify({ type: "MultiPolygon", coordinates: p.polygons } as MultiPolygon, { tolerance: toleranceDeg, highQuality: true });
      const coordinates = simple.coordinates
        .map((poly) => poly.map((r) => r.map(([x, y]) => [round4(x), round4(y)] as [number, number])).filter((r) => r.length >= 4))
        .filter((poly) => poly.length > 0);
      return { code: p.code, geometry: { type: "MultiPolygon" as const, coordinates } };
    }),
  };
  return JSON.stringify(out) + "\n";
}

export function readProvinceShapes(text: string, name = PROVINCE_SHAPES_FILE): ProvinceShapes {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${name}: not JSON: ${(err as Error).message}`);
  }
  const r = shapesFile.safeParse(raw);
  if (!r.success) throw new Error(`${name}: ${r.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return r.data;
}
