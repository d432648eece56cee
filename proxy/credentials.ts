/**
 * What a request carries as a credential, for the proxy to learn before anything of the request
 * is forwarded or printed: the `Authorization` header under any scheme (its token, each
 * auth-param's value, a Basic pair decoded and both halves), and the headers, query parameters
 * and cookies named as keys are carried: the suite's carriers (spec/operators/credentials.ts),
 * and names that say secret, token, password, session, auth or credential. Only these: a header
 * merely named like a key (`Idempotency-Key`) does not make its every value a credential, and
 * the table of learned credentials would fill with them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { namesKeyCarrier } from '../spec/operators/credentials.ts';

/** One credential as carried (the value a carrier held), and the values to hide wherever they show. */
export interface Carried {
  readonly carried: string;
  readonly values: readonly string[];
}

/** Words a credential's carrier is named with, beyond the suite's carriers (`Private-Token`, `X-Api-Secret`, `sessionid`). */
const CREDENTIAL_WORDS = /secret|token|passw|session|sessid|^sid$|auth|credential|signature|jwt|bearer|apikey|accesskey|privatekey/;

/** Whether a header, query parameter or cookie is named as credentials are carried (`x-`/`x_` prefixes and separators aside). */
export function namesCredential(name: string): boolean {
  const plain = name.toLowerCase().replace(/^x[-_]/, '');
  return namesKeyCarrier(name) || namesKeyCarrier(plain) || CREDENTIAL_WORDS.test(plain.replace(/[-_.]/g, ''));
}

/** An auth-param's or cookie's value without its quotes (`"K"` → `K`, `\"` unescaped). */
const unquoted = (value: string): string => {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
};

/**
 * The values an `Authorization`-like header hides: with a scheme, its token68 and each
 * auth-param's value (RFC 9110 §11.4: `Token token="K"`, `ApiKey key=K, realm=x`), a Basic pair
 * decoded and its halves; without one, the value itself.
 */
function authorizationValues(value: string): string[] {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) return [trimmed];
  const rest = trimmed.slice(space).trim();
  const values = [rest];
  for (const param of rest.split(',')) {
    const eq = param.indexOf('=');
    // `=` inside a token68 (base64 padding) is no param: a param's name comes before it.
    if (eq > 0 && /^\s*[!#$%&'*+.^_`|~0-9a-z-]+\s*$/i.test(param.slice(0, eq)) && param.slice(eq + 1).trim() !== '') values.push(unquoted(param.slice(eq + 1)));
  }
  if (/^basic$/i.test(trimmed.slice(0, space))) {
    const pair = Buffer.from(rest, 'base64').toString('utf8');
    values.push(pair, ...pair.split(':'));
  }
  return values;
}

/** Every credential `request` carries, each with the values to hide. */
export function credentialsIn(request: { readonly url: string; readonly headers: IncomingHttpHeaders }): Carried[] {
  const found: Carried[] = [];
  const add = (carried: string, values: readonly string[]) => {
    const kept = values.filter((v) => v.length > 0);
    if (kept.length > 0) found.push({ carried, values: kept });
  };
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    if (name === 'cookie') {
      for (const part of values.join(';').split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0 && namesCredential(part.slice(0, eq).trim())) add(part.trim(), [unquoted(part.slice(eq + 1))]);
      }
    } else if (name === 'authorization' || namesCredential(name)) for (const v of values) add(`${name}: ${v}`, authorizationValues(v));
  }
  const query = request.url.indexOf('?');
  if (query >= 0) {
    // `;` separates parameters too, in some servers' reading.
    for (const pair of request.url.slice(query + 1).split(/[&;]/)) {
      for (const [name, value] of new URLSearchParams(pair)) if (namesCredential(name)) add(`?${pair}`, authorizationValues(value));
    }
  }
  return found;
}
