/**
 * The sequence of requests that led to a STATE-* failure, as the report shows it: each request
 * with its own curl line, and one shell line that replays them all in order, sleeping where the
 * property waited for an effect to show (an accepted action may take that long to complete).
 */
import type { Sanitizer } from '../sanitize/sanitizer.ts';
import { CURL_WITHHELD, curlFor } from './curl.ts';
import { requestTemplate } from './replay/placeholders.ts';
import type { ScenarioStep, SequenceStep } from './types.ts';

const withTemplate = (request: ScenarioStep['request'], sanitizer: Sanitizer | undefined) => {
  const template = sanitizer && requestTemplate(request, sanitizer);
  return template ? { template } : {};
};

/** `sleep 0.3`: a pause as the shell's `sleep` takes it, to a tenth of a second, rounded up. */
const sleepFor = (ms: number): string => `sleep ${(Math.ceil(ms / 100) / 10).toFixed(1)}`;

/** The steps for the report, and the line that replays them (`curl … && sleep 1.0 && curl …`). */
export function sequenceOf(steps: readonly ScenarioStep[], baseUrl: string, sanitizer?: Sanitizer): { readonly steps: SequenceStep[]; readonly curl: string } {
  const shown = steps.map(({ request, afterMs }): SequenceStep => {
    const redacted = sanitizer ? sanitizer.request(request) : request;
    const path = redacted.url.startsWith(baseUrl) ? redacted.url.slice(baseUrl.length) : redacted.url;
    return {
      method: request.method,
      path,
      ...(redacted.body !== undefined ? { body: redacted.body } : {}),
      ...(afterMs !== undefined ? { afterMs: Math.round(afterMs) } : {}),
      curl: curlFor(request, sanitizer),
      ...withTemplate(request, sanitizer),
    };
  });
  // One withheld line would leave a script that does something else: withhold the whole.
  if (shown.some((s) => s.curl === CURL_WITHHELD)) return { steps: shown, curl: CURL_WITHHELD };
  const curl = shown.flatMap((s, i) => [...(i > 0 && s.afterMs !== undefined ? [sleepFor(s.afterMs)] : []), s.curl]).join(' && ');
  return { steps: shown, curl };
}
