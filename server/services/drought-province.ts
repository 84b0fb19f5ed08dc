// A province's drought answers from the province summaries: one month, its history, and every province's month as a choropleth.
import { NotFoundError } from "../errors.ts";
import { droughtLevel, droughtScore, riskLevel } from "../../lib/drought-scale.ts";
import { formatMonth, type MonthIndex } from "../../lib/months.ts";
import { closeMatches, looseName, normalizeName } from "../../lib/province-names.ts";
import type { DroughtArtifacts } from "../../formats/drought-version.ts";
import { confidenceOf, round, scoreOf } from "./drought-fields.ts";
import { monthRange, requestedMonth, type DroughtTimes } from "./drought-time.ts";
import type { ProvinceChoropleth, ProvinceDroughtData, ProvinceHistoryData } from "./types.ts";

/**
 * A province by any of its spellings: exactly (normalised), else by its loose romanisation key when that names one
 * province. Unknown and ambiguous names are 404s with close matches.
 */
export function findProvince(a: Pick<DroughtArtifacts, "provinceByName" | "provinceByLooseName" | "provinces">, name: string): number {
  const exact = a.provinceByName.get(normalizeName(name));
  if (exact !== undefined) return exact;
  const loose = a.provinceByLooseName.get(looseName(name)) ?? [];
  if (loose.length === 1) return loose[0];
  if (loose.length > 1) {
    const names = loose.map((i) => a.provinces[i].nameEn);
    throw new NotFoundError(`ambiguous province name "${name}": it may mean ${names.join(" or ")}`, { name, closeMatches: names });
  }
  const matches = closeMatches(a.provinces, name, 3).map((m) => m.nameEn);
  throw new NotFoundError(`unknown province "${name}"`, { name, closeMatches: matches });
}

/** GET /api/risk-map/drought/province: a province's summary of one month. */
export function provinceAnswer(a: DroughtArtifacts, name: string, country: string, month: string | undefined, times: DroughtTimes): ProvinceDroughtData {
  if (country.toUpperCase() !== "THA") {
    throw new NotFoundError(`no province data for country ${country}: only Thailand (THA) is covered`, { country });
  }
  const p = findProvince(a, name);
  const m = requestedMonth(a, month);
  const off = a.summaries.monthOffset(m);
  const meta = a.provinces[p];
  const rec = off < 0 ? undefined : a.summaries.record(p, off);
  const names = a.summaries.indexNames;
  const spei1 = rec ? rec[names.indexOf("spei1")] : NaN;
  if (!rec || Number.isNaN(spei1)) {
    throw new NotFoundError(`no drought data for ${meta.nameEn} in ${formatMonth(m)}`, { province: meta.nameEn, month: formatMonth(m) });
  }
  const score = droughtScore(spei1);
  return {
    province: meta.nameEn,
    country: "THA",
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
    details: times.of(a, m, m),
  };
}

/** GET /api/risk-map/drought/province/history: a province's monthly summaries. */
export function provinceHistoryAnswer(a: DroughtArtifacts, q: { name: string; country: string; from?: string; to?: string }, times: DroughtTimes): ProvinceHistoryData {
  if (q.country.toUpperCase() !== "THA") {
    throw new NotFoundError(`no province data for country ${q.country}: only Thailand (THA) is covered`, { country: q.country });
  }
  const p = findProvince(a, q.name);
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
    country: "THA",
    period: { from: formatMonth(lo), to: formatMonth(hi), months: hi - lo + 1, climatologyBaseline: a.baselineLabel },
    series,
    details: times.of(a, lo, hi),
  };
}

/** GET /api/risk-map/drought/provinces: every province's summary of a month with its simplified outline. */
export function choroplethAnswer(a: DroughtArtifacts, month: string | undefined, times: DroughtTimes): ProvinceChoropleth {
  if (!a.shapes) throw new NotFoundError(`version ${a.version} has no province outlines (built before they existed): rebuild with \`make artifacts\``, { version: a.version });
  const m = requestedMonth(a, month);
  const s = a.summaries;
  const off = s.monthOffset(m);
  if (off < 0) {
    throw new NotFoundError(`no province summaries for ${formatMonth(m)}: they cover ${formatMonth(s.firstMonth)} to ${formatMonth(s.firstMonth + s.nMonths - 1)}`, { month: formatMonth(m) });
  }
  const names = s.indexNames;
  const [i1, i3, i6] = ["spei1", "spei3", "spei6"].map((n) => names.indexOf(n));
  const shapes = a.shapes;
  return {
    type: "FeatureCollection",
    month: formatMonth(m),
    climatologyBaseline: a.baselineLabel,
    details: times.of(a, m, m),
    features: a.provinces.map((p, i) => {
      const rec = s.record(i, off);
      return {
        type: "Feature" as const,
        id: p.code,
        geometry: shapes[i].geometry,
        properties: {
          code: p.code,
          province: p.nameEn,
          provinceTh: p.nameTh,
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
