// Reads the reference CSVs of ../shared/reference/spei (NA/NaN → NaN, Inf/-Inf literal).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

export const REFERENCE_DIR = resolve(PROJECT_ROOT, "..", "shared", "reference", "spei");

export function readReference(relPath: string): Record<string, Float64Array> {
  const lines = readFileSync(resolve(REFERENCE_DIR, relPath), "utf8").trim().split(/\r?\n/);
  const header = lines[0].split(",");
  const cols = header.map(() => new Float64Array(lines.length - 1));
  for (let r = 1; r < lines.length; r++) {
    const cells = lines[r].split(",");
    for (let c = 0; c < header.length; c++) {
      const s = cells[c];
      cols[c][r - 1] = s === "NA" || s === "NaN" ? NaN : s === "Inf" ? Infinity : s === "-Inf" ? -Infinity : Number(s);
    }
  }
  return Object.fromEntries(header.map((h, c) => [h, cols[c]]));
}

/** Same NaN and ±Inf positions, finite values within tol; returns the number of finite values compared. */
export function expectSeriesClose(actual: Float64Array, expected: Float64Array, tol: number, label = ""): number {
  expect(actual.length, label).toBe(expected.length);
  let compared = 0;
  let worst = 0;
  let worstAt = -1;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i];
    if (Number.isNaN(e) || !Number.isFinite(e)) {
      expect(Object.is(a, e) || (Number.isNaN(a) && Number.isNaN(e)), `${label} [${i}] expected ${e} got ${a}`).toBe(true);
      continue;
    }
    const d = Math.abs(a - e);
    if (!(d <= worst)) {
      worst = d;
      worstAt = i;
    }
    compared++;
  }
  expect(worst, `${label} worst |Δ| at [${worstAt}]: got ${actual[worstAt]}, expected ${expected[worstAt]}`).toBeLessThan(tol);
  return compared;
}
