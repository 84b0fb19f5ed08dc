// province-index.bin: the point-to-province index the server answers "which province is this point in" with.
// Flat ring coordinates, ring offsets, ring → province, and the flatbush tree over ring bboxes, all stored so the
// reader only makes typed-array views (see province-index.md). Also provinces.json, the metadata beside it.
import Flatbush from "flatbush";
import { ProvinceLocator, indexRings, type ProvinceRings } from "../lib/geo/province-rings.ts";

export const INDEX_MAGIC = "THPIDX01";
export const INDEX_VERSION = 1;
const HEADER = 32; // magic 8, version, nProvinces, nRings, nVertices, flatbushBytes, reserved (u32 each)

function align8(n: number): number {
  return (n + 7) & ~7;
}

interface Layout {
  coords: number;
  ringStart: number;
  ringProvince: number;
  flatbush: number;
  total: number;
}

function layout(nRings: number, nVertices: number, flatbushBytes: number): Layout {
  const coords = HEADER;
  const ringStart = coords + nVertices * 16;
  const ringProvince = align8(ringStart + (nRings + 1) * 4);
  const flatbush = align8(ringProvince + nRings * 2);
  return { coords, ringStart, ringProvince, flatbush, total: flatbush + flatbushBytes };
}

export function writeProvinceIndex(rings: ProvinceRings): Uint8Array {
  const nRings = rings.ringProvince.length;
  const nVertices = rings.coords.length / 2;
  if (rings.ringStart.length !== nRings + 1 || rings.ringStart[nRings] !== nVertices) {
    throw new Error("ringStart must have nRings + 1 entries ending at the vertex count");
  }
  const tree = new Uint8Array(indexRings(rings).data as ArrayBuffer);
  const L = layout(nRings, nVertices, tree.length);
  const bytes = new Uint8Array(L.total);
  const dv = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(INDEX_MAGIC), 0);
  dv.setUint32(8, INDEX_VERSION, true);
  dv.setUint32(12, rings.nProvinces, true);
  dv.setUint32(16, nRings, true);
  dv.setUint32(20, nVertices, true);
  dv.setUint32(24, tree.length, true);
  bytes.set(new Uint8Array(rings.coords.buffer, rings.coords.byteOffset, rings.coords.byteLength), L.coords);
  bytes.set(new Uint8Array(rings.ringStart.buffer, rings.ringStart.byteOffset, rings.ringStart.byteLength), L.ringStart);
  bytes.set(new Uint8Array(rings.ringProvince.buffer, rings.ringProvince.byteOffset, rings.ringProvince.byteLength), L.ringProvince);
  bytes.set(tree, L.flatbush);
  return bytes;
}

export class ProvinceIndexReader {
  readonly nProvinces: number;
  readonly rings: ProvinceRings;
  private readonly locator: ProvinceLocator;

  /** Views over `bytes` (copied once only when not 8-byte aligned). */
  constructor(bytes: Uint8Array, source = "province-index.bin") {
    if (bytes.length < HEADER) throw new Error(`${source}: truncated header (${bytes.length} bytes)`);
    const magic = new TextDecoder().decode(bytes.subarray(0, 8));
    if (magic !== INDEX_MAGIC) throw new Error(`${source}: bad magic "${magic.replace(/[^\x20-\x7e]/g, "?")}", expected ${INDEX_MAGIC}`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = dv.getUint32(8, true);
    if (version !== INDEX_VERSION) throw new Error(`${source}: unsupported version ${version}, expected ${INDEX_VERSION}`);
    const nProvinces = dv.getUint32(12, true);
    const nRings = dv.getUint32(16, true);
    const nVertices = dv.getUint32(20, true);
    const flatbushBytes = dv.getUint32(24, true);
    const L = layout(nRings, nVertices, flatbushBytes);
    if (bytes.length !== L.total) {
      throw new Error(`${source}: size ${bytes.length} bytes, expected ${L.total} (${bytes.length < L.total ? "truncated" : "trailing bytes"})`);
    }
    const buf = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const base = buf.byteOffset;
    const rings: ProvinceRings = {
      coords: new Float64Array(buf.buffer, base + L.coords, nVertices * 2),
      ringStart: new Uint32Array(buf.buffer, base + L.ringStart, nRings + 1),
      ringProvince: new Uint16Array(buf.buffer, base + L.ringProvince, nRings),
      nProvinces,
    };
    if (rings.ringStart[nRings] !== nVertices) throw new Error(`${source}: ring offsets do not end at the vertex count`);
    for (let r = 0; r < nRings; r++) {
      if (rings.ringProvince[r] >= nProvinces) throw new Error(`${source}: ring ${r} names province ${rings.ringProvince[r]} ≥ ${nProvinces}`);
    }
    let tree: Flatbush;
    try {
      tree = Flatbush.from(buf.buffer, base + L.flatbush);
    } catch (err) {
      throw new Error(`${source}: bad flatbush section (${(err as Error).message})`);
    }
    if (tree.numItems !== Math.max(nRings, 1)) throw new Error(`${source}: flatbush holds ${tree.numItems} items, expected ${nRings}`);
    this.nProvinces = nProvinces;
    this.rings = rings;
    this.locator = new ProvinceLocator(rings, tree);
  }

  /** Province index (order of provinces.json) containing the point, or -1 (sea, abroad, non-finite input). */
  provinceAt(lat: number, lng: number): number {
    return this.locator.provinceAt(lat, lng);
  }
}

/** One entry of provinces.json; its position in the array is the province index of the binary artifacts. */
export interface ProvinceMeta {
  code: string;
  /** ISO 3166-1 alpha-3 of the unit's country (absent from versions built before the drought region: Thailand). */
  country: string;
  nameEn: string;
  nameTh: string;
  slug: string;
  region: string;
  aliases: string[];
  /** [west, south, east, north], degrees. */
  bbox: [number, number, number, number];
  areaKm2: number;
}

export function writeProvincesJson(provinces: readonly ProvinceMeta[]): string {
  return JSON.stringify({ version: 1, provinces }, null, 1) + "\n";
}

export function readProvincesJson(text: string, source = "provinces.json"): ProvinceMeta[] {
  let doc: { version?: unknown; provinces?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not valid JSON (${(err as Error).message})`);
  }
  if (doc?.version !== 1 || !Array.isArray(doc.provinces)) throw new Error(`${source}: expected {version: 1, provinces: [...]}`);
  doc.provinces.forEach((p: Record<string, unknown>, i: number) => {
    for (const f of ["code", "nameEn", "nameTh", "slug", "region"]) {
      if (typeof p?.[f] !== "string") throw new Error(`${source}: province ${i} lacks string field "${f}"`);
    }
    if (!Array.isArray(p.aliases) || !Array.isArray(p.bbox) || p.bbox.length !== 4 || typeof p.areaKm2 !== "number") {
      throw new Error(`${source}: province ${i} (${String(p.code)}) lacks aliases, bbox or areaKm2`);
    }
    if (p.country !== undefined && (typeof p.country !== "string" || !/^[A-Z]{3}$/.test(p.country))) {
      throw new Error(`${source}: province ${i} (${String(p.code)}) has country ${JSON.stringify(p.country)}, not an ISO 3166-1 alpha-3 code`);
    }
  });
  return (doc.provinces as ProvinceMeta[]).map((p) => (p.country ? p : { ...p, country: "THA" }));
}
