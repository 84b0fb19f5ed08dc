// The registry and its prose (docs/methods/sources.md) name the same sources; every entry is complete.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { SOURCES } from "../../pipeline/sources/registry.ts";

describe("source registry", () => {
  it("is documented source by source", () => {
    const doc = readFileSync(join(PROJECT_ROOT, "docs", "methods", "sources.md"), "utf8");
    const listed = [...doc.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(SOURCES.map((s) => s.name));
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
