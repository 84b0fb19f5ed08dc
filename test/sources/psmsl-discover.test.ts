// PSMSL on an empty data directory: with no filelist.txt in the raw cache or DATA_DIR, the refresh asks the origin
// for it and fetches every gauge it lists (a replay server serving the mirror's files at origin-shaped paths);
// the next refresh lists the gauges from its own copy.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { currentRawDir } from "../../pipeline/sources/raw-cache.ts";
import { SOURCES } from "../../pipeline/sources/registry.ts";

const mirror = join(dataDir(), "feeds/psmsl");
const emptyDataDir = mkdtempSync(join(tmpdir(), "psmsl-empty-data-"));
const artifactsDir = mkdtempSync(join(tmpdir(), "psmsl-discover-"));
const asked: string[] = [];
/** Gauge files the stand-in answers with an empty body. */
const emptied = new Set<string>();
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url!);
    const name = req.url!.slice(1);
    const path = name === "filelist.txt" ? join(mirror, name) : join(mirror, "data", name);
    if (!/^[\w.]+$/.test(name) || !existsSync(path)) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    const body = emptied.has(name) ? Buffer.alloc(0) : readFileSync(path);
    res.writeHead(200, { "content-type": "text/plain", "content-length": String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const silent = { start() {}, source() {} };
const refresh = (dir: string) => refreshSources({ dataDir: dir, artifactsDir, env: { SOURCE_URL_PSMSL: base }, only: ["psmsl"], progress: silent });

describe("PSMSL from its origin alone", () => {
  it("fetches the station list, then every gauge it lists, into the raw cache", async () => {
    // What the data directory's own list names: the same gauges must come from the origin's.
    const entry = SOURCES.find((s) => s.name === "psmsl")!;
    const fromMirror = (await entry.resources({ origin: base, dataDir: dataDir(), currentDir: undefined, env: {}, now: new Date() })).map((r) => r.file).sort();
    expect(fromMirror.length).toBe(1 + 1591); // the list and every gauge (the sea-level answers cover the world)

    const [r] = await refresh(emptyDataDir);
    expect(r).toMatchObject({ source: "psmsl", outcome: "updated", failed: 0, files: fromMirror.length });
    const cache = currentRawDir(artifactsDir, "psmsl")!;
    const got = ["filelist.txt", ...readdirSync(join(cache, "data")).map((f) => `data/${f}`)].sort();
    expect(got).toEqual(fromMirror);
    for (const f of got) expect(readFileSync(join(cache, f)), f).toEqual(readFileSync(join(mirror, f)));
  });

  it("lists the gauges from its own copy the next time, without asking for the list twice", async () => {
    asked.length = 0;
    const [r] = await refresh(emptyDataDir);
    expect(r).toMatchObject({ outcome: "unchanged", failed: 0 });
    expect(asked.filter((u) => u === "/filelist.txt")).toHaveLength(1);
  });

  it("keeps a gauge with data when the origin answers it empty (empty means no data only for a gauge without any)", async () => {
    emptied.add("174.rlrdata");
    const before = readFileSync(join(currentRawDir(artifactsDir, "psmsl")!, "data/174.rlrdata"));
    const [r] = await refresh(emptyDataDir);
    emptied.clear();
    expect(r).toMatchObject({ outcome: "partial", failed: 1 });
    expect(r.reason).toMatch(/data\/174\.rlrdata: rows fell from \d+ to 0/);
    expect(readFileSync(join(currentRawDir(artifactsDir, "psmsl")!, "data/174.rlrdata"))).toEqual(before);
  });
});
