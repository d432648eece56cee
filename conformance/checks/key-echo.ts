/**
 * NO-KEY-ECHO (§Authentication: "`<API_KEY>` is an API key of the company"; a security failure,
 * OWASP API3:2023, not a statement of the document: ASM-KEY-NOT-SERVED): no answer carries back
 * the valid key its request was sent with, in any header or in its body, in any form the
 * sanitizer knows. Where the answer carries them is found by the transport from the raw bytes
 * (`ProbeResponse.echoes`, credentials.ts), before a body that names a secret is withheld.
 */
import type { Check, CheckContext, Exchange, Verdict } from '../types.ts';
import { credentialsOf, type Echo } from './credentials.ts';

/** Whether the credential the echo names was a valid key: one the run knows, or (knowing none) one the answer did not refuse. */
function validKey(context: CheckContext, exchange: Exchange, echo: Echo): boolean {
  const value = credentialsOf(exchange.probe.request).find((c) => c.from === echo.from)?.value;
  if (context.validKeys) return value !== undefined && context.validKeys.includes(value);
  return exchange.response?.status !== 401;
}

const where = (echoes: readonly Echo[]): string => [...new Set(echoes.map((e) => e.at))].join(', ');
const which = (echo: Echo): string => (echo.from === 'authorization' ? 'the `Authorization` credential' : echo.from.startsWith('?') ? `the query parameter \`${echo.from.slice(1)}\`` : echo.from.startsWith('cookie ') ? `the cookie \`${echo.from.slice(7)}\`` : `the \`${echo.from}\` header`);

export const noKeyEcho: Check = {
  rule: 'NO-KEY-ECHO',
  applies: (exchange) => exchange.response !== undefined,
  check: (context, exchange): Verdict | undefined => {
    const echoes = exchange.response!.echoes ?? [];
    if (!echoes.length) return undefined;
    const valid = echoes.filter((e) => validKey(context, exchange, e));
    if (valid.length) {
      return {
        title: `the answer carries the caller's API key (${where(valid)})`,
        message: `The ${exchange.response!.status} answer carries back ${which(valid[0]!)} the request was sent with, a valid API key, in ${where(valid)} (the key is hidden in this report). The document lists no field that holds a key; a credential served back is exposed to every log, cache and client on the way: a security failure (OWASP API3:2023, excessive data exposure; ASM-KEY-NOT-SERVED).`,
      };
    }
    return {
      title: `the answer carries back a key it refused (${where(echoes)})`,
      message: `The ${exchange.response!.status} answer carries back ${which(echoes[0]!)} the request was sent with, in ${where(echoes)}: the key was not a valid one, so nothing is exposed, but a server that echoes credentials may echo a valid one elsewhere (ASM-KEY-NOT-SERVED). A warning: the document does not forbid it.`,
      severity: 'warning',
    };
  },
};
