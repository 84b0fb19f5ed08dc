// The bulk route's rows made from a cell's cached text (server/bulk/bulk-rows.ts) are the bytes of the point's own
// batch item written by itemText, for found points, points at sea or outside the region, and ids that need quoting.
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { BulkRows } from "../../server/bulk/bulk-rows.ts";
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
