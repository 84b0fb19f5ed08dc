// The batch and bulk rows made from a cell's cached text (server/services/row-texts.ts) are the bytes of the point's
// own batch item written as a CSV line or as JSON, for found points, points at sea or outside the region, and ids that
// need quoting.
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { itemRowText, jsonString, MAX_CACHED_TAILS, RowTexts } from "../../server/services/row-texts.ts";
import type { BatchItem, BatchScorer } from "../../server/services/types.ts";
import { rng } from "../../bench/random.ts";
import { startAppOver } from "./helpers.ts";
import { runBulk } from "../../server/bulk/bulk-stream.ts";

const { service, store } = await openDroughtService(inject("artifactsDir"), { pollMs: 0 });
afterAll(() => store.stop());
await service.prepare();

const IDS = [undefined, "a", "", "with,comma", 'say "hi"', "line\nbreak", "Hà Nội", "7"];

describe("RowTexts", () => {
  it("gives every row the text of its own batch item, in CSV and JSON (4,000 points over and around the region)", () => {
    const scorer = service.batchScorer();
    expect(scorer.cellKey).toBeTypeOf("function");
    const r = rng(5);
    for (const format of ["csv", "json"] as const) {
      const rows = new RowTexts(scorer, format);
      let found = 0;
      let notFound = 0;
      for (let i = 0; i < 4000; i++) {
        // The region's box and a margin (sea, Laos, Cambodia, Indonesia), rounded as clients send them, some at 1e-6.
        const lat = Math.round((-2 + r() * 28) * 1e4) / 1e4 + (i % 7 === 0 ? 1e-6 : 0);
        const lng = Math.round((95 + r() * 25) * 1e4) / 1e4;
        const id = IDS[i % IDS.length];
        const want = scorer.item(id, lat, lng);
        const got = rows.row(id, lat, lng);
        expect(got.text, `${format} ${lat},${lng}`).toBe(itemRowText(format, want));
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

describe("runBulk over the served version's cells", () => {
  it("writes each echoed CSV and NDJSON row as the point's own batch item (echoed heads with kept cell tails)", async () => {
    const scorer = service.batchScorer();
    expect(scorer.cellKey).toBeTypeOf("function");
    const r = rng(21);
    const points = Array.from({ length: 3000 }, (_, i) => ({
      id: i % 5 === 0 ? "" : `p${i}`,
      // Most in the region (found), some around it (sea, abroad); as clients write them, some with trailing zeros.
      lat: (i % 3 === 0 ? -2 + r() * 28 : 6 + r() * 14).toFixed(1 + (i % 5)),
      lng: (i % 3 === 0 ? 95 + r() * 25 : 98 + r() * 7).toFixed(1 + (i % 4)),
    }));
    const bodies = {
      csv: "id,lat,lng\n" + points.map((p) => `${p.id},${p.lat},${p.lng}`).join("\n") + "\n",
      ndjson: points.map((p) => `{"id":"${p.id}","lat":${p.lat},"lng":${p.lng}}`).join("\n") + "\n",
    };
    for (const format of ["csv", "ndjson"] as const) {
      const written: string[] = [];
      let i = 0;
      const chunks = [Buffer.from(bodies[format])];
      await runBulk({
        source: { next: async () => (i < chunks.length ? { done: false, value: chunks[i++] } : { done: true, value: undefined }) },
        input: format,
        output: format,
        scorer,
        charge: async () => {},
        sink: { write: async (t) => void written.push(t) },
        signal: new AbortController().signal,
      });
      const rows = written.join("").trim().split("\n").slice(format === "csv" ? 1 : 0, format === "csv" ? undefined : -1);
      expect(rows).toHaveLength(points.length);
      points.forEach((p, k) => {
        const id = format === "csv" && p.id === "" ? undefined : p.id;
        expect(rows[k], `${format} ${p.lat},${p.lng}`).toBe(itemRowText(format === "csv" ? "csv" : "json", scorer.item(id, Number(p.lat), Number(p.lng))));
      });
    }
  });
});

describe("RowTexts on a grid of many cells", () => {
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
    const rows = new RowTexts(scorer, "csv");
    const n = MAX_CACHED_TAILS + 5;
    for (let i = 0; i < n; i++) expect(rows.row(`p${i}`, i / 1e5, 100).text).toBe(`p${i},${i / 1e5},100,2023-12,true,50,medium,D0,-0.6,`);
    expect(rows.cachedCells).toBe(MAX_CACHED_TAILS);
    expect(items).toBe(n);
  });
});

describe("POST /api/risk-map/batch before and after the version's lookup raster", () => {
  it("answers the same bytes and time headers from the cells' texts as from the items: JSON, CSV, CSV by Accept, none found", async () => {
    // A fresh service: its first batch starts the raster and answers from items.
    const late = await openDroughtService(inject("artifactsDir"), { pollMs: 0 });
    const app = await startAppOver({ drought: late.service }, 100_000);
    try {
      const r = rng(9);
      const locations = Array.from({ length: 100 }, (_, i) => ({
        ...(i % 9 === 0 ? {} : { id: IDS[1 + (i % (IDS.length - 1))]! + i }),
        // Half in Thailand's box (most found), half over the region and around it (sea, other countries).
        lat: Math.round((i % 2 === 0 ? 6 + r() * 14 : -2 + r() * 28) * 1e4) / 1e4,
        lng: Math.round((i % 2 === 0 ? 98 + r() * 7 : 95 + r() * 25) * 1e4) / 1e4,
      }));
      // None found: at sea and far outside.
      const nowhere = [{ id: "sea", lat: 10, lng: 100 }, { lat: 48.85, lng: 2.35 }];
      // JSON, CSV asked in the body, CSV asked by Accept, and a batch with no data: body and time headers.
      const ask = async (format: "json" | "csv" | "accept" | "nowhere") => {
        const res = await fetch(`${app.base}/api/risk-map/batch`, {
          method: "POST",
          headers: { "x-api-key": app.key, "content-type": "application/json", ...(format === "accept" ? { accept: "text/csv" } : {}) },
          body: JSON.stringify({ riskType: "drought", ...(format === "json" || format === "csv" ? { format } : {}), locations: format === "nowhere" ? nowhere : locations }),
        });
        expect(res.status).toBe(200);
        const time = ["x-data-period", "x-data-as-of", "x-data-current"].map((h) => res.headers.get(h)).join(" ");
        return `${time}\n${(await res.text()).replace(/"timestamp":"[^"]*"/, '"timestamp":"T"')}`;
      };
      const formats = ["json", "csv", "accept", "nowhere"] as const;
      const fromItems: Record<string, string> = {};
      for (const f of formats) fromItems[f] = await ask(f);
      expect(late.service.batchScorer().cellKey).toBeUndefined();
      await late.service.prepare();
      expect(late.service.batchScorer().cellKey).toBeTypeOf("function");
      const fromCells: Record<string, string> = {};
      for (const f of formats) fromCells[f] = await ask(f);
      const parsed = JSON.parse(fromCells.json.slice(fromCells.json.indexOf("\n") + 1)) as { data: { results: Array<{ found: boolean }>; details: unknown } };
      expect(parsed.data.results.filter((x) => x.found).length).toBeGreaterThan(20);
      expect(parsed.data.results.filter((x) => !x.found).length).toBeGreaterThan(20);
      expect(parsed.data.details).not.toBeNull();
      for (const f of formats) expect(fromCells[f], f).toBe(fromItems[f]);
      expect(fromCells.accept).toBe(fromCells.csv);
      expect(fromCells.csv).toMatch(/^\d{4}-\d{2}-\d{2}\/\d{4}-\d{2}-\d{2} \d{4}-\d{2}-\d{2} (true|false)\nid,lat,lng,/);
      expect(fromCells.nowhere).toContain('"details":null,"detailsReason":"no location of the batch has drought data"');
    } finally {
      await app.close();
      late.store.stop();
    }
  });
});

describe("jsonString", () => {
  it("is JSON.stringify for every character class an id may hold", () => {
    const samples = ["", "a", "p123", " ~", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", "\u007f", "\u0080", "Hà Nội", "😀", "\ud800", "\u2028", "/<>&"];
    for (let c = 0; c < 0x250; c++) samples.push(`x${String.fromCharCode(c)}y`);
    for (const s of samples) expect(jsonString(s), JSON.stringify(s)).toBe(JSON.stringify(s));
  });
});
