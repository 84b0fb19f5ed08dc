// The bulk scorer against the batch answer: every row carries the values POST /api/risk-map/drought/batch gives
// for the same point (the service's batchItem), bad rows get found=false with the reason, and the command's usage
// errors exit with 2.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parse } from "csv-parse/sync";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { log } from "../../lib/log.ts";
import { openDroughtService } from "../../server/services/drought-service.ts";
import { openPublishedGrid, scorePoints } from "../../pipeline/commands/score-points.ts";
import { SCORED_HEADER } from "../../lib/drought/point-scorer.ts";

const artifactsDir = inject("artifactsDir");
const dir = mkdtempSync(join(tmpdir(), "score-points-"));
const { service, store } = await openDroughtService(artifactsDir, { pollMs: 0 });
afterAll(() => store.stop());

async function score(csv: string, month?: string) {
  const input = join(dir, `in-${Math.random().toString(36).slice(2)}.csv`);
  const output = input.replace("in-", "out-");
  writeFileSync(input, csv);
  const result = await scorePoints({ input, output, month }, await openPublishedGrid(artifactsDir), log);
  const text = readFileSync(output, "utf8");
  return { result, text, rows: parse(text, { columns: true }) as Record<string, string>[] };
}

describe("bulk scorer", () => {
  it("gives each point the batch endpoint's values, in input order", async () => {
    let seed = 9;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const points = Array.from({ length: 3000 }, (_, i) => ({ id: `p${i}`, lat: +(5.5 + rnd() * 15).toFixed(5), lng: +(97.3 + rnd() * 8.4).toFixed(5) }));
    const { result, text, rows } = await score("id,lat,lng\n" + points.map((p) => `${p.id},${p.lat},${p.lng}`).join("\n") + "\n");
    expect(text.split("\n")[0]).toBe(SCORED_HEADER);
    expect(rows).toHaveLength(points.length);
    let found = 0;
    points.forEach((p, i) => {
      const want = service.batchItem(p.id, p.lat, p.lng);
      const got = rows[i];
      expect(got.id).toBe(p.id);
      expect(Number(got.lat)).toBe(p.lat);
      expect(got.found).toBe(String(want.found));
      expect(got.month).toBe(want.month ?? "");
      if (want.found) {
        found++;
        expect([Number(got.riskScore), got.riskLevel, got.severity || null, Number(got.spei1), got.reason]).toEqual([want.riskScore, want.riskLevel, want.severity, want.spei1, ""]);
      } else expect([got.riskScore, got.reason]).toEqual(["", want.reason]);
    });
    expect(found).toBeGreaterThan(500);
    expect(result).toMatchObject({ rows: 3000, found, notFound: 3000 - found, invalid: 0 });
  });

  it("reads columns in any order, CRLF, quoted ids and a month column; reports bad rows", async () => {
    const csv = [
      "lng,month,lat,id",
      '100.5,2019-01,13.75,"Bangkok, HQ"',
      "100.5,,13.75,default-month",
      "100.5,1900-01,13.75,too-early",
      "100.5,2019-13,13.75,bad-month",
      "abc,,13.75,bad-lng",
      "100.5,,95,bad-lat",
      "100,,10,gulf",
      "",
    ].join("\r\n");
    const { result, rows } = await score(csv);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(Object.keys(byId)).toEqual(["Bangkok, HQ", "default-month", "too-early", "bad-month", "bad-lng", "bad-lat", "gulf"]);
    const jan = service.drought(13.75, 100.5, "2019-01");
    expect(byId["Bangkok, HQ"]).toMatchObject({ month: "2019-01", found: "true", spei1: String(jan.drought.indices.spei1) });
    expect(byId["default-month"].month).toBe(service.drought(13.75, 100.5).period.month);
    expect(byId["too-early"]).toMatchObject({ found: "false", reason: expect.stringMatching(/^no drought data for 1900-01: the grid covers/) });
    expect(byId["bad-month"]).toMatchObject({ found: "false", reason: 'month must be YYYY-MM, got "2019-13"' });
    expect(byId["bad-lng"].reason).toBe('lng must be a number from -180 to 180, got "abc"');
    expect(byId["bad-lat"].reason).toBe('lat must be a number from -90 to 90, got "95"');
    expect(byId.gulf.reason).toBe("location is outside the covered area (the land of Thailand, Vietnam and Malaysia)");
    expect(result).toMatchObject({ rows: 7, found: 2, invalid: 3, notFound: 2 });
  });

  it("answers a point the same whichever way its row is written (bytes or text path), with no final newline", async () => {
    const want = service.batchItem("x", 13.75, 100.5);
    const forms = ["13.75,100.5", "1.375e1,100.5", "+13.75,100.5", " 13.75,100.5", "13.7500000000000000001,100.5", '"13.75",100.5', "13.75,100.50"];
    const csv = "id,lat,lng\n" + forms.map((f, i) => `f${i},${f}`).join("\n") + "\nmonth,13.75,100.5,2018-06";
    const { rows, result } = await score(csv);
    expect(rows).toHaveLength(forms.length + 1);
    for (const r of rows.slice(0, -1)) expect([r.found, Number(r.riskScore), Number(r.spei1)]).toEqual(["true", want.riskScore, want.spei1]);
    expect(rows.map((r) => r.lat)).toEqual(["13.75", "1.375e1", "+13.75", " 13.75", "13.7500000000000000001", "13.75", "13.75", "13.75"]);
    // The last line has a fourth field the header lacks: the text path reads its first three, as before.
    expect(rows.at(-1)).toMatchObject({ id: "month", month: service.drought(13.75, 100.5).period.month, found: "true" });
    expect(result).toMatchObject({ rows: forms.length + 1, found: forms.length + 1 });
  });

  it("reads a line longer than its read buffer (4 MiB)", async () => {
    const id = "i".repeat(5 << 20);
    const { rows } = await score(`id,lat,lng\n${id},13.75,100.5\nb,13.75,100.5\n`);
    expect(rows.map((r) => [r.id.length, r.found])).toEqual([[id.length, "true"], [1, "true"]]);
  });

  it("scores every row in a --month", async () => {
    const { rows } = await score("id,lat,lng\na,13.75,100.5\n", "2018-06");
    expect(rows[0]).toMatchObject({ month: "2018-06", spei1: String(service.drought(13.75, 100.5, "2018-06").drought.indices.spei1) });
  });

  it("runs as npm run score and refuses bad usage with exit code 2", () => {
    const input = join(dir, "cli.csv");
    const output = join(dir, "cli-out.csv");
    writeFileSync(input, "id,lat,lng\nx,13.75,100.5\n");
    const env = { ...process.env, ARTIFACTS_DIR: artifactsDir };
    const run = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "pipeline/cli.ts", "score", ...args], { cwd: PROJECT_ROOT, env, encoding: "utf8" });
    const ok = run("--input", input, "--output", output);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout.trim().split("\n").pop()!)).toMatchObject({ rows: 1, found: 1, output });
    expect(readFileSync(output, "utf8").split("\n")[1]).toMatch(/^x,13\.75,100\.5,\d{4}-\d\d,true,/);
    const noInput = run("--output", output);
    expect([noInput.status, noInput.stderr]).toEqual([2, expect.stringContaining("--input and --output are required")]);
    writeFileSync(input, "name,latitude\n");
    const badHeader = run("--input", input, "--output", output);
    expect([badHeader.status, badHeader.stderr]).toEqual([2, expect.stringContaining("missing columns id, lat, lng")]);
    const missing = run("--input", join(dir, "nope.csv"), "--output", output);
    expect(missing.status).toBe(2);
  });
});
