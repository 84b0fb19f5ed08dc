// Where a point is (lib/geo): build time, memory and per-lookup time of buildGeography at Natural Earth 1:10m (the
// default) and 1:50m, in process. Query sets: cities on every continent (jittered ±0.5°), open sea, points spread
// uniformly over the sphere, and points far (> 1,000 km) from any coast.
// Run: npx tsx bench/geo.bench.ts   (prints a markdown table; `make bench` collects it into bench/RESULTS.md)
import { ProvinceIndexReader, writeProvinceIndex } from "../formats/province-index.ts";
import { buildGeography, type Geography } from "../lib/geo/geography.ts";
import type { NaturalEarthScale } from "../lib/geo/natural-earth.ts";
import { loadProvinces } from "../pipeline/provinces/boundaries.ts";
import { flattenRings } from "../lib/geo/province-rings.ts";
import { rng } from "./random.ts";
import { exposedGc } from "../server/startup-heap.ts";

const gc = exposedGc();

/** [lat, lng] of cities on every continent (Asia, Europe, Africa, North and South America, Oceania). */
const CITIES: [number, number][] = [
  [13.76, 100.5], [23.81, 90.41], [14.6, 120.98], [21.03, 105.85], [-6.2, 106.85], [31.23, 121.47], [35.68, 139.69],
  [28.61, 77.21], [19.08, 72.88], [24.86, 67.0], [33.69, 73.05], [41.01, 28.98], [35.69, 51.39], [25.2, 55.27],
  [51.92, 4.48], [51.51, -0.13], [48.86, 2.35], [52.52, 13.4], [55.75, 37.62], [40.42, -3.7], [41.9, 12.5], [59.33, 18.07],
  [6.52, 3.38], [-1.29, 36.82], [30.04, 31.24], [-26.2, 28.05], [9.03, 38.74], [5.6, -0.19], [-4.32, 15.31], [14.72, -17.47],
  [40.71, -74.01], [34.05, -118.24], [19.43, -99.13], [43.65, -79.38], [41.88, -87.63], [25.76, -80.19], [61.22, -149.9],
  [-23.55, -46.63], [-34.6, -58.38], [-12.05, -77.04], [4.71, -74.07], [-33.45, -70.66], [10.49, -66.88],
  [-33.87, 151.21], [-37.81, 144.96], [-36.85, 174.76], [-18.14, 178.44], [-9.44, 147.18], [21.31, -157.86], [-17.55, -149.56],
];

interface QuerySet {
  name: string;
  lat: Float64Array;
  lng: Float64Array;
}

function querySets(geo: Geography, n: number): QuerySet[] {
  const rand = rng(10);
  const make = (name: string, accept: (lat: number, lng: number) => boolean, draw: () => [number, number]): QuerySet => {
    const lat = new Float64Array(n);
    const lng = new Float64Array(n);
    for (let i = 0; i < n; ) {
      const [y, x] = draw();
      if (!accept(y, x)) continue;
      lat[i] = y;
      lng[i] = x;
      i++;
    }
    return { name, lat, lng };
  };
  const uniform = (): [number, number] => [(Math.asin(2 * rand() - 1) * 180) / Math.PI, rand() * 360 - 180];
  const nearCity = (): [number, number] => {
    const [y, x] = CITIES[Math.floor(rand() * CITIES.length)];
    return [y + rand() - 0.5, x + rand() - 0.5];
  };
  const far = make("far from the coast (> 1,000 km), 300 points", (y, x) => geo.coastDistanceKm(y, x) > 1000, uniform);
  return [
    make(`cities on every continent, ±0.5° (${CITIES.length} cities)`, () => true, nearCity),
    make("open sea (uniform, sea only)", (y, x) => !geo.isLand(y, x), uniform),
    make("uniform on the sphere", () => true, uniform),
    { name: far.name, lat: far.lat.subarray(0, 300), lng: far.lng.subarray(0, 300) },
  ];
}

function timeMicros(set: QuerySet, f: (lat: number, lng: number) => unknown): { p50: number; p99: number } {
  const n = set.lat.length;
  for (let i = 0; i < Math.min(n, 500); i++) f(set.lat[i], set.lng[i]); // warm-up
  const us = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    f(set.lat[i], set.lng[i]);
    us[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  us.sort();
  return { p50: us[Math.floor(n / 2)], p99: us[Math.min(n - 1, Math.floor(n * 0.99))] };
}

function measureBuild(scale: NaturalEarthScale): { ms: number; mb: number; geo: Geography } {
  const times: number[] = [];
  let geo: Geography | undefined;
  let mb = 0;
  for (let i = 0; i < 3; i++) {
    geo = undefined;
    gc();
    const m0 = process.memoryUsage();
    const t0 = performance.now();
    geo = buildGeography({ scale });
    times.push(performance.now() - t0);
    gc();
    const m1 = process.memoryUsage();
    mb = (m1.heapUsed + m1.arrayBuffers - m0.heapUsed - m0.arrayBuffers) / 2 ** 20;
  }
  times.sort((a, b) => a - b);
  return { ms: times[1], mb, geo: geo! };
}

const rows: string[] = [];
for (const scale of ["10m", "50m"] as const) {
  process.stderr.write(`building ${scale} …\n`);
  const { ms, mb, geo } = measureBuild(scale);
  const s = geo.stats;
  rows.push(
    `| ${scale}: build (median of 3), retained memory | ${ms.toFixed(0)} ms; ${(s.bytes / 2 ** 20).toFixed(1)} MiB of typed arrays, heap + array buffers grew ${mb.toFixed(1)} MiB (${s.pieces} pieces / ${s.pieceVertices} vertices, ${s.coastEdges} coast edges in ${s.coastChunks} chunks) |`,
  );
  for (const set of querySets(geo, 5000)) {
    const locate = timeMicros(set, geo.locate);
    const country = timeMicros(set, geo.countryAt);
    const coast = timeMicros(set, geo.coastDistanceKm);
    rows.push(
      `| ${scale}: ${set.name} | locate p50 ${locate.p50.toFixed(1)} µs, p99 ${locate.p99.toFixed(1)} µs · countryAt p50 ${country.p50.toFixed(2)} µs, p99 ${country.p99.toFixed(2)} µs · coastDistanceKm p50 ${coast.p50.toFixed(1)} µs, p99 ${coast.p99.toFixed(1)} µs |`,
    );
  }
}
// The Thai province lookup adds one province-index search per query (through the reader the server holds).
{
  const provinces = loadProvinces();
  const reader = new ProvinceIndexReader(writeProvinceIndex(flattenRings(provinces)));
  const geo = buildGeography({ provinces: { provinceAt: (lat, lng) => reader.provinceAt(lat, lng), provinces } });
  const rand = rng(12);
  const n = 5000;
  const thai: QuerySet = { name: "10m with Thai provinces: points in Thailand's box (5.5–20.5°N, 97.3–105.7°E)", lat: new Float64Array(n), lng: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    thai.lat[i] = 5.5 + 15 * rand();
    thai.lng[i] = 97.3 + 8.4 * rand();
  }
  const [cities] = querySets(geo, n);
  for (const set of [thai, { ...cities, name: `10m with Thai provinces: ${cities.name}` }]) {
    const locate = timeMicros(set, geo.locate);
    const country = timeMicros(set, geo.countryAt);
    rows.push(`| ${set.name} | locate p50 ${locate.p50.toFixed(1)} µs, p99 ${locate.p99.toFixed(1)} µs · countryAt p50 ${country.p50.toFixed(2)} µs, p99 ${country.p99.toFixed(2)} µs |`);
  }
}
console.log("| geography (lib/geo) | value |\n|---|---|\n" + rows.join("\n"));
