// The suite's temporary files go into one directory of the run (test/global-setup.ts), removed when it ends.
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";

describe("temporary files of a test run", () => {
  it("live in the run's own directory, which the workers inherit", () => {
    expect(basename(tmpdir())).toMatch(/^climate-risk-tests-/);
    expect(dirname(tmpdir())).not.toMatch(/climate-risk-tests-/);
  });
});
