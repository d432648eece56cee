import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,generator,generated,conformance,mock,scripts,bin,sanitize,diff}/**/*.test.ts'],
    setupFiles: ['scripts/test-setup.ts'],
    testTimeout: 60_000,
  },
});
