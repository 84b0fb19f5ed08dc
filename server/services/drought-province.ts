// A province's drought answers from the province summaries: one month, its history, and every province's month as a choropleth.
import { NotFoundError } from "../errors.ts";
import { droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
import { VIETNAM_2025_EFFECTIVE, VIETNAM_2025_MERGERS, VIETNAM_2025_PART_OF } from "../../lib/admin1/vietnam-2025.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import { confidenceOf, round, scoreOf } from "./drought-fields.ts";
import { monthRange, requestedMonth, type DroughtTimes } from "./drought-time.ts";
import type { ProvinceChoropleth, ProvinceDroughtData, ProvinceHistoryData } from "./types.ts";

/** The 404 for a country whose provinces the version does not hold. */
function uncoveredCountry(a: Pick<DroughtArtifacts, "provinceNames">, country: string): NotFoundError {
  const covered = a.provinceNames.countries;
  return new NotFoundError(`no province data for country ${country}: the drought region covers ${covered.join(", ")}`, { country, coveredCountries: covered });
}

/**
 * A province of `country` by any of its spellings (lib/province-lookup.ts). A country outside the region, an
 * unknown name (with close matches and the country's provinces) and an ambiguous one are 404s.
 */
export function findProvince(a: Pick<DroughtArtifacts, "provinceNames" | "provinces">, name: string, country = "THA"): number {
  if (!a.provinceNames.countries.includes(country)) throw uncoveredCountry(a, country);
  const m = a.provinceNames.find(country, name);
  if ("province" in m) return m.province;
  if ("ambiguous" in m) {
    const names = m.ambiguous.map((i) => a.provinces[i].nameEn);
    throw new NotFoundError(`ambiguous province name "${name}": it may mean ${names.join(" or ")}`, { name, closeMatches: names });
  }
  const provinces = a.provinceNames.of(country).map((i) => a.provinces[i].nameEn);
  throw new NotFoundError(`unknown province "${name}" in ${country}`, { name, country, closeMatches: m.unknown, provinces });
}

/** For a Vietnamese province, what the 2025 reform made of it (lib/admin1/vietnam-2025.ts); undefined elsewhere. */
function reformOf(meta: { country: string; nameEn: string }): ProvinceDroughtData["reform2025"] {
  if (meta.country !== "VNM") return undefined;
  const province = VIETNAM_2025_PART_OF[meta.nameEn];
  if (province !== undefined) {
    const [unit, olds] = Object.entries(VIETNAM_2025_MERGERS).find(([, o]) => o.includes(province))!;
    const note = `${meta.nameEn} was part of ${province}, which is part of ${unit} since ${VIETNAM_2025_EFFECTIVE}; this answer is ${meta.nameEn}'s own area, as the boundary file draws it`;
    return { effective: VIETNAM_2025_EFFECTIVE, unit, formerProvinces: [...olds], note };
  }
  const into = Object.entries(VIETNAM_2025_MERGERS).find(([, olds]) => olds.includes(meta.nameEn));
  if (into) {
    const [unit, olds] = into;
    const others = olds.filter((o) => o !== meta.nameEn);
    const note =
      unit === meta.nameEn
        ? `since ${VIETNAM_2025_EFFECTIVE} ${unit} also covers the former ${others.join(" and ")}; this answer is the pre-2025 ${unit} of the boundary file (ask for ${others.join(" or ")} for the rest)`
        : `since ${VIETNAM_2025_EFFECTIVE} ${meta.nameEn} is part of ${unit}; this answer is the pre-2025 ${meta.nameEn} of the boundary file`;
    return { effective: VIETNAM_2025_EFFECTIVE, unit, formerProvinces: [...olds], note };
  }
  return { effective: VIETNAM_2025_EFFECTIVE, unit: meta.nameEn, formerProvinces: [meta.nameEn], note: `unchanged by the ${VIETNAM_2025_EFFECTIVE} reform` };
}

/** The 404 for a month outside the province summaries, naming their range. */
function noSummariesFor(a: DroughtArtifacts, m: MonthIndex): NotFoundError {
  const s = a.summaries;
  const coverage = { from: formatMonth(s.firstMonth), to: formatMonth(s.firstMonth + s.nMonths - 1) };
  return new NotFoundError(`no province summaries for ${formatMonth(m)}: they cover ${coverage.from} to ${coverage.to}`, { month: formatMonth(m), coverage });
}

/** GET /api/risk-map/drought/province: a province's summary of one month. */
export function provinceAnswer(a: DroughtArtifacts, name: string, country: string, month: string | undefined, times: DroughtTimes): ProvinceDroughtData {
  const p = findProvince(a, name, country.toUpperCase());
  const m = requestedMonth(a, month);
  const off = a.summaries.monthOffset(m);
  const meta = a.provinces[p];
  if (off < 0) throw noSummariesFor(a, m);
  const rec = a.summaries.record(p, off);
  const names = a.summaries.indexNames;
  const spei1 = rec[names.indexOf("spei1")];
  if (Number.isNaN(spei1)) {
    throw new NotFoundError(`no drought data for ${meta.nameEn} in ${formatMonth(m)}`, { province: meta.nameEn, month: formatMonth(m) });
  }
  const score = droughtScore(spei1);
  const reform2025 = reformOf(meta);
  return {
    province: meta.nameEn,
    code: meta.code,
    country: meta.country,
    month: formatMonth(m),
    score,
    level: riskLevel(score),
    indices: {
      spei1: round(spei1, 3),
      spei3: round(rec[names.indexOf("spei3")], 3),
      spei6: round(rec[names.indexOf("spei6")], 3),
    },
    severity: { spei1: droughtLevel(spei1) },
    ...confidenceOf(a, a.confidence?.province(p, a.grid.monthOffset(m)) ?? null),
    ...(reform2025 ? { reform2025 } : {}),
    details: times.of(a, m, m),
  };
}

/** GET /api/risk-map/drought/province/history: a province's monthly summaries. */
export function provinceHistoryAnswer(a: DroughtArtifacts, q: { name: string; country: string; from?: string; to?: string }, times: DroughtTimes): ProvinceHistoryData {
  const p = findProvince(a, q.name, q.country.toUpperCase());
  const s = a.summaries;
  const [lo, hi] = monthRange(s.firstMonth, (s.firstMonth + s.nMonths - 1) as MonthIndex, q.from, q.to);
  const names = s.indexNames;
  const keep = ["spei1", "spei3", "spei6"].map((n) => names.indexOf(n));
  const series = [];
  for (let m = lo; m <= hi; m++) {
    const rec = s.record(p, m - s.firstMonth);
    series.push({
      month: formatMonth(m),
      ...scoreOf(rec[keep[0]]),
      indices: { spei1: round(rec[keep[0]], 3), spei3: round(rec[keep[1]], 3), spei6: round(rec[keep[2]], 3) },
      cellsUsed: s.cellsUsed(p, m - s.firstMonth),
    });
  }
  return {
    province: a.provinces[p].nameEn,
    code: a.provinces[p].code,
    country: a.provinces[p].country,
    period: { from: formatMonth(lo), to: formatMonth(hi), months: hi - lo + 1, climatologyBaseline: a.baselineLabel },
    series,
    details: times.of(a, lo, hi),
  };
}

/** GET /api/risk-map/drought/provinces: every province's summary of a month with its simplified outline. */
export function choroplethAnswer(a: DroughtArtifacts, month: string | undefined, times: DroughtTimes, country?: string): ProvinceChoropleth {
  if (country !== undefined && !a.provinceNames.countries.includes(country)) throw uncoveredCountry(a, country);
  if (!a.shapes) throw new NotFoundError(`version ${a.version} has no province outlines (built before they existed): rebuild with \`make artifacts\``, { version: a.version });
  const m = requestedMonth(a, month);
  const s = a.summaries;
  const off = s.monthOffset(m);
  if (off < 0) throw noSummariesFor(a, m);
  const names = s.indexNames;
  const [i1, i3, i6] = ["spei1", "spei3", "spei6"].map((n) => names.indexOf(n));
  const shapes = a.shapes;
  return {
    type: "FeatureCollection",
    month: formatMonth(m),
    climatologyBaseline: a.baselineLabel,
    details: times.of(a, m, m),
    countries: country === undefined ? a.provinceNames.countries : [country],
    features: (country === undefined ? a.provinces.map((_, i) => i) : a.provinceNames.of(country)).map((i) => {
      const p = a.provinces[i];
      const rec = s.record(i, off);
      return {
        type: "Feature" as const,
        id: p.code,
        geometry: shapes[i].geometry,
        properties: {
          code: p.code,
          country: p.country,
          province: p.nameEn,
          ...(p.nameTh ? { provinceTh: p.nameTh } : {}),
          region: p.region,
          month: formatMonth(m),
          ...scoreOf(rec[i1]),
          spei1: round(rec[i1], 3),
          spei3: round(rec[i3], 3),
          spei6: round(rec[i6], 3),
          cellsUsed: s.cellsUsed(i, off),
        },
      };
    }),
  };
}
