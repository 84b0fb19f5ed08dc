// The COVID-19 input is downloaded when FEED_URL_OWID_COVID_THA is set: tested against a local HTTP server this
// test starts, with a fallback to the data directory when the URL fails.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { COVID_FEED, loadCovid } from "../../pipeline/health/owid-covid.ts";
import { dayIndex } from "../../lib/outbreaks/series.ts";

const CSV = "continent,location,date,total_cases,new_cases\nAsia,Thailand,2022-01-01,10,\nAsia,Thailand,2022-01-02,14,4\nAsia,Thailand,2022-01-03,21,7\n";
let server: Server;
let base: string;
let hits: Record<string, number>;

beforeAll(async () => {
  hits = {};
  server = createServer((req, res) => {
    hits[req.url ?? ""] = (hits[req.url ?? ""] ?? 0) + 1;
    if (req.url === "/owid.csv") res.writeHead(200, { "content-type": "text/csv" }).end(CSV);
    else res.writeHead(503).end("down");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("COVID-19 download", () => {
  it("reads the series from the configured URL", async () => {
    const { series: [series], fetch } = await loadCovid(dataDir(), { [`FEED_URL_${COVID_FEED}`]: `${base}/owid.csv` });
    expect([fetch.from, fetch.attempts]).toEqual(["url", 1]);
    expect(series.start).toBe(dayIndex("2022-01-01"));
    expect(Array.from(series.values)).toEqual([NaN, 4, 7]);
  });

  it("retries a failing URL, then falls back to the data directory and says why", async () => {
    const env = { [`FEED_URL_${COVID_FEED}`]: `${base}/down.csv`, FEED_FETCH_RETRIES: "1", FEED_FETCH_TIMEOUT_MS: "2000" };
    const { series: [series], fetch } = await loadCovid(dataDir(), env);
    expect(fetch.from).toBe("data-dir");
    expect(fetch.attempts).toBe(2);
    expect(hits["/down.csv"]).toBe(2);
    expect(fetch.error).toBe("attempt 1: HTTP 503; attempt 2: HTTP 503");
    expect(series.start).toBe(dayIndex("2020-01-04"));
    expect(series.values.length).toBe(574);
  });

  it("without a URL reads the data directory without network", async () => {
    const { fetch } = await loadCovid(dataDir(), {});
    expect([fetch.from, fetch.attempts, fetch.url]).toEqual(["data-dir", 0, undefined]);
  });
});
