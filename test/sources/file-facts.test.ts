// SOURCE_FACTS_FILE: what checking a file told (rows, checksum, data as-of) is kept by path, size and mtime in one
// file that several artifact directories share; a status run takes a kept fact instead of reading the file again,
// and reads a file again once it changed. The data directory is written here (a few GISTEMP rows in the datahub layout).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCES } from "../../pipeline/sources/registry.ts";
import { sourceStates } from "../../pipeline/sources/state.ts";

const work = mkdtempSync(join(tmpdir(), "file-facts-"));
const data = join(work, "data");
const file = join(data, "feeds", "temperature", "global-monthly-gistemp-gcag.csv");
mkdirSync(join(data, "feeds", "temperature"), { recursive: true });
const factsFile = join(work, "shared", "facts.json");
const gistemp = SOURCES.filter((s) => s.name === "gistemp");
const env = { SOURCES_OFFLINE: "1", SOURCE_FACTS_FILE: factsFile };
const rowsOf = async (artifactsDir: string) => {
  const [report] = await sourceStates({ dataDir: data, artifactsDir, env, sources: gistemp });
  return report.files.find((f) => f.file.endsWith("global-monthly-gistemp-gcag.csv"))!;
};

describe("SOURCE_FACTS_FILE", () => {
  it("is shared by two artifact directories: the second takes the kept fact; a changed file is read again", async () => {
    writeFileSync(file, "Source,Year,Mean\nGISTEMP,2023-11,1.12\nGISTEMP,2023-12,1.16\n");
    const first = await rowsOf(join(work, "a1"));
    expect(first).toMatchObject({ from: "data-dir", rows: 2, dataAsOf: "2023-12-31" });
    const kept = JSON.parse(readFileSync(factsFile, "utf8")) as Record<string, { rows: number }>;
    const key = Object.keys(kept).find((k) => k.includes(file))!;
    expect(kept[key].rows).toBe(2);
    // A fact only this file holds: the second directory can have it from nowhere else.
    kept[key].rows = 999;
    writeFileSync(factsFile, JSON.stringify(kept));
    expect((await rowsOf(join(work, "a2"))).rows).toBe(999);
    writeFileSync(file, "Source,Year,Mean\nGISTEMP,2023-11,1.12\nGISTEMP,2023-12,1.16\nGISTEMP,2024-01,1.22\n");
    expect(await rowsOf(join(work, "a2"))).toMatchObject({ rows: 3, dataAsOf: "2024-01-31" });
  });

  it("defaults to the artifact directory's raw cache", async () => {
    const artifactsDir = join(work, "a3");
    await sourceStates({ dataDir: data, artifactsDir, env: { SOURCES_OFFLINE: "1" }, sources: gistemp });
    expect(Object.keys(JSON.parse(readFileSync(join(artifactsDir, "raw", "file-facts.json"), "utf8"))).some((k) => k.includes(file))).toBe(true);
  });
});
