/**
 * `proxy --record FILE.har`: the exchanges with a problem (`--record-all`: every exchange) as HAR
 * 1.2, as `conform --record` writes them (conformance/replay/har.ts): each request a template
 * whose credentials are placeholders (`${CLIENT_API_KEY}`: the keys the proxy learned from its
 * clients), each answer as the reports show it, sanitized and clipped. Bounded: at most
 * MAX_RECORDED entries are kept, the rest counted. What the sanitizer could not vouch for (once
 * the proxy withholds) is not recorded.
 */
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { harEntry, harLog, type Har, type HarEntry } from '../conformance/replay/har.ts';
import { requestTemplate } from '../conformance/replay/placeholders.ts';
import { operation } from '../spec/queries.ts';
import type { JudgedExchange, SeenRequest, SeenResponse } from './judge.ts';

export const MAX_RECORDED = 1000;
/** Characters of an answer's body kept in an entry. */
const BODY_KEPT = 64 * 1024;

export class ProxyRecorder {
  readonly #entries: HarEntry[] = [];
  #dropped = 0;

  constructor(
    readonly all: boolean,
    /** The target's base URL: what a request's path is rebuilt on, and what replay rebases. */
    readonly target: string,
    readonly sanitizer: Sanitizer,
  ) {}

  add(request: SeenRequest, outcome: SeenResponse | undefined, failure: string | undefined, judged: JudgedExchange, ms: number, withheld: boolean): void {
    if (!this.all && judged.problems.length === 0 && outcome) return;
    if (withheld) return void this.#dropped++;
    if (this.#entries.length >= MAX_RECORDED) return void this.#dropped++;
    const base = new URL(this.target);
    const url = `${base.origin}${request.url}`;
    const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([k, v]) => (v === undefined || k === 'host' ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])));
    const body = request.body.length ? request.body.toString('utf8') : undefined;
    const template = requestTemplate({ method: request.method, url, headers, ...(body !== undefined ? { body } : {}) }, this.sanitizer);
    const shownRequest = template ?? this.sanitizer.request({ method: request.method, url, headers, ...(body !== undefined ? { body } : {}) });
    const text = outcome ? this.sanitizer.text(outcome.body.toString('utf8').slice(0, BODY_KEPT)) : '';
    const errors = judged.problems.filter((p) => p.severity === 'error');
    // Replay judges the server's side: a server problem names the entry when there is one.
    const first = errors.find((p) => p.side === 'server') ?? errors[0] ?? judged.problems[0];
    const answer = outcome && { status: outcome.status, headers: this.sanitizer.headers(outcome.headers), text };
    this.#entries.push(
      harEntry(new Date().toISOString(), shownRequest, answer, failure, ms, {
        rule: first?.rule ?? '',
        rules: [...new Set(errors.map((p) => p.rule))],
        operation: judged.endpoint ? operation(judged.endpoint) : `${request.method} ${request.url.split('?')[0]}`,
        title: first ? this.sanitizer.oneLine(first.reason) : 'no problem',
        probe: 'an exchange through the proxy',
        seed: 0,
        expect: 'observe',
        replayable: template !== undefined && judged.endpoint !== undefined,
        sides: [...new Set(errors.map((p) => p.side))],
      }),
    );
  }

  get recorded(): number {
    return this.#entries.length;
  }

  get dropped(): number {
    return this.#dropped;
  }

  har(): Har {
    return harLog(this.#entries, this.target, `Exchanges through ${'hosted-site-contract'} proxy to ${this.target}${this.#dropped ? ` (${this.#dropped} more not recorded: past ${MAX_RECORDED}, or withheld)` : ''}.`);
  }
}
