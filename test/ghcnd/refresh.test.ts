import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshGhcnd } from "../../pipeline/inputs/ghcnd/refresh.ts";
import { GHCND_SUBDIR, readGhcndStations } from "../../pipeline/inputs/ghcnd/stations.ts";

const OLD_A = 'STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN\nTHA0000001,"ALPHA, TH",13.5,100.5,5.0,2000-01-01,1.0,,,\n';
const OLD_B = 'STATION,NAME,LATITUDE,LONGITUDE,ELEVATION,DATE,PRCP,TAVG,TMAX,TMIN\nTHB0000002,"BETA, TH",14.0,101.0,7.5,2000-01-01,2.0,,,\n';

/** NOAA access layout: quoted, more columns, tenths. */
function accessCsv(id: string, name: string, tenthsMm: number): string {
  return [
    '"STATION","DATE","LATITUDE","LONGITUDE","ELEVATION","NAME","PRCP","PRCP_ATTRIBUTES","TMAX","TMAX_ATTRIBUTES","TMIN","TMIN_ATTRIBUTES","TAVG","TAVG_ATTRIBUTES"',
    `"${id}","2000-01-01","13.5","100.5","5.0","${name}","${tenthsMm}",",,S","320",",,S","221",",,S","270","H,,S"`,
    `"${id}","2000-01-02","13.5","100.5","5.0","${name}","0",",,S","315",",,S","220",",,S","268","H,,S"`,
    "",
  ].join("\n");
}

function dataDirFixture(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "ghcnd-refresh-"));
  const dir = join(root, GHCND_SUBDIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "_stations.csv"),
    'station,name,lat,lon,elev_m,file\nTHA0000001,"ALPHA, TH",13.5,100.5,5.0,observed/ALPHA.csv\nTHB0000002,"BETA, TH",14.0,101.0,7.5,observed/BETA.csv\n',
  );
  writeFileSync(join(dir, "ALPHA.csv"), OLD_A);
  writeFileSync(join(dir, "BETA.csv"), OLD_B);
  return { root, dir };
}

const hits = new Map<string, number>();
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "";
    const n = (hits.get(url) ?? 0) + 1;
    hits.set(url, n);
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/csv" });
      res.end(body);
    };
    const [, scenario, file] = url.split("/");
    const id = file?.replace(/\.csv$/, "") ?? "";
    const name = id === "THA0000001" ? "ALPHA, TH" : "BETA, TH";
    if (scenario === "ok") return send(200, accessCsv(id, name, 125));
    if (scenario === "flaky") return n === 1 ? send(503, "busy") : send(200, accessCsv(id, name, 40));
    if (scenario === "missing") return send(404, "not found");
    if (scenario === "bad") return send(200, accessCsv(id, name, -5)); // negative precipitation: must not replace
    if (scenario === "hang") return; // never answers: the client must time out
    send(500, "unknown scenario");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const fast = { timeoutMs: 300, retries: 2, backoffMs: 10 };

describe("refreshGhcnd", () => {
  it("downloads, validates and atomically replaces each station file; the reader then reads NOAA's layout", async () => {
    const { root, dir } = dataDirFixture();
    const report = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/ok`, ...fast });
    expect(report).toMatchObject({ status: "updated", offline: false, updated: ["THA0000001", "THB0000002"], failed: [] });
    expect(readFileSync(join(dir, "ALPHA.csv"), "utf8")).toBe(accessCsv("THA0000001", "ALPHA, TH", 125));
    expect(readdirSync(dir).sort()).toEqual(["ALPHA.csv", "BETA.csv", "_stations.csv"]); // no temp files left
    const stations = await readGhcndStations({ dir });
    expect(Array.from(stations[0].tmax.subarray(0, 1))).toEqual([NaN]); // 2 of 31 days: month not valid
    expect(stations[0].qc.parse).toMatchObject({ rows: 2, prcpValues: 2, tmaxValues: 2 });

    const again = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/ok`, ...fast });
    expect(again).toMatchObject({ status: "unchanged", unchanged: ["THA0000001", "THB0000002"], updated: [] });
  });

  it("retries a 503 with backoff and then succeeds", async () => {
    const { root, dir } = dataDirFixture();
    const report = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/flaky`, ...fast });
    expect(report.status).toBe("updated");
    expect(hits.get("/flaky/THA0000001.csv")).toBe(2);
    expect(readFileSync(join(dir, "BETA.csv"), "utf8")).toBe(accessCsv("THB0000002", "BETA, TH", 40));
  });

  it("does not retry a 404 and keeps the old file", async () => {
    const { root, dir } = dataDirFixture();
    const report = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/missing`, ...fast });
    expect(report.status).toBe("partial");
    expect(report.failed).toEqual([
      { station: "THA0000001", reason: "HTTP 404" },
      { station: "THB0000002", reason: "HTTP 404" },
    ]);
    expect(hits.get("/missing/THA0000001.csv")).toBe(1);
    expect(readFileSync(join(dir, "ALPHA.csv"), "utf8")).toBe(OLD_A);
  });

  it("rejects a download that fails validation, with the parser's file:line message, and keeps the old file", async () => {
    const { root, dir } = dataDirFixture();
    const report = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/bad`, ...fast });
    expect(report.failed[0]).toEqual({ station: "THA0000001", reason: `${base}/bad/THA0000001.csv:2: impossible PRCP -0.5 on 2000-01-01` });
    expect(readFileSync(join(dir, "ALPHA.csv"), "utf8")).toBe(OLD_A);
    expect(readdirSync(dir).sort()).toEqual(["ALPHA.csv", "BETA.csv", "_stations.csv"]);
  });

  it("treats a server that never answers as offline after timeouts and retries, leaving files untouched", async () => {
    const { root, dir } = dataDirFixture();
    const t0 = Date.now();
    const report = await refreshGhcnd({ dataDir: root, baseUrl: `${base}/hang`, timeoutMs: 150, retries: 1, backoffMs: 10 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(hits.get("/hang/THA0000001.csv")).toBe(2);
    expect(hits.get("/hang/THB0000002.csv")).toBeUndefined(); // stops at the first station
    expect(report).toMatchObject({ status: "offline", offline: true, updated: [] });
    expect(report.failed).toEqual([{ station: "THA0000001", reason: "timeout after 150 ms" }]);
    expect(report.message).toBe(`GHCN-Daily refresh: NOAA unreachable (timeout after 150 ms); data directory ${dir} left as it is`);
    expect([readFileSync(join(dir, "ALPHA.csv"), "utf8"), readFileSync(join(dir, "BETA.csv"), "utf8")]).toEqual([OLD_A, OLD_B]);
  });

  it("offline (connection refused, DNS failure) keeps the data directory as it is", async () => {
    const { root, dir } = dataDirFixture();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const refused = await refreshGhcnd({ dataDir: root, baseUrl: `http://127.0.0.1:${port}`, ...fast });
    expect(refused).toMatchObject({ status: "offline", offline: true });
    expect(refused.failed[0].reason).toBe("fetch failed (ECONNREFUSED)");

    const dnsFailure: typeof fetch = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("getaddrinfo ENOTFOUND www.ncei.noaa.gov"), { code: "ENOTFOUND" }) });
    };
    const dns = await refreshGhcnd({ dataDir: root, fetchImpl: dnsFailure, ...fast });
    expect(dns.failed[0].reason).toBe("fetch failed (ENOTFOUND)");
    expect(dns.status).toBe("offline");
    expect([readFileSync(join(dir, "ALPHA.csv"), "utf8"), readFileSync(join(dir, "BETA.csv"), "utf8")]).toEqual([OLD_A, OLD_B]);
    expect(readdirSync(dir).sort()).toEqual(["ALPHA.csv", "BETA.csv", "_stations.csv"]);
  });
});
