// make serve is never quiet for long before everything is published (issue 35 item 3): scripts/serve.sh runs the feed
// snapshots and the drought tiles and exports in the background and, while they run, prints a line every
// SERVE_PROGRESS_SECONDS with the newest record of each log. Run here with stand-ins for node and npm on PATH (the
// background builds print a record a second for a few seconds; the server waits), so the test takes seconds.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../lib/config.ts";

function script(path: string, body: string): void {
  writeFileSync(path, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(path, 0o755);
}

describe("make serve's background progress", () => {
  it("a line every few seconds while the background builds run, naming each one's newest record, then one when done", async () => {
    const dir = mkdtempSync(join(tmpdir(), "serve-progress-"));
    const bin = join(dir, "bin");
    mkdirSync(bin);
    // node: the dev key at once; each build prints "  N.0s  <what> step N" once a second, 5 and 7 times.
    script(join(bin, "node"), [
      'case "$2" in',
      '  dev) exit 0 ;;',
      '  snapshots) for i in 1 2 3 4 5; do sleep 1; echo "  $i.0s  storm snapshot step $i"; done ;;',
      '  build) for i in 1 2 3 4 5 6 7; do sleep 1; echo "  $i.0s  tiles step $i of 7"; done ;;',
      "esac",
    ].join("\n"));
    // npm run -s start: the server, here a wait longer than the builds.
    script(join(bin, "npm"), "sleep 10");
    const artifacts = join(dir, "artifacts");
    mkdirSync(artifacts);
    const out = await new Promise<string>((resolve) => {
      const p = spawn("bash", [join(PROJECT_ROOT, "scripts", "serve.sh")], {
        cwd: dir,
        env: { PATH: `${bin}:${process.env.PATH}`, ARTIFACTS_DIR: artifacts, SERVE_PROGRESS_SECONDS: "2", HOME: dir },
      });
      let text = "";
      p.stdout.on("data", (d) => (text += d));
      p.stderr.on("data", (d) => (text += d));
      p.on("close", () => resolve(text));
    });
    rmSync(dir, { recursive: true, force: true });
    const progress = out.split("\n").filter((l) => l.startsWith("background, "));
    // 7 s of building at a line every 2 s: three lines while both or one run.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatch(/^background, \d+ s: drought tiles and exports: (starting|\d\.0s tiles step \d of 7); feed snapshots: (starting|\d\.0s storm snapshot step \d) \(logs: .*\/logs\)$/);
    expect(progress.at(-1)).toMatch(/drought tiles and exports: [4-7]\.0s tiles step [4-7] of 7/);
    const seconds = progress.map((l) => Number(/^background, (\d+) s/.exec(l)![1]));
    for (let i = 1; i < seconds.length; i++) expect(seconds[i] - seconds[i - 1]).toBeLessThanOrEqual(3);
    expect(out).toMatch(/^background done after \d+ s: drought: 7\.0s tiles step 7 of 7; feed snapshots: see .*\/logs\/snapshots\.log$/m);
  }, 30_000);
});
