// Footprint index: the area each flood event covered, one footprint per event of the snapshot's events.bin (same
// order), as flat typed arrays with a Flatbush index over the footprints' boxes, in one file. A footprint is a
// polygon (outer rings and holes, even-odd) or, for an event that carries no polygon, a disc limited to the
// event's countries. Writer and reader side by side; layout in footprint-index.md. The reader answers "which
// footprints cover this point, or pass within b km of it" without parsing anything per query.
import Flatbush from "flatbush";
import { haversineKm } from "../lib/geo/sphere.ts";
import { jsonHeaded, pad8 } from "./json-headed.ts";

const MAGIC = 0x58495046; // "FPIX" little-endian
const FORMAT_VERSION = 1;
const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LNG = 111.32;

/** One footprint as the writer takes it. */
export interface FootprintInput {
  /** Polygon rings, each [[lng, lat], …] (closed or not); outer rings and holes together, even-odd rule. */
  rings?: number[][][];
  /** Disc footprint: centre and radius, for an event without a polygon. */
  disc?: { lng: number; lat: number; radiusKm: number };
  /** ISO 3166-1 alpha-3 codes a disc is limited to (a point elsewhere is not covered); empty = no limit. */
  countries: string[];
  /** Scoring weight of the event (lib/feed-risk/flood.ts), ≥ 0. */
  weight: number;
  /** The event's extent was mapped from satellite imagery (Global Flood Database). */
  mapped?: boolean;
}

interface Header {
  n: number;
  nRings: number;
  nCoords: number;
  /** Per footprint, its countries joined by "|" ("" = none). */
  countries: string[];
  flatbushBytes: number;
  meta: Record<string, unknown>;
}

/** flags bit 0: the extent was mapped from satellite imagery. */
const FLAG_MAPPED = 1;

function discBox(d: { lng: number; lat: number; radiusKm: number }): [number, number, number, number] {
  const dLat = d.radiusKm / KM_PER_DEG_LAT;
  const dLng = d.radiusKm / (KM_PER_DEG_LNG * Math.max(0.01, Math.cos((Math.min(89, Math.abs(d.lat) + dLat) * Math.PI) / 180)));
  return [d.lng - dLng, d.lat - dLat, d.lng + dLng, d.lat + dLat];
}

/** Serialises footprints (in event order) and a Flatbush index over their boxes. */
export function writeFootprintIndex(footprints: FootprintInput[], meta: Record<string, unknown> = {}): Uint8Array {
  const n = footprints.length;
  let nRings = 0;
  let nCoords = 0;
  for (const f of footprints) {
    if (!f.rings === !f.disc) throw new Error("footprint index: each footprint needs either rings or a disc");
    if (!(f.weight >= 0) || !Number.isFinite(f.weight)) throw new Error(`footprint index: weight ${f.weight}`);
    for (const r of f.rings ?? []) {
      if (r.length < 3) throw new Error("footprint index: a ring needs 3 vertices");
      nRings++;
      nCoords += r.length;
    }
  }
  const bbox = new Float64Array(4 * n);
  const disc = new Float64Array(3 * n).fill(NaN);
  const weight = new Float32Array(n);
  const flags = new Uint8Array(n);
  const ringStart = new Uint32Array(n + 1);
  const coordStart = new Uint32Array(nRings + 1);
  const coords = new Float32Array(2 * nCoords);
  let ring = 0;
  let c = 0;
  footprints.forEach((f, i) => {
    ringStart[i] = ring;
    weight[i] = f.weight;
    flags[i] = f.mapped ? FLAG_MAPPED : 0;
    let b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    if (f.disc) {
      b = discBox(f.disc);
      disc.set([f.disc.lng, f.disc.lat, f.disc.radiusKm], 3 * i);
    } else {
      for (const r of f.rings!) {
        coordStart[ring++] = c;
        for (const [lng, lat] of r) {
          if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lng) > 360) throw new Error(`footprint index: footprint ${i} has vertex ${lng},${lat}`);
          coords[2 * c] = lng;
          coords[2 * c + 1] = lat;
          c++;
          if (lng < b[0]) b[0] = lng;
          if (lat < b[1]) b[1] = lat;
          if (lng > b[2]) b[2] = lng;
          if (lat > b[3]) b[3] = lat;
        }
      }
      if (!(b[0] <= b[2])) throw new Error(`footprint index: footprint ${i} has no vertex`);
    }
    bbox.set(b, 4 * i);
  });
  ringStart[n] = ring;
  coordStart[nRings] = c;
  const fb = new Flatbush(Math.max(1, n));
  for (let i = 0; i < n; i++) fb.add(bbox[4 * i], bbox[4 * i + 1], bbox[4 * i + 2], bbox[4 * i + 3]);
  if (n === 0) fb.add(0, 0, 0, 0); // Flatbush needs one item; n in the header says there are none.
  fb.finish();
  const fbBytes = new Uint8Array(fb.data as ArrayBuffer);
  const header: Header = { n, nRings, nCoords, countries: footprints.map((f) => f.countries.join("|")), flatbushBytes: fbBytes.byteLength, meta };
  const parts: ArrayBufferView[] = [bbox, disc, weight, flags, ringStart, coordStart, coords];
  const body = parts.reduce((a, p) => a + pad8(p.byteLength), 0) + fbBytes.byteLength;
  const start = jsonHeaded(MAGIC, FORMAT_VERSION, header, body);
  const out = start.out;
  let off = start.off;
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), off);
    off += pad8(p.byteLength);
  }
  out.set(fbBytes, off);
  return out;
}

/** Footprints covering a point: footprint (= event) numbers and how far outside each the point lies (0 inside). */
export interface Covering {
  count: number;
  index: Int32Array;
  distanceKm: Float64Array;
}

export class FootprintIndex {
  readonly n: number;
  readonly nRings: number;
  readonly bbox: Float64Array;
  readonly disc: Float64Array;
  readonly weight: Float32Array;
  readonly flags: Uint8Array;
  readonly ringStart: Uint32Array;
  readonly coordStart: Uint32Array;
  readonly coords: Float32Array;
  /** Per footprint, the countries a disc is limited to ([] = none). */
  readonly countries: string[][];
  readonly meta: Record<string, unknown>;
  private readonly tree: Flatbush;
  private readonly out: Covering;

  /** `bytes` must start on an 8-byte boundary of its buffer (readAligned). */
  constructor(bytes: Uint8Array, name = "footprints.bin") {
    const fail = (why: string): never => { throw new Error(`${name}: ${why}`); };
    if (bytes.byteLength < 12 || bytes.byteOffset % 8 !== 0) fail("too short or unaligned");
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (dv.getUint32(0, true) !== MAGIC) fail("not a footprint index (magic)");
    if (dv.getUint32(4, true) !== FORMAT_VERSION) fail(`format version ${dv.getUint32(4, true)}, this reader reads ${FORMAT_VERSION}`);
    const jsonLen = dv.getUint32(8, true);
    if (12 + jsonLen > bytes.byteLength) fail("header longer than the file");
    let h: Header;
    try {
      h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLen))) as Header;
    } catch {
      throw new Error(`${name}: header is not JSON`);
    }
    const { n, nRings, nCoords } = h;
    for (const [k, v] of Object.entries({ n, nRings, nCoords, flatbushBytes: h.flatbushBytes })) if (!Number.isInteger(v) || v < 0) fail(`header ${k} ${v}`);
    if (!Array.isArray(h.countries) || h.countries.length !== n || h.countries.some((s) => typeof s !== "string" || !/^([A-Z]{3}(\|[A-Z]{3})*)?$/.test(s))) fail("header countries");
    let off = bytes.byteOffset + pad8(12 + jsonLen);
    const end = bytes.byteOffset + bytes.byteLength;
    const take = <T>(make: (buf: ArrayBuffer, at: number, len: number) => T, bytesPer: number, len: number): T => {
      if (off + bytesPer * len > end) fail("file shorter than its header says");
      const v = make(bytes.buffer as ArrayBuffer, off, len);
      off += pad8(bytesPer * len);
      return v;
    };
    this.n = n;
    this.nRings = nRings;
    this.bbox = take((b, a, l) => new Float64Array(b, a, l), 8, 4 * n);
    this.disc = take((b, a, l) => new Float64Array(b, a, l), 8, 3 * n);
    this.weight = take((b, a, l) => new Float32Array(b, a, l), 4, n);
    this.flags = take((b, a, l) => new Uint8Array(b, a, l), 1, n);
    this.ringStart = take((b, a, l) => new Uint32Array(b, a, l), 4, n + 1);
    this.coordStart = take((b, a, l) => new Uint32Array(b, a, l), 4, nRings + 1);
    this.coords = take((b, a, l) => new Float32Array(b, a, l), 4, 2 * nCoords);
    if (off + h.flatbushBytes !== end) fail(`size ${bytes.byteLength} does not match its header`);
    this.countries = h.countries.map((s) => (s ? s.split("|") : []));
    this.meta = h.meta ?? {};
    // Range checks on load: a footprint that a query would misread never serves.
    if (this.ringStart[n] !== nRings || this.coordStart[nRings] !== nCoords) fail("ring or coordinate offsets do not end at their counts");
    for (let i = 0; i < n; i++) {
      if (this.ringStart[i] > this.ringStart[i + 1]) fail(`footprint ${i}: ring offsets decrease`);
      if (!(this.weight[i] >= 0) || !Number.isFinite(this.weight[i])) fail(`footprint ${i}: weight ${this.weight[i]}`);
      const isDisc = !Number.isNaN(this.disc[3 * i + 2]);
      if (isDisc === (this.ringStart[i + 1] > this.ringStart[i])) fail(`footprint ${i}: needs either rings or a disc`);
      if (isDisc && !(this.disc[3 * i + 2] > 0 && this.disc[3 * i + 2] < 5000)) fail(`footprint ${i}: disc radius ${this.disc[3 * i + 2]} km`);
      if (this.flags[i] > FLAG_MAPPED) fail(`footprint ${i}: flags ${this.flags[i]}`);
      if (!(this.bbox[4 * i] <= this.bbox[4 * i + 2] && this.bbox[4 * i + 1] <= this.bbox[4 * i + 3])) fail(`footprint ${i}: empty box`);
    }
    for (let r = 0; r < nRings; r++) if (this.coordStart[r + 1] < this.coordStart[r] + 3) fail(`ring ${r}: fewer than 3 vertices`);
    for (let k = 0; k < this.coords.length; k++) if (!Number.isFinite(this.coords[k])) fail(`vertex ${k >> 1} is not finite`);
    this.tree = Flatbush.from(bytes.buffer as ArrayBuffer, off);
    if (this.tree.numItems !== Math.max(1, n)) fail("spatial index does not hold one box per footprint");
    this.out = { count: 0, index: new Int32Array(Math.max(1, n)), distanceKm: new Float64Array(Math.max(1, n)) };
  }

  isDisc(i: number): boolean {
    return !Number.isNaN(this.disc[3 * i + 2]);
  }

  discRadiusKm(i: number): number {
    return this.disc[3 * i + 2];
  }

  mapped(i: number): boolean {
    return (this.flags[i] & FLAG_MAPPED) !== 0;
  }

  /**
   * Footprints that cover (lat, lng) or pass within `bufferKm` of it; a disc only where `country` is one of its
   * countries (or it has none). The result is reused by the next call: copy what you keep.
   */
  covering(lat: number, lng: number, bufferKm: number, country: string | null): Covering {
    const out = this.out;
    out.count = 0;
    if (this.n === 0) return out;
    const dLat = bufferKm / KM_PER_DEG_LAT;
    const kx = KM_PER_DEG_LNG * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    const dLng = bufferKm / kx;
    const hits = this.tree.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat);
    for (const i of hits) {
      let d: number;
      const r = this.disc[3 * i + 2];
      if (!Number.isNaN(r)) {
        const cs = this.countries[i];
        if (cs.length > 0 && (country === null || !cs.includes(country))) continue;
        d = Math.max(0, haversineKm(lat, lng, this.disc[3 * i + 1], this.disc[3 * i]) - r);
      } else d = this.polygonDistanceKm(i, lat, lng, kx, bufferKm);
      if (d <= bufferKm) {
        out.index[out.count] = i;
        out.distanceKm[out.count] = d;
        out.count++;
      }
    }
    return out;
  }

  /**
   * 0 inside the polygon (even-odd over all its rings), else the distance to its nearest edge in km (local plane),
   * Infinity beyond `limitKm`. The crossing test runs first and alone: most candidates of a flooded place contain it,
   * and the edge distances (four times the work per edge) are needed only for a point outside.
   */
  private polygonDistanceKm(i: number, lat: number, lng: number, kx: number, limitKm: number): number {
    const xy = this.coords;
    const r0 = this.ringStart[i];
    const r1 = this.ringStart[i + 1];
    let inside = false;
    for (let r = r0; r < r1; r++) {
      const a = this.coordStart[r];
      const b = this.coordStart[r + 1];
      for (let k = a, j = b - 1; k < b; j = k++) {
        const yi = xy[2 * k + 1];
        const yj = xy[2 * j + 1];
        if (yi > lat !== yj > lat) {
          const xi = xy[2 * k];
          if (lng < ((xy[2 * j] - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
        }
      }
    }
    if (inside) return 0;
    if (limitKm <= 0) return Infinity;
    let best2 = Infinity;
    for (let r = r0; r < r1; r++) {
      const a = this.coordStart[r];
      const b = this.coordStart[r + 1];
      for (let k = a, j = b - 1; k < b; j = k++) {
        // Squared distance to the edge, in km on the plane tangent at the point.
        const ax = (xy[2 * k] - lng) * kx, ay = (xy[2 * k + 1] - lat) * KM_PER_DEG_LAT;
        const bx = (xy[2 * j] - lng) * kx, by = (xy[2 * j + 1] - lat) * KM_PER_DEG_LAT;
        const ex = bx - ax, ey = by - ay;
        const len2 = ex * ex + ey * ey;
        const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * ex + ay * ey) / len2)) : 0;
        const px = ax + t * ex, py = ay + t * ey;
        const d2 = px * px + py * py;
        if (d2 < best2) best2 = d2;
      }
    }
    const d = Math.sqrt(best2);
    return d <= limitKm ? d : Infinity;
  }
}
