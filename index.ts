/**
 * The package's library entry (`import … from 'hosted-site-contract'`): the typed client and its
 * errors, the generated validators and types, the reference mock, and the model of the document.
 * Each also has a subpath of its own (package.json `exports`), to load only what is used.
 */
export * from './generated/client.ts';
export * from './generated/validators.js';
export type * from './generated/types.ts';
export { startMock, type MockFixtures, type MockOptions, type RunningMock } from './mock/server.ts';
export { api } from './spec/api.ts';
export type * as Model from './spec/model.ts';
