// Drought events by run theory (Yevjevich 1967): a run is a maximal stretch of consecutive months in which a
// standardised index stays below a threshold x0; a missing month ends it. Per run: onset (first month), duration
// (months), peak (lowest value) and cumulative deficit D = Σ (x0 − x) over its months, the "severity" of run
// theory. Pure functions over one cell's monthly series; docs/methods/drought-events.md gives the choices.

export interface DroughtRun {
  /** Offsets into the series (inclusive). */
  start: number;
  end: number;
  duration: number;
  /** Lowest index value of the run. */
  peak: number;
  /** Σ (threshold − value) over the run's months. */
  deficit: number;
}

/** Every run of `values` below `threshold`, oldest first. NaN (missing) ends a run and is never in one. */
export function droughtRuns(values: ArrayLike<number>, threshold: number, until = values.length - 1): DroughtRun[] {
  const runs: DroughtRun[] = [];
  let open: DroughtRun | undefined;
  for (let i = 0; i <= until; i++) {
    const v = values[i];
    if (v < threshold) {
      if (!open) open = { start: i, end: i, duration: 0, peak: Infinity, deficit: 0 };
      open.end = i;
      open.duration++;
      if (v < open.peak) open.peak = v;
      open.deficit += threshold - v;
    } else if (open) {
      runs.push(open);
      open = undefined;
    }
  }
  if (open) runs.push(open);
  return runs;
}

/** 1 + the number of runs strictly greater by `key` (ties share a rank). */
export function rankOf(runs: readonly DroughtRun[], run: DroughtRun, key: (r: DroughtRun) => number): number {
  const k = key(run);
  let rank = 1;
  for (const r of runs) if (key(r) > k) rank++;
  return rank;
}
