// Area-weighted monthly province summaries of gridded index values (pure, no I/O).

export interface CellWeights {
  /** Land-cell index of each entry (row of `values`). */
  cell: Uint32Array;
  /** Province index of each entry. */
  province: Uint8Array;
  /** Fraction of the cell's area inside the province, 0..1. */
  fraction: Float32Array;
}

export interface SummaryInput {
  /** values[(cell * nMonths + month) * nIndices + k], NaN = missing. */
  values: Float32Array;
  nCells: number;
  nMonths: number;
  nIndices: number;
  /** Latitude of each cell centre, degrees. */
  cellLat: Float64Array;
  /** Grid spacing, degrees: nominal cell area is resolutionDeg², scaled by cos(lat) for its true area. */
  resolutionDeg: number;
  weights: CellWeights;
  nProvinces: number;
}

export interface ProvinceSummaries {
  nProvinces: number;
  nMonths: number;
  nIndices: number;
  /** means[(province * nMonths + month) * nIndices + k]; NaN when no cell of the province has a value. */
  means: Float32Array;
  /** Cells with a value behind each mean, same layout (saturates at 65535). */
  cellsUsed: Uint16Array;
}

/**
 * Per province, month and index: Σ w·v / Σ w over the province's cells that have a value, with
 * w = fraction × cos(lat) × resolutionDeg² (the share of the cell's area inside the province; cos(lat) because
 * a lat/lng cell's area shrinks with latitude).
 */
export function summarizeProvinces(input: SummaryInput): ProvinceSummaries {
  const { values, nCells, nMonths, nIndices, cellLat, resolutionDeg, weights, nProvinces } = input;
  if (values.length !== nCells * nMonths * nIndices) {
    throw new Error(`values has ${values.length} entries, expected nCells×nMonths×nIndices = ${nCells * nMonths * nIndices}`);
  }
  if (cellLat.length !== nCells) throw new Error(`cellLat has ${cellLat.length} entries, expected ${nCells}`);
  const nW = weights.cell.length;
  if (weights.province.length !== nW || weights.fraction.length !== nW) {
    throw new Error("weights.cell, weights.province and weights.fraction must have the same length");
  }
  const size = nProvinces * nMonths * nIndices;
  const sum = new Float64Array(size);
  const wsum = new Float64Array(size);
  const count = new Uint32Array(size);
  const nominal = resolutionDeg * resolutionDeg;
  const rowLen = nMonths * nIndices;
  for (let e = 0; e < nW; e++) {
    const c = weights.cell[e];
    const p = weights.province[e];
    if (c >= nCells) throw new Error(`weight entry ${e}: cell ${c} out of range (nCells ${nCells})`);
    if (p >= nProvinces) throw new Error(`weight entry ${e}: province ${p} out of range (nProvinces ${nProvinces})`);
    const w = weights.fraction[e] * Math.cos((cellLat[c] * Math.PI) / 180) * nominal;
    if (!(w > 0)) continue;
    const src = c * rowLen;
    const dst = p * rowLen;
    for (let i = 0; i < rowLen; i++) {
      const v = values[src + i];
      if (v === v) {
        sum[dst + i] += w * v;
        wsum[dst + i] += w;
        count[dst + i]++;
      }
    }
  }
  const means = new Float32Array(size);
  const cellsUsed = new Uint16Array(size);
  for (let i = 0; i < size; i++) {
    means[i] = count[i] > 0 ? sum[i] / wsum[i] : NaN;
    cellsUsed[i] = Math.min(count[i], 0xffff);
  }
  return { nProvinces, nMonths, nIndices, means, cellsUsed };
}

/** One cells-used count per (province, month) record, as the summaries file stores it: the most cells behind any index. */
export function cellsUsedPerRecord(s: ProvinceSummaries): Uint16Array {
  const nRecords = s.nProvinces * s.nMonths;
  const out = new Uint16Array(nRecords);
  for (let r = 0; r < nRecords; r++) {
    let max = 0;
    for (let k = 0; k < s.nIndices; k++) max = Math.max(max, s.cellsUsed[r * s.nIndices + k]);
    out[r] = max;
  }
  return out;
}
