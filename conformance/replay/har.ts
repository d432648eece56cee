/**
 * A run's failing exchanges as HAR 1.2 (`conform --record FILE.har`), the file a developer takes
 * home and replays against a local build or a staging server (`hosted-site-contract replay`).
 * Redacted as every report is, and more: each request is its template, its secrets `${NAME}`
 * placeholders (placeholders.ts; `$$` is a dollar), so the file holds no key and still rebuilds
 * every request. A STATE-* failure is its sequence, one entry per step, with the pause before
 * each. What replay needs besides HTTP (the rule, what the probe expected) rides in the entries'
 * `_hostedSiteContract`, as HAR allows custom fields to.
 */
import { packageVersion, PROGRAM } from '../../bin/package-info.ts';
import { apiIdentity } from '../../spec/identity.ts';
import type { Sanitizer } from '../../sanitize/sanitizer.ts';
import { operation } from '../../spec/queries.ts';
import type { Exchange, Failure, ProbeResponse, Report, TransportFailure } from '../types.ts';
import { requestTemplate, type RequestTemplate } from './placeholders.ts';
import { MAX_RECORDED_EXCHANGES } from '../flags.ts';

export const HAR_EXTENSION_FORMAT = 'hosted-site-contract/har@1';

export interface HarHeader {
  readonly name: string;
  readonly value: string;
}

/** What replay reads of an entry besides HTTP. */
export interface EntryMeta {
  readonly rule: string;
  readonly rules: readonly string[];
  readonly operation: string;
  readonly title: string;
  readonly probe: string;
  readonly seed: number;
  /** What the probe expected (types.ts `Expectation`); a sequence's steps: `observe`. */
  readonly expect: string;
  readonly idsUnknown?: true;
  readonly known?: string;
  /** The request holds a secret no placeholder rebuilds: shown redacted, not replayable. */
  readonly replayable: boolean;
  /** Recorded as an exchange of the run (`--record-all`), failing or not: replay says whether it passes now, not whether it is fixed. */
  readonly exchange?: true;
  /** Recorded by the proxy: whose problems the exchange showed (a client's are in the request itself: replay cannot judge them fixed). */
  readonly sides?: readonly ('client' | 'server')[];
  /** A STATE-* failure's step: the sequence it belongs to, its place, and the pause before it (ms). */
  readonly sequence?: { readonly id: number; readonly step: number; readonly of: number; readonly afterMs?: number };
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly postData?: { readonly mimeType: string; readonly text: string };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly never[];
    readonly headers: readonly HarHeader[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: -1;
    readonly _error?: string;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  readonly _hostedSiteContract: EntryMeta;
}

export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: { readonly name: string; readonly version: string };
    readonly entries: readonly HarEntry[];
    readonly comment: string;
    readonly _hostedSiteContract: { readonly format: typeof HAR_EXTENSION_FORMAT; readonly baseUrl: string; readonly specVersion: string; readonly seed: number };
  };
}

/** A transport failure as an entry's `_error`. */
const transportError = (failure: TransportFailure | undefined): string | undefined => (failure ? `${failure.kind}: ${failure.message}` : undefined);

const headerList = (headers: Readonly<Record<string, string>>): HarHeader[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** The query of a URL (a template's too: its placeholders stay as they are), as HAR lists it. */
function queryOf(url: string): HarHeader[] {
  const at = url.indexOf('?');
  if (at < 0) return [];
  return url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { name: pair, value: '' } : { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
}

function harRequest(request: RequestTemplate) {
  const type = Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return {
    method: request.method,
    url: request.url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headerList(request.headers),
    queryString: queryOf(request.url),
    ...(request.body !== undefined ? { postData: { mimeType: type ?? 'application/octet-stream', text: request.body } } : {}),
    headersSize: -1 as const,
    bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
  };
}

function harResponse(response: Answer | undefined, error: string | undefined) {
  const type = response && Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  return {
    status: response?.status ?? 0,
    statusText: '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: response ? headerList(response.headers) : [],
    content: { size: response ? Buffer.byteLength(response.text) : 0, mimeType: type ?? 'x-unknown', ...(response ? { text: response.text } : {}) },
    redirectURL: '',
    headersSize: -1 as const,
    bodySize: -1 as const,
    ...(error !== undefined ? { _error: error } : {}),
  };
}

/** What an entry shows of an answer: sanitized as the reports show it. */
type Answer = Pick<ProbeResponse, 'status' | 'headers' | 'text'>;

/** One entry: the request (a template), the answer or why none came, how long it took, and what replay reads. */
export function harEntry(at: string, request: RequestTemplate, answer: Answer | undefined, error: string | undefined, ms: number, meta: EntryMeta): HarEntry {
  return { startedDateTime: at, time: ms, request: harRequest(request), response: harResponse(answer, error), cache: {}, timings: { send: 0, wait: ms, receive: 0 }, _hostedSiteContract: meta };
}

function meta(f: Failure, extra: Partial<EntryMeta> & Pick<EntryMeta, 'expect' | 'replayable'>): EntryMeta {
  return {
    rule: f.rule,
    rules: f.rules,
    operation: f.operation,
    title: f.title,
    probe: f.probe,
    seed: f.seed,
    ...(f.known !== undefined ? { known: f.known } : {}),
    ...extra,
  };
}

/** The HAR around entries: the log, its creator and what replay reads of the run. */
export function harLog(entries: readonly HarEntry[], baseUrl: string, comment: string, seed = 0): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: PROGRAM, version: packageVersion() },
      entries,
      comment: `${comment} Secrets are placeholders: \${NAME} (and the expressions that rebuild a key derived from one) read the environment variable NAME; $$ is a dollar. Replay: npx ${PROGRAM} replay FILE --base-url URL`,
      _hostedSiteContract: { format: HAR_EXTENSION_FORMAT, baseUrl, specVersion: apiIdentity.specVersion, seed },
    },
  };
}

/** The HAR of a run's failures (errors), in the report's order. */
export function harOf(report: Report): Har {
  const at = report.startedAt;
  let sequences = 0;
  // A STATE-* failure is listed on the rows of its action and its read: its sequence is recorded once.
  const recorded = new Set<string>();
  const entries = report.failures.flatMap((f): HarEntry[] => {
    if (f.sequence?.length) {
      const key = JSON.stringify(f.sequence.map((s) => s.curl));
      if (recorded.has(key)) return [];
      recorded.add(key);
      const id = ++sequences;
      return f.sequence.map((step, i) => {
        const last = i === f.sequence!.length - 1;
        const template: RequestTemplate = step.template ?? { method: step.method, url: `${report.target}${step.path}`, headers: {}, ...(step.body !== undefined ? { body: step.body } : {}) };
        const sequence = { id, step: i + 1, of: f.sequence!.length, ...(step.afterMs !== undefined ? { afterMs: step.afterMs } : {}) };
        // The step that showed the violation has its answer; the ones before it, only their place.
        const answer = last ? f.response : undefined;
        return harEntry(at, template, answer, last ? undefined : 'an earlier step of the sequence: its answer is not kept', answer?.ms ?? 0, meta(f, { expect: 'observe', replayable: step.template !== undefined, sequence }));
      });
    }
    const replayable = { expect: f.replay?.expect ?? 'observe', replayable: f.replay !== undefined, ...(f.replay?.idsUnknown ? { idsUnknown: true as const } : {}) };
    return [harEntry(at, f.replay?.request ?? f.request, f.response, transportError(f.transport), f.response?.ms ?? f.transport?.ms ?? 0, meta(f, replayable))];
  });
  return harLog(entries, report.target, `Failing exchanges of ${PROGRAM} conform against ${report.target} (spec ${report.specVersion}, seed ${report.seed}).`, report.seed);
}

export const renderHar = (har: Har): string => `${JSON.stringify(har, null, 2)}\n`;

/** Characters of each answer's body `--record-all` keeps. */
const BODY_KEPT = 8 * 1024;

/**
 * Every exchange of a run, as it is judged (`conform --record-all`): its request a template, its
 * answer clipped. Bounded: past MAX_RECORDED_EXCHANGES, counted. The whole file passes the
 * sanitizer again when written, so a secret learned after an exchange was kept is hidden too.
 */
export class ExchangeRecorder {
  readonly entries: HarEntry[] = [];
  dropped = 0;

  constructor(
    readonly sanitizer: Sanitizer,
    readonly seed: number,
  ) {}

  add(exchange: Exchange): void {
    if (this.entries.length >= MAX_RECORDED_EXCHANGES) return void this.dropped++;
    const { probe, response, failure } = exchange;
    const template = requestTemplate(probe.request, this.sanitizer);
    const answer = response && { status: response.status, headers: this.sanitizer.headers(response.headers), text: this.sanitizer.text(response.text.slice(0, BODY_KEPT)) };
    this.entries.push(
      harEntry(new Date().toISOString(), template ?? this.sanitizer.request(probe.request), answer, transportError(failure), response?.ms ?? failure?.ms ?? 0, {
        rule: probe.rule,
        rules: [probe.rule],
        operation: operation(probe.endpoint),
        title: probe.title,
        probe: probe.title,
        seed: this.seed,
        expect: probe.expect,
        ...(probe.idsUnknown ? { idsUnknown: true as const } : {}),
        replayable: template !== undefined,
        exchange: true,
      }),
    );
  }

  har(report: Report): Har {
    return harLog(this.entries, report.target, `Every exchange of ${PROGRAM} conform against ${report.target} (spec ${report.specVersion}, seed ${report.seed})${this.dropped ? `, but ${this.dropped} past the first ${MAX_RECORDED_EXCHANGES}` : ''}.`, report.seed);
  }
}
