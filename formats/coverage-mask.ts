// coverage-mask.bin: which squares of the drought grid lie wholly inside the covered area. The server answers
// "is this point covered?" for a point in an inside square with one array read, and asks the province polygons
// only near borders and coasts. Writer and reader side by side; layout in coverage-mask.md.

export const COVERAGE_MAGIC = "COVMASK1";
export const COVERAGE_VERSION = 1;
const HEADER = 48;

/** Square states. */
export const OUTSIDE = 0; // no part of the square is covered
export const INSIDE = 1; // the whole square is covered
export const MIXED = 2; // partly covered: ask the polygons

export interface CoverageMaskData {
  west: number;
  south: number;
  resolutionDeg: number;
  nCols: number;
  nRows: number;
  /** Row-major from the south-west square: state[row * nCols + col]. */
  state: Uint8Array;
}

export function writeCoverageMask(m: CoverageMaskData): Uint8Array {
  if (m.state.length !== m.nCols * m.nRows) throw new Error(`state has ${m.state.length} squares, expected ${m.nCols * m.nRows}`);
  if (m.state.some((v) => v > MIXED)) throw new Error("a square state is not 0 outside, 1 inside or 2 mixed");
  const bytes = new Uint8Array(HEADER + m.state.length);
  const dv = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(COVERAGE_MAGIC), 0);
  dv.setUint32(8, COVERAGE_VERSION, true);
  dv.setUint32(12, m.nCols, true);
  dv.setUint32(16, m.nRows, true);
  dv.setFloat64(24, m.west, true);
  dv.setFloat64(32, m.south, true);
  dv.setFloat64(40, m.resolutionDeg, true);
  bytes.set(m.state, HEADER);
  return bytes;
}

export class CoverageMask {
  readonly west: number;
  readonly south: number;
  readonly resolutionDeg: number;
  readonly nCols: number;
  readonly nRows: number;
  readonly state: Uint8Array;

  constructor(bytes: Uint8Array, source = "coverage-mask.bin") {
    if (bytes.length < HEADER) throw new Error(`${source}: truncated header (${bytes.length} bytes)`);
    const magic = new TextDecoder().decode(bytes.subarray(0, 8));
    if (magic !== COVERAGE_MAGIC) throw new Error(`${source}: bad magic, expected ${COVERAGE_MAGIC}`);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = dv.getUint32(8, true);
    if (version !== COVERAGE_VERSION) throw new Error(`${source}: unsupported version ${version}`);
    this.nCols = dv.getUint32(12, true);
    this.nRows = dv.getUint32(16, true);
    this.west = dv.getFloat64(24, true);
    this.south = dv.getFloat64(32, true);
    this.resolutionDeg = dv.getFloat64(40, true);
    if (!(this.resolutionDeg > 0)) throw new Error(`${source}: bad resolution ${this.resolutionDeg}`);
    const expected = HEADER + this.nCols * this.nRows;
    if (bytes.length !== expected) throw new Error(`${source}: size ${bytes.length} bytes, expected ${expected}`);
    this.state = bytes.subarray(HEADER);
    // A state outside the enumeration would answer "outside the covered area" for a land point.
    const bad = this.state.findIndex((v) => v > MIXED);
    if (bad >= 0) throw new Error(`${source}: square ${bad} (row ${Math.floor(bad / this.nCols)}, col ${bad % this.nCols}) has state ${this.state[bad]}, not 0 outside, 1 inside or 2 mixed`);
    // A mask of zeros is a broken file, not a grid that covers nothing (a build never publishes an empty grid).
    if (this.state.every((v) => v === OUTSIDE)) throw new Error(`${source}: no square is inside or mixed: every point would answer 404`);
  }

  /** OUTSIDE, INSIDE or MIXED for the square holding the point; OUTSIDE beyond the mask. */
  stateAt(lat: number, lng: number): number {
    const col = Math.floor((lng - this.west) / this.resolutionDeg);
    const row = Math.floor((lat - this.south) / this.resolutionDeg);
    if (col < 0 || row < 0 || col >= this.nCols || row >= this.nRows) return OUTSIDE;
    return this.state[row * this.nCols + col];
  }
}
