import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Unit and socket-level tests. Tests that construct dynamic.Resource or drive
// the real provider host need tsc/ts-node CommonJS and run under mocha
// (tests/engine, tests/e2e): vite rewrites imports and breaks serialization.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/engine/**", "tests/e2e/**", "node_modules/**", "dist/**"],
    testTimeout: 20_000,
    pool: "forks",
    // Every core: vitest's default leaves one to its main process, which on CI's 2 cores ran the files one at a
    // time. They mostly wait on sockets and timers: with 2 workers the suite took 373 s beside a mutation run,
    // with 1 it took 669 s alone (2 Dec). `npm run mutate` runs one file at a time anyway (Stryker sets it).
    maxWorkers: availableParallelism(),
    // The provider shells run the source runtime; a stale dist/ fails loudly (see the file).
    setupFiles: ["tests/setup-source.ts"],
  },
});
