import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // vitest's default on 2 cores is one worker; many files wait on servers and child processes they start. Two
    // workers: the suite in 903 s against 1,466 s of test time one after another (2026-11-27, this machine).
    maxWorkers: 2,
    minWorkers: 1,
  },
});
