// `confidence.bin` (format: confidence-grid.md): how far to trust each cell's SPEI-1 per month, and each province's
// summary, from the calibration of the interpolation support against leave-one-out errors
// (pipeline/grid/confidence.ts). Cells store a calibration bin (one byte); the bins' confidences are in the header.

export const CONFIDENCE_FILE = "confidence.bin";
const MAGIC = "CONFGRD1";
const VERSION = 1;
const HEADER = 32;
/** A cell-month without an estimate. */
export const NO_BIN = 255;
/** A cell-month whose support lies below the range the calibration saw: no confidence can be said for it. */
export const BELOW_CALIBRATION = 254;

/** Why a cell-month has no confidence. */
export type ConfidenceGap = "no-support" | "below-calibration";

export interface ConfidenceGridData {
  nCells: number;
  nMonths: number;
  firstMonth: number;
  /** Confidence of each calibration bin, 0..1 (at most 253 bins). */
  binConfidence: Float64Array;
  /** [cell * nMonths + month]: bin number, NO_BIN or BELOW_CALIBRATION. */
  cellBins: Uint8Array;
  nProvinces: number;
  /** [province * nMonths + month]: mean confidence of the province's cells, NaN when none has one. */
  provinceConfidence: Float32Array;
}

function layout(nCells: number, nMonths: number, nBins: number, nProvinces: number) {
  const bins = HEADER;
  const cells = bins + nBins * 8;
  const provinces = (cells + nCells * nMonths + 3) & ~3;
  return { bins, cells, provinces, total: provinces + nProvinces * nMonths * 4 };
}

export function writeConfidenceGrid(d: ConfidenceGridData): Uint8Array {
  const nBins = d.binConfidence.length;
  if (nBins < 1 || nBins >= BELOW_CALIBRATION) throw new Error(`confidence grid: ${nBins} bins`);
  if (d.cellBins.length !== d.nCells * d.nMonths) throw new Error("confidence grid: cellBins length");
  if (d.provinceConfidence.length !== d.nProvinces * d.nMonths) throw new Error("confidence grid: provinceConfidence length");
  const L = layout(d.nCells, d.nMonths, nBins, d.nProvinces);
  const out = new Uint8Array(L.total);
  const dv = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  dv.setUint32(8, VERSION, true);
  dv.setUint32(12, d.nCells, true);
  dv.setUint32(16, d.nMonths, true);
  dv.setInt32(20, d.firstMonth, true);
  dv.setUint32(24, nBins, true);
  dv.setUint32(28, d.nProvinces, true);
  d.binConfidence.forEach((c, i) => dv.setFloat64(L.bins + i * 8, c, true));
  out.set(d.cellBins, L.cells);
  new Float32Array(out.buffer, L.provinces, d.nProvinces * d.nMonths).set(d.provinceConfidence);
  return out;
}

export class ConfidenceGrid {
  readonly nCells: number;
  readonly nMonths: number;
  readonly firstMonth: number;
  readonly nProvinces: number;
  readonly binConfidence: Float64Array;
  private readonly cellBins: Uint8Array;
  private readonly provinceConfidence: Float32Array;

  constructor(bytes: Uint8Array, source = CONFIDENCE_FILE) {
    if (bytes.length < HEADER || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error(`${source}: not a confidence grid (bad magic or truncated)`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (dv.getUint32(8, true) !== VERSION) throw new Error(`${source}: unsupported version ${dv.getUint32(8, true)}`);
    this.nCells = dv.getUint32(12, true);
    this.nMonths = dv.getUint32(16, true);
    this.firstMonth = dv.getInt32(20, true);
    const nBins = dv.getUint32(24, true);
    this.nProvinces = dv.getUint32(28, true);
    if (nBins < 1 || nBins >= BELOW_CALIBRATION) throw new Error(`${source}: ${nBins} bins`);
    const L = layout(this.nCells, this.nMonths, nBins, this.nProvinces);
    if (bytes.length !== L.total) throw new Error(`${source}: size ${bytes.length} bytes, expected ${L.total}`);
    this.binConfidence = new Float64Array(nBins);
    for (let i = 0; i < nBins; i++) {
      const c = dv.getFloat64(L.bins + i * 8, true);
      if (!(c >= 0 && c <= 1)) throw new Error(`${source}: bin ${i} confidence ${c} outside 0..1`);
      this.binConfidence[i] = c;
    }
    this.cellBins = bytes.subarray(L.cells, L.cells + this.nCells * this.nMonths);
    for (const b of this.cellBins) if (b !== NO_BIN && b !== BELOW_CALIBRATION && b >= nBins) throw new Error(`${source}: cell bin ${b} of ${nBins}`);
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    this.provinceConfidence = new Float32Array(aligned.buffer, aligned.byteOffset + L.provinces, this.nProvinces * this.nMonths);
    for (const c of this.provinceConfidence) if (!(Number.isNaN(c) || (c >= 0 && c <= 1))) throw new Error(`${source}: province confidence ${c} outside 0..1`);
  }

  /** Confidence of a cell's SPEI-1 in a month (offset from firstMonth), or null where it has no estimate. */
  cell(cell: number, monthOffset: number): number | null {
    if (!(cell >= 0 && cell < this.nCells && monthOffset >= 0 && monthOffset < this.nMonths)) return null;
    const b = this.cellBins[cell * this.nMonths + monthOffset];
    return b >= BELOW_CALIBRATION ? null : this.binConfidence[b];
  }

  /** Why a cell-month has no confidence (null where it has one or is outside the grid). */
  cellGap(cell: number, monthOffset: number): ConfidenceGap | null {
    if (!(cell >= 0 && cell < this.nCells && monthOffset >= 0 && monthOffset < this.nMonths)) return null;
    const b = this.cellBins[cell * this.nMonths + monthOffset];
    return b === NO_BIN ? "no-support" : b === BELOW_CALIBRATION ? "below-calibration" : null;
  }

  /** Mean confidence of a province's cells in a month, or null. */
  province(p: number, monthOffset: number): number | null {
    if (!(p >= 0 && p < this.nProvinces && monthOffset >= 0 && monthOffset < this.nMonths)) return null;
    const c = this.provinceConfidence[p * this.nMonths + monthOffset];
    return Number.isNaN(c) ? null : c;
  }
}
