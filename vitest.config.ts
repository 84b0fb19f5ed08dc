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
    // One process per worker for all its files instead of a fresh one per file: module loading (collect) took 134 s
    // of the run and preparing the processes 25 s; with it 36 s and 0.4 s, the suite 715 -> 577 s (2026-11-27, this
    // machine, 1,102 passed). Files share module-level caches (geography, country shapes) and must leave no global
    // state behind (none sets process.env outside its own scope; metrics registries are per app).
    isolate: false,
    minWorkers: 1,
  },
});
