// Natural Earth admin-0 countries from the world-atlas package (TopoJSON, ISO 3166-1 numeric ids): each polygon
// unit with its ISO alpha-3 code, and the coastline as the arcs that only one country uses (land borders are
// shared by two). Units without an ISO id get the codes of DISPUTED_UNITS (docs/methods/geography.md says why).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import countries from "i18n-iso-countries";
import type { MultiPolygon, Polygon } from "geojson";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

const require = createRequire(import.meta.url);

export type NaturalEarthScale = "50m" | "10m";

/** One polygon unit: a Natural Earth admin-0 feature, or part of one when its parts have different codes. */
export interface CountryUnit {
  /** ISO 3166-1 alpha-3 (XKX for Kosovo, a user-assigned code), or null where no country is assigned. */
  iso3: string | null;
  /** Natural Earth's name of the feature ("N. Cyprus", "Dem. Rep. Congo"). */
  name: string;
  /** True for units without an ISO numeric id of their own, mapped by DISPUTED_UNITS. */
  special: boolean;
  /** Polygons as GeoJSON MultiPolygon coordinates (spherical rings: may cross the antimeridian or wind round a pole). */
  polygons: number[][][][];
}

export interface NaturalEarthCountries {
  scale: NaturalEarthScale;
  units: CountryUnit[];
  /** Coastline polylines ([lng, lat] positions). */
  coastline: number[][][];
  /** "Natural Earth 1:10m admin-0 countries 4.1.0 (world-atlas 2.0.2)". */
  source: string;
}

/**
 * Natural Earth units with no ISO 3166-1 numeric id in world-atlas (id undefined, "-99" in Natural Earth), by name.
 * A code, or a function of a polygon's representative longitude for units made of places with different codes, or
 * null where sovereignty is contested between several states and no code is honest.
 */
export const DISPUTED_UNITS: Record<string, string | null | ((lng: number) => string)> = {
  Kosovo: "XKX", // no ISO 3166-1 code; XKX is the user-assigned code used by the EU, IMF and World Bank
  "N. Cyprus": "CYP", // recognised only by Turkey; ISO 3166 and the UN treat it as part of Cyprus
  "Cyprus U.N. Buffer Zone": "CYP",
  Somaliland: "SOM", // self-declared state, internationally recognised as part of Somalia
  "Siachen Glacier": "IND", // claimed by Pakistan, administered by India since 1984
  Baikonur: "KAZ", // Kazakh territory leased to Russia
  "USNB Guantanamo Bay": "CUB", // Cuban territory leased to the United States
  Akrotiri: "GBR", // UK Sovereign Base Areas on Cyprus
  Dhekelia: "GBR",
  "Coral Sea Is.": "AUS",
  "Clipperton I.": "FRA",
  "Bajo Nuevo Bank": "COL", // administered by Colombia, claimed by Jamaica, Nicaragua and the United States
  "Serranilla Bank": "COL",
  "Spratly Is.": null, // claimed in whole or part by China, Taiwan, Vietnam, the Philippines, Malaysia and Brunei
  "Scarborough Reef": null, // claimed by China, Taiwan and the Philippines
  "Indian Ocean Ter.": (lng) => (lng < 100 ? "CCK" : "CXR"), // Cocos (Keeling) Islands at 96.8°E, Christmas Island at 105.7°E
};

type CountryTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

function readTopology(scale: NaturalEarthScale): CountryTopology {
  return JSON.parse(readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), "utf8")) as CountryTopology;
}

function worldAtlasVersion(): string {
  return (JSON.parse(readFileSync(require.resolve("world-atlas/package.json"), "utf8")) as { version: string }).version;
}

/** Loads the countries and coastline of one Natural Earth scale from world-atlas. */
export function loadNaturalEarth(scale: NaturalEarthScale): NaturalEarthCountries {
  const topo = readTopology(scale);
  const fc = feature(topo, topo.objects.countries) as unknown as {
    features: { id?: string | number; properties: { name: string }; geometry: Polygon | MultiPolygon | null }[];
  };
  const units: CountryUnit[] = [];
  for (const f of fc.features) {
    if (!f.geometry) continue;
    const polygons = f.geometry.type === "Polygon" ? [f.geometry.coordinates] : f.geometry.coordinates;
    const name = f.properties.name;
    if (f.id !== undefined) {
      const iso3 = countries.numericToAlpha3(String(f.id).padStart(3, "0"));
      if (!iso3) throw new Error(`world-atlas countries-${scale}: ISO numeric id ${f.id} (${name}) has no alpha-3 code`);
      units.push({ iso3, name, special: false, polygons });
      continue;
    }
    if (!(name in DISPUTED_UNITS)) throw new Error(`world-atlas countries-${scale}: "${name}" has no ISO id and no entry in DISPUTED_UNITS`);
    const rule = DISPUTED_UNITS[name];
    if (typeof rule !== "function") {
      units.push({ iso3: rule, name, special: true, polygons });
      continue;
    }
    // One unit per code among the feature's polygons, each placed by its first vertex.
    const byCode = new Map<string, number[][][][]>();
    for (const p of polygons) {
      const code = rule(p[0][0][0]);
      byCode.set(code, [...(byCode.get(code) ?? []), p]);
    }
    for (const [iso3, ps] of byCode) units.push({ iso3, name, special: true, polygons: ps });
  }
  const coast = mesh(topo, topo.objects.countries, (a, b) => a === b) as unknown as { coordinates: number[][][] };
  return {
    scale,
    units,
    coastline: coast.coordinates,
    source: `Natural Earth 1:${scale} admin-0 countries 4.1.0 (world-atlas ${worldAtlasVersion()})`,
  };
}
