/**
 * The package's library entry (`import … from 'hosted-site-contract'`): the typed client and its
 * errors, the generated validators and types, the reference mock, the model of the document, and
 * the tools themselves: `conform()` (the suite) and `startProxy()` (the validating proxy).
 * Each also has a subpath of its own (package.json `exports`), to load only what is used.
 */
export * from './generated/client.ts';
export * from './generated/validators.js';
export type * from './generated/types.ts';
export { startMock, type MockFixtures, type MockOptions, type RunningMock } from './mock/server.ts';
export { api } from './spec/api.ts';
export type * as Model from './spec/model.ts';
export { conform, ConformError, type ConformApiOptions, type ConformResult } from './conformance/api.ts';
export type { Report as ConformReport, Failure as ConformFailure, CheckSummary } from './conformance/types.ts';
export { startProxy, ProxyError, type ProxyApiOptions, type StartedProxy } from './proxy/api.ts';
export type { ProxyReport } from './proxy/report.ts';
