// A line of longitude/latitude positions cut where it crosses the antimeridian, as RFC 7946 (GeoJSON) 3.1.9 asks:
// a step between consecutive positions of more than 180° of longitude is taken the short way round, across ±180°,
// and the line is cut there into parts that each stay on one side. The crossing's latitude is interpolated linearly
// in longitude (rounded to 1e-6°). Every part has two positions or more: a part of one position (a single fix, or a fix on ±180°) is
// that position twice, a line of length zero.

export type Position = [number, number];

export function cutAtAntimeridian(line: readonly Position[]): Position[][] {
  if (line.length === 0) return [];
  const parts: Position[][] = [[line[0]]];
  for (let i = 1; i < line.length; i++) {
    const [lng0, lat0] = line[i - 1];
    const [lng1, lat1] = line[i];
    const step = lng1 - lng0;
    if (Math.abs(step) > 180) {
      // Eastward over 180° (179 → -179) or westward over -180° (-179 → 179).
      const edge = step < 0 ? 180 : -180;
      const unwrapped = step < 0 ? lng1 + 360 : lng1 - 360;
      const t = (edge - lng0) / (unwrapped - lng0);
      const lat = Math.round((lat0 + t * (lat1 - lat0)) * 1e6) / 1e6;
      const part = parts[parts.length - 1];
      if (part[part.length - 1][0] !== edge) part.push([edge, lat]);
      if (lng1 !== -edge) parts.push([[-edge, lat]]);
      else parts.push([]);
    }
    parts[parts.length - 1].push(line[i]);
  }
  return parts.map((p) => (p.length === 1 ? [p[0], p[0]] : p));
}
