// One port table from three lists. A code is a port when any list names it as one: UN/LOCODE (function "1"), the
// World Port Index (every WPI entry is a port) or PortWatch. PortWatch joins by name first because its LOCODE column
// is partly wrong (Laem Chabang is tagged "TH SRI", the code of neighbouring Si Racha). Steps for a PortWatch port
// (same country), the first that gives a code wins:
//   1. name      its name (without a parenthesised terminal or a qualifier after a comma: "Shanghai (Pudong)",
//                "Portland, OR") is a UN/LOCODE port name; among same-name ports the one near it
//   2. wpi-name  a WPI main or alternate name ("Saigon" → WPI "Thanh Ho Chi Minh" → VNSGN)
//   3. locode    the published LOCODE, when UN/LOCODE or WPI names it as a port
//   4. name-part each part of a joined name ("Los Angeles-Long Beach") is a port name within PART_RADIUS_KM
//   5. nearest   the nearest UN/LOCODE port within MATCH_RADIUS_KM
//   6. name-other-function  its name is a UN/LOCODE entry of another function within ALIAS_RADIUS_KM
//   7. locode-published-only  the published LOCODE, which then only PortWatch names as a port
// Several PortWatch ports on one code: the best step (then the busiest) is the code's main port; others with the same
// name are its terminals (Shanghai (Yangshan)); the rest keep no code and answer by coordinates.
// Coordinates: WPI, else PortWatch, else UN/LOCODE; a UN/LOCODE coordinate far from its WPI/PortWatch one, or
// outside its country's reference box, is flagged and not used (THHOP is listed at 24.3°N, 121.7°E, in Taiwan).
import countries from "i18n-iso-countries";
import KDBush from "kdbush";
import { haversineKm } from "../../lib/geo/sphere.ts";
import { countryChecker } from "../feeds/country-check.ts";
import type { PortAlias, PortRecord, PortSource, PortwatchAttributes, PortwatchMatch, PortwatchPort } from "../../formats/ports-snapshot.ts";
import { isPortFunction, type UnlocodeEntry } from "./unlocode.ts";
import type { WpiPort } from "./wpi.ts";

export type { PortRecord };

export const MATCH_RADIUS_KM = 10;
/** A part of a joined PortWatch name must name a port this close to the PortWatch port. */
export const PART_RADIUS_KM = 30;
/** A place without the port function stands for a port of the same name within this distance (and step 6 above). */
export const ALIAS_RADIUS_KM = 50;
/** A UN/LOCODE coordinate farther than this from the WPI/PortWatch coordinate of the same port is flagged. */
export const COORD_DISAGREE_KM = 50;
/** Degrees added around a country's WPI + PortWatch port box before a UN/LOCODE coordinate counts as outside. */
export const COUNTRY_BOX_PAD_DEG = 1;

export interface CrossReferenceQc {
  unlocodePorts: number;
  ports: number;
  namedBy: Record<string, number>;
  withWpi: number;
  withPortwatch: number;
  portwatchByStep: Record<string, number>;
  /** PortWatch ports no list gives a code: they answer by coordinates only. */
  portwatchWithoutCode: string[];
  /** PortWatch ports whose code went to a busier or better-matched port elsewhere. */
  portwatchCodeTaken: { portid: string; name: string; code: string; holder: string }[];
  locodeCorrections: { portid: string; name: string; published: string; matched: string; by: string }[];
  coordinateFlags: { code: string; reason: string }[];
  aliases: number;
}

export const normName = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\(.*?\)/g, " ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** Name key for matching: normName without a trailing "Pt"/"Port"/"Harbo(u)r" or a leading "Port of" ("Fangcheng Pt" = "Fangcheng"). */
export const nameKey = (s: string) => {
  const n = normName(s)
    .replace(/^port of /, "")
    .replace(/ (pt|port|harbou?r)$/, "");
  return n.length >= 3 ? n : normName(s);
};

/** Name keys of a UN/LOCODE or WPI name: the name, and a parenthesised other name ("El Iskandariya (Alexandria)"). */
const namesOf = (s: string): string[] => {
  const inner = /\(([^)]+)\)/.exec(s)?.[1];
  return inner && nameKey(inner).length >= 3 ? [nameKey(s), nameKey(inner)] : [nameKey(s)];
};

const finite = (x: number) => (Number.isFinite(x) ? x : null);
const located = (lat: number, lng: number) => Number.isFinite(lat) && Number.isFinite(lng);
const compactCode = (s: string) => s.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
const STEP_ORDER: PortwatchMatch[] = ["name", "wpi-name", "locode", "name-part", "nearest", "name-other-function", "locode-published-only"];

/** ISO alpha-3 → alpha-2 (i18n-iso-countries), else the majority country of the PortWatch LOCODEs of that country. */
function iso3ToIso2(pw: PortwatchPort[]): (iso3: string) => string | undefined {
  const votes = new Map<string, Map<string, number>>();
  for (const p of pw) {
    const c = compactCode(p.locode).slice(0, 2);
    if (!/^[A-Z]{2}$/.test(c)) continue;
    let v = votes.get(p.iso3);
    if (!v) votes.set(p.iso3, (v = new Map()));
    v.set(c, (v.get(c) ?? 0) + 1);
  }
  return (iso3) => {
    const known = countries.alpha3ToAlpha2(iso3);
    if (known) return known;
    const v = votes.get(iso3);
    return v ? [...v].sort((a, b) => b[1] - a[1])[0][0] : undefined;
  };
}

interface Candidate {
  p: PortwatchPort;
  codes: string[];
  by: PortwatchMatch;
}

export function crossReference(
  unlocode: UnlocodeEntry[],
  wpi: WpiPort[],
  portwatch: PortwatchPort[],
): { ports: PortRecord[]; aliases: PortAlias[]; otherEntries: Record<string, [string, string]>; qc: CrossReferenceQc } {
  const byCode = new Map<string, UnlocodeEntry>();
  for (const e of unlocode) if (!byCode.has(e.code)) byCode.set(e.code, e);
  const isUnPort = (code: string) => {
    const e = byCode.get(code);
    return e !== undefined && isPortFunction(e.function);
  };
  const wpiByCode = new Map<string, WpiPort>();
  for (const w of wpi) if (w.code !== "" && !wpiByCode.has(w.code)) wpiByCode.set(w.code, w);

  // Name indexes per country. Several entries can share a name (Vladivostok, "Port Klang (...)"): the caller picks.
  const portByName = new Map<string, string[]>();
  const otherByName = new Map<string, string[]>();
  for (const e of byCode.values()) {
    const index = isPortFunction(e.function) ? portByName : otherByName;
    for (const n of namesOf(e.name)) {
      const k = `${e.country}|${n}`;
      const list = index.get(k);
      if (list) list.push(e.code);
      else index.set(k, [e.code]);
    }
  }
  const wpiByName = new Map<string, string>();
  for (const w of wpi) {
    if (w.code === "") continue;
    for (const n of [w.name, ...w.alternateName.split(";")].flatMap(namesOf)) if (n !== "") wpiByName.set(`${w.code.slice(0, 2)}|${n}`, w.code);
  }
  /** Best known position of a code named by UN/LOCODE or WPI (WPI first). */
  const positionOf = (code: string): [number, number] | undefined => {
    const w = wpiByCode.get(code);
    if (w && located(w.lat, w.lng)) return [w.lat, w.lng];
    const e = byCode.get(code);
    return e && located(e.lat, e.lng) ? [e.lat, e.lng] : undefined;
  };
  const near = (code: string, lat: number, lng: number, km: number) => {
    const at = positionOf(code);
    return at !== undefined && haversineKm(lat, lng, at[0], at[1]) <= km;
  };
  /** Among same-name ports, in the order published LOCODE, those with a WPI record, the rest: the first within
   * COORD_DISAGREE_KM of the PortWatch position, else the first (same-name places far apart: Portland, Maine and Oregon). */
  const pickByName = (key: string, published: string, lat: number, lng: number): string | undefined => {
    const list = portByName.get(key);
    if (!list) return undefined;
    const ordered = [...list.filter((c) => c === published), ...list.filter((c) => c !== published && wpiByCode.has(c)), ...list.filter((c) => c !== published && !wpiByCode.has(c))];
    return ordered.find((c) => near(c, lat, lng, COORD_DISAGREE_KM)) ?? ordered[0];
  };
  const unPorts = [...byCode.values()].filter((e) => isPortFunction(e.function) && located(e.lat, e.lng));
  const unIndex = new KDBush(Math.max(1, unPorts.length));
  for (const e of unPorts) unIndex.add(e.lng, e.lat);
  unIndex.finish();

  const toIso2 = iso3ToIso2(portwatch);
  const candidates: Candidate[] = [];
  const withoutCode: PortwatchPort[] = [];
  for (const p of portwatch) {
    const published = compactCode(p.locode);
    const cc = toIso2(p.iso3) ?? published.slice(0, 2);
    // "Portland, OR" and "Portland, ME" are both Portland: the qualifier after a comma only tells them apart.
    const key = `${cc}|${nameKey(p.name.split(",")[0])}`;
    let code: string | undefined;
    let codes: string[] = [];
    let by: PortwatchMatch | undefined;
    if ((code = pickByName(key, published, p.lat, p.lng)) !== undefined) by = "name";
    else if ((code = wpiByName.get(key)) !== undefined) by = "wpi-name";
    // A published LOCODE is believed when it names a port that lies near the PortWatch position (or has no position):
    // PortWatch tags Portland, OR with Portland, Maine's USPWM.
    else if (published !== "" && (isUnPort(published) || wpiByCode.has(published)) && (positionOf(published) === undefined || near(published, p.lat, p.lng, COORD_DISAGREE_KM)))
      [code, by] = [published, "locode"];
    else {
      const parts = p.name
        .replace(/\(.*?\)/g, " ")
        .split(/\s*[-/]\s*/)
        .map(nameKey)
        .filter((s) => s.length >= 3);
      if (parts.length > 1) {
        for (const part of parts) {
          const c = pickByName(`${cc}|${part}`, published, p.lat, p.lng) ?? wpiByName.get(`${cc}|${part}`);
          if (c !== undefined && near(c, p.lat, p.lng, PART_RADIUS_KM) && !codes.includes(c)) codes.push(c);
        }
        if (codes.length > 0) by = "name-part";
      }
      if (by === undefined) {
        let best = MATCH_RADIUS_KM;
        const d = MATCH_RADIUS_KM / 111 / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
        for (const i of unIndex.range(p.lng - d, p.lat - MATCH_RADIUS_KM / 111, p.lng + d, p.lat + MATCH_RADIUS_KM / 111)) {
          const e = unPorts[i];
          const km = haversineKm(p.lat, p.lng, e.lat, e.lng);
          if (e.country === cc && km <= best) [best, code, by] = [km, e.code, "nearest"];
        }
      }
      if (by === undefined) {
        const other = (otherByName.get(key) ?? []).find((c) => near(c, p.lat, p.lng, ALIAS_RADIUS_KM));
        if (other !== undefined) [code, by] = [other, "name-other-function"];
        else if (/^[A-Z]{2}[A-Z2-9]{3}$/.test(published)) [code, by] = [published, "locode-published-only"];
      }
    }
    if (code !== undefined) codes = [code];
    if (by === undefined || codes.length === 0) withoutCode.push(p);
    else candidates.push({ p, codes, by });
  }

  // One main PortWatch port per code: the best step, then the busiest. Others become its terminals when they share
  // its name (without the parenthesised part); else they keep no code.
  const rank = (c: Candidate) => STEP_ORDER.indexOf(c.by);
  candidates.sort((a, b) => rank(a) - rank(b) || (b.p.vesselCounts.total || 0) - (a.p.vesselCounts.total || 0));
  const pwByCode = new Map<string, Candidate[]>();
  const codeTaken: CrossReferenceQc["portwatchCodeTaken"] = [];
  for (const c of candidates) {
    const kept: string[] = [];
    for (const code of c.codes) {
      const held = pwByCode.get(code);
      if (held === undefined) {
        pwByCode.set(code, [c]);
        kept.push(code);
        continue;
      }
      const main = held[0].p;
      if (normName(main.name) === normName(c.p.name)) {
        held.push(c);
        kept.push(code);
      } else codeTaken.push({ portid: c.p.portid, name: c.p.name, code, holder: main.portid });
    }
    c.codes = kept;
    if (kept.length === 0) withoutCode.push(c.p);
  }

  const qc: CrossReferenceQc = {
    unlocodePorts: unlocode.filter((e) => isPortFunction(e.function)).length,
    ports: 0,
    namedBy: {},
    withWpi: 0,
    withPortwatch: 0,
    portwatchByStep: {},
    portwatchWithoutCode: withoutCode.map((p) => p.portid),
    portwatchCodeTaken: codeTaken,
    locodeCorrections: [],
    coordinateFlags: [],
    aliases: 0,
  };
  for (const c of candidates) {
    if (c.codes.length === 0) continue;
    qc.portwatchByStep[c.by] = (qc.portwatchByStep[c.by] ?? 0) + 1;
    const published = compactCode(c.p.locode);
    if (published !== "" && !c.codes.includes(published)) qc.locodeCorrections.push({ portid: c.p.portid, name: c.p.name, published: c.p.locode, matched: c.codes[0], by: c.by });
  }

  const checker = countryChecker();
  // Reference box per country from WPI and PortWatch coordinates (independent of UN/LOCODE).
  const box = new Map<string, [number, number, number, number]>();
  const grow = (cc: string, lat: number, lng: number) => {
    if (!located(lat, lng)) return;
    const b = box.get(cc);
    if (!b) box.set(cc, [lng, lat, lng, lat]);
    else box.set(cc, [Math.min(b[0], lng), Math.min(b[1], lat), Math.max(b[2], lng), Math.max(b[3], lat)]);
  };
  for (const w of wpi) if (w.code !== "") grow(w.code.slice(0, 2), w.lat, w.lng);
  for (const p of portwatch) {
    const cc = toIso2(p.iso3);
    if (cc) grow(cc, p.lat, p.lng);
  }

  const attributes = (c: Candidate, code: string): PortwatchAttributes => ({
    portid: c.p.portid,
    name: c.p.name,
    country: c.p.country,
    iso3: c.p.iso3,
    lat: c.p.lat,
    lng: c.p.lng,
    locodePublished: c.p.locode,
    matchedBy: c.by,
    vesselCounts: c.p.vesselCounts,
    industryTop: c.p.industryTop,
    shareCountryImport: finite(c.p.shareCountryImport),
    shareCountryExport: finite(c.p.shareCountryExport),
    sharedWith: c.codes.filter((x) => x !== code),
  });

  const codes = new Set<string>();
  for (const e of byCode.values()) if (isPortFunction(e.function)) codes.add(e.code);
  for (const code of wpiByCode.keys()) codes.add(code);
  for (const code of pwByCode.keys()) codes.add(code);

  const ports: PortRecord[] = [];
  for (const code of [...codes].sort()) {
    const e = byCode.get(code);
    const w = wpiByCode.get(code);
    const pw = pwByCode.get(code) ?? [];
    const main = pw[0];
    const flags: string[] = [];
    const namedBy: PortSource[] = [];
    if (e && isPortFunction(e.function)) namedBy.push("unlocode");
    if (w) namedBy.push("wpi");
    if (pw.length > 0) namedBy.push("portwatch");
    if (e?.repaired) flags.push("unlocode_row_badly_quoted_repaired");
    let lat: number | null = null;
    let lng: number | null = null;
    let coordSource: PortRecord["coordSource"] = null;
    if (w && located(w.lat, w.lng)) [lat, lng, coordSource] = [w.lat, w.lng, "wpi"];
    else if (main) [lat, lng, coordSource] = [main.p.lat, main.p.lng, "portwatch"];
    const hasOwn = e !== undefined && located(e.lat, e.lng);
    if (e && hasOwn && lat !== null && lng !== null) {
      const km = haversineKm(e.lat, e.lng, lat, lng);
      if (km > COORD_DISAGREE_KM) {
        flags.push(`unlocode_coordinates_${Math.round(km)}km_from_${coordSource}`);
        qc.coordinateFlags.push({ code, reason: `${Math.round(km)} km from the ${coordSource} position` });
      }
    } else if (e && hasOwn) {
      // Only UN/LOCODE places the port. Its own coordinates must lie in its country (Natural Earth outline); the
      // publisher's geocodes must also lie in the box of the country's WPI and PortWatch ports (+1°), because a
      // geocoder places a port name at an inland town of that name (NGAPP "Apapa" at 10.3°N 8.3°E).
      const b = box.get(e.country);
      const pad = COUNTRY_BOX_PAD_DEG;
      const outsideBox = b === undefined || e.lng < b[0] - pad || e.lat < b[1] - pad || e.lng > b[2] + pad || e.lat > b[3] + pad;
      // The polygon test is slow on large countries: only points outside the box need it.
      const iso3 = countries.alpha2ToAlpha3(e.country);
      const offKm = outsideBox && iso3 ? checker.distanceKm(e.lng, e.lat, iso3) : 0;
      if (offKm > checker.toleranceKm || (Number.isNaN(offKm) && b !== undefined)) {
        flags.push("unlocode_coordinates_outside_country");
        qc.coordinateFlags.push({ code, reason: "outside its country" });
      } else if (e.geocoded && outsideBox) {
        flags.push("unlocode_geocode_outside_port_area");
        qc.coordinateFlags.push({ code, reason: "publisher's geocode outside the box of the country's WPI and PortWatch ports" });
      } else {
        [lat, lng, coordSource] = [e.lat, e.lng, "unlocode"];
        if (e.geocoded) flags.push("coordinates_geocoded_by_publisher");
      }
    } else if (lat === null) flags.push("no_coordinates");
    if (main) {
      const published = compactCode(main.p.locode);
      if (published === "") flags.push(`portwatch_locode_inferred_by_${main.by}`);
      else if (published !== code) flags.push(`portwatch_locode_corrected_from_${published}`);
    }
    if (e && !isPortFunction(e.function)) flags.push(`unlocode_function_${e.function}`);
    if (w) qc.withWpi++;
    if (pw.length > 0) qc.withPortwatch++;
    for (const s of namedBy) qc.namedBy[s] = (qc.namedBy[s] ?? 0) + 1;
    const country = code.slice(0, 2);
    ports.push({
      code,
      name: e && isPortFunction(e.function) ? e.name : (w?.name ?? main?.p.name ?? e?.name ?? code),
      country,
      iso3: countries.alpha2ToAlpha3(country) ?? main?.p.iso3 ?? null,
      lat,
      lng,
      coordSource,
      namedBy,
      unlocode: e ? { name: e.name, function: e.function } : null,
      flags,
      wpi: w
        ? { number: w.number, name: w.name, harborSize: w.harborSize, harborType: w.harborType, channelDepthM: finite(w.channelDepthM), cargoPierDepthM: finite(w.cargoPierDepthM) }
        : null,
      portwatch: pw.map((c) => attributes(c, code)),
    });
  }
  // PortWatch ports without a code still answer by coordinates.
  for (const p of withoutCode) {
    const c: Candidate = { p, codes: [], by: "nearest" };
    const a = attributes(c, "");
    ports.push({
      code: null,
      name: p.name,
      country: toIso2(p.iso3) ?? "",
      iso3: p.iso3 || null,
      lat: finite(p.lat),
      lng: finite(p.lng),
      coordSource: located(p.lat, p.lng) ? "portwatch" : null,
      namedBy: ["portwatch"],
      unlocode: null,
      flags: ["no_code_in_any_list"],
      wpi: null,
      portwatch: [{ ...a, matchedBy: "nearest", sharedWith: [] }],
    });
    qc.namedBy.portwatch = (qc.namedBy.portwatch ?? 0) + 1;
  }
  qc.ports = ports.length;

  const { aliases, otherEntries } = aliasesOf(byCode, ports);
  qc.aliases = aliases.length;
  return { ports, aliases, otherEntries, qc };
}

/**
 * UN/LOCODE entries without the port function that stand for a nearby port: same country, the port's name is the
 * entry's name or its leading words ("Shanghai Hongqiao International Apt" → port "Shanghai"), and the entry lies
 * within ALIAS_RADIUS_KM of the port. The longest such name wins, then a port with PortWatch data, then one in the
 * WPI, then the nearest. Other entries are kept
 * with their name and function for the 404 message.
 */
function aliasesOf(byCode: Map<string, UnlocodeEntry>, ports: PortRecord[]): { aliases: PortAlias[]; otherEntries: Record<string, [string, string]> } {
  const portsByName = new Map<string, PortRecord[]>();
  const isCode = new Set<string>();
  for (const p of ports) {
    if (p.code === null) continue;
    isCode.add(p.code);
    if (p.lat === null) continue;
    for (const n of new Set([p.name, p.unlocode?.name ?? p.name])) {
      const k = `${p.country}|${nameKey(n)}`;
      const list = portsByName.get(k);
      if (list) list.push(p);
      else portsByName.set(k, [p]);
    }
  }
  const aliases: PortAlias[] = [];
  const otherEntries: Record<string, [string, string]> = {};
  for (const e of byCode.values()) {
    if (isCode.has(e.code)) continue;
    let alias: PortAlias | undefined;
    if (located(e.lat, e.lng)) {
      const words = nameKey(e.name).split(" ");
      for (let n = words.length; n >= 1 && alias === undefined; n--) {
        const name = words.slice(0, n).join(" ");
        if (name.length < 3) break;
        let bestRank = Infinity;
        for (const p of portsByName.get(`${e.country}|${name}`) ?? []) {
          const km = haversineKm(e.lat, e.lng, p.lat as number, p.lng as number);
          // A port with PortWatch data, then one in the WPI, then the nearest ("Shanghai" CNSGH before "Shanghai Pt" CNSHG).
          const rank = (p.portwatch.length > 0 ? 0 : p.wpi ? 1 : 2) * 1e4 + km;
          if (km <= ALIAS_RADIUS_KM && rank < bestRank) {
            bestRank = rank;
            alias = { code: e.code, name: e.name, function: e.function, port: p.code as string, distanceKm: Math.round(km * 100) / 100 };
          }
        }
      }
    }
    if (alias) aliases.push(alias);
    else otherEntries[e.code] = [e.name, e.function];
  }
  return { aliases, otherEntries };
}
