import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,generator,generated,conformance,mock,proxy,scripts,bin,sanitize,diff}/**/*.test.ts'],
    setupFiles: ['scripts/test-setup.ts'],
    globalSetup: ['scripts/test-build.ts'],
    testTimeout: 60_000,
    // Set-up runs full CLI runs (beforeAll): under the load of the other files, the default 10 s is not enough.
    hookTimeout: 60_000,
    // One test file more than there are cores: many files wait (state windows, throttling,
    // timeouts) while others compute, and the extra one fills those waits (on 2 cores, 283 s → ~190 s).
    maxWorkers: availableParallelism() + 1,
  },
});
