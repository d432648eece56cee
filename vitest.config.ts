import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,generator,generated,conformance,mock,scripts,bin,sanitize}/**/*.test.ts'],
    setupFiles: ['scripts/test-setup.ts'],
    testTimeout: 60_000,
  },
});
