// The README's API examples (issue 35 item 5): every `$ curl` of "The API" section is run as a reader would run it
// (bash, with KEY set and localhost:8080 the address of a running server over the suite's build, the service clock
// at the day the examples were recorded) and must print what the README shows — so the README cannot drift from the
// service. Version ids (20261128T144820Z-9b8081f5bc) are left out of the comparison: they name the build, not the
// answer. Lines that are JSON are compared as JSON, without `timestamp` (the moment of the request) and with
// `dataSources` and `staleSources` as the README shortens them (["…"]); other lines as text. curl and jq are test
// dependencies (.ci/install-test-deps.sh).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";
import { ALL_SNAPSHOTS, privateArtifacts, startRealServer, type RealServer } from "./real-server.ts";

/** The day of the README's answers (its "real answers of `make serve` … on" line). */
const RECORDED = "2026-11-28";

interface Example {
  line: number;
  command: string;
  output: string[];
}

/** The `$ curl` examples of the README between two headings' first words, with the lines shown as their answers. */
export function readmeExamples(text: string, from: string, to: string): Example[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.includes(from));
  const end = lines.findIndex((l, i) => i > start && l.includes(to));
  const out: Example[] = [];
  for (let i = start; i < end; i++) {
    if (!lines[i].startsWith("$ curl")) continue;
    const line = i + 1;
    const command = [lines[i].slice(2)];
    const open = () => command.join("\n").split("'").length % 2 === 0 || command.at(-1)!.endsWith("\\");
    while (open()) command.push(lines[++i]);
    const output: string[] = [];
    while (i + 1 < end && !lines[i + 1].startsWith("$ ") && !lines[i + 1].startsWith("```")) output.push(lines[++i]);
    out.push({ line, command: command.join("\n"), output });
  }
  return out;
}

/** A command line run by bash, its exit status and output. */
function runShell(command: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn("bash", ["-c", command], { env });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const withoutVersionIds = (text: string) => text.replace(/\d{8}T\d{6}Z-[0-9a-f]{10}/g, "<version>");

function normalised(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalised);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "timestamp") continue;
      out[k] = (k === "dataSources" || k === "staleSources") && Array.isArray(x) && x.length > 0 ? ["…"] : normalised(x);
    }
    return out;
  }
  return v;
}

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer(privateArtifacts(inject("artifactsDir"), ALL_SNAPSHOTS).dir, { CLOCK_TODAY: RECORDED });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("the README's API examples", () => {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const examples = readmeExamples(readme, "## The API", "## Benchmarks");

  it("are found: the drought, feed, outbreak, supply-chain and error examples of the section", () => {
    expect(readme).toContain(`real answers of \`make serve\` on the data mirror on ${RECORDED}`);
    expect(examples.length).toBeGreaterThanOrEqual(40);
    for (const path of ["/api/risk-map/drought?", "/api/risk-map/profile?", "/api/outbreak-radar/query", "/api/supply-chain/", "/api/risk-map/events?"]) {
      expect(examples.some((e) => e.command.includes(path)), path).toBe(true);
    }
  });

  it("print what the README shows", async () => {
    const address = new URL(server.base).host;
    // One bash runs every example in turn, each followed by a mark with its exit status: a process spawned from a
    // test worker costs half a second (the fork of a large process), one per example took 25 s.
    const MARK = "@@README-EXAMPLE@@";
    const script = examples.map((e, k) => `${e.command.replaceAll("localhost:8080", address)}\nprintf '\\n${MARK} ${k} %d\\n' "$?"`).join("\n");
    const all = await runShell(script, { PATH: process.env.PATH!, KEY: server.key });
    const runs: { status: number; stdout: string }[] = [];
    let rest = all.stdout;
    for (let k = 0; k < examples.length; k++) {
      const m = new RegExp(`\\n${MARK} ${k} (\\d+)\\n`).exec(rest);
      if (!m) throw new Error(`README.md:${examples[k].line}: no end mark in the output; stderr: ${all.stderr}`);
      runs.push({ status: Number(m[1]), stdout: rest.slice(0, m.index) });
      rest = rest.slice(m.index + m[0].length);
    }
    examples.forEach((e, k) => {
      const r = runs[k];
      const where = `README.md:${e.line}`;
      // Soft: one run names every example that drifted.
      expect.soft(r.status, `${where}: ${all.stderr}`).toBe(0);
      const printed = r.stdout.replace(/\n$/, "").split("\n");
      expect.soft(printed.length, where).toBe(e.output.length);
      e.output.forEach((line, i) => {
        // Version ids name the build (its time and fingerprint), not the answer: the README shows the one it was
        // recorded from.
        const shown = withoutVersionIds(line);
        const got = withoutVersionIds(printed[i] ?? "");
        if (/^[{[]/.test(shown) && /^[{[]/.test(got)) expect.soft(normalised(JSON.parse(got)), `${where} line ${i + 1}`).toEqual(normalised(JSON.parse(shown)));
        else expect.soft(got, `${where} line ${i + 1}`).toBe(shown);
      });
    });
  }, 120_000);
});
