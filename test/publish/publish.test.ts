import { mkdtempSync, readFileSync, writeFileSync, existsSync, readlinkSync, mkdirSync, utimesSync } from "node:fs";
import { hostname } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, verifyArtifacts, sha256Bytes } from "../../formats/manifest.ts";
import {
  createStaging,
  currentVersion,
  discardStaging,
  listVersions,
  makeVersionId,
  parseVersionId,
  publishedId,
  publishStaging,
  pruneVersions,
  type ManifestBody,
} from "../../pipeline/publish/publish.ts";
import { LEASE_TTL_MS, READERS_DIR, removeLease, writeLease } from "../../formats/reader-leases.ts";

const body: ManifestBody = {
  builtAt: "2026-11-23T10:00:00.000Z",
  inputs: {},
  baseline: { start: "1961-01", end: "1990-12" },
  monthRange: { first: "1951-01", last: "2019-12" },
  latestValidMonth: "2019-06",
  qc: {},
  report: "build-report.json",
  settings: {},
};

function publishOne(dir: string, version: string, content: string) {
  const staging = createStaging(dir, version);
  writeFileSync(join(staging.dir, "a.bin"), content);
  return publishStaging(staging, body);
}

describe("publish", () => {
  it("makes version ids that sort by time", () => {
    expect(makeVersionId(new Date("2026-11-23T10:30:05.123Z"), "abc")).toBe("20261123T103005Z-abc");
  });

  it("publishes a checksummed version and points current at it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    const target = await publishOne(dir, "v1", "hello");
    expect(readlinkSync(join(dir, "current"))).toBe(join("versions", "v1"));
    const m = readManifest(target);
    expect(m.version).toBe("v1");
    expect(m.artifacts["a.bin"]).toEqual({ bytes: 5, sha256: sha256Bytes(Buffer.from("hello")) });
    expect(await verifyArtifacts(target, m)).toEqual([]);
  });

  it("detects a corrupted artifact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    const target = await publishOne(dir, "v1", "hello");
    writeFileSync(join(target, "a.bin"), "jello");
    const problems = await verifyArtifacts(target, readManifest(target));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^a\.bin: sha256 .* does not match manifest/);
  });

  it("a discarded (failed) build leaves current untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    await publishOne(dir, "v1", "one");
    const staging = createStaging(dir, "v2");
    writeFileSync(join(staging.dir, "a.bin"), "half-written");
    discardStaging(staging);
    expect(currentVersion(dir)).toBe("v1");
    expect(listVersions(dir)).toEqual(["v1"]);
    expect(readFileSync(join(dir, "current", "a.bin"), "utf8")).toBe("one");
  });

  it("refuses to overwrite an existing version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    await publishOne(dir, "v1", "one");
    await expect(publishOne(dir, "v1", "two")).rejects.toThrow(/already exists/);
    expect(readFileSync(join(dir, "current", "a.bin"), "utf8")).toBe("one");
  });

  it("prunes old versions but keeps current and the newest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    for (const v of ["v1", "v2", "v3", "v4"]) await publishOne(dir, v, v);
    expect(await pruneVersions(dir, 2)).toEqual(["v1", "v2"]);
    expect(listVersions(dir)).toEqual(["v3", "v4"]);
    expect(currentVersion(dir)).toBe("v4");
  });

  it("removes staging leftovers of dead processes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    mkdirSync(join(dir, "staging", "vx.999999999"), { recursive: true });
    await pruneVersions(dir, 3);
    expect(existsSync(join(dir, "staging", "vx.999999999"))).toBe(false);
  });

  /** A heatwave snapshot (snapshot.json, build-report.json): valid when the report is a JSON object, refused when it is not. */
  function publishReport(dir: string, version: string, valid: boolean) {
    const staging = createStaging(dir, version);
    const time = "2026-01-01T00:00:00.000Z";
    const coverage = { bbox: [-180, -90, 180, 90], surface: "land", description: "land" };
    const meta = { riskType: "heatwave", format: 2, asOf: time, recordStart: time, recordYears: 1, coverage, dataSources: [], params: {}, unit: "days" };
    writeFileSync(join(staging.dir, "snapshot.json"), JSON.stringify({ meta }));
    writeFileSync(join(staging.dir, "build-report.json"), valid ? JSON.stringify({ version }) : "[broken");
    return publishStaging(staging, { ...body, kind: "heatwave" });
  }

  it("never removes the newest valid version while newer ones on disk are refused (a server still serves it)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    await publishReport(dir, "v1", true);
    await publishReport(dir, "v2", false);
    expect(await pruneVersions(dir, 1)).toEqual([]);
    expect(listVersions(dir)).toEqual(["v1", "v2"]);
    await publishReport(dir, "v3", false);
    expect(await pruneVersions(dir, 1)).toEqual(["v2"]);
    expect(listVersions(dir)).toEqual(["v1", "v3"]);
    await publishReport(dir, "v4", true);
    expect(await pruneVersions(dir, 1)).toEqual(["v1", "v3"]);
    expect(listVersions(dir)).toEqual(["v4"]);
  });

  it("keeps a version a running reader holds a lease on; a dead reader's or an expired lease keeps nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    for (const v of ["v1", "v2", "v3", "v4"]) await publishReport(dir, v, true);
    writeLease(dir, "v1");
    mkdirSync(join(dir, READERS_DIR), { recursive: true });
    const dead = { version: "v2", pid: 999999999, host: hostname(), updatedAt: new Date().toISOString() };
    writeFileSync(join(dir, READERS_DIR, `${hostname()}.999999999.json`), JSON.stringify(dead));
    const far = join(dir, READERS_DIR, "other-host.42.json");
    writeFileSync(far, JSON.stringify({ version: "v3", pid: 42, host: "other-host", updatedAt: new Date().toISOString() }));
    expect(await pruneVersions(dir, 1)).toEqual(["v2"]);
    expect(listVersions(dir)).toEqual(["v1", "v3", "v4"]);
    expect(existsSync(join(dir, READERS_DIR, `${hostname()}.999999999.json`))).toBe(false);
    const old = (Date.now() - LEASE_TTL_MS - 60_000) / 1000;
    utimesSync(far, old, old);
    expect(await pruneVersions(dir, 1)).toEqual(["v3"]);
    removeLease(dir);
    expect(await pruneVersions(dir, 1)).toEqual(["v1"]);
    expect(listVersions(dir)).toEqual(["v4"]);
  });
});

describe("version ids only move forward (issue 39, item 4)", () => {
  const T0 = new Date("2026-11-23T10:00:00Z");
  const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

  /** Stages a version whose build started at `startedAt`, with a report naming its staging id; publishes it at `publishAt`. */
  function stage(dir: string, startedAt: Date, suffix: string) {
    const staging = createStaging(dir, makeVersionId(startedAt, suffix));
    writeFileSync(join(staging.dir, "a.bin"), suffix);
    writeFileSync(join(staging.dir, "build-report.json"), JSON.stringify({ version: staging.version, ok: true }, null, 2) + "\n");
    return { staging, publish: (publishAt: Date) => publishStaging(staging, body, publishAt) };
  }

  it("a long build started first and published second gets an id after the short one's, stamped when it is published", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    const long = stage(dir, at(0), "aaaaaaaaaa"); // started first, takes 10 minutes
    const short = stage(dir, at(60), "bbbbbbbbbb"); // started a minute later, done at once
    const shortDir = await short.publish(at(90));
    expect(currentVersion(dir)).toBe("20261123T100100Z-bbbbbbbbbb");
    const longDir = await long.publish(at(600));
    const id = readManifest(longDir).version;
    expect(id).toBe("20261123T101000Z-aaaaaaaaaa"); // its publish time, its own hash
    expect(id > readManifest(shortDir).version).toBe(true);
    expect([currentVersion(dir), listVersions(dir)]).toEqual([id, ["20261123T100100Z-bbbbbbbbbb", id]]);
    // The report names the id it was published under; its checksum is that of the rewritten file.
    expect(JSON.parse(readFileSync(join(longDir, "build-report.json"), "utf8"))).toEqual({ version: id, ok: true });
    expect(await verifyArtifacts(longDir, readManifest(longDir))).toEqual([]);
  });

  it("a build that still sorts after every published version keeps the id of its start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    await stage(dir, at(0), "aaaaaaaaaa").publish(at(30));
    const later = await stage(dir, at(60), "0000000000").publish(at(600));
    expect(readManifest(later).version).toBe("20261123T100100Z-0000000000");
  });

  it("two publishes within one second, or a clock set back, still move forward: one second after the newest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pub-"));
    await stage(dir, at(0), "ffffffffff").publish(at(0));
    const same = await stage(dir, at(0), "0000000000").publish(at(0)); // same second, a hash that sorts first
    expect(readManifest(same).version).toBe("20261123T100001Z-0000000000");
    const back = await stage(dir, at(-3600), "1111111111").publish(at(-3600)); // the clock an hour behind
    expect(readManifest(back).version).toBe("20261123T100002Z-1111111111");
    expect(listVersions(dir)).toEqual(["20261123T100000Z-ffffffffff", "20261123T100001Z-0000000000", "20261123T100002Z-1111111111"]);
  });

  it("publishedId compares with every version of the root; names outside the id format are kept", () => {
    expect(publishedId("20261123T100000Z-abc", ["20261123T100500Z-x", "20261123T090000Z-y"], at(0))).toBe("20261123T100501Z-abc");
    expect(publishedId("20261123T100000Z-abc", [], at(0))).toBe("20261123T100000Z-abc");
    expect(publishedId("v1", ["v2"], at(0))).toBe("v1");
    expect(parseVersionId("20261123T103005Z-abc")).toEqual({ at: new Date("2026-11-23T10:30:05Z"), suffix: "abc" });
    expect(parseVersionId("v1")).toBeUndefined();
  });
});
