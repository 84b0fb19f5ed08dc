// Where a point is: country (ISO 3166-1 alpha-3), land or sea, distance to the coast, and the Thai province for
// Thai points. Built once from Natural Earth (world-atlas); every lookup after that is in memory and allocation-light.
// Accuracy and conventions: docs/methods/geography.md.
import { createRequire } from "node:module";
import countries from "i18n-iso-countries";
import { buildCoastline, coastDistanceKm, type Coastline } from "./coast.ts";
import { loadNaturalEarth, type CountryUnit, type NaturalEarthCountries, type NaturalEarthScale } from "./natural-earth.ts";
import { PieceLocator, buildPieces, type Pieces } from "./pieces.ts";
import { planarRings, type FlatRing } from "./planar-rings.ts";
import { wrapLongitude } from "./sphere.ts";

const require = createRequire(import.meta.url);
countries.registerLocale(require("i18n-iso-countries/langs/en.json") as countries.LocaleData);

/** ISO 3166-1 numeric code of an alpha-3 code, zero-padded ("004"), as the countries tiles (world-atlas) id them. */
export function isoNumericOf(iso3: string): string | null {
  return countries.alpha3ToNumeric(iso3) ?? null;
}

/** Natural Earth scale used unless the caller asks for another (docs/methods/geography.md: why 10m). */
export const DEFAULT_SCALE: NaturalEarthScale = "10m";

/**
 * Within this distance of the coastline a point may lie on either side of the true shore (generalised outline,
 * world-atlas quantization, offset islets; docs/methods/geography.md): callers treat such a point as coastal and
 * do not answer "open sea" for it.
 */
export const COASTAL_TOLERANCE_KM: Record<NaturalEarthScale, number> = { "10m": 2, "50m": 10 };

/**
 * The Thai province lookup the caller already holds (formats/province-index.ts ProvinceIndexReader with the
 * entries of provinces.json, or pipeline/provinces' ProvinceLocator): only what the geography needs of it.
 */
export interface ThaiProvinces {
  /** Index into `provinces` of the province containing the point, or -1. */
  provinceAt(lat: number, lng: number): number;
  readonly provinces: readonly { code: string; nameEn: string }[];
}

export interface Location {
  /** ISO 3166-1 alpha-3 of the country the point is in; null at sea (and on land no country is assigned). */
  country: string | null;
  /** Inside a Natural Earth country polygon (lakes are land; the Caspian Sea is not), or in a Thai province. */
  land: boolean;
  /** Great-circle km to the nearest Natural Earth coastline, for land and sea points alike. */
  coastDistanceKm: number;
  /** English name of the Thai province (provinces.json nameEn), when provinces were given and one contains the point. */
  province?: string;
  /** Its ISO 3166-2:TH code ("TH-10"). */
  provinceCode?: string;
  /** Natural Earth's name of a unit without an ISO code of its own ("Kosovo", "N. Cyprus", "Spratly Is."). */
  unit?: string;
}

export interface Geography {
  readonly scale: NaturalEarthScale;
  /** Data source, for coverage statements. */
  readonly source: string;
  /** COASTAL_TOLERANCE_KM of this scale. */
  readonly coastalToleranceKm: number;
  /** Every ISO alpha-3 code that has a polygon, sorted. */
  readonly countryCodes: readonly string[];
  /** Sizes of the built structures (bench, docs); bytes = their typed arrays and flatbush indexes. */
  readonly stats: { units: number; pieces: number; pieceVertices: number; coastEdges: number; coastChunks: number; bytes: number };
  /**
   * Everything about one point. Latitude in [-90, 90], any finite longitude (wrapped to [-180, 180));
   * anything else is a RangeError (callers validate input first).
   */
  locate(lat: number, lng: number): Location;
  /** Country only (no coast search): the cheap part of `locate`, same answer. */
  countryAt(lat: number, lng: number): string | null;
  /** Land only (no coast search). */
  isLand(lat: number, lng: number): boolean;
  /** Coast distance only. */
  coastDistanceKm(lat: number, lng: number): number;
  /** English short name of an ISO alpha-3 code (ISO 3166 via i18n-iso-countries; "Kosovo" for XKX). */
  countryName(iso3: string): string | undefined;
}

export interface GeographyOptions {
  scale?: NaturalEarthScale;
  provinces?: ThaiProvinces;
  /** Already loaded Natural Earth data (tests pass synthetic geometry here). */
  data?: NaturalEarthCountries;
}

const NAMES_WITHOUT_ISO: Record<string, string> = { XKX: "Kosovo" };
const THAILAND_AND_NEIGHBOURS = new Set(["THA", "MMR", "LAO", "KHM", "MYS"]);

function checkPoint(lat: number, lng: number): number {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90) {
    throw new RangeError(`not a point: lat ${lat}, lng ${lng} (lat must be in [-90, 90], lng finite)`);
  }
  return lng >= -180 && lng < 180 ? lng : wrapLongitude(lng);
}

function unitRings(units: readonly CountryUnit[]): { ring: FlatRing; unit: number }[] {
  const out: { ring: FlatRing; unit: number }[] = [];
  units.forEach((u, unit) => {
    for (const polygon of u.polygons) for (const ring of polygon) for (const r of planarRings(ring)) out.push({ ring: r, unit });
  });
  return out;
}

/** Builds the geography once; the returned object is frozen and safe to share across a process. */
export function buildGeography(options: GeographyOptions = {}): Geography {
  const data = options.data ?? loadNaturalEarth(options.scale ?? DEFAULT_SCALE);
  if (data.units.length >= 65535) throw new Error(`too many polygon units (${data.units.length})`);
  const pieces: Pieces = buildPieces(unitRings(data.units));
  const locator = new PieceLocator(pieces, data.units.length);
  const coast: Coastline = buildCoastline(data.coastline);
  // Only what lookups need; the GeoJSON polygons are left to the garbage collector.
  const units = data.units.map(({ iso3, name, special }) => ({ iso3, name, special }));
  const provinces = options.provinces;
  const codes = [...new Set(units.map((u) => u.iso3).filter((c): c is string => c !== null))].sort();

  // The province boundaries are finer than Natural Earth's: inside a province the point is Thai land even where
  // Natural Earth puts it just offshore or across the border. Border strips are a few km wide, so only points
  // Natural Earth puts in Thailand, a neighbour or the sea can be in a province (others skip the search).
  const mayBeThai = new Uint8Array(units.length + 1); // index u + 1; 0 = sea
  mayBeThai[0] = 1;
  units.forEach((u, i) => (mayBeThai[i + 1] = u.iso3 !== null && THAILAND_AND_NEIGHBOURS.has(u.iso3) ? 1 : 0));
  /** Province index or -1, given the Natural Earth unit u (-1 at sea). */
  const provinceAt = (lat: number, lng: number, u: number): number =>
    provinces && mayBeThai[u + 1] === 1 ? provinces.provinceAt(lat, lng) : -1;

  const locate = (lat: number, lng: number): Location => {
    const x = checkPoint(lat, lng);
    const coastDistance = coastDistanceKm(coast, lat, x);
    const u = locator.unitAt(lat, x);
    const p = provinceAt(lat, x, u);
    if (p >= 0) {
      const { nameEn, code } = provinces!.provinces[p];
      return { country: "THA", land: true, coastDistanceKm: coastDistance, province: nameEn, provinceCode: code };
    }
    if (u < 0) return { country: null, land: false, coastDistanceKm: coastDistance };
    const unit = units[u];
    return unit.special
      ? { country: unit.iso3, land: true, coastDistanceKm: coastDistance, unit: unit.name }
      : { country: unit.iso3, land: true, coastDistanceKm: coastDistance };
  };

  const countryAt = (lat: number, lng: number): string | null => {
    const x = checkPoint(lat, lng);
    const u = locator.unitAt(lat, x);
    if (provinceAt(lat, x, u) >= 0) return "THA";
    return u >= 0 ? units[u].iso3 : null;
  };

  const geography: Geography = {
    scale: data.scale,
    source: data.source,
    coastalToleranceKm: COASTAL_TOLERANCE_KM[data.scale],
    countryCodes: Object.freeze(codes),
    stats: Object.freeze({
      units: units.length,
      pieces: pieces.unit.length,
      pieceVertices: pieces.coords.length / 2,
      coastEdges: coast.nEdges,
      coastChunks: coast.chunkFrom.length,
      bytes: [pieces.coords, pieces.start, pieces.unit, coast.coords, coast.chunkFrom, coast.chunkTo].reduce((n, a) => n + a.byteLength, 0) +
        pieces.index.data.byteLength + coast.index.data.byteLength,
    }),
    locate,
    countryAt,
    isLand: (lat, lng) => {
      const x = checkPoint(lat, lng);
      const u = locator.unitAt(lat, x);
      return u >= 0 || provinceAt(lat, x, u) >= 0;
    },
    coastDistanceKm: (lat, lng) => coastDistanceKm(coast, lat, checkPoint(lat, lng)),
    countryName: (iso3) => NAMES_WITHOUT_ISO[iso3] ?? countries.getName(iso3, "en"),
  };
  return Object.freeze(geography);
}
