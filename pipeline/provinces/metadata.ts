// provinces.json entries: names, aliases, bbox and area of each province, in province-index order.
import * as turf from "@turf/turf";
import type { Province } from "./boundaries.ts";
import type { ProvinceAliases } from "./aliases.ts";
import type { ProvinceMeta } from "../../formats/province-index.ts";

export function provinceMetadata(provinces: readonly Province[], aliases: readonly ProvinceAliases[]): ProvinceMeta[] {
  const byCode = new Map(aliases.map((a) => [a.code, a.aliases]));
  return provinces.map((p) => {
    const geom: GeoJSON.MultiPolygon = { type: "MultiPolygon", coordinates: p.polygons };
    const [w, s, e, n] = turf.bbox(geom);
    return {
      code: p.code,
      country: p.country,
      nameEn: p.nameEn,
      nameTh: p.nameTh,
      slug: p.slug,
      region: p.region,
      aliases: byCode.get(p.code) ?? [],
      bbox: [w, s, e, n],
      areaKm2: Math.round(turf.area(geom) / 1e4) / 100, // turf returns m²; keep 0.01 km²
    };
  });
}
