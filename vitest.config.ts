import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,generator,generated,conformance,mock,proxy,scripts,bin,sanitize,diff}/**/*.test.ts'],
    setupFiles: ['scripts/test-setup.ts'],
    globalSetup: ['scripts/test-build.ts'],
    // Hang guards, never the property tested: a file's slowest test takes some 20 s on an idle
    // machine, and a busy one (other work beside the tests: scripts/test-loaded.ts) slows it
    // several times over. Set-up runs full CLI runs (beforeAll) too.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One test file more than there are cores: many files wait (state windows, throttling,
    // timeouts) while others compute, and the extra one fills those waits (on 2 cores, 283 s → ~190 s).
    maxWorkers: availableParallelism() + 1,
  },
});
