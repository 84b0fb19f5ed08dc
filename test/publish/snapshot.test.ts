import { mkdtempSync, readFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readManifest, verifyArtifacts } from "../../formats/manifest.ts";
import { publishSnapshot, snapshotRoot } from "../../pipeline/snapshots/publish-snapshot.ts";

describe("publishSnapshot", () => {
  it("publishes a named snapshot under snapshots/<name> with as-of time, sources and checksums", async () => {
    const dir = mkdtempSync(join(tmpdir(), "snap-"));
    const { version, dir: vdir } = await publishSnapshot({
      artifactsDir: dir,
      name: "flood",
      files: { "events.json": "[1,2]", "report.json": "{}" },
      asOf: "2026-05-30T18:58:00Z",
      sources: ["GDACS"],
      inputs: { "feeds/gdacs/x.geojson": { bytes: 3, sha256: "a".repeat(64) } },
      qc: { rejected: 0 },
      report: "report.json",
      now: new Date("2026-11-23T10:00:00Z"),
    });
    expect(version).toMatch(/^20261123T100000Z-[0-9a-f]{10}$/);
    expect(readlinkSync(join(snapshotRoot(dir, "flood"), "current"))).toBe(join("versions", version));
    const m = readManifest(vdir);
    expect(m.kind).toBe("flood");
    expect(m.asOf).toBe("2026-05-30T18:58:00Z");
    expect(m.sources).toEqual(["GDACS"]);
    expect(Object.keys(m.artifacts).sort()).toEqual(["events.json", "report.json"]);
    expect(await verifyArtifacts(vdir, m)).toEqual([]);
    expect(readFileSync(join(snapshotRoot(dir, "flood"), "current", "events.json"), "utf8")).toBe("[1,2]");
  });
});
