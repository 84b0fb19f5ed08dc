// The country check: synthetic polygons with hand-computed distances, name resolution, and the adapters refusing
// the phantom Bangkok rows and null-island rows of the real GDACS flood table while keeping known good floods.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { booleanPointInPolygon, pointToPolygonDistance } from "@turf/turf";
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { CountryChecker, countryChecker, countryNameToIso3, countryNamesToIso3 } from "../../pipeline/feeds/country-check.ts";
import { parseDfoArchive } from "../../pipeline/feeds/dfo.ts";
import { parseGdacsFloodTable, parseGdacsGeoJson } from "../../pipeline/feeds/gdacs.ts";

const require = createRequire(import.meta.url);
const feed = (rel: string) => readFileSync(join(dataDir(), "feeds", rel), "utf8");

// A 1° square at the equator standing in for Thailand (ISO numeric 764).
const square: Feature<Polygon> = { type: "Feature", id: "764", properties: {}, geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]] } };
const KM_PER_DEG = (6371.0088 * Math.PI) / 180; // turf's mean earth radius: 111.195 km per degree of arc

describe("CountryChecker on a synthetic polygon", () => {
  const cc = new CountryChecker([square], 50);
  it("distance 0 inside, 0.2° = 22.2 km and 1° = 111.2 km east of the edge at the equator", () => {
    expect(cc.distanceKm(0.5, 0.5, "THA")).toBe(0);
    // turf measures to the nearest edge point along the segment: within 0.5 km of the arc length here.
    expect(cc.distanceKm(1.2, 0.5, "THA")).toBeCloseTo(0.2 * KM_PER_DEG, 0);
    expect(cc.distanceKm(2, 0.5, "THA")).toBeCloseTo(KM_PER_DEG, 0);
    expect(cc.distanceKm(0.5, 0.5, "MYS")).toBeNaN();
  });
  it("within 50 km ok, beyond refused, null island always refused, unknown countries unchecked, any named country suffices", () => {
    expect(cc.check(1.2, 0.5, ["THA"])).toBe("ok");
    expect(cc.check(2, 0.5, ["THA"])).toBe("coordinates outside the named country");
    expect(cc.check(0, 0, ["THA"])).toBe("null island"); // a corner of the square, still refused
    expect(cc.check(2, 0.5, ["MYS"])).toBe("unchecked");
    expect(cc.check(2, 0.5, [])).toBe("unchecked");
    expect(cc.check(0.5, 0.5, ["MYS", "THA"])).toBe("ok");
    expect(new CountryChecker([square], 120).check(2, 0.5, ["THA"])).toBe("ok");
  });
});

describe("country names", () => {
  it("resolve feed spellings and lists to ISO alpha-3", () => {
    expect(countryNameToIso3("Thailand")).toBe("THA");
    expect(countryNameToIso3("Thiland")).toBe("THA");
    expect(countryNameToIso3("Africa")).toBeUndefined();
    expect(countryNameToIso3("0")).toBeUndefined();
    expect(countryNamesToIso3("Bosnia and Herzegovina")).toEqual(["BIH"]);
    expect(countryNamesToIso3("Canada and USA")).toEqual(["CAN", "USA"]);
    expect(countryNamesToIso3("Japan|Philippines")).toEqual(["JPN", "PHL"]);
    expect(countryNamesToIso3("Congo, Democratic Republic of the")).toEqual(["COD"]);
  });
});

describe("Natural Earth 50m countries", () => {
  it("the phantom Bangkok point: in Thailand, 721 km from Malaysia, 882 km from Indonesia", () => {
    const cc = countryChecker();
    expect(cc.distanceKm(100.5683792, 13.8284014, "THA")).toBe(0);
    expect(Math.round(cc.distanceKm(100.5683792, 13.8284014, "MYS"))).toBe(721);
    expect(Math.round(cc.distanceKm(100.5683792, 13.8284014, "IDN"))).toBe(882);
    // Australia and Ashmore and Cartier Is. share id 036: Sydney must still be inside Australia.
    expect(cc.distanceKm(151.2, -33.87, "AUS")).toBe(0);
  });

  it("within the tolerance the distance is turf's pointToPolygonDistance to the last bit; beyond it, beyond it too", () => {
    // Points scattered around outline vertices, in holes (Lesotho in South Africa) and around Antarctica, whose
    // pole-wrapping rings put a hole outside its exterior in longitude/latitude.
    const cc = countryChecker();
    const world = countryShapes();
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let within = 0;
    for (const [iso, id] of [["ZAF", "710"], ["LSO", "426"], ["ATA", "010"], ["THA", "764"], ["NOR", "578"], ["IDN", "360"]] as const) {
      const shapes = world.filter((f) => String(f.id).padStart(3, "0") === id);
      for (let n = 0; n < 60; n++) {
        const polygons = shapes[0].geometry.type === "Polygon" ? [shapes[0].geometry.coordinates] : shapes[0].geometry.coordinates;
        const rings = polygons[Math.floor(rnd() * polygons.length)];
        const ring = rings[Math.floor(rnd() * rings.length)];
        const [x, y] = ring[Math.floor(rnd() * ring.length)];
        const p = [x + (rnd() - 0.5) * 2, Math.max(-89.9, Math.min(89.9, y + (rnd() - 0.5) * 1.4))];
        const turf = Math.min(...shapes.map((f) => (booleanPointInPolygon(p, f) ? 0 : pointToPolygonDistance(p, f, { units: "kilometers" }))));
        const ours = cc.distanceKm(p[0], p[1], iso);
        if (turf <= cc.toleranceKm) {
          within++;
          expect(ours, `${iso} ${p}`).toBe(turf);
        } else expect(ours, `${iso} ${p}`).toBeGreaterThan(cc.toleranceKm);
      }
    }
    expect(within).toBeGreaterThan(150);
  });
});

/** world-atlas's 50m countries, as the checker reads them. */
function countryShapes(): Feature<Polygon | MultiPolygon>[] {
  const topo = JSON.parse(readFileSync(require.resolve("world-atlas/countries-50m.json"), "utf8")) as Topology<{ countries: GeometryCollection }>;
  return (feature(topo, topo.objects.countries) as unknown as { features: Feature<Polygon | MultiPolygon>[] }).features;
}

const TABLE_HEADER = ",GDACS_ID,equi7_grid_code,country,iso3,eventid,alertlevel,alertscore,fromdate,todate,geometry_url,report_url,details_url,geometry";
const tableRow = (id: number, country: string, iso3: string, lng: number, lat: number) =>
  `0,FL-${id},AS020M,${country},${iso3},${id},Green,1,2025-01-01T00:00:00,2025-01-02T00:00:00,u,u,u,"{'type': 'Point', 'coordinates': [${lng}, ${lat}]}"`;

describe("adapters refuse rows outside their country", () => {
  it("GDACS flood table rows written here: each refusal counted by reason", () => {
    const csv = [
      TABLE_HEADER,
      tableRow(1103646, "Indonesia", "IDN", 100.5683792, 13.8284014),
      tableRow(1103663, "Malaysia", "MYS", 100.5683792, 13.8284014),
      tableRow(7, "Ghana", "GHA", 0, 0),
      tableRow(8, "Thailand", "THA", 100.5683792, 13.8284014),
      tableRow(9, "Japan|Philippines", "", 121.0, 14.6), // Manila: the second named country
      tableRow(10, "Atlantis", "", 100, 13), // names no known country: kept, cannot be checked
    ].join("\n");
    const r = parseGdacsFloodTable(csv);
    expect(r.records.map((x) => x.id)).toEqual(["FL-8", "FL-9", "FL-10"]);
    expect({ rows: r.rows, rejected: r.rejected, reasons: r.reasons }).toEqual({ rows: 6, rejected: 3, reasons: { "coordinates outside the named country": 2, "null island": 1 } });
    expect(parseGdacsFloodTable(csv, null).records).toHaveLength(5); // without the country check only the null-island row is refused
  });

  it("real GDACS flood table: the Bangkok phantoms and the 8 null-island rows are gone, Thai floods stay", () => {
    const r = parseGdacsFloodTable(feed("gdacs/latest_gdacs_flood_db.csv"));
    const ids = new Set(r.records.map((x) => x.id));
    expect(ids.has("FL-1103646")).toBe(false);
    expect(ids.has("FL-1103663")).toBe(false);
    expect(r.records.filter((x) => x.lng === 0 && x.lat === 0)).toHaveLength(0);
    expect(r.reasons["null island"]).toBe(8);
    const atPhantomPoint = (rs: { lng: number; lat: number; iso3: string }[]) => rs.filter((x) => x.lng === 100.5683792 && x.lat === 13.8284014).map((x) => x.iso3);
    expect(atPhantomPoint(parseGdacsFloodTable(feed("gdacs/latest_gdacs_flood_db.csv"), null).records).sort()).toEqual(["IDN", "MYS"]);
    expect(atPhantomPoint(r.records)).toEqual([]);
  });

  it("GDACS GeoJSON: the May 2026 Thailand flood FL-1103881 is kept; a flood placed in the wrong country is refused", () => {
    const g = parseGdacsGeoJson(feed("gdacs/gdacs_20260530T1858Z.geojson"));
    expect(g.rejected).toBe(0);
    expect(g.records.map((x) => x.id)).toContain("FL-1103881");
    const point = (eventid: number, eventtype: string, iso3: string, country: string, lng: number, lat: number) => ({
      type: "Feature", geometry: { type: "Point", coordinates: [lng, lat] },
      properties: { eventtype, eventid: String(eventid), iso3, country, alertlevel: "Green", fromdate: "2026-05-13T01:00:00", name: "x" },
    });
    const fc = JSON.stringify({ type: "FeatureCollection", features: [
      point(1, "FL", "IDN", "Indonesia", 100.5683792, 13.8284014),
      point(2, "FL", "THA", "Thailand", 98.2608392, 8.3991866),
      point(3, "TC", "JPN", "Japan", 129.0, 19.3), // cyclones at sea are not checked
      point(4, "EQ", "", "", 0, 0),
    ] });
    const r = parseGdacsGeoJson(fc);
    expect(r.records.map((x) => x.id)).toEqual(["FL-2", "TC-3"]);
    expect(r.reasons).toEqual({ "coordinates outside the named country": 1, "null island": 1 });
  });

  it("DFO rows written here: OtherCountry counts, the 2011 Thailand flood stays", () => {
    const csv = [
      "ID,GlideNumber,Country,OtherCountry,long,lat,Area,Began,Ended,Validation,Dead,Displaced,MainCause,Severity",
      "1,0,Thailand,0,100.5,14.5,1000,8/1/2011,8/10/2011,News,1,1,Heavy rain,2",
      "2,0,Malaysia,0,100.5,14.5,1000,8/1/2011,8/10/2011,News,1,1,Heavy rain,2",
      "3,0,Malaysia,Thailand,100.5,14.5,1000,8/1/2011,8/10/2011,News,1,1,Heavy rain,2",
      "4,0,Thailand,0,0,0,1000,8/1/2011,8/10/2011,News,1,1,Heavy rain,2",
      "5,0,Europe,0,100.5,14.5,1000,8/1/2011,8/10/2011,News,1,1,Heavy rain,2",
    ].join("\n");
    const r = parseDfoArchive(csv);
    expect(r.records.map((x) => x.id)).toEqual(["DFO-1", "DFO-3", "DFO-5"]);
    expect(r.reasons).toEqual({ "coordinates outside the named country": 1, "null island": 1 });
    const real = parseDfoArchive(feed("dfo/FloodArchive.csv"));
    const thai2011 = real.records.filter((e) => e.country.trim() === "Thailand" && new Date(e.time).getUTCFullYear() === 2011);
    expect(thai2011.some((e) => e.dead > 500)).toBe(true);
  });
});
