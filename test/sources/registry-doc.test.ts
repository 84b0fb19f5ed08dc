// The registry and its prose (docs/methods/sources.md) name the same sources; every entry is complete.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { SOURCES, sourceByName } from "../../pipeline/sources/registry.ts";
import type { SourceReport } from "../../pipeline/sources/state.ts";
import { sourcesTable } from "../../pipeline/sources/status-table.ts";

describe("source registry", () => {
  it("is documented source by source", () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs", "methods", "sources.md"), "utf8");
    const listed = [...doc.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(SOURCES.map((s) => s.name));
    // Each row gives the registry's title (the doc may add to it) and licence text word for word.
    for (const s of SOURCES) {
      const row = doc.split("\n").find((l) => l.startsWith(`| \`${s.name}\` |`))!;
      expect(row, s.name).toContain(`| ${s.title}`);
      expect(row, s.name).toContain(`| ${s.licence}`);
    }
  });

  it("names every stopped upstream under its heading, and the table and --json say so", () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs", "methods", "sources.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Stopped upstreams"), doc.indexOf("## Overrides and switches"));
    const listed = [...section.matchAll(/^- `([a-z0-9_]+)`:/gm)].map((m) => m[1]);
    expect(listed).toEqual(SOURCES.filter((s) => s.upstream).map((s) => s.name));
    expect(listed).toEqual(["dfo", "unlocode"]);
    for (const s of SOURCES.filter((x) => x.upstream)) {
      expect(s.upstream!.alternatives, s.name).toMatch(/used: |named only: /);
    }
    // `pipeline sources`: the mark in the table, the note under it.
    const report = (name: string) => ({ name, status: "offline", dataAsOf: null, from: "data-dir", cadence: "yearly", bytes: null, nonCommercial: null, reason: "the data directory's copy", upstream: sourceByName(name)!.upstream ?? null }) as unknown as SourceReport;
    const text = sourcesTable([report("wpi"), report("unlocode")]);
    expect(text).toContain("unlocode  offline");
    expect(text.split("\n").find((l) => l.startsWith("unlocode "))).toContain("[upstream stopped] the data directory's copy");
    expect(text.split("\n").find((l) => l.startsWith("wpi "))).not.toContain("upstream");
    expect(text).toContain(`unlocode: upstream stopped: ${sourceByName("unlocode")!.upstream!.stopped}\n  alternatives: named only: UNECE's official`);
  });

  it("gives every source a licence, an attribution, a cadence and unique name; credentials only as placeholders", () => {
    expect(new Set(SOURCES.map((s) => s.name)).size).toBe(SOURCES.length);
    for (const s of SOURCES) {
      expect(s.licence.length, s.name).toBeGreaterThanOrEqual(3); // "MIT"
      expect(s.attribution.length, s.name).toBeGreaterThan(5);
      // A credential in a URL is a placeholder filled at request time (FIRMS); CDS takes it in a header.
      if (s.credential && s.url?.includes(s.credential)) expect(s.url, s.name).toContain(`{${s.credential}}`);
      if (s.url) expect(s.url, s.name).toMatch(/^https:\/\//);
    }
    expect(SOURCES.find((s) => s.name === "firms")?.url).toContain("{FIRMS_MAP_KEY}");
    expect(SOURCES.filter((s) => s.nonCommercial).map((s) => s.name)).toEqual(expect.arrayContaining(["flunet", "portwatch_ports", "portwatch_daily"]));
  });
});
