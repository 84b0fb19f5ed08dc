// GHCN-Daily on a data directory without a station index (a first run from scratch): the refresh derives the index
// from NOAA's ghcnd-stations.txt (every station within 1° of the provinces' box) and fetches each station's access
// file (the drought grid built from them is the data directory's, byte for byte: test/e2e/nightly-from-origins.test.ts).
// The station list is written here in NOAA's fixed-width layout from the mirror's index, plus three stations that
// must not reach the grid: two far away (never asked for) and one in the box whose file the origin does not have
// (left out when the index is read).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataDir } from "../../lib/config.ts";
import { parseStationList, stationIndexCsv, stationsInBox } from "../../pipeline/inputs/ghcnd/station-list.ts";
import { GHCND_SUBDIR, readStationIndex } from "../../pipeline/inputs/ghcnd/stations.ts";
import { PROVINCES_FILE } from "../../pipeline/provinces/boundaries.ts";
import { refreshSources } from "../../pipeline/refresh.ts";
import { effectiveDataDir, writeInputOverlay } from "../../pipeline/sources/input-overlay.ts";
import { currentRawDir } from "../../pipeline/sources/raw-cache.ts";
import { mirrorStationList, startReplay, stationListLine as listLine, type Replay } from "./origin-replay.ts";

const mirrorDir = join(dataDir(), GHCND_SUBDIR);
const emptyDataDir = mkdtempSync(join(tmpdir(), "ghcnd-empty-data-"));
const artifactsDir = mkdtempSync(join(tmpdir(), "ghcnd-discover-"));
// The boundaries have no origin to refresh from: they are the one input this data directory holds.
mkdirSync(dirname(join(emptyDataDir, PROVINCES_FILE)), { recursive: true });
symlinkSync(join(dataDir(), PROVINCES_FILE), join(emptyDataDir, PROVINCES_FILE));

const files = new Map<string, string>();
let list = "";
let replay: Replay;
let base = "";

beforeAll(async () => {
  const mirror = await mirrorStationList(mirrorDir);
  for (const [id, path] of mirror.files) files.set(id, path);
  list = [
    listLine("JA000047662", 35.6833, 139.7667, 36, "TOKYO"),
    ...mirror.lines,
    listLine("BM000099999", 16.7, 98.5, 200, "A STATION WITHOUT A FILE"),
    listLine("IN022021900", 28.5833, 77.2, 216, "NEW DELHI"),
  ].join("\n") + "\n";
  replay = await startReplay((path) => {
    const station = /^\/access\/([A-Z0-9]{11})\.csv$/.exec(path)?.[1];
    if (path === "/pub/data/ghcn/daily/ghcnd-stations.txt") return Buffer.from(list);
    return station && files.has(station) ? readFileSync(files.get(station)!) : undefined;
  });
  base = replay.base;
});
afterAll(() => replay.close());

describe("GHCN-Daily from the origin alone", () => {
  it("parses NOAA's fixed-width list and refuses a file that is not one", () => {
    const [tokyo] = parseStationList(list, "ghcnd-stations.txt");
    expect(tokyo).toEqual({ id: "JA000047662", lat: "35.6833", lon: "139.7667", elev: "36.0", name: "TOKYO" });
    expect(() => parseStationList("<!DOCTYPE html>\n<html>", "ghcnd-stations.txt")).toThrow(/ghcnd-stations.txt:1: not a ghcnd-stations.txt line/);
    const box = { west: 97.3, south: 5.6, east: 105.6, north: 20.5 };
    expect(stationsInBox(parseStationList(list, "l"), box).map((s) => s.id)).not.toContain("IN022021900");
    expect(stationIndexCsv(parseStationList(listLine("TH000048327", 18.783, 98.983, 312, 'CHIANG "MAI"'), "l"))).toBe(
      'station,name,lat,lon,elev_m,file,listed_by\nTH000048327,"CHIANG ""MAI""",18.7830,98.9830,312.0,TH000048327.csv,ghcnd-stations.txt\n',
    );
  });

  it("derives the index from the list and fetches every station in the box; a listed station without a file is left out when read", async () => {
    const env = {
      SOURCE_URL_GHCND: `${base}/access`,
      SOURCE_URL_GHCND_STATIONS: `${base}/pub/data/ghcn/daily/ghcnd-stations.txt`,
      // One retry, as in production: a loopback keep-alive socket can be reset under load.
      SOURCES_RETRIES: "1",
      SOURCES_BACKOFF_MS: "5",
    };
    const [r] = await refreshSources({ dataDir: emptyDataDir, artifactsDir, env, only: ["ghcnd"], progress: { start() {}, source() {} } });
    // The station in the box without a file is the one failure; its previous copy: none.
    expect(r).toMatchObject({ source: "ghcnd", outcome: "partial", failed: 1, changed: files.size + 1 });
    expect(r.reason).toMatch(/BM000099999\.csv/);
    expect(replay.asked.filter((u) => u.endsWith("ghcnd-stations.txt"))).toHaveLength(2); // discovery, then the index
    expect([...new Set(replay.asked.filter((u) => u.startsWith("/access/")))].sort()).toEqual([...files.keys(), "BM000099999"].map((id) => `/access/${id}.csv`).sort());
    const raw = currentRawDir(artifactsDir, "ghcnd")!;
    for (const [id, path] of files) expect(readFileSync(join(raw, `${id}.csv`)).equals(readFileSync(path)), id).toBe(true);
    expect(existsSync(join(raw, "BM000099999.csv"))).toBe(false);

    await writeInputOverlay(emptyDataDir, artifactsDir, env);
    const inputs = effectiveDataDir(emptyDataDir, artifactsDir);
    expect(inputs).toBe(join(artifactsDir, "inputs"));
    // The index lists 56 − 2 far-away stations; the one without a file is left out when read.
    expect((await readStationIndex(join(inputs, GHCND_SUBDIR), { all: true })).length).toBe(files.size + 1);
    expect((await readStationIndex(join(inputs, GHCND_SUBDIR))).map((e) => e.id)).toEqual([...files.keys()]);

  }, 120_000);
});
