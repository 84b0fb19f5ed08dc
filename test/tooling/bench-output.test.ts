// `make bench` keeps the results and sends the services' log lines to stderr (bench/RESULTS.md's API section once
// held eight "no published version to serve yet" lines).
import { describe, expect, it } from "vitest";
import { mergeResults, splitBenchOutput } from "../../bench/bench-output.ts";

describe("bench output", () => {
  it("keeps the table and takes out the JSON log lines", () => {
    const stdout = [
      '{"level":40,"time":1795489027359,"service":"climate-risk","label":"flood snapshot","msg":"no published version to serve yet"}',
      "| API metric | value |",
      "|---|---|",
      '{"level":30,"time":1,"msg":"listening"}',
      '| GET drought | {"level": "in a cell"} |',
      "",
    ].join("\n");
    const { results, logs } = splitBenchOutput(stdout);
    expect(results).toBe('| API metric | value |\n|---|---|\n| GET drought | {"level": "in a cell"} |');
    expect(logs).toHaveLength(2);
  });

  it("replaces only the sections measured again, keeps the header's notes and every other section's day", () => {
    // The header note used to be rewritten as one list under today's date, which misdated sections measured on
    // earlier days and dropped what the note said about the machine.
    const old = [
      "# Benchmark results",
      "",
      "Measured by `make bench` on 2026-11-23. _On 2026-11-25 this machine ran at half speed._",
      "",
      "## A",
      "",
      "`bench/a.bench.ts`, 3 s, measured 2026-11-24",
      "",
      "| a | 1 |",
      "",
      "## B",
      "",
      "`bench/b.bench.ts`, 5 s, measured 2026-11-25",
      "",
      "| b | 2 |",
      "",
    ].join("\n");
    const merged = mergeResults(old, [{ title: "B", text: "## B\n\n`bench/b.bench.ts`, 4 s, measured 2026-11-26\n\n| b | 3 |\n" }], ["A", "B", "C"]);
    expect(merged).toBe(old.replace("5 s, measured 2026-11-25", "4 s, measured 2026-11-26").replace("| b | 2 |", "| b | 3 |"));
    expect(mergeResults(merged, [{ title: "C", text: "## C\n\nc\n" }], ["C", "A", "B"]).split("\n## ").map((p) => p.slice(0, 1))).toEqual(["#", "C", "A", "B"]);
    // A title the bench list lacks (the tiles section had been renamed by hand, and a partial run dropped it).
    expect(mergeResults(merged, [], ["B"]).split("\n## ").map((p) => p.slice(0, 1))).toEqual(["#", "B", "A"]);
  });
});
