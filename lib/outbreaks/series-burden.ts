// The burden of one case series in the outbreak snapshot: its disease's scale, the series' latest year (or
// fortnight) of cases and the population of its area — or, for malaria, WHO's modelled incidence. Why a rate is
// missing is said, never guessed.
import type { OutbreakData } from "../../formats/outbreak-snapshot.ts";
import { burdenFromCases, burdenFromEstimate, casesOver, medianYearlyRate, periodsFor, populationOf, yearOfPeriod, type Burden } from "./burden.ts";
import { DISEASES } from "./diseases/index.ts";
import type { CaseSeries } from "./series.ts";

export interface SeriesBurden {
  burden: Burden | null;
  /** Why `burden` is null. */
  note: string | null;
  /** No established local transmission in the record: reported cases may be travel-acquired. */
  sporadic: boolean;
  sporadicNote: string | null;
  /** The series the rate's cases come from (the one asked for, or an alternate of its country); null for WHO's estimate or no rate. */
  series: CaseSeries | null;
}

/** `end`: the series' last reported period (the window's end). `province`: index into d.provinces for an admin-1 series. */
export function seriesBurden(d: OutbreakData, s: CaseSeries, end: number, areaName: string, province?: number): SeriesBurden {
  const profile = DISEASES[s.disease];
  const none = (note: string): SeriesBurden => ({ burden: null, note, sporadic: false, sporadicNote: null, series: null });
  if (profile.scale === null) return none(profile.noBurden!);
  const scale = profile.scale;
  if (s.disease === "malaria") {
    const est = d.malariaIncidence[s.country];
    if (est !== undefined && est.length > 0) {
      const [year, rate] = est[est.length - 1];
      return { burden: burdenFromEstimate(scale, year, rate, `WHO's estimated incidence per 1,000 population at risk in ${areaName}, ${year} (${d.malariaIncidenceSource})`), note: null, sporadic: false, sporadicNote: null, series: null };
    }
  }
  const year = yearOfPeriod(s.resolution, end);
  const prov = province === undefined ? undefined : d.provinces[province];
  const popList = d.populations[s.country];
  const pop = prov !== undefined ? { year: prov.populationYear, population: prov.population } : popList ? populationOf(popList, year) : null;
  if (pop === null) return none(`no population for ${areaName} (${s.country}) in ${d.populationSource}, so no rate per ${scale.per.toLocaleString("en-US")}`);
  const periods = periodsFor(s.resolution, scale.periodDays);
  const counted = casesOver(s, end, periods);
  if (counted === null) return none(`fewer than three quarters of the ${periods} ${s.resolution}s to the latest report are reported, so no rate over ${scale.periodDays} days`);
  const popText = prov !== undefined ? `${d.provincePopulationSource}` : `${d.populationSource}, ${pop.year}`;
  const basis =
    s.disease === "malaria"
      ? `confirmed cases per 1,000 population (WHO makes no incidence estimate for ${areaName}; population: ${popText})`
      : `${s.source.split(" (")[0]} cases over ${counted.from}..${counted.to}${counted.reported < counted.periods ? ` (${counted.reported} of ${counted.periods} ${s.resolution}s reported, scaled up)` : ""}; population: ${popText}`;
  const burden = burdenFromCases(scale, counted, pop, basis);
  let sporadic = false;
  let sporadicNote: string | null = null;
  if (profile.sporadicBelowPer100k !== undefined) {
    const median = medianYearlyRate(s, (y) => (prov !== undefined ? prov.population : popList ? (populationOf(popList, y)?.population ?? null) : null));
    if (median < profile.sporadicBelowPer100k) {
      sporadic = true;
      sporadicNote = `${areaName}'s median yearly rate over its record is ${Number(median.toPrecision(2))} per 100,000 (under ${profile.sporadicBelowPer100k}): no established local ${profile.name.toLowerCase()} transmission in the data, and the series cannot tell local from travel-acquired (imported) cases`;
    }
  }
  return { burden, note: null, sporadic, sporadicNote, series: s };
}
