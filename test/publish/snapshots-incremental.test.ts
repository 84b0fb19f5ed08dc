// `make snapshots` rebuilds only what changed: a snapshot whose input files, input folders, artifact inputs and
// code are as they were for its current version is not built at all (the builder is not called).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readManifest, sha256Bytes } from "../../formats/manifest.ts";
import { buildSnapshots, type SnapshotBuilder } from "../../pipeline/snapshots/build-snapshots.ts";
import { FINGERPRINT_FILE } from "../../pipeline/snapshots/inputs-fingerprint.ts";
import { publishSnapshot, snapshotRoot } from "../../pipeline/snapshots/publish-snapshot.ts";

const tmp = mkdtempSync(join(tmpdir(), "snap-incremental-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const dataDir = join(tmp, "data");
const artifactsDir = join(tmp, "artifacts");
// A stand-in for the drought artifact that the flood builder reads (`artifact:` input).
const gridRoot = snapshotRoot(join(tmp, "grid"), "drought");
const NOW = new Date("2026-11-23T10:00:00Z");

let calls = 0;
const demo: SnapshotBuilder = {
  name: "demo",
  async build(ctx) {
    calls++;
    const bytes = readFileSync(join(ctx.dataDir, "feeds/demo/a.csv"));
    const grid = readManifest(realpathSync(join(ctx.artifactsDir!, "current"))).artifacts["grid.bin"];
    return {
      files: { "data.json": JSON.stringify({ rows: bytes.toString("utf8").split("\n").length, grid: grid.sha256 }), "report.json": "{}" },
      asOf: "2026-11-01T00:00:00.000Z",
      sources: ["demo feed"],
      inputs: { "feeds/demo/a.csv": { bytes: bytes.length, sha256: sha256Bytes(bytes) }, "artifact:grid.bin": grid },
      qc: {},
      acceptedRows: { "feeds/demo/a.csv": bytes.toString("utf8").split("\n").length },
      report: "report.json",
    };
  },
};

const publishGrid = (content: string) =>
  publishSnapshot({ artifactsDir: join(tmp, "grid"), name: "drought", files: { "grid.bin": content, "r.json": "{}" }, asOf: "x", sources: [], inputs: {}, qc: {}, report: "r.json", now: NOW });
const run = (extra: { env?: NodeJS.ProcessEnv; force?: boolean } = {}) =>
  buildSnapshots({ dataDir, artifactsDir, droughtArtifactsDir: gridRoot, env: extra.env ?? {}, force: extra.force, now: NOW, builders: [demo] });

describe("incremental snapshots", () => {
  it("builds a snapshot only when its inputs, their folders, an artifact input or a feed download changed", async () => {
    mkdirSync(join(dataDir, "feeds/demo"), { recursive: true });
    writeFileSync(join(dataDir, "feeds/demo/a.csv"), "id,value\n1,2\n");
    await publishGrid("grid one");

    expect((await run()).demo.status).toBe("published");
    expect(calls).toBe(1);
    expect((await run()).demo.status).toBe("unchanged");
    expect(calls).toBe(1); // not built

    writeFileSync(join(dataDir, "feeds/demo/a.csv"), "id,value\n1,2\n2,5\n");
    expect((await run()).demo.status).toBe("published");
    expect(calls).toBe(2);
    expect((await run()).demo.status).toBe("unchanged");
    expect(calls).toBe(2);

    // A new file beside an input may be one the builder picks up: build (the output is the same here).
    writeFileSync(join(dataDir, "feeds/demo/b.csv"), "id,value\n");
    expect((await run()).demo.status).toBe("unchanged");
    expect(calls).toBe(3);
    expect((await run()).demo.status).toBe("unchanged");
    expect(calls).toBe(3);

    await publishGrid("grid two");
    expect((await run()).demo.status).toBe("published");
    expect(calls).toBe(4);

    expect((await run({ env: { FEED_URL_DEMO: "http://127.0.0.1:9/demo.csv" } })).demo.status).toBe("unchanged");
    expect(calls).toBe(5);
    await run({ force: true });
    expect(calls).toBe(6);

    rmSync(join(snapshotRoot(artifactsDir, "demo"), FINGERPRINT_FILE));
    expect((await run()).demo.status).toBe("unchanged");
    expect(calls).toBe(7);
    const last = await run();
    // Every run has the same fixed clock: the versions after the first are stamped a second after the one before
    // (ids only move forward, pipeline/publish publishedId).
    expect(last.demo).toEqual({ status: "unchanged", version: expect.stringMatching(/^20261123T1000\d\dZ-[0-9a-f]{10}$/) });
    expect(calls).toBe(7);
  });
});
