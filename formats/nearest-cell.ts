// The drought grid's spatial search: the great-circle nearest cell on the kdbush tree stored in the grid file, and a
// coarse coverage bitmap that says in constant time whether a point lies near any cell at all. Method and
// guarantees: formats/drought-grid.md, "Nearest cell".
//
// geokdbush (the reference for this kind of search) is not used as a dependency: it allocates an object per visited
// node and point, ranks by its own distance formula (R = 6371 km) and leaves ties unordered, whereas the service
// needs the exact haversineKm value it reports and "lowest cell number wins" on ties, without allocating.
import { EARTH_RADIUS_KM } from "../lib/geo/sphere.ts";
import type KDBush from "kdbush";


const RAD = Math.PI / 180;

/** sin²(θ/2) of an angle in radians: the haversine. */
function hav(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/**
 * The haversine term h = hav(Δφ) + cos φ1 cos φ2 hav(Δλ) of two points (degrees): distance = 2R asin(√h).
 * `kmOfHaversine(haversineOf(...))` is the same sequence of operations as haversineKm, so it gives the same bits.
 */
function haversineOf(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const s1 = Math.sin(dLat / 2);
  const s2 = Math.sin(dLng / 2);
  return s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
}

function kmOfHaversine(h: number): number {
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(Math.min(1, h)));
}


/**
 * Lower bound of the haversine term from (lat, lng) to any point of the box [minLng, maxLng] × [minLat, maxLat].
 * Within the box's longitudes the nearest point lies straight north or south (d ≥ |Δφ| everywhere). Otherwise it
 * lies on the meridian edge with the smaller longitude difference Δ (along a parallel, distance grows with |Δλ|),
 * at the latitude nearestLatOnEdge gives.
 */
function boxHaversine(lat: number, lng: number, cosLat: number, minLng: number, minLat: number, maxLng: number, maxLat: number): number {
  if (lng >= minLng && lng <= maxLng) {
    if (lat < minLat) return hav((minLat - lat) * RAD);
    if (lat > maxLat) return hav((lat - maxLat) * RAD);
    return 0;
  }
  const havWest = hav((lng - minLng) * RAD);
  const havEast = hav((lng - maxLng) * RAD);
  const havDLng = havWest < havEast ? havWest : havEast;
  const cosDLng = 1 - 2 * havDLng;
  if (cosDLng > 0) return onMeridian(lat, cosLat, havDLng, nearestLatOnEdge(lat, cosDLng, minLat, maxLat));
  // Past 90° of longitude the nearest point is an end of the edge; both are evaluated, so that rounding in the
  // choice between two nearly equal ends cannot raise the bound.
  const south = onMeridian(lat, cosLat, havDLng, minLat);
  const north = onMeridian(lat, cosLat, havDLng, maxLat);
  return south < north ? south : north;
}

/**
 * Latitude of the point nearest to a query at `lat` on the meridian segment [minLat, maxLat] whose longitude
 * differs from the query's by Δ (cos Δ given). Along the whole meridian cos d = sin φ sin φ' + cos φ cos Δ cos φ' =
 * B cos(φ' − ψ) with tan ψ = tan φ / cos Δ. For cos Δ > 0, ψ is the nearest point and the distance grows away from
 * it, so the answer is ψ clamped to the segment. For cos Δ < 0 the same ψ is the farthest point and the distance
 * falls away from it on both sides, so the answer is the end farther from ψ. For cos Δ = 0, cos d = sin φ sin φ'.
 */
function nearestLatOnEdge(lat: number, cosDLng: number, minLat: number, maxLat: number): number {
  if (cosDLng === 0) return lat >= 0 ? maxLat : minLat;
  const psi = Math.atan(Math.tan(lat * RAD) / cosDLng) / RAD;
  if (cosDLng > 0) return psi < minLat ? minLat : psi > maxLat ? maxLat : psi;
  return psi - minLat >= maxLat - psi ? minLat : maxLat;
}

/** Haversine term from latitude `lat` to latitude `edgeLat` on a meridian whose longitude differs by Δ (hav Δ given). */
function onMeridian(lat: number, cosLat: number, havDLng: number, edgeLat: number): number {
  return hav((lat - edgeLat) * RAD) + cosLat * Math.cos(edgeLat * RAD) * havDLng;
}

// Pruning keeps every cell and node that could be within this tolerance of the best haversine term, so rounding
// (of the limits below, or of asin when h becomes km) can never drop a cell that ties or beats the best.
const RELATIVE_SLACK = 1e-9;
const ABSOLUTE_SLACK = 1e-24; // h of ~13 µm
const DEGREE_SLACK = 1e-9;

export interface NearestCellResult {
  cell: number;
  distanceKm: number;
}

/** |a − b| in degrees of longitude, the short way round (0..180). */
function lngGap(a: number, b: number): number {
  const d = Math.abs(a - b);
  return d > 180 ? 360 - d : d;
}

/**
 * Nearest cell by great-circle distance: a depth-first branch-and-bound walk over the kdbush tree stored in the
 * grid, nearer half first. Every node gets the tight bounding box of its cells when the search is made (a split's
 * half-planes would reach far into empty sea beside a coast). Once a cell at haversine term h is known, any cell
 * that ties or beats it lies within Δφ ≤ 2 asin √h of the query and, its latitude then being at most |φ| + Δφ,
 * within Δλ ≤ 2 asin √(h / (cos φ · cos(|φ| + Δφ))): the bounding box of the spherical cap. A node is skipped when
 * its box misses that cap box (cheap) or lies farther than h by the exact great-circle bound; a cell outside the
 * cap box is skipped before any trigonometry; the rest get the exact haversine. Ties go to the lowest cell number.
 * A query allocates nothing but its result.
 */
export function nearestCellSearch(
  kd: KDBush,
  cellLats: Float64Array,
  cellLngs: Float64Array,
): (lat: number, lng: number) => NearestCellResult {
  const ids = kd.ids;
  const coords = kd.coords as Float64Array;
  const nodeSize = kd.nodeSize;
  const last = ids.length - 1;
  for (let i = 0; i <= last; i++) {
    // The walk measures distances on the tree's copies of the coordinates (they sit together in memory).
    if (coords[2 * i] !== cellLngs[ids[i]] || coords[2 * i + 1] !== cellLats[ids[i]]) {
      throw new Error(`spatial index item ${i} does not match the coordinates of cell ${ids[i]}`);
    }
  }

  // Nodes are numbered as in a binary heap (root 0, children 2k+1 and 2k+2); kdbush splits ranges in halves, so the
  // tree is balanced and the numbers stay below 2^(depth+1).
  let depth = 0;
  for (let n = ids.length; n - 1 > nodeSize; n = Math.ceil((n - 1) / 2)) depth++;
  const boxes = new Float64Array(4 * (2 ** (depth + 1) - 1)); // minLng, minLat, maxLng, maxLat per node
  const fillBox = (k: number, left: number, right: number): void => {
    let minLng = Infinity;
    let minLat = Infinity;
    let maxLng = -Infinity;
    let maxLat = -Infinity;
    let from = left;
    let to = right;
    if (right - left > nodeSize) {
      const m = (left + right) >> 1;
      const low = 2 * k + 1;
      const high = 2 * k + 2;
      fillBox(low, left, m - 1);
      fillBox(high, m + 1, right);
      minLng = Math.min(boxes[4 * low], boxes[4 * high]);
      minLat = Math.min(boxes[4 * low + 1], boxes[4 * high + 1]);
      maxLng = Math.max(boxes[4 * low + 2], boxes[4 * high + 2]);
      maxLat = Math.max(boxes[4 * low + 3], boxes[4 * high + 3]);
      from = to = m;
    }
    for (let i = from; i <= to; i++) {
      const x = coords[2 * i];
      const y = coords[2 * i + 1];
      if (x < minLng) minLng = x;
      if (x > maxLng) maxLng = x;
      if (y < minLat) minLat = y;
      if (y > maxLat) maxLat = y;
    }
    boxes[4 * k] = minLng;
    boxes[4 * k + 1] = minLat;
    boxes[4 * k + 2] = maxLng;
    boxes[4 * k + 3] = maxLat;
  };
  fillBox(0, 0, last);

  // A step pops one entry and pushes at most three (two halves and the middle item), so 2 × depth + 1 suffice.
  const capacity = 2 * depth + 8;
  const stNode = new Int32Array(capacity); // heap number, or -1 for a single item (left = right = the item)
  const stLeft = new Int32Array(capacity);
  const stRight = new Int32Array(capacity);
  const stBound = new Float64Array(capacity); // lower bound of the haversine term to the node's box
  const pathNode = new Int32Array(depth + 1); // the seed's way down: node, range and split region per level
  const pathLeft = new Int32Array(depth + 1);
  const pathRight = new Int32Array(depth + 1);
  const pathRegion = new Float64Array(4 * (depth + 1)); // west, south, east, north

  // One function with local state: V8 keeps these numbers in registers, which closures over `let`s would not allow.
  return (lat, lng) => {
    const cosLat = Math.cos(lat * RAD);
    // Seed: descend to the leaf on the query's side of every split and take its nearest cell by a flat-earth
    // measure. Its exact distance bounds the walk from the start, so the walk rarely computes a haversine in vain.
    // On the way down, note each node's split region (the half-planes of the splits above it: every cell outside
    // the node lies on or beyond its border).
    let lo = 0;
    let hi = last;
    let node = 0;
    let level = 0;
    let westOf = -Infinity;
    let eastOf = Infinity;
    let southOf = -Infinity;
    let northOf = Infinity;
    for (let axis = 0; ; axis = 1 - axis) {
      pathNode[level] = node;
      pathLeft[level] = lo;
      pathRight[level] = hi;
      pathRegion[4 * level] = westOf;
      pathRegion[4 * level + 1] = southOf;
      pathRegion[4 * level + 2] = eastOf;
      pathRegion[4 * level + 3] = northOf;
      if (hi - lo <= nodeSize) break;
      const m = (lo + hi) >> 1;
      const split = coords[2 * m + axis];
      if ((axis === 0 ? lng : lat) <= split) {
        hi = m - 1;
        node = 2 * node + 1;
        if (axis === 0) eastOf = split;
        else northOf = split;
      } else {
        lo = m + 1;
        node = 2 * node + 2;
        if (axis === 0) westOf = split;
        else southOf = split;
      }
      level++;
    }
    let seed = lo;
    let seedFlat = Infinity;
    for (let i = lo; i <= hi; i++) {
      const dy = coords[2 * i + 1] - lat;
      const dx = lngGap(coords[2 * i], lng) * cosLat;
      const flat = dx * dx + dy * dy;
      if (flat < seedFlat) {
        seedFlat = flat;
        seed = i;
      }
    }
    const seedH = haversineOf(lat, lng, coords[2 * seed + 1], coords[2 * seed]);
    let best = ids[seed];
    let bestKm = kmOfHaversine(seedH);
    let limit = slackened(seedH); // haversine terms above this can neither beat nor tie the best
    let latReach = reachDeg(limit); // degrees: cells and boxes farther in latitude cannot beat or tie the best
    let lngReach = lngReachDeg(limit, lat, cosLat, latReach); // likewise in longitude

    // The walk starts at the deepest node on that path whose split region holds the whole cap box strictly inside:
    // no cell outside it can beat or tie the seed (a cell on the border lies outside the cap box).
    const capWest = lng - lngReach;
    const capEast = lng + lngReach;
    const wraps = capWest < -180 || capEast > 180;
    while (level > 0) {
      const w = pathRegion[4 * level];
      const e = pathRegion[4 * level + 2];
      const lngInside = wraps ? w === -Infinity && e === Infinity : w < capWest && e > capEast;
      if (lngInside && pathRegion[4 * level + 1] < lat - latReach && pathRegion[4 * level + 3] > lat + latReach) break;
      level--;
    }
    stNode[0] = pathNode[level];
    stLeft[0] = pathLeft[level];
    stRight[0] = pathRight[level];
    stBound[0] = 0;
    let sp = 1;
    while (sp > 0) {
      sp--;
      if (stBound[sp] > limit) continue;
      const k = stNode[sp];
      const left = stLeft[sp];
      const right = stRight[sp];
      if (k < 0 || right - left <= nodeSize) {
        for (let i = left; i <= right; i++) {
          const cellLat = coords[2 * i + 1];
          if (Math.abs(cellLat - lat) > latReach) continue;
          const cellLng = coords[2 * i];
          if (lngGap(cellLng, lng) > lngReach) continue;
          // The same operations on the same numbers as haversineKm(lat, lng, cellLats[c], cellLngs[c]): the tree's
          // coordinates are copies of the cell coordinates (checked when the search is made).
          const h = haversineOf(lat, lng, cellLat, cellLng);
          if (h > limit) continue;
          const km = kmOfHaversine(h);
          const c = ids[i];
          if (km < bestKm || (km === bestKm && c < best)) {
            best = c;
            bestKm = km;
            limit = slackened(h);
            latReach = reachDeg(limit);
            lngReach = lngReachDeg(limit, lat, cosLat, latReach);
          }
        }
        continue;
      }
      const m = (left + right) >> 1;
      const lowBound = childBound(boxes, 2 * k + 1, lat, lng, cosLat, latReach, lngReach);
      const highBound = childBound(boxes, 2 * k + 2, lat, lng, cosLat, latReach, lngReach);
      // Far half first, then the middle item, then the near half, which is walked next.
      const lowFirst = lowBound <= highBound;
      if (!lowFirst && lowBound <= limit) sp = push(sp, 2 * k + 1, left, m - 1, lowBound);
      if (lowFirst && highBound <= limit) sp = push(sp, 2 * k + 2, m + 1, right, highBound);
      sp = push(sp, -1, m, m, 0);
      if (lowFirst && lowBound <= limit) sp = push(sp, 2 * k + 1, left, m - 1, lowBound);
      if (!lowFirst && highBound <= limit) sp = push(sp, 2 * k + 2, m + 1, right, highBound);
    }
    return { cell: best, distanceKm: bestKm };
  };

  function push(sp: number, node: number, left: number, right: number, bound: number): number {
    stNode[sp] = node;
    stLeft[sp] = left;
    stRight[sp] = right;
    stBound[sp] = bound;
    return sp + 1;
  }
}

/**
 * Lower bound of the haversine term from the query to node k's box: Infinity when the box misses the cap's bounding
 * box (a few subtractions), else the exact great-circle bound.
 */
function childBound(boxes: Float64Array, k: number, lat: number, lng: number, cosLat: number, latReach: number, lngReach: number): number {
  const minLng = boxes[4 * k];
  const minLat = boxes[4 * k + 1];
  const maxLng = boxes[4 * k + 2];
  const maxLat = boxes[4 * k + 3];
  if (minLat - lat > latReach || lat - maxLat > latReach) return Infinity;
  if (lng >= minLng && lng <= maxLng) {
    if (lat < minLat) return hav((minLat - lat) * RAD);
    if (lat > maxLat) return hav((lat - maxLat) * RAD);
    return 0;
  }
  if (lngGap(minLng, lng) > lngReach && lngGap(maxLng, lng) > lngReach) return Infinity;
  return boxHaversine(lat, lng, cosLat, minLng, minLat, maxLng, maxLat);
}

function slackened(h: number): number {
  return h * (1 + RELATIVE_SLACK) + ABSOLUTE_SLACK;
}

/**
 * Longitude difference beyond which a cell cannot be within haversine term `limit` of a query at `lat`: such a cell
 * lies within `latReach` of it in latitude, so cos φ' ≥ cos(|φ| + latReach) and hav Δλ ≤ limit / (cos φ cos φ').
 */
function lngReachDeg(limit: number, lat: number, cosLat: number, latReach: number): number {
  const farthestLat = Math.abs(lat) + latReach;
  return farthestLat >= 90 ? 180 : reachDeg(limit / (cosLat * Math.cos(farthestLat * RAD)));
}

/** The angle 2 asin √h in degrees (the distance of haversine term h), widened by the slack; 180 when h ≥ 1. */
function reachDeg(h: number): number {
  if (!(h < 1)) return 180;
  return ((2 * Math.asin(Math.sqrt(h))) / RAD) * (1 + DEGREE_SLACK) + DEGREE_SLACK;
}

/** Most squares the coverage bitmap may have (one bit each, one byte while it is made); coarser squares beyond. */
export const COVERAGE_MAX_SQUARES = 1 << 22;
/** Squares of margin around every cell's square. */
const COVERAGE_MARGIN = 2;

/**
 * Whether a point lies near any cell, in constant time: a bitmap of squares of the grid's resolution (doubled until
 * there are at most COVERAGE_MAX_SQUARES) over the cells' bounding box, each cell marking its square and the
 * squares up to COVERAGE_MARGIN away. True when some cell lies less than 2 squares away in latitude and in
 * longitude (degrees); false when none lies within 3 squares. Longitudes are also tried ±360° so a grid that reaches the
 * antimeridian covers both sides of it.
 */
export function coverageTest(cellLats: Float64Array, cellLngs: Float64Array, resolutionDeg: number): (lat: number, lng: number) => boolean {
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (let c = 0; c < cellLats.length; c++) {
    const la = cellLats[c];
    const ln = cellLngs[c];
    if (la < minLat) minLat = la;
    if (la > maxLat) maxLat = la;
    if (ln < minLng) minLng = ln;
    if (ln > maxLng) maxLng = ln;
  }
  let step = resolutionDeg;
  // A regular grid's centres then sit in the middle of their squares, away from the edges where rounding decides.
  const squaresFor = (s: number) => ({
    west: minLng - (COVERAGE_MARGIN + 0.5) * s,
    south: minLat - (COVERAGE_MARGIN + 0.5) * s,
    nCols: Math.floor((maxLng - minLng) / s) + 2 * COVERAGE_MARGIN + 2,
    nRows: Math.floor((maxLat - minLat) / s) + 2 * COVERAGE_MARGIN + 2,
  });
  let sq = squaresFor(step);
  while (sq.nCols * sq.nRows > COVERAGE_MAX_SQUARES) sq = squaresFor((step *= 2));
  const { west, south, nCols, nRows } = sq;
  // Each cell marks its square and COVERAGE_MARGIN squares either side in its row; then every marked square marks
  // COVERAGE_MARGIN squares above and below it.
  const rows = new Uint8Array(nCols * nRows);
  for (let c = 0; c < cellLats.length; c++) {
    const r = Math.floor((cellLats[c] - south) / step);
    const q = Math.floor((cellLngs[c] - west) / step);
    const end = r * nCols + Math.min(nCols - 1, q + COVERAGE_MARGIN);
    for (let i = r * nCols + Math.max(0, q - COVERAGE_MARGIN); i <= end; i++) rows[i] = 1;
  }
  // Packed 32 squares a word, so that the bitmap of a fine grid stays in cache.
  const near = new Uint32Array(Math.ceil(rows.length / 32));
  for (let r = 0; r < nRows; r++) {
    for (let q = 0; q < nCols; q++) {
      if (!rows[r * nCols + q]) continue;
      for (let d = Math.max(0, r - COVERAGE_MARGIN); d <= Math.min(nRows - 1, r + COVERAGE_MARGIN); d++) {
        const bit = d * nCols + q;
        near[bit >>> 5] |= 1 << (bit & 31);
      }
    }
  }
  const at = (row: number, lng: number): boolean => {
    const col = Math.floor((lng - west) / step);
    if (!(col >= 0 && col < nCols)) return false;
    const bit = row * nCols + col;
    return (near[bit >>> 5] & (1 << (bit & 31))) !== 0;
  };
  return (lat, lng) => {
    const row = Math.floor((lat - south) / step);
    if (!(row >= 0 && row < nRows)) return false;
    return at(row, lng) || at(row, lng + 360) || at(row, lng - 360);
  };
}
