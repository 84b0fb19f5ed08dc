// The run's summary names each failed test with the line of its error that says what failed (issue 35): a test that
// gave expect() a server's log as its message showed the log's first record instead of "expected null to be 78".
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the test runner, without types
import { errorLine } from "../summary-reporter.mjs";

describe("errorLine", () => {
  it("takes the assertion, also after a message of many lines", () => {
    const logs = '{"level":30,"msg":"listening"}\n{"level":50,"msg":"worker exited","code":1}';
    expect(errorLine(`${logs}: expected null to be 78`)).toBe("expected null to be 78");
    expect(errorLine("Buri Ram: expected { a: 1 } to deeply equal { a: 2 }\n\n- Expected\n+ Received")).toBe("Buri Ram: expected { a: 1 } to deeply equal { a: 2 }");
  });

  it("keeps the first line of an error that is no assertion", () => {
    expect(errorLine("TimeoutError: page.getAttribute: Timeout 30000ms exceeded.\nCall log:")).toBe("TimeoutError: page.getAttribute: Timeout 30000ms exceeded.");
    expect(errorLine(undefined)).toBe("");
  });
});
