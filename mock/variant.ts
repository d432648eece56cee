/**
 * A variant of the mock: a fault that breaks exactly one rule of the document, or a conformant
 * variant that differs from the reference mock while staying within the document. A variant is
 * a set of hooks into the pipeline; the catalogue (mock/variants/) is a list of them.
 */
import type { ServerResponse } from 'node:http';
import type { EndpointName } from '../generated/types.ts';
import type { Endpoint, RuleId } from '../spec/model.ts';
import type { MockRequest, MockResponse } from './app.ts';
import type { HttpError } from './errors.ts';
import type { Handlers } from './handler.ts';
import type { RateLimit } from './rate-limit.ts';

export interface Hooks {
  /**
   * Whether a request is authenticated, given what the reference decided (`reference`: the
   * company's key was a valid bearer key). Return true to let it through as the main company.
   */
  readonly authenticate?: (endpoint: Endpoint | undefined, request: MockRequest, reference: boolean) => boolean;
  /** The verdict on a request's body and query: the reference's refusal, or undefined to accept. */
  readonly judgeInput?: (endpoint: Endpoint, body: unknown, reference: HttpError | undefined) => HttpError | undefined;
  /** Replacement handlers (behaviour), e.g. an action that never changes state. */
  readonly handlers?: Partial<Handlers>;
  /** Transforms the pipeline's answer before it is written. */
  readonly respond?: (endpoint: Endpoint | undefined, request: MockRequest, response: MockResponse) => MockResponse;
  /** Writes the answer itself (hang, drop the connection, non-JSON, chunked); true when it did. */
  readonly wire?: (res: ServerResponse, response: MockResponse, request: MockRequest) => boolean;
}

export interface Variant {
  /** Unique, kebab-case; `mock --variant NAME`, `conform --mock-variant NAME`. */
  readonly name: string;
  readonly kind: 'fault' | 'conformant';
  /** Faults: the rule they break, and the endpoint where it shows. */
  readonly rule?: RuleId;
  readonly endpoint?: EndpointName;
  readonly description: string;
  readonly hooks: Hooks;
  /** The layout of data and timing the mock runs in (mock/layouts.ts); the reference layout without. */
  readonly layout?: string;
  /** A rate limit in front of it all (mock/rate-limit.ts): a throttling server within the document. */
  readonly rateLimit?: RateLimit;
  /** `conform` flags the self-test runs it with: a fault only the letter of the tables catches needs `--strict`. */
  readonly flags?: readonly string[];
}
