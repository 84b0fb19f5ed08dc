// The README's drought examples (issue 35 item 5): every `$ curl` of the section from "Everything at one place" to
// "Feed-based risk types" is sent to a running server over the suite's build, with the service clock at the day the
// examples were recorded, and must get the answer the README shows — so the README cannot drift from the service.
// Answers are compared as JSON where they are JSON, without `timestamp` (the moment of the request) and with
// `dataSources` and `staleSources` as the README shortens them (["…"]); CSV as text. Commands piped through jq are
// left out (the suite does not need jq); their parts are the other examples' answers.
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

/** The request a curl command of the README makes: path, method and body. */
function requestOf(command: string): { path: string; body?: string } {
  const url = /localhost:8080([^"\s]+)/.exec(command);
  if (!url) throw new Error(`no localhost:8080 URL in ${command}`);
  const body = /-d '([\s\S]*?)'/.exec(command)?.[1];
  return { path: url[1], body };
}

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

describe("the README's drought examples", () => {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const examples = readmeExamples(readme, "Everything at one place in one request", "Feed-based risk types answer wherever");

  it("are found: the points, provinces, score, batch and records of the section", () => {
    expect(readme).toContain(`real answers of \`make serve\` on the data mirror on ${RECORDED}`);
    expect(examples.filter((e) => !e.command.includes("| jq")).length).toBeGreaterThanOrEqual(10);
  });

  it("get the answers the README shows", async () => {
    for (const e of examples.filter((x) => !x.command.includes("| jq"))) {
      const { path, body } = requestOf(e.command);
      const res = await fetch(server.base + path, {
        method: body === undefined ? "GET" : "POST",
        headers: { "X-API-Key": server.key, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body?.replace(/\n\s*/g, ""),
      });
      const text = (await res.text()).replace(/\n$/, "");
      const shown = e.output.join("\n");
      const where = `README.md:${e.line} ${path}`;
      if (shown.startsWith("{")) expect(normalised(JSON.parse(text)), where).toEqual(normalised(JSON.parse(shown)));
      else expect(text, where).toBe(shown);
    }
  });
});
