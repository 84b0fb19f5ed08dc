// buildGeography on Natural Earth 1:10m (world-atlas): countries on every continent, borders, coasts, islands, the
// antimeridian, the poles, units without ISO codes, Thai provinces through the province index, and bad input.
// Points are chosen a few km inside their country or sea, beyond the data's stated error (docs/methods/geography.md).
import { describe, expect, it } from "vitest";
import { buildGeography, type ThaiProvinces } from "../../lib/geo/geography.ts";
import { loadNaturalEarth, type NaturalEarthCountries } from "../../lib/geo/natural-earth.ts";
import { EARTH_RADIUS_KM, haversineKm } from "../../lib/geo/sphere.ts";
import { ProvinceIndexReader, writeProvinceIndex } from "../../formats/province-index.ts";
import { loadProvinces } from "../../pipeline/provinces/boundaries.ts";
import { flattenRings } from "../../lib/geo/province-rings.ts";

const geo = buildGeography();

/** [name, lat, lng, ISO alpha-3] of land points, each several km inside its country. */
const LAND: [string, number, number, string][] = [
  ["Bangkok", 13.7563, 100.5018, "THA"],
  ["Dhaka", 23.8103, 90.4125, "BGD"],
  ["Manila", 14.5995, 120.9842, "PHL"],
  ["Hanoi", 21.0285, 105.8542, "VNM"],
  ["Jakarta", -6.2, 106.85, "IDN"],
  ["Shanghai", 31.23, 121.47, "CHN"],
  ["Rotterdam", 51.9244, 4.4777, "NLD"],
  ["Moscow", 55.75, 37.62, "RUS"],
  ["Lagos", 6.5244, 3.3792, "NGA"],
  ["Nairobi", -1.29, 36.82, "KEN"],
  ["Singapore", 1.3521, 103.8198, "SGP"],
  ["Sydney", -33.87, 151.21, "AUS"],
  ["São Paulo", -23.55, -46.63, "BRA"],
  ["Santiago", -33.45, -70.66, "CHL"],
  ["Fairbanks", 64.84, -147.72, "USA"],
  ["Greenland ice sheet", 75, -40, "GRL"],
  // Islands
  ["Tahiti, inland", -17.65, -149.43, "PYF"],
  ["Reykjavik, 4 km inland", 64.1, -21.8, "ISL"],
  ["O'ahu, inland (Wahiawa)", 21.45, -157.98, "USA"],
  ["Attu, Aleutians (173°E, American west of the antimeridian)", 52.9, 173.0, "USA"],
  ["Chatham Islands", -43.9, -176.5, "NZL"],
  ["Vaitupu, Tuvalu", -7.48, 178.68, "TUV"],
  ["Svalbard (Nordenskiöld Land)", 78.0, 15.0, "NOR"],
  // Borders
  ["Geneva", 46.2044, 6.1432, "CHE"],
  ["Gex, 5 km from the Swiss border", 46.333, 6.058, "FRA"],
  ["Sadao district, north of the Thai–Malaysian border", 6.7, 100.4, "THA"],
  ["Kedah, south of the Thai–Malaysian border", 6.4, 100.4, "MYS"],
  ["Kaliningrad", 54.7, 20.5, "RUS"],
  ["Gaza", 31.5, 34.45, "PSE"],
  // Microstates that survive the 1:10m outline and world-atlas quantization
  ["Monaco", 43.7384, 7.4246, "MCO"],
  ["San Marino", 43.9424, 12.4578, "SMR"],
  ["Liechtenstein", 47.14, 9.52, "LIE"],
  ["Andorra", 42.5063, 1.5218, "AND"],
  // Antarctica, the South Pole included
  ["Antarctic plateau", -80, 0, "ATA"],
  ["South Pole", -90, 123, "ATA"],
];

describe("countries on every continent, islands, borders, microstates", () => {
  it.each(LAND)("%s (%f, %f) → %s, land", (_name, lat, lng, iso3) => {
    const loc = geo.locate(lat, lng);
    expect(loc.country).toBe(iso3);
    expect(loc.land).toBe(true);
    expect(geo.countryAt(lat, lng)).toBe(iso3);
    expect(geo.isLand(lat, lng)).toBe(true);
  });
  it("the antimeridian: Fiji on both sides of 180°, Chukotka on both sides", () => {
    expect(geo.countryAt(-17.8, 178.0)).toBe("FJI"); // Viti Levu
    expect(geo.countryAt(-16.85, -179.95)).toBe("FJI"); // Taveuni, east of 180°
    expect(geo.countryAt(-17.23, -178.95)).toBe("FJI"); // Vanua Balavu, Lau group
    expect(geo.countryAt(66, 175)).toBe("RUS");
    expect(geo.countryAt(66, -175)).toBe("RUS");
    expect(geo.countryAt(71.25, -179.5)).toBe("RUS"); // Wrangel Island, both halves
    expect(geo.countryAt(71.3, 179.5)).toBe("RUS");
    // Longitudes outside [-180, 180) wrap: 181° is -179°.
    expect(geo.locate(66, 185)).toEqual(geo.locate(66, -175));
    expect(geo.locate(-16.85, 180.05)).toEqual(geo.locate(-16.85, -179.95));
  });
  it("the Vatican collapses to a line under world-atlas quantization, so Vatican City answers Italy (documented)", () => {
    expect(geo.countryAt(41.9029, 12.4534)).toBe("ITA");
    expect(geo.countryCodes).toContain("VAT"); // the unit exists, with no area
  });
  it("lakes are land (Lake Victoria), the Caspian Sea is sea", () => {
    expect(geo.locate(-1, 33)).toMatchObject({ country: "UGA", land: true });
    const caspian = geo.locate(42, 51);
    expect(caspian).toMatchObject({ country: null, land: false });
    expect(caspian.coastDistanceKm).toBeGreaterThan(100);
    expect(caspian.coastDistanceKm).toBeLessThan(130);
  });
});

describe("sea points and coast distances", () => {
  it("Gulf of Thailand (10°N 101.5°E): sea, 158 km from the nearest coast, closer than Ko Phangan's centre", () => {
    const loc = geo.locate(10, 101.5);
    expect(loc).toMatchObject({ country: null, land: false });
    expect(loc.coastDistanceKm).toBeGreaterThan(150);
    expect(loc.coastDistanceKm).toBeLessThan(haversineKm(10, 101.5, 9.75, 100.03)); // Ko Phangan, 163 km
  });
  it("mid-Pacific (0°, 150°W): sea, about 709 km from Malden Island (Kiribati, 4.0°S 154.9°W), the nearest land", () => {
    const loc = geo.locate(0, -150);
    expect(loc).toMatchObject({ country: null, land: false });
    const toMaldenCentre = haversineKm(0, -150, -4.017, -154.933); // 707.0 km
    expect(Math.abs(loc.coastDistanceKm - toMaldenCentre)).toBeLessThan(5);
  });
  it("Point Nemo, the oceanic pole of inaccessibility: 2,688 km from the nearest land (Lukatela 1992), here within 0.2 %", () => {
    const loc = geo.locate(-48.8767, -123.3933);
    expect(loc).toMatchObject({ country: null, land: false });
    expect(Math.abs(loc.coastDistanceKm - 2688) / 2688).toBeLessThan(0.002);
  });
  it("the North Pole is sea (no polygon), 708 km from the northern tip of Greenland (83.6°N)", () => {
    const loc = geo.locate(90, 0);
    expect(loc).toMatchObject({ country: null, land: false });
    expect(loc.coastDistanceKm).toBeGreaterThan(690);
    expect(loc.coastDistanceKm).toBeLessThan(730);
    // Any longitude names the same point.
    expect(geo.coastDistanceKm(90, 123)).toBeCloseTo(loc.coastDistanceKm, 6);
  });
  it("land points get their distance to the sea: Geneva ~279 km (Ligurian Sea), Nairobi ~407 km, central Asia > 2,400 km", () => {
    expect(geo.coastDistanceKm(46.2044, 6.1432)).toBeGreaterThan(270);
    expect(geo.coastDistanceKm(46.2044, 6.1432)).toBeLessThan(290);
    expect(geo.coastDistanceKm(-1.29, 36.82)).toBeGreaterThan(395);
    expect(geo.coastDistanceKm(-1.29, 36.82)).toBeLessThan(420);
    expect(geo.coastDistanceKm(45, 85)).toBeGreaterThan(2400); // Dzungaria, near the Eurasian pole of inaccessibility
  });
  it("coastal cities lie within a few km of the coast", () => {
    expect(geo.coastDistanceKm(6.5244, 3.3792)).toBeLessThan(5); // Lagos
    expect(geo.coastDistanceKm(-33.87, 151.21)).toBeLessThan(5); // Sydney
    expect(geo.coastDistanceKm(1.3521, 103.8198)).toBeLessThan(15); // Singapore, island centre
  });
});

describe("units without an ISO code of their own (world-atlas id undefined, Natural Earth -99)", () => {
  it.each([
    ["Pristina", 42.66, 21.17, "XKX", "Kosovo"],
    ["North Nicosia", 35.2, 33.36, "CYP", "N. Cyprus"],
    ["Hargeisa", 9.56, 44.06, "SOM", "Somaliland"],
    ["Siachen", 35.4, 77.1, "IND", "Siachen Glacier"],
    ["Baikonur", 45.62, 63.31, "KAZ", "Baikonur"],
    ["Christmas Island", -10.49, 105.62, "CXR", "Indian Ocean Ter."],
    ["West Island, Cocos (Keeling)", -12.16, 96.83, "CCK", "Indian Ocean Ter."],
    ["Akrotiri", 34.6, 32.95, "GBR", "Akrotiri"],
  ] as const)("%s → %s, unit %s", (_name, lat, lng, iso3, unit) => {
    expect(geo.locate(lat, lng)).toMatchObject({ country: iso3, land: true, unit });
  });
  it("ordinary countries carry no unit; names come from ISO 3166 (Kosovo by hand)", () => {
    expect(geo.locate(13.7563, 100.5018).unit).toBeUndefined();
    expect(geo.countryName("THA")).toBe("Thailand");
    expect(geo.countryName("XKX")).toBe("Kosovo");
    expect(geo.countryName("ATA")).toBe("Antarctica");
    expect(geo.countryName("ZZZ")).toBeUndefined();
  });
  it("every unit of the 1:10m and 1:50m files is mapped; contested reefs have no country but are land", () => {
    for (const scale of ["10m", "50m"] as const) {
      const units = loadNaturalEarth(scale).units;
      expect(units.filter((u) => u.iso3 === null).map((u) => u.name).sort()).toEqual(scale === "10m" ? ["Scarborough Reef", "Spratly Is."] : []);
    }
    expect(geo.countryCodes.length).toBe(241);
    expect(geo.countryCodes).toEqual([...geo.countryCodes].sort());
  });
});

describe("1:50m against 1:10m (why 10m is the default)", () => {
  const geo50 = buildGeography({ scale: "50m" });
  it("50m lacks Tuvalu and Gibraltar, puts Monaco and Suva in the sea; both agree inland", () => {
    expect(geo50.countryCodes).not.toContain("TUV");
    expect(geo50.countryCodes).not.toContain("GIB");
    expect(geo50.countryAt(43.7384, 7.4246)).toBeNull();
    expect(geo.countryAt(43.7384, 7.4246)).toBe("MCO");
    expect(geo50.countryAt(-18.1416, 178.4419)).toBeNull(); // Suva
    expect(geo.countryAt(-18.1416, 178.4419)).toBe("FJI");
    for (const [, lat, lng, iso3] of LAND.filter(([n]) => !/Tuvalu|Monaco/.test(n))) expect(geo50.countryAt(lat, lng)).toBe(iso3);
  });
});

describe("Thai provinces through the caller's province index", () => {
  const provinces = loadProvinces();
  const reader = new ProvinceIndexReader(writeProvinceIndex(flattenRings(provinces)));
  const thai: ThaiProvinces = { provinceAt: (lat, lng) => reader.provinceAt(lat, lng), provinces };
  const geoTh = buildGeography({ provinces: thai });
  it("Bangkok → Bangkok (TH-10); Hat Yai → Songkhla (TH-90); abroad and at sea no province", () => {
    expect(geoTh.locate(13.7563, 100.5018)).toMatchObject({ country: "THA", land: true, province: "Bangkok", provinceCode: "TH-10" });
    expect(geoTh.locate(7.0, 100.47)).toMatchObject({ country: "THA", province: "Songkhla", provinceCode: "TH-90" });
    expect(geoTh.locate(6.4, 100.4).province).toBeUndefined();
    expect(geoTh.locate(10, 101.5).province).toBeUndefined();
  });
  it("where the two disagree the finer province boundaries win: a Yala point Natural Earth puts in Malaysia", () => {
    expect(geo.countryAt(5.771, 101.2494)).toBe("MYS");
    expect(geoTh.locate(5.771, 101.2494)).toMatchObject({ country: "THA", land: true, province: "Yala" });
    expect(geoTh.countryAt(5.771, 101.2494)).toBe("THA");
    expect(geoTh.isLand(5.771, 101.2494)).toBe(true);
  });
  it("the province search runs only where Natural Earth says Thailand, a neighbour or sea", () => {
    const asked: string[] = [];
    const everywhere: ThaiProvinces = { provinceAt: (lat, lng) => (asked.push(`${lat},${lng}`), 0), provinces: [{ code: "TH-99", nameEn: "Test" }] };
    const g = buildGeography({ provinces: everywhere, scale: "50m" });
    expect(g.countryAt(35.68, 139.69)).toBe("JPN"); // Tokyo: not asked
    expect(g.countryAt(51.92, 4.48)).toBe("NLD");
    expect(asked).toEqual([]);
    expect(g.locate(6.4, 100.4)).toMatchObject({ country: "THA", province: "Test" }); // Malaysia by Natural Earth: asked
    expect(g.countryAt(10, 101.5)).toBe("THA"); // sea: asked
    expect(asked).toEqual(["6.4,100.4", "10,101.5"]);
  });
  it("a Chon Buri shore point Natural Earth leaves in the sea is Thai land", () => {
    expect(geo.isLand(12.7016, 100.7664)).toBe(false);
    expect(geoTh.locate(12.7016, 100.7664)).toMatchObject({ country: "THA", land: true, province: "Chon Buri" });
  });
});

describe("a synthetic world through buildGeography", () => {
  // One square country, 0–10°E × 10–20°N, whose whole outline is coast.
  const outline = [[0, 10], [10, 10], [10, 20], [0, 20], [0, 10]];
  const data: NaturalEarthCountries = {
    scale: "10m",
    source: "synthetic",
    units: [{ iso3: "AAA", name: "Square", special: false, polygons: [[outline]] }],
    coastline: [outline],
  };
  const world = buildGeography({ data });
  const R = EARTH_RADIUS_KM;
  it("a point 1° of latitude south of the east-west coast: sea, exactly 1° of arc (111.195 km) away", () => {
    expect(world.locate(9, 5)).toEqual({ country: null, land: false, coastDistanceKm: expect.closeTo((R * Math.PI) / 180, 6) });
  });
  it("inside: land, and the distance to the nearer meridian edge, R·asin(cos φ · sin Δλ), within the 0.04 % tolerance", () => {
    const loc = world.locate(15, 5);
    expect(loc).toMatchObject({ country: "AAA", land: true });
    const exact = R * Math.asin(Math.cos((15 * Math.PI) / 180) * Math.sin((5 * Math.PI) / 180)); // 537.0 km
    expect(loc.coastDistanceKm).toBeGreaterThanOrEqual(exact - 1e-9);
    expect((loc.coastDistanceKm - exact) / exact).toBeLessThan(0.0004);
  });
  it("its edges follow the half-open rule; the only country code is AAA", () => {
    expect(world.countryAt(10, 5)).toBe("AAA"); // south edge
    expect(world.countryAt(20, 5)).toBeNull(); // north edge
    expect(world.countryCodes).toEqual(["AAA"]);
    expect(world.coastalToleranceKm).toBe(2);
  });
});

describe("bad input", () => {
  it("non-finite numbers and latitudes beyond ±90 are RangeErrors", () => {
    expect(() => geo.locate(Number.NaN, 100)).toThrow(RangeError);
    expect(() => geo.locate(13, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => geo.countryAt(90.5, 0)).toThrow(/lat must be in \[-90, 90\]/);
    expect(() => geo.coastDistanceKm(-91, 0)).toThrow(RangeError);
  });
  it("the geography is frozen", () => {
    expect(Object.isFrozen(geo)).toBe(true);
    expect(Object.isFrozen(geo.countryCodes)).toBe(true);
  });
});
