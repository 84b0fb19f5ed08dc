// One port table from three lists. UN/LOCODE (function "1") decides which codes exist; the World Port Index joins
// by code; PortWatch joins by name first because its LOCODE column is partly wrong (Laem Chabang is tagged
// "TH SRI", the code of neighbouring Si Racha). Order for a PortWatch port (same country only):
//   1. exact name match with a UN/LOCODE port name
//   2. name match with a WPI main or alternate name ("Saigon" → WPI "Thanh Ho Chi Minh" → VNSGN)
//   3. the published LOCODE, when it is a UN/LOCODE port
//   4. the nearest UN/LOCODE port within MATCH_RADIUS_KM
// A result that differs from the published LOCODE is flagged. Coordinates: WPI, else PortWatch, else UN/LOCODE;
// a UN/LOCODE coordinate far from its WPI/PortWatch one, or outside its country's reference box, is flagged and
// not used (THHOP is listed at 24.3°N, 121.7°E, in Taiwan).
import KDBush from "kdbush";
import { distanceKm } from "../../lib/geo/great-circle.ts";
import type { PortwatchPort } from "./portwatch.ts";
import type { PortRecord } from "../../formats/ports-snapshot.ts";

export type { PortRecord };
import type { UnlocodeEntry } from "./unlocode.ts";
import type { WpiPort } from "./wpi.ts";

export const MATCH_RADIUS_KM = 10;
/** A UN/LOCODE coordinate farther than this from the WPI/PortWatch coordinate of the same port is flagged. */
export const COORD_DISAGREE_KM = 50;
/** Degrees added around a country's WPI + PortWatch port box before a UN/LOCODE coordinate counts as outside. */
export const COUNTRY_BOX_PAD_DEG = 1;


export interface CrossReferenceQc {
  unlocodePorts: number;
  withWpi: number;
  withPortwatch: number;
  portwatchUnmatched: string[];
  locodeCorrections: { portid: string; name: string; published: string; matched: string; by: string }[];
  coordinateFlags: { code: string; reason: string }[];
}

export const normName = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\(.*?\)/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

const finite = (x: number) => (Number.isFinite(x) ? x : null);

/** ISO3 → ISO2 from the PortWatch rows whose LOCODE is filled (majority vote), which covers the countries with ports. */
function iso3ToIso2(pw: PortwatchPort[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const p of pw) {
    const c = p.locode.replace(/\s+/g, "").slice(0, 2).toUpperCase();
    if (!/^[A-Z]{2}$/.test(c)) continue;
    let v = votes.get(p.iso3);
    if (!v) votes.set(p.iso3, (v = new Map()));
    v.set(c, (v.get(c) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const [iso3, v] of votes) out.set(iso3, [...v].sort((a, b) => b[1] - a[1])[0][0]);
  return out;
}

export function crossReference(unlocode: UnlocodeEntry[], wpi: WpiPort[], portwatch: PortwatchPort[]): { ports: PortRecord[]; qc: CrossReferenceQc } {
  const qc: CrossReferenceQc = { unlocodePorts: unlocode.length, withWpi: 0, withPortwatch: 0, portwatchUnmatched: [], locodeCorrections: [], coordinateFlags: [] };
  const byCode = new Map<string, UnlocodeEntry>();
  for (const e of unlocode) if (!byCode.has(e.code)) byCode.set(e.code, e);
  const wpiByCode = new Map<string, WpiPort>();
  for (const w of wpi) if (w.code !== "" && !wpiByCode.has(w.code)) wpiByCode.set(w.code, w);

  // Name indexes per country.
  // Several entries can share a name (Vladivostok, "Port Klang (...)"): the caller picks among them.
  const unlocodeByName = new Map<string, string[]>();
  for (const e of byCode.values()) {
    const k = `${e.country}|${normName(e.name)}`;
    const list = unlocodeByName.get(k);
    if (list) list.push(e.code);
    else unlocodeByName.set(k, [e.code]);
  }
  /** Among same-name entries: the published LOCODE if it is one of them, else one with a WPI record, else the first. */
  const pickByName = (key: string, published: string): string | undefined => {
    const list = unlocodeByName.get(key);
    if (!list) return undefined;
    return list.find((c) => c === published) ?? list.find((c) => wpiByCode.has(c)) ?? list[0];
  };
  const wpiByName = new Map<string, string>();
  for (const w of wpi) {
    if (w.code === "") continue;
    for (const n of [w.name, ...w.alternateName.split(";")]) {
      const nn = normName(n);
      if (nn !== "") wpiByName.set(`${w.code.slice(0, 2)}|${nn}`, w.code);
    }
  }
  const located = [...byCode.values()].filter((e) => Number.isFinite(e.lat) && Number.isFinite(e.lng));
  const index = new KDBush(Math.max(1, located.length));
  for (const e of located) index.add(e.lng, e.lat);
  index.finish();

  const iso2 = iso3ToIso2(portwatch);
  const pwByCode = new Map<string, { p: PortwatchPort; by: NonNullable<PortRecord["portwatch"]>["matchedBy"] }>();
  for (const p of portwatch) {
    const published = p.locode.replace(/\s+/g, "").toUpperCase();
    const cc = iso2.get(p.iso3) ?? published.slice(0, 2);
    let code: string | undefined;
    let by: NonNullable<PortRecord["portwatch"]>["matchedBy"] = "name";
    const nn = normName(p.name);
    if ((code = pickByName(`${cc}|${nn}`, published)) !== undefined) by = "name";
    else if ((code = wpiByName.get(`${cc}|${nn}`)) !== undefined && byCode.has(code)) by = "wpi-name";
    else if (byCode.has(published)) [code, by] = [published, "locode"];
    else {
      code = undefined;
      let best = MATCH_RADIUS_KM;
      const d = MATCH_RADIUS_KM / 111 / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
      for (const i of index.range(p.lng - d, p.lat - MATCH_RADIUS_KM / 111, p.lng + d, p.lat + MATCH_RADIUS_KM / 111)) {
        const e = located[i];
        const km = distanceKm(p.lat, p.lng, e.lat, e.lng);
        if (e.country === cc && km <= best) [best, code, by] = [km, e.code, "nearest"];
      }
    }
    if (code === undefined) {
      qc.portwatchUnmatched.push(p.portid);
      continue;
    }
    if (published !== "" && published !== code) qc.locodeCorrections.push({ portid: p.portid, name: p.name, published: p.locode, matched: code, by });
    if (!pwByCode.has(code)) pwByCode.set(code, { p, by });
  }

  // Reference box per country from WPI and PortWatch coordinates (independent of UN/LOCODE).
  const box = new Map<string, [number, number, number, number]>();
  const grow = (cc: string, lat: number, lng: number) => {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return;
    const b = box.get(cc);
    if (!b) box.set(cc, [lng, lat, lng, lat]);
    else box.set(cc, [Math.min(b[0], lng), Math.min(b[1], lat), Math.max(b[2], lng), Math.max(b[3], lat)]);
  };
  for (const w of wpi) if (w.code !== "") grow(w.code.slice(0, 2), w.lat, w.lng);
  for (const p of portwatch) {
    const cc = iso2.get(p.iso3);
    if (cc) grow(cc, p.lat, p.lng);
  }

  const ports: PortRecord[] = [];
  for (const e of byCode.values()) {
    const flags: string[] = [];
    const w = wpiByCode.get(e.code);
    const pw = pwByCode.get(e.code);
    if (e.repaired) flags.push("unlocode_row_badly_quoted_repaired");
    let lat: number | null = null;
    let lng: number | null = null;
    let coordSource: PortRecord["coordSource"] = null;
    if (w && Number.isFinite(w.lat)) [lat, lng, coordSource] = [w.lat, w.lng, "wpi"];
    else if (pw) [lat, lng, coordSource] = [pw.p.lat, pw.p.lng, "portwatch"];
    const hasOwn = Number.isFinite(e.lat) && Number.isFinite(e.lng);
    if (hasOwn && lat !== null && lng !== null) {
      const km = distanceKm(e.lat, e.lng, lat, lng);
      if (km > COORD_DISAGREE_KM) {
        flags.push(`unlocode_coordinates_${Math.round(km)}km_from_${coordSource}`);
        qc.coordinateFlags.push({ code: e.code, reason: `${Math.round(km)} km from the ${coordSource} position` });
      }
    } else if (hasOwn) {
      const b = box.get(e.country);
      const p = COUNTRY_BOX_PAD_DEG;
      if (b && (e.lng < b[0] - p || e.lat < b[1] - p || e.lng > b[2] + p || e.lat > b[3] + p)) {
        flags.push("unlocode_coordinates_outside_country");
        qc.coordinateFlags.push({ code: e.code, reason: "outside the country's reference box" });
      } else {
        [lat, lng, coordSource] = [e.lat, e.lng, "unlocode"];
        if (e.geocoded) flags.push("coordinates_geocoded_by_publisher");
      }
    } else if (lat === null) flags.push("no_coordinates");
    if (pw && pw.by !== "locode" && pw.p.locode !== "" && pw.p.locode.replace(/\s+/g, "") !== e.code) flags.push(`portwatch_locode_corrected_from_${pw.p.locode.replace(/\s+/g, "")}`);
    if (pw && pw.p.locode === "") flags.push(`portwatch_locode_inferred_by_${pw.by}`);
    if (w) qc.withWpi++;
    if (pw) qc.withPortwatch++;
    ports.push({
      code: e.code,
      name: e.name,
      country: e.country,
      lat,
      lng,
      coordSource,
      flags,
      wpi: w
        ? { number: w.number, name: w.name, harborSize: w.harborSize, harborType: w.harborType, channelDepthM: finite(w.channelDepthM), cargoPierDepthM: finite(w.cargoPierDepthM) }
        : null,
      portwatch: pw
        ? {
            portid: pw.p.portid,
            name: pw.p.name,
            country: pw.p.country,
            locodePublished: pw.p.locode,
            matchedBy: pw.by,
            vesselCounts: pw.p.vesselCounts,
            industryTop: pw.p.industryTop,
            shareCountryImport: finite(pw.p.shareCountryImport),
            shareCountryExport: finite(pw.p.shareCountryExport),
          }
        : null,
    });
  }
  return { ports, qc };
}
