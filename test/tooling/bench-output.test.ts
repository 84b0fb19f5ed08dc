// `make bench` keeps the results and sends the services' log lines to stderr (bench/RESULTS.md's API section once
// held eight "no published version to serve yet" lines).
import { describe, expect, it } from "vitest";
import { splitBenchOutput } from "../../bench/bench-output.ts";

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
});
