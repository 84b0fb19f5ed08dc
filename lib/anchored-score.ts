// A 0–100 score from a rate on anchors [rate, score], shared by the scales that compare places (flood return periods,
// outbreak burdens): linear in the rate below the first anchor (0 → 0), linear in log rate between anchors, the last
// anchor's score above it. One decimal.

export type Anchors = ReadonlyArray<readonly [rate: number, score: number]>;

export function anchoredScore(rate: number, a: Anchors): number {
  if (!(rate > 0)) return 0;
  let s: number;
  if (rate <= a[0][0]) s = (a[0][1] * rate) / a[0][0];
  else if (rate >= a[a.length - 1][0]) s = a[a.length - 1][1];
  else {
    let i = 1;
    while (rate > a[i][0]) i++;
    const [r0, s0] = a[i - 1];
    const [r1, s1] = a[i];
    s = s0 + ((Math.log(rate) - Math.log(r0)) / (Math.log(r1) - Math.log(r0))) * (s1 - s0);
  }
  return Math.round(s * 10) / 10;
}
