// The bulk route's rows made from a cell's cached text (server/bulk/bulk-rows.ts) are the bytes of the point's own
// batch item written by itemText, for found points, points at sea or outside the region, and ids that need quoting.
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { BulkRows, MAX_CACHED_TAILS } from "../../server/bulk/bulk-rows.ts";
import type { BatchItem, BatchScorer } from "../../server/services/types.ts";
import { itemText } from "../../server/bulk/bulk-output.ts";
import { rng } from "../../bench/random.ts";

const { service, store } = await openDroughtService(inject("artifactsDir"), { pollMs: 0 });
afterAll(() => store.stop());

const IDS = [undefined, "a", "", "with,comma", 'say "hi"', "line\nbreak", "Hà Nội", "7"];

describe("BulkRows", () => {
  it("gives every row the text of its own batch item, in CSV and NDJSON (4,000 points over and around the region)", () => {
    const scorer = service.batchScorer();
    expect(scorer.cellKey).toBeTypeOf("function");
    const r = rng(5);
    for (const format of ["csv", "ndjson"] as const) {
      const rows = new BulkRows(scorer, format);
      let found = 0;
      let notFound = 0;
      for (let i = 0; i < 4000; i++) {
        // The region's box and a margin (sea, Laos, Cambodia, Indonesia), rounded as clients send them, some at 1e-6.
        const lat = Math.round((-2 + r() * 28) * 1e4) / 1e4 + (i % 7 === 0 ? 1e-6 : 0);
        const lng = Math.round((95 + r() * 25) * 1e4) / 1e4;
        const id = IDS[i % IDS.length];
        const want = scorer.item(id, lat, lng);
        const got = rows.row(id, lat, lng);
        expect(got.text, `${format} ${lat},${lng}`).toBe(itemText(format, want));
        expect(got.found).toBe(want.found);
        expect(got.month).toBe(want.month);
        if (want.found) found++;
        else notFound++;
      }
      expect(found).toBeGreaterThan(500);
      expect(notFound).toBeGreaterThan(500);
    }
  });
});

describe("BulkRows on a grid of many cells", () => {
  it("keeps the text of at most MAX_CACHED_TAILS cells, and the rows past them stay right", () => {
    let items = 0;
    const scorer: BatchScorer = {
      dataVersion: "v",
      time: () => null,
      cellKey: (lat) => Math.round(lat * 1e5), // a cell per point
      item: (id, lat, lng): BatchItem => {
        items++;
        return { id, lat, lng, found: true, month: "2023-12", riskScore: 50, riskLevel: "medium", severity: "D0", spei1: -0.6, confidence: null, confidenceLabel: null };
      },
    };
    const rows = new BulkRows(scorer, "csv");
    const n = MAX_CACHED_TAILS + 5;
    for (let i = 0; i < n; i++) expect(rows.row(`p${i}`, i / 1e5, 100).text).toBe(`p${i},${i / 1e5},100,2023-12,true,50,medium,D0,-0.6,\n`);
    expect(rows.cachedCells).toBe(MAX_CACHED_TAILS);
    expect(items).toBe(n);
  });
});
