// Event index: feed events (time, point, optional bbox, magnitude, source, group) as flat typed arrays with a
// KDBush index over the points stored inside, in one file. Writer and reader side by side; layout in
// event-index.md. The reader makes views over the bytes (no per-record parsing) and answers "events within
// r km of a point".
import { EARTH_RADIUS_KM } from "../lib/geo/sphere.ts";
import KDBush from "kdbush";
import { jsonHeaded, pad8 } from "./json-headed.ts";
import { PackedStrings } from "./packed-strings.ts";

const MAGIC = 0x58495645; // "EVIX" little-endian
const FORMAT_VERSION = 1;

/** One event as the index stores it (feed adapters' records extend this, pipeline/feeds/records.ts). */
export interface EventInput {
  /** Stable id inside its source, e.g. "DFO-3875", "FL-1103881", an IBTrACS SID. */
  id: string;
  /** Source name, e.g. "DFO", "GDACS", "IBTrACS", "FIRMS-MODIS". */
  source: string;
  /** Start of the event (ms since 1970, UTC). */
  time: number;
  /** End of the event (ms); equal to time for instantaneous observations. */
  endTime: number;
  lng: number;
  lat: number;
  /** [minLng, minLat, maxLng, maxLat] of the affected area, when the feed gives one. */
  bbox?: [number, number, number, number];
  /** Intensity in the record's own unit. */
  magnitude: number;
  /** Human name (storm name, country, place). */
  name: string;
  /** Records of one event share a group (e.g. all track points of one storm). Defaults to id. */
  group?: string;
  /**
   * The event set (record) the event's group belongs to, e.g. the long West Pacific storm record; the group's
   * first event decides. Defaults to "" (one set).
   */
  set?: string;
}

interface Header {
  n: number;
  sources: string[];
  ids: string[];
  names: string[];
  groups: string[];
  /** Event-set names (optional; absent = one unnamed set). */
  sets?: string[];
  /** Per group, its number in `sets` (optional, with `sets`). */
  groupSet?: number[];
  kdbushBytes: number;
  meta: Record<string, unknown>;
}



function unitVector(lat: number, lng: number, out: Float64Array, at: number): void {
  const φ = (lat * Math.PI) / 180;
  const λ = (lng * Math.PI) / 180;
  out[at] = Math.cos(φ) * Math.cos(λ);
  out[at + 1] = Math.cos(φ) * Math.sin(λ);
  out[at + 2] = Math.sin(φ);
}

/** Serialises events (in the given order) and a KDBush index over their points. */
export function writeEventIndex(events: EventInput[], meta: Record<string, unknown> = {}): Uint8Array {
  const n = events.length;
  const sources = [...new Set(events.map((e) => e.source))];
  if (sources.length > 255) throw new Error("event index: more than 255 sources");
  const groupNames: string[] = [];
  const groupNo = new Map<string, number>();
  const group = new Uint32Array(n);
  const sets: string[] = [];
  const groupSet: number[] = [];
  events.forEach((e, i) => {
    const g = e.group ?? e.id;
    let k = groupNo.get(g);
    if (k === undefined) {
      k = groupNames.length;
      groupNo.set(g, k);
      groupNames.push(g);
      const set = e.set ?? "";
      let s = sets.indexOf(set);
      if (s < 0) s = sets.push(set) - 1;
      groupSet.push(s);
    }
    group[i] = k;
  });
  if (sets.length > 255) throw new Error("event index: more than 255 event sets");
  const kd = new KDBush(Math.max(1, n), 64, Float64Array);
  for (const e of events) kd.add(e.lng, e.lat);
  if (n === 0) kd.add(0, 0); // KDBush needs one item; n in the header says there are none.
  kd.finish();
  const kdBytes = new Uint8Array(kd.data as ArrayBuffer);
  const header: Header = {
    n,
    sources,
    ids: events.map((e) => e.id),
    names: events.map((e) => e.name),
    groups: groupNames,
    ...(sets.length > 1 || (sets.length === 1 && sets[0] !== "") ? { sets, groupSet } : {}),
    kdbushBytes: kdBytes.byteLength,
    meta,
  };
  const sizes = [8 * n, 8 * n, 8 * n, 8 * n, 32 * n, pad8(4 * n), pad8(4 * n), pad8(n)];
  const start = jsonHeaded(MAGIC, FORMAT_VERSION, header, sizes.reduce((a, b) => a + b, 0) + kdBytes.byteLength);
  const out = start.out;
  let off = start.off;
  const f64 = (values: ArrayLike<number>, len: number) => {
    new Float64Array(out.buffer, off, len).set(values);
    off += 8 * len;
  };
  f64(events.map((e) => e.time), n);
  f64(events.map((e) => e.endTime), n);
  f64(events.map((e) => e.lng), n);
  f64(events.map((e) => e.lat), n);
  f64(events.flatMap((e) => e.bbox ?? [NaN, NaN, NaN, NaN]), 4 * n);
  new Float32Array(out.buffer, off, n).set(events.map((e) => e.magnitude));
  off += sizes[5];
  new Uint32Array(out.buffer, off, n).set(group);
  off += sizes[6];
  out.set(events.map((e) => sources.indexOf(e.source)), off);
  off += sizes[7];
  out.set(kdBytes, off);
  return out;
}

export class EventIndex {
  readonly n: number;
  readonly time: Float64Array;
  readonly endTime: Float64Array;
  readonly lng: Float64Array;
  readonly lat: Float64Array;
  /** 4 per event: minLng, minLat, maxLng, maxLat; NaN when the event has no area. */
  readonly bbox: Float64Array;
  readonly magnitude: Float32Array;
  readonly group: Uint32Array;
  readonly sourceNo: Uint8Array;
  readonly sources: string[];
  /** Per event and per group, packed (formats/packed-strings.ts): one heap object each, not one per event. */
  readonly ids: PackedStrings;
  readonly names: PackedStrings;
  readonly groups: PackedStrings;
  /** Event-set names; [""] when the file names none. */
  readonly sets: string[];
  /** Per group, its number in `sets`. */
  readonly groupSet: Uint8Array;
  readonly meta: Record<string, unknown>;
  private readonly kd: KDBush;
  /** Unit vectors of the points (x, y, z per event): a radius test is a dot product, no trigonometry per point. */
  private readonly unit: Float64Array;

  /** `bytes` must start on an 8-byte boundary of its ArrayBuffer. */
  constructor(bytes: Uint8Array) {
    if (bytes.byteOffset % 8 !== 0) throw new Error("event index: buffer is not 8-byte aligned");
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 12 || dv.getUint32(0, true) !== MAGIC) throw new Error("event index: bad magic");
    const version = dv.getUint32(4, true);
    if (version !== FORMAT_VERSION) throw new Error(`event index: unsupported format version ${version}`);
    const jsonLen = dv.getUint32(8, true);
    const h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + jsonLen))) as Header;
    const n = h.n;
    let off = bytes.byteOffset + pad8(12 + jsonLen);
    const need = pad8(12 + jsonLen) + 64 * n + 2 * pad8(4 * n) + pad8(n) + h.kdbushBytes;
    if (bytes.byteLength !== need) throw new Error(`event index: ${bytes.byteLength} bytes, layout needs ${need}`);
    const f64 = (len: number) => {
      const a = new Float64Array(bytes.buffer, off, len);
      off += 8 * len;
      return a;
    };
    this.n = n;
    this.time = f64(n);
    this.endTime = f64(n);
    this.lng = f64(n);
    this.lat = f64(n);
    this.bbox = f64(4 * n);
    this.magnitude = new Float32Array(bytes.buffer, off, n);
    off += pad8(4 * n);
    this.group = new Uint32Array(bytes.buffer, off, n);
    off += pad8(4 * n);
    this.sourceNo = new Uint8Array(bytes.buffer, off, n);
    off += pad8(n);
    this.kd = KDBush.from(bytes.buffer.slice(off, off + h.kdbushBytes));
    this.sources = h.sources;
    if (!Array.isArray(h.ids) || h.ids.length !== n || !Array.isArray(h.names) || h.names.length !== n) {
      throw new Error(`event index: ids and names must list ${n} events`);
    }
    if (!Array.isArray(this.sources) || !Array.isArray(h.groups)) throw new Error("event index: sources and groups must be lists");
    if (![h.ids, h.names, h.groups].every((list) => list.every((x) => typeof x === "string"))) throw new Error("event index: ids, names and groups must be strings");
    this.ids = new PackedStrings(h.ids);
    this.names = new PackedStrings(h.names);
    this.groups = new PackedStrings(h.groups);
    this.sets = h.sets ?? [""];
    if (h.groupSet !== undefined && (!Array.isArray(h.groupSet) || h.groupSet.length !== h.groups.length)) {
      throw new Error(`event index: groupSet must list ${h.groups.length} groups`);
    }
    this.groupSet = h.groupSet ? Uint8Array.from(h.groupSet) : new Uint8Array(h.groups.length);
    if (!Array.isArray(this.sets) || this.groupSet.some((k) => k >= this.sets.length)) throw new Error("event index: group set number outside its table");
    this.meta = h.meta;
    this.checkValues();
    this.unit = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) unitVector(this.lat[i], this.lng[i], this.unit, 3 * i);
  }

  /** Ranges of event-index.md "Value ranges": refuses the first event outside them. */
  private checkValues(): void {
    const { n } = this;
    for (let i = 0; i < n; i++) {
      const bad = (what: string): never => {
        throw new Error(`event index: event ${i} (${this.ids.get(i)}): ${what}`);
      };
      if (!(this.lat[i] >= -90 && this.lat[i] <= 90 && this.lng[i] >= -180 && this.lng[i] <= 180)) bad(`point ${this.lat[i]}, ${this.lng[i]} is not on the globe`);
      if (!Number.isFinite(this.time[i]) || !Number.isFinite(this.endTime[i]) || this.endTime[i] < this.time[i]) bad(`times ${this.time[i]}..${this.endTime[i]} are not a period`);
      const m = this.magnitude[i];
      if (m === Infinity || m === -Infinity) bad(`magnitude ${m}`);
      const [w, s, e, no] = this.bbox.subarray(4 * i, 4 * i + 4);
      const none = Number.isNaN(w) && Number.isNaN(s) && Number.isNaN(e) && Number.isNaN(no);
      if (!none && !(w >= -180 && w <= e && e <= 180 && s >= -90 && s <= no && no <= 90)) bad(`bbox ${w},${s},${e},${no} is invalid`);
      if (this.group[i] >= this.groups.length || this.sourceNo[i] >= this.sources.length) bad("group or source number outside its table");
    }
  }

  /**
   * Events whose point lies within radiusKm (great circle) of lat/lng: their indices and distances, the first
   * `count` entries of each array. The search box is the circle's lat/lng bounds; a box over the antimeridian is
   * searched on both sides.
   */
  near(lat: number, lng: number, radiusKm: number): NearEvents {
    if (this.n === 0) return { count: 0, index: new Uint32Array(0), distanceKm: new Float64Array(0) };
    const dLat = radiusKm / 110.5;
    const south = lat - dLat;
    const north = lat + dLat;
    // Longitude degrees shrink with cos(lat): take the widest, at the box edge nearer the pole; a box that
    // reaches a pole spans every longitude.
    const edge = Math.max(Math.abs(south), Math.abs(north));
    const dLng = edge >= 89.9 ? 180 : Math.min(180, radiusKm / (111.0 * Math.cos((edge * Math.PI) / 180)));
    const west = lng - dLng;
    const east = lng + dLng;
    const boxes: number[][] = [];
    if (dLng >= 180) boxes.push(this.kd.range(-180, south, 180, north));
    else {
      boxes.push(this.kd.range(Math.max(-180, west), south, Math.min(180, east), north));
      if (west < -180) boxes.push(this.kd.range(west + 360, south, 180, north));
      if (east > 180) boxes.push(this.kd.range(-180, south, east - 360, north));
    }
    const candidates = boxes.reduce((a, b) => a + b.length, 0);
    const index = new Uint32Array(candidates);
    const distanceKm = new Float64Array(candidates);
    let count = 0;
    // Great-circle distance from the chord c between unit vectors: d = 2R asin(c/2), the haversine formula's
    // value. Points outside the radius are refused on c alone; for the small angles of a search radius the asin
    // series to x^5 is exact to < 1e-9 (relative), cheaper than Math.asin.
    const q = new Float64Array(3);
    unitVector(lat, lng, q, 0);
    const maxChord = 2 * Math.sin(Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM) / 2);
    const maxChord2 = maxChord * maxChord;
    const u = this.unit;
    for (const ids of boxes) {
      for (let k = 0; k < ids.length; k++) {
        const i = ids[k];
        const dx = u[3 * i] - q[0], dy = u[3 * i + 1] - q[1], dz = u[3 * i + 2] - q[2];
        const c2 = dx * dx + dy * dy + dz * dz;
        if (c2 > maxChord2) continue;
        const x = Math.sqrt(c2) / 2;
        const x2 = x * x;
        const angle = x < 0.05 ? x * (1 + x2 * (1 / 6 + x2 * (3 / 40 + x2 * (5 / 112)))) : Math.asin(Math.min(1, x));
        const d = 2 * EARTH_RADIUS_KM * angle;
        if (d <= radiusKm) { index[count] = i; distanceKm[count] = d; count++; }
      }
    }
    return { count, index, distanceKm };
  }
}

/** What EventIndex.near returns: the first `count` entries of `index` and `distanceKm`. */
export interface NearEvents {
  count: number;
  index: Uint32Array;
  distanceKm: Float64Array;
}
