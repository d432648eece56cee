/**
 * Conformant variants: servers that differ from the reference mock while staying within the
 * document. The suite must pass every one; a failure is a false alarm.
 */
import { requestValidators, type Validator } from '../../generated/validators.js';
import { is2xx } from '../../spec/queries.ts';
import { acknowledgementOf, parseJsonBody, type MockResponse } from '../app.ts';
import type { Endpoint } from '../../spec/model.ts';
import { HttpError, renderError } from '../errors.ts';
import { matchRoute } from '../router.ts';
import { formatRegex } from '../../spec/formats.ts';
import type { Hooks, Variant } from '../variant.ts';
import { combine, conformant, throttling, editError, editSuccess, everyObject, replaceAnswer, withHeaders } from './build.ts';

const openSetFields = new Set(['status', 'type', 'update', 'update_status', 'image_optimization_type', 'permission']);

/** Counts calls, one counter per variant that needs one. */
const counter = () => {
  let n = 0;
  return () => ++n;
};
const nextErrorShape = counter();
const nextRequest = counter();
const next401 = counter();

/** The serial of `dns-soa-serial`: one more for every DNS update accepted (by any of the mock's instances: it only grows). */
let soaSerial = 2025010100;

/**
 * 401 messages in other words than the mock's: each says the key is missing or invalid, but for
 * `Unauthorized`, which names the credential only (a warning, never a failure).
 */
const unauthorizedWordings = ['Invalid API key', 'Missing bearer token', 'Unauthenticated.', 'Authentication credentials were not provided.', 'apiKeyInvalid', 'Unauthorized'];

/** Rotates through the shapes `data` may take, answer by answer. */
const dataShapes: readonly ((body: Record<string, unknown>) => Record<string, unknown>)[] = [
  ({ data: _, ...rest }) => rest,
  (b) => ({ ...b, data: null }),
  (b) => ({ ...b, data: ['detail'] }),
  (b) => ({ ...b, data: { reason: 'detail', nested: { depth: 2 } } }),
  (b) => ({ ...b, data: 'detail' }),
];

const letterDnsRead = replaceAnswer('listDnsRecords', (r) => r.status === 404, (r) => ({ ...r, status: 200, body: { domain: { dns_records: [] } } }));
const letterCdnEdge: Hooks = {
  respond: (endpoint, _request, response) => {
    if ((endpoint?.name !== 'clearCdnCache' && endpoint?.name !== 'setEdgeCachingStatus') || response.status !== 400) return response;
    return ackLater(endpoint, response);
  },
};
const letterThemes: Hooks = { judgeInput: (endpoint, _body, reference) => (endpoint.name === 'listThemes' ? undefined : reference) };
const letterActions: Hooks = {
  respond: (endpoint, _request, response) => {
    if (!endpoint || endpoint.effect === 'read' || response.status !== 404) return response;
    if (endpoint.errors.includes(400)) return { ...response, status: 400, body: renderError(new HttpError(400, 'Bad request format: unknown resource')) };
    return ackLater(endpoint, response);
  },
};
/** The letter side of every conflict at once: faults only `--strict` catches are built on it. */
export const letterOfTheTables: Hooks = combine(letterDnsRead, letterCdnEdge, letterThemes, letterActions);

/**
 * Throttling decided before anything is done: a throttled request is not acted on (it goes no
 * further than authentication, refused there), and its answer is replaced by the 429. Deciding
 * after the handler ran would act and then say 429, and the retry would meet its own effect.
 */
function occasional429(): Hooks {
  const throttled = new WeakMap<object, number>();
  return {
    authenticate: (_endpoint, request, reference) => {
      const n = nextRequest();
      if (n % 25 !== 0 && n % 40 !== 0) return reference;
      throttled.set(request, n);
      return false;
    },
    wire: (res, _response, request) => {
      const n = throttled.get(request);
      if (n === undefined) return false;
      const body = JSON.stringify({ message: 'Too many requests', status: 429 });
      res.writeHead(429, { 'content-type': 'application/json', ...(n % 25 === 0 ? { 'retry-after': '0' } : {}) }).end(body);
      return true;
    },
  };
}

/** The variant `conform --strict` runs the embedded mock as: the letter side of every conflict. */
export const LETTER_VARIANT = 'letter-of-the-tables';

export const conformantVariants: readonly Variant[] = [
  conformant('extra-fields-everywhere', 'Every object of every success body carries extra fields.', editSuccess(undefined, (b) => everyObject(b, (o) => (o.x_vendor_extension = { id: 1, tags: ['a'] })))),
  conformant('unknown-open-set-values', 'Fields with open value sets carry values the document does not show.', {
    respond: (endpoint, _request, response) => {
      if (!is2xx(response.status) || endpoint?.success.kind === 'ack') return response;
      return { ...response, body: everyObject(structuredClone(response.body), (o) => {
        for (const key of Object.keys(o)) if (openSetFields.has(key) && typeof o[key] === 'string' && !['A', 'TXT'].includes(o[key] as string)) o[key] = `vendor_${key}_value`;
      }) };
    },
  }),
  conformant('charset-utf8', 'Every answer is labelled `application/json; charset=utf-8`.', withHeaders(undefined, { 'content-type': 'application/json; charset=utf-8' })),
  conformant('extra-headers', 'Answers carry extra headers (request ids, caching, rate-limit hints).', withHeaders(undefined, { 'x-request-id': 'req-123', 'cache-control': 'no-store', 'x-ratelimit-remaining': '99' })),
  conformant('error-data-shapes', 'Error bodies carry `data` as absent, null, an array, an object or a string, in turn.', editError(undefined, (b) => dataShapes[nextErrorShape() % dataShapes.length]!(b))),
  conformant('auth-401-other-wordings', 'Each 401 says in other words that the key is missing or invalid (or only "Unauthorized"), in turn.', editError(undefined, (b) => ({ ...b, message: unauthorizedWordings[next401() % unauthorizedWordings.length] }), (s) => s === 401)),
  conformant('external-ip-masked', 'Every `external_ip` is masked as the vendor\'s reference shows: `1xx.1xx.1xx.1xx` (ASM-IPV4-MASK).', editSuccess('listEnvironments', (b) => everyObject(b, (o) => {
    if (typeof o.external_ip === 'string') o.external_ip = '1xx.1xx.1xx.1xx';
  }))),
  conformant('sync-actions-201', 'The synchronous actions answer 201 instead of 200.', replaceAnswer(undefined, (r) => r.status === 200 && r.endpoint?.effect !== 'read', (r) => ({ ...r, status: 201 }))),
  conformant('operation-ids-repeated', 'Every acknowledgement of an action carries the same operation id (the document does not say ids are unique: a warning, never a failure).', {
    respond: (endpoint, _request, response) => {
      if (endpoint?.success.kind !== 'ack' || response.status !== 202) return response;
      return { ...response, body: { ...(response.body as object), operation_id: `${endpoint.success.operationKind}-00000000-0000-4000-8000-000000000001` } };
    },
  }),
  conformant('occasional-429', 'Every 25th request is throttled with 429 and `Retry-After: 0`; every 40th without Retry-After.', occasional429()),
  // Rate limits (the document states none: "Rate limits and quotas: not shown"), fast enough that a default run takes seconds.
  throttling('rate-limited', 'A token bucket of 400 requests a second per key: past it, 429 with `Retry-After`; every answer says the limit in the IETF draft\'s `RateLimit-Policy` and `RateLimit`.', { limit: 400, windowMs: 1000 }),
  throttling('rate-limited-retry-after-date', 'A token bucket of 300 requests a second per key: past it, 429 with `Retry-After` as an HTTP date, and nothing else.', { limit: 300, windowMs: 1000, telling: 'retry-after-date' }),
  throttling('rate-limited-no-headers', 'A token bucket of 300 requests a second per key: past it, a bare 429 (no `Retry-After`, no limit headers).', { limit: 300, windowMs: 1000, telling: 'nothing' }),
  throttling('rate-limited-per-endpoint', 'A token bucket of 120 requests a second per key on each endpoint, told by `X-RateLimit-Limit`, `-Remaining` and `-Reset` (epoch seconds), and `Retry-After` on a 429.', { limit: 120, windowMs: 1000, telling: 'x-ratelimit', per: 'key-and-endpoint' }),
  throttling('rate-limited-shared-keys', 'One token bucket of 400 requests a second for every caller (both companies\' keys, and requests without one).', { limit: 400, windowMs: 1000, per: 'everyone' }),
  conformant('chunked-responses', 'Bodies are sent chunked, without Content-Length.', {
    wire: (res, response) => {
      const text = response.body === undefined ? '' : JSON.stringify(response.body);
      res.writeHead(response.status, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      for (let i = 0; i < text.length; i += 7) res.write(text.slice(i, i + 7));
      res.end();
      return true;
    },
  }),
  conformant('dns-soa-serial', 'Each DNS list also shows the zone\'s SOA record, whose serial grows with every DNS update accepted (RFC 2136 §3.6; ASM-DNS-OTHERS-UNCHANGED).', {
    respond: (endpoint, _request, response) => {
      if (!is2xx(response.status)) return response;
      if (endpoint?.name === 'updateDnsRecords') soaSerial++;
      if (endpoint?.name !== 'listDnsRecords') return response;
      const body = structuredClone(response.body) as { domain: { dns_records: { name: string }[] } };
      const apex = body.domain.dns_records[0]?.name.replace(/^[_*][^.]*\./, '') ?? 'example.test';
      const soa = { type: 'SOA', name: apex, ttl: 3600, resource_records: [{ value: `ns1.${apex}. hostmaster.${apex}. ${soaSerial} 7200 3600 1209600 300` }] };
      return { ...response, body: { ...body, domain: { ...body.domain, dns_records: [soa, ...body.domain.dns_records] } } };
    },
  }),
  conformant('connection-close', 'Every answer closes the connection.', withHeaders(undefined, { connection: 'close' })),
  conformant('validate-before-auth', 'Bodies are validated before credentials: an invalid body answers 400 even without a key (where 400 is listed).', {
    respond: (endpoint, request, response) => {
      if (!endpoint?.body || response.status !== 401 || !endpoint.errors.includes(400)) return response;
      const validate = (requestValidators as Partial<Record<string, Validator>>)[endpoint.name];
      return validate?.(parseJsonBody(request)) ? response : { ...response, status: 400, body: renderError(new HttpError(400)) };
    },
  }),
  conformant('letter-dns-read', 'CONFLICT-DNS-READ-404, letter side: an unknown domain lists no records with 200 (no 404).', letterDnsRead),
  conformant('letter-cdn-edge-no-400', 'CONFLICT-CDN-CLEAR-400 and CONFLICT-EDGE-CACHE-400, letter side: invalid bodies are acknowledged (202) and fail later.', letterCdnEdge),
  conformant('letter-themes-body-ignored', 'CONFLICT-THEMES-BODY-400, letter side: the themes list ignores a body it cannot parse.', letterThemes),
  conformant('letter-actions-unknown-ids', 'CONFLICT-ACTION-UNKNOWN-RESOURCE, letter side: actions naming unknown ids answer 400 where listed, else 202.', letterActions),
  conformant(LETTER_VARIANT, 'The letter of the per-endpoint tables on every conflict at once (what `conform --strict` runs the embedded mock as).', letterOfTheTables),
  conformant('reading-malformed-ids-400', 'CONFLICT-READ-MALFORMED-ID, reading side: non-UUID path ids on reads answer 400.', {
    respond: (endpoint, request, response) => {
      if (!endpoint || endpoint.effect !== 'read' || response.status !== 404) return response;
      const route = matchRoute(request.method, new URL(request.url, 'http://x').pathname.replace(/^\/v2/, ''));
      const malformed = Object.values(route?.params ?? {}).some((id) => !formatRegex.uuid.test(id));
      return malformed ? { ...response, status: 400, body: renderError(new HttpError(400)) } : response;
    },
  }),
];

/** A 202 acknowledgement for a request the letter side accepts and lets fail later. */
function ackLater(endpoint: Endpoint, response: MockResponse): MockResponse {
  return endpoint.success.kind === 'ack' ? { ...response, status: 202, body: acknowledgementOf(endpoint.success.operationKind) } : response;
}
