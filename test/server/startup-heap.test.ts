import { describe, expect, it } from "vitest";
import { collectStartupGarbage } from "../../server/startup-heap.ts";

describe("collectStartupGarbage", () => {
  it("frees the garbage a start-up leaves, at once", () => {
    // ~80 MB of arrays that nothing references any more, as loading leaves its parse buffers.
    let garbage: number[][] | undefined = Array.from({ length: 100 }, () => Array.from({ length: 100_000 }, (_, i) => i + 0.5));
    expect(garbage.length).toBe(100);
    garbage = undefined;
    const freed = collectStartupGarbage();
    if ("skipped" in freed) throw new Error(`skipped: ${freed.skipped}`);
    expect(freed.heapUsedMbBefore - freed.heapUsedMbAfter).toBeGreaterThan(60);
    expect(freed.ms).toBeGreaterThanOrEqual(0);
    // A second call finds nothing of that size left.
    const again = collectStartupGarbage();
    if ("skipped" in again) throw new Error(`skipped: ${again.skipped}`);
    expect(again.heapUsedMbBefore - again.heapUsedMbAfter).toBeLessThan(20);
  });

  it("is skipped, with the reason, where no gc can be had (the server then starts as before)", () => {
    const collected = collectStartupGarbage(() => {
      throw new Error("flags are frozen");
    });
    expect(collected).toEqual({ skipped: "flags are frozen" });
  });
});
