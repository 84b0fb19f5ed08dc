// The load-time check of snapshot versions (formats/version-files.ts): each file is read by its reader or
// shape-checked, numeric fields with a defined range are range-checked, and a file no reader knows is refused.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeDaySeries } from "../../formats/day-series.ts";
import { writeEventIndex, type EventInput } from "../../formats/event-index.ts";
import { writeFootprintIndex } from "../../formats/footprint-index.ts";
import { validateVersion } from "../../formats/version-files.ts";
import { publishSnapshot } from "../../pipeline/snapshots/publish-snapshot.ts";

const META = {
  riskType: "flood",
  // snapshot.json layout 2 (issue 10): global coverage with a surface rule.
  format: 2,
  asOf: "2026-05-24T01:00:00.000Z",
  recordStart: "1985-01-01T00:00:00.000Z",
  recordYears: 41.4,
  coverage: { bbox: [-180, -90, 180, 90], surface: "land", description: "land worldwide" },
  dataSources: ["DFO"],
  params: { radiusKm: 150 },
  unit: "DFO magnitude",
};
const EVENT: EventInput = { id: "DFO-1", source: "DFO", time: Date.UTC(2011, 7, 1), endTime: Date.UTC(2011, 11, 1), lng: 100.5, lat: 13.75, magnitude: 6.5, name: "Thailand flood" };

/** Publishes a snapshot of `name` holding `files` (and the files every snapshot of that kind holds, unless given). */
async function versionWith(files: Record<string, Uint8Array | string>, name = "flood"): Promise<string[]> {
  const artifactsDir = mkdtempSync(join(tmpdir(), "version-files-"));
  const all = { ...(name === "flood" ? { "footprints.bin": writeFootprintIndex([]) } : {}), ...files };
  const { dir } = await publishSnapshot({ artifactsDir, name, files: all, asOf: META.asOf, sources: [], inputs: {}, qc: {}, report: "build-report.json" });
  return validateVersion(dir);
}

const report = JSON.stringify({ rows: 1 });
const PORTS_EXTRA = { "ais.json": JSON.stringify({ sampleTime: null, fixes: [] }), "hazards.json": JSON.stringify({ liveFeedAsOf: null, events: [] }), "build-report.json": report };

describe("snapshot versions", () => {
  it("a good flood snapshot passes", async () => {
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: META }), "events.bin": writeEventIndex([EVENT]), "build-report.json": report })).toEqual([]);
  });

  it("an event off the globe, an event ending before it starts and an infinite magnitude are refused", async () => {
    const files = (e: Partial<EventInput>) => ({ "snapshot.json": JSON.stringify({ meta: META }), "events.bin": writeEventIndex([{ ...EVENT, ...e }]), "build-report.json": report });
    expect(await versionWith(files({ lat: 95 }))).toEqual(["events.bin: event index: event 0 (DFO-1): point 95, 100.5 is not on the globe"]);
    expect(await versionWith(files({ endTime: EVENT.time - 1 }))).toEqual([
      `events.bin: event index: event 0 (DFO-1): times ${EVENT.time}..${EVENT.time - 1} are not a period`,
    ]);
    expect(await versionWith(files({ magnitude: Infinity }))).toEqual(["events.bin: event index: event 0 (DFO-1): magnitude Infinity"]);
  });

  it("snapshot.json of the wrong shape or with out-of-range fields is refused, naming the field", async () => {
    const bin = writeEventIndex([EVENT]);
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: { ...META, riskType: "drizzle" } }), "events.bin": bin, "build-report.json": report })).toEqual([
      expect.stringMatching(/^snapshot\.json: meta\.riskType: /),
    ]);
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: { ...META, asOf: "yesterday" } }), "events.bin": bin, "build-report.json": report })).toEqual([
      "snapshot.json: meta.asOf: must be an ISO 8601 time",
    ]);
    const cell = { lat: 13.75, lng: 100.5, validMonths: 700, veryWetMonths: 1, veryWetLatestYear: 0, latestYearWetness: 0, latestSpi1: 1e30, latestSpi3: null, latestYearVeryWet: [] };
    const climateGrid = { source: "drought grid", version: "v1", gridMonth: "2019-06", recordStart: "1951-01", baseline: "1961-1990", resolutionDeg: 0.25, maxDistanceKm: 30, cells: [cell] };
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: META, climateGrid }), "events.bin": bin, "build-report.json": report })).toEqual([
      expect.stringMatching(/^snapshot\.json: climateGrid\.cells\.0\.latestSpi1: /),
    ]);
    expect(await versionWith({ "snapshot.json": '{"meta":', "events.bin": bin, "build-report.json": report })).toEqual([
      expect.stringMatching(/^snapshot\.json: not valid JSON/),
    ]);
  });

  it("a port-call series with a negative count or bytes after the last series is refused", async () => {
    const series = (v: number) => writeDaySeries([{ key: "port1", firstDay: 20000, columns: { portcalls: Float32Array.of(3, v) } }]);
    const doc = (ports: object[]) => JSON.stringify({ ports, aliases: [], otherEntries: {}, tankerCountries: {} });
    const ports = doc([{ code: "THBKK", name: "Bangkok", country: "TH", iso3: "THA", lat: 13.7, lng: 100.6, portwatch: [] }]);
    expect(await versionWith({ "port-calls.dseries": series(2), "ports.json": ports, ...PORTS_EXTRA }, "ports")).toEqual([]);
    expect(await versionWith({ "port-calls.dseries": series(-1), "ports.json": ports, ...PORTS_EXTRA }, "ports")).toEqual(["port-calls.dseries: port1.portcalls: value 1 is negative (-1)"]);
    const longer = new Uint8Array(series(2).length + 4);
    longer.set(series(2));
    expect(await versionWith({ "port-calls.dseries": longer, "ports.json": ports, ...PORTS_EXTRA }, "ports")).toEqual(["port-calls.dseries: day series file has 4 bytes after the last series"]);
    expect(await versionWith({ "port-calls.dseries": series(2), "ports.json": doc([{ code: "X", name: "X", country: "TH", iso3: "THA", lat: 91, lng: 0, portwatch: [] }]), ...PORTS_EXTRA }, "ports")).toEqual([
      expect.stringMatching(/^ports\.json: ports\.0\.lat: /),
    ]);
  });

  it("a file that no reader knows is refused", async () => {
    expect(await versionWith({ "notes.txt": "hello", "snapshot.json": JSON.stringify({ meta: { ...META, riskType: "heatwave" } }), "build-report.json": report }, "heatwave")).toEqual([
      "notes.txt: no reader knows this file",
    ]);
  });

  it("a snapshot lacking a file its kind always holds, or of an unknown kind, is refused", async () => {
    const bin = writeEventIndex([EVENT]);
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: META }), "build-report.json": report }, "storm")).toEqual(["events.bin: required of a storm version, not in the manifest"]);
    expect(await versionWith({ "snapshot.json": JSON.stringify({ meta: META }), "events.bin": bin })).toEqual(["build-report.json: required of a flood version, not in the manifest"]);
    expect(await versionWith({ "port-calls.dseries": writeDaySeries([]), "ports.json": "{}", "build-report.json": report }, "ports")).toEqual([
      "ais.json: required of a ports version, not in the manifest",
      "hazards.json: required of a ports version, not in the manifest",
    ]);
    expect(await versionWith({ "build-report.json": report }, "drizzle")).toEqual(['manifest.json: unknown kind "drizzle"']);
  });
});
