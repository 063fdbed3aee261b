import { defineConfig } from "vitest/config";

// Test files run in parallel (each API file gets its own database cloned from a migrated template);
// two workers match the two cores of the machines this runs on.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/bench/**", "node_modules/**"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
