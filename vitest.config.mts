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
    // The provider shells run the source runtime; a stale dist/ fails loudly (see the file).
    setupFiles: ["tests/setup-source.ts"],
  },
});
