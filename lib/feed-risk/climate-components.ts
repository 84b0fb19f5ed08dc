// The project's own climate data as score components (docs/methods/feed-risks.md), pure functions without I/O.
// Flood: very wet months (SPI-3 ≥ +1.5, McKee et al. 1993) of the drought grid's nearest cell, reported beside the
// flood answer (not scored). Heatwaves from daily temperatures are heatwave-days.ts.

/** SPI-3 at or above this is "very wet" (McKee et al. 1993 classes: 1.5..2 very wet, ≥ 2 extremely wet). */
export const VERY_WET_SPI = 1.5;
/** Σ SPI-3/1.5 over the very wet months of the latest year that adds 1 to the flood score's exponent (63 alone). */
export const WET_REF = 3;

export interface WetExtremes {
  /** Months with a finite SPI-3 over the whole series. */
  validMonths: number;
  /** Months with SPI-3 ≥ 1.5 over the whole series. */
  veryWetMonths: number;
  /** Months with SPI-3 ≥ 1.5 among the last `recentMonths` months of the series. */
  veryWetLatestYear: number;
  /** Σ SPI-3 / 1.5 over those months (each very wet month adds ≥ 1, a wetter one more). */
  latestYearWetness: number;
}

/**
 * Counts very wet months in an SPI-3 series (NaN = missing). The "latest year" is the last `recentMonths`
 * entries of the series (the grid's months up to its latest valid month).
 */
export function wetExtremes(spi3: ArrayLike<number>, recentMonths = 12): WetExtremes {
  let validMonths = 0;
  let veryWetMonths = 0;
  let veryWetLatestYear = 0;
  let latestYearWetness = 0;
  const recentStart = spi3.length - recentMonths;
  for (let i = 0; i < spi3.length; i++) {
    const v = spi3[i];
    if (!Number.isFinite(v) && v !== Infinity) continue;
    validMonths++;
    if (v < VERY_WET_SPI) continue;
    veryWetMonths++;
    if (i >= recentStart) {
      veryWetLatestYear++;
      // An unbounded SPI (+Inf from a zero-variance fit) counts as extremely wet, not as infinite.
      latestYearWetness += Math.min(v, 3) / VERY_WET_SPI;
    }
  }
  return { validMonths, veryWetMonths, veryWetLatestYear, latestYearWetness };
}

/** The flood score's climate term: latest-year wetness / WET_REF; 0 without very wet months. */
export function wetTerm(w: WetExtremes, wetRef = WET_REF): number {
  return w.latestYearWetness / wetRef;
}
