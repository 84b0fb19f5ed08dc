// The drought event in the score answer, through a running server: the run of SPEI-3 below -1 that the served
// month is in, checked against runs counted here from the cell's own series (the history route).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDroughtGridFile } from "../../formats/drought-grid.ts";
import { readManifest } from "../../formats/manifest.ts";
import { formatMonth, parseMonth } from "../../lib/months.ts";
import { ANSWER_INDICES } from "../../lib/drought/cell-latest.ts";
import { privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

let server: RealServer;
let dir: string;
beforeAll(async () => {
  const art = privateArtifacts(inject("artifactsDir"));
  dir = join(art.dir, "current");
  server = await startRealServer(art.dir);
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function score(lat: number, lng: number) {
  const r = await fetch(server.base + "/api/risk-map/score", {
    method: "POST",
    headers: { "X-API-Key": server.key, "Content-Type": "application/json" },
    body: JSON.stringify({ lat, lng, riskType: "drought" }),
  });
  if (r.status === 404) return undefined; // a coastal cell's centre at sea
  const { details } = ((await r.json()) as { data: { details: { currentConditions: { month: string }; droughtEvent: Record<string, unknown> & { current: Record<string, unknown> | null } } } }).data;
  // The event as answered, with the month it was answered for.
  const ev: Record<string, unknown> & { current: Record<string, unknown> | null; month: string } = { ...details.droughtEvent, month: details.currentConditions.month };
  return ev;
}

/** Runs counted plainly: consecutive months with SPEI-3 < -1, missing values ending them. */
function runsOf(values: (number | null)[]) {
  const runs: { start: number; end: number; deficit: number; peak: number }[] = [];
  values.forEach((v, i) => {
    const inRun = v !== null && v < -1;
    const last = runs.at(-1);
    if (inRun && last && last.end === i - 1) {
      last.end = i;
      last.deficit += -1 - v;
      last.peak = Math.min(last.peak, v);
    } else if (inRun) runs.push({ start: i, end: i, deficit: -1 - v, peak: v });
  });
  return runs;
}

describe("drought events in the score answer", () => {
  it("reports the current run, its size and its rank, as counted from the cell's series", async () => {
    const grid = openDroughtGridFile(join(dir, "drought-grid.bin"));
    // The score answer's month, a point's default month (docs/methods/currency.md): the grid's latest valid month
    // where the cell has all six answer indices then, else its latest month with all six, else with SPEI-1.
    const gridOff = grid.monthOffset(parseMonth(readManifest(dir).latestValidMonth!)!);
    const complete = (c: number, m: number) => ANSWER_INDICES.every((n) => !Number.isNaN(grid.value(c, m, grid.indexNo(n))));
    const latestOff = (c: number) => {
      if (complete(c, gridOff)) return gridOff;
      let m = grid.nMonths - 1;
      while (m >= 0 && !complete(c, m)) m--;
      if (m >= 0) return m;
      m = grid.nMonths - 1;
      while (m >= 0 && Number.isNaN(grid.value(c, m, grid.indexNo("spei1")))) m--;
      return m;
    };
    const k = grid.indexNo("spei3");
    const inDrought = Array.from({ length: grid.nCells }, (_, c) => c).filter((c) => grid.value(c, latestOff(c), k) < -1.0 && grid.value(c, latestOff(c) - 1, k) < -1.0);
    const calm = Array.from({ length: grid.nCells }, (_, c) => c).filter((c) => grid.value(c, latestOff(c), k) > 0);
    expect(inDrought.length).toBeGreaterThan(0);
    let checked = 0;
    for (const c of inDrought) {
      if (checked === 3) break;
      const [lat, lng] = [grid.cellLat(c), grid.cellLng(c)];
      const ev = await score(lat, lng);
      if (ev === undefined) continue;
      checked++;
      const off = latestOff(c);
      expect(ev.month).toBe(formatMonth(grid.firstMonth + off));
      const h = await (await fetch(server.base + `/api/risk-map/drought/history?lat=${lat}&lng=${lng}&indices=spei3&to=${formatMonth(grid.firstMonth + off)}`, { headers: { "X-API-Key": server.key } })).json();
      const series = (h.data.series as { indices: { spei3: number | null } }[]).map((m) => m.indices.spei3);
      // The history route rounds to 3 decimals; the grid's own values decide membership here.
      const exact = Array.from({ length: off + 1 }, (_, m) => grid.value(c, m, k)).map((v) => (Number.isNaN(v) ? null : v));
      expect(series.length).toBe(exact.length);
      const runs = runsOf(exact);
      const cur = runs.at(-1)!;
      expect(cur.end).toBe(off);
      expect(ev).toMatchObject({ index: "spei3", threshold: -1, runsInRecord: runs.length });
      expect(ev.current).toMatchObject({ months: cur.end - cur.start + 1, rankBySeverity: 1 + runs.filter((r) => r.deficit > cur.deficit).length });
      expect(ev.current!.cumulativeDeficit as number).toBeCloseTo(cur.deficit, 3);
      expect(ev.current!.peak as number).toBeCloseTo(cur.peak, 3);
    }
    expect(checked).toBe(3);
    let quiet;
    for (const c of calm) if ((quiet = await score(grid.cellLat(c), grid.cellLng(c)))) break;
    if (!quiet) throw new Error("no inland cell without drought in the served month");
    expect(quiet.current).toBeNull();
    expect(quiet.reason).toMatch(/^SPEI-3 is \d\.\d\d in \d{4}-\d\d, not below -1: no drought run at this cell$/);
  });
});
