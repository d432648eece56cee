/**
 * §Authentication: a missing or invalid key yields 401 (AUTH-401), the key counts only as a bearer
 * header (AUTH-BEARER), and the scheme name is case-insensitive (AUTH-SCHEME-CASE, RFC 7235 §2.1).
 */
import { Sanitizer } from '../../sanitize/sanitizer.ts';
import type { Check, CheckContext, Exchange, ProbeRequest, Verdict } from '../types.ts';
import { expectationCheck, judgeExpectation, transportVerdict } from './expectations.ts';
import { header, isObject, quote } from './values.ts';

/** Words that show a 401 message is about the credentials (§Errors: "No or invalid API key provided"). */
const ABOUT_CREDENTIALS = /key|token|auth|credential/i;

/**
 * The 401 message's meaning, a warning only: the document states the meaning, not the text, so
 * a message in other words is reported but never fails the run.
 */
function messageMeaning(exchange: Exchange): Verdict | undefined {
  const response = exchange.response;
  if (response?.status !== 401 || !isObject(response.json)) return undefined;
  const message = response.json.message;
  // A missing or non-string message is ERR-BODY's failure, not a question of meaning. The key
  // itself, echoed back, says nothing about it.
  if (typeof message !== 'string' || ABOUT_CREDENTIALS.test(withoutCredentials(exchange.probe.request, message))) return undefined;
  return {
    title: "401 message does not say the API key is missing or invalid",
    message: `The 401 message ${quote(message)} says nothing about a key, token, authentication or credentials; the document's meaning is "No or invalid API key provided" (§Errors).`,
    severity: 'warning',
  };
}

/** The credentials a request carries: the Authorization credential, key-like headers and query values. */
function credentialsOf(request: ProbeRequest): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const credential = value.replace(/^\s*\S+\s*/, '');
      if (credential) found.push(credential);
      // A key sent without a scheme word; a lone scheme word (`Bearer`) is no secret.
      else if (value.trim().length >= 12) found.push(value.trim());
    } else if (/key|token|auth/.test(lower)) found.push(value);
  }
  try {
    for (const [name, value] of new URL(request.url).searchParams) if (/key|token|auth/i.test(name)) found.push(value);
  } catch {
    // Not a URL we can parse: nothing to add.
  }
  return found.filter((c) => c.length >= 4);
}

/**
 * Server text without the request's own credentials, in any form: an echoed key says nothing
 * about the message's meaning. (Hidden as plain values: a key's marker names it, in words this check reads.)
 */
const withoutCredentials = (request: ProbeRequest, text: string): string =>
  new Sanitizer(credentialsOf(request).map((value) => ({ value, name: 'CREDENTIAL', kind: 'field' as const })), []).text(text);

const unauthorized = expectationCheck('AUTH-401');

export const auth401: Check = {
  rule: 'AUTH-401',
  ownProbesOnly: true,
  applies: unauthorized.applies,
  check: (context, exchange) => unauthorized.check(context, exchange) ?? messageMeaning(exchange),
};

export const authBearer: Check = expectationCheck('AUTH-BEARER');

/** The scheme word of the request's Authorization header (never the credential). */
const schemeOf = (exchange: Exchange): string => header(exchange.probe.request.headers, 'authorization')?.trim().split(/\s+/)[0] ?? '(none)';

export const authSchemeCase: Check = {
  rule: 'AUTH-SCHEME-CASE',
  ownProbesOnly: true,
  applies: (exchange) => exchange.probe.rule === 'AUTH-SCHEME-CASE' && (exchange.response !== undefined || exchange.failure !== undefined),
  check: (context: CheckContext, exchange: Exchange) => {
    if (exchange.failure) return transportVerdict(exchange.failure, 'any answer but 401');
    if (exchange.response?.status === 401) {
      const scheme = schemeOf(exchange);
      return {
        title: `refused the valid key sent with scheme \`${scheme}\``,
        message: `The company's valid key with the scheme written \`${scheme}\` was answered 401. The document's scheme is HTTP bearer, and HTTP authentication scheme names are case-insensitive (RFC 7235 §2.1, RFC 9110 §11.1), so \`${scheme}\` names the same scheme as \`Bearer\`.`,
      };
    }
    return judgeExpectation(context, exchange);
  },
};
