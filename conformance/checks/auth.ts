/**
 * §Authentication: a missing or invalid key yields 401 with a message saying so (AUTH-401), the
 * key counts only as a bearer header (AUTH-BEARER), and the scheme name is case-insensitive
 * (AUTH-SCHEME-CASE, RFC 7235 §2.1).
 */
import { notJudged, type Check, type CheckContext, type Exchange, type ProbeRequest, type Verdict } from '../types.ts';
import { expectationCheck, judgeExpectation, judgesExpectation, transportVerdict } from './expectations.ts';
import { header, isObject, quote } from './values.ts';
import { credentialsOf, hiderOf } from './credentials.ts';
import { BoundedMap } from '../../sanitize/bounded-map.ts';

/**
 * The message's words as this check reads them, lower case with `_`/`-` joins split (`API_KEY`,
 * `X-API-Key` read as `api key`): as written, and with camelCase split too (`apiKeyMissing`).
 * The second reading alone would garble words in odd casing (`InVaLiD`), so both are read.
 */
const readingsOf = (text: string): readonly string[] => {
  const plain = (t: string) => t.replace(/[_-]+/g, ' ').toLowerCase();
  return [plain(text), plain(text.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2'))];
};

/**
 * Words that name the credential, in any inflection: key (`API key`, `apikey`), token (`JWT`),
 * credential, bearer, authentication and authorisation (`auth`, `OAuth`, `unauthorized`,
 * `Unauthenticated`, `authn`), but not `author` or `authority`; and `API` alone, which names
 * the key in messages of other languages (`Clé API invalide`, `API-Schlüssel ungültig`).
 */
const NAMES_CREDENTIAL = /(?<![a-z])(?:api ?)?keys?(?![a-z])|(?<![a-z])(?:api|jwt)(?![a-z])|token|credential|bearer|auth(?:ent|oris|oriz|[nz]?(?![a-z]))/;

/**
 * Words that say what is wrong with it: missing (`no`, `missing`, `required`, `not provided`, ...)
 * or invalid (`invalid`, `wrong`, `expired`, `not recognised`, `failed`, ...); `unauthenticated`
 * says both at once. `Unauthorized` alone does not: it may as well mean a permission.
 */
const SAYS_MISSING_OR_INVALID = new RegExp(
  `(?<![a-z])(?:${[
    'no',
    'none',
    'missing',
    'absent',
    'empty',
    'without',
    'lacks?',
    'lacking',
    'required',
    'not (?:provided|supplied|present|sent|given|set|included|found|valid|recogni[sz]ed|accepted|known)',
    '(?:please|must) (?:be )?provided?',
    'invalid',
    'wrong',
    'incorrect',
    'bad',
    'unknown',
    'expired',
    'revoked',
    'malformed',
    'unrecogni[sz]ed',
    'failed',
    'failure',
    'rejected',
    'disabled',
    'inactive',
    'deactivated',
    "(?:does not|doesn't|did not|didn't) (?:exist|match)",
    'un ?authenticated',
    'not authenticated',
  ].join('|')})(?![a-z])`,
);

/**
 * The three bands of §Authentication 2 ("message text stating that no or an invalid API key was
 * provided"), read from the message's words with the request's own credentials taken out:
 * - `clear`: it names the credential and says it is missing or invalid: passes;
 * - `ambiguous`: it names the credential (or echoes it) but not what is wrong with it
 *   (`Unauthorized`, `API key error`): a warning, as the document states the meaning, not the words;
 * - `silent`: it names no credential at all (`Request denied`, `Forbidden`): a failure, as no
 *   reading of it says that a key was missing or invalid.
 */
export type MessageBand = 'clear' | 'ambiguous' | 'silent';

export function messageBand(message: string, request?: ProbeRequest): MessageBand {
  // A run meets the same few messages with the same few credentials on every endpoint: read once
  // (short ones only, so that what the memo holds stays small whatever a server answers).
  if (message.length > 512) return band(message, request);
  const key = JSON.stringify([message, request ? credentialsOf(request).map((c) => c.value) : []]);
  return bands.getOrAdd(key, () => band(message, request));
}
const bands = new BoundedMap<string, MessageBand>(1024);

function band(message: string, request?: ProbeRequest): MessageBand {
  const cleaned = request ? withoutCredentials(request, message) : message;
  // An echoed key is the server naming the credential, though its text says nothing of it.
  const echoed = cleaned !== message;
  const readings = readingsOf(cleaned);
  if (!echoed && !readings.some((r) => NAMES_CREDENTIAL.test(r))) return 'silent';
  return readings.some((r) => SAYS_MISSING_OR_INVALID.test(r)) ? 'clear' : 'ambiguous';
}

const MEANING = '§Authentication 2: a missing or invalid key yields 401 "with message text stating that no or an invalid API key was provided" (§Errors: "No or invalid API key provided")';

/** The 401 message's meaning, in the three bands of `messageBand`. */
export function messageMeaning(exchange: Exchange): Verdict | undefined {
  const response = exchange.response;
  if (response?.status !== 401 || !isObject(response.json)) return undefined;
  const message = response.json.message;
  // A missing or non-string message is ERR-BODY's failure, not a question of meaning.
  if (typeof message !== 'string') return undefined;
  switch (messageBand(message, exchange.probe.request)) {
    case 'clear':
      return undefined;
    case 'ambiguous':
      return {
        title: '401 message does not clearly say the API key is missing or invalid',
        message: `The 401 message ${quote(message)} is about the credentials but does not say the key is missing or invalid; ${MEANING}. A warning: the document states the meaning, not the words.`,
        severity: 'warning',
      };
    case 'silent':
      return {
        title: '401 message does not say the API key is missing or invalid',
        message: `The 401 message ${quote(message)} names no key, token, credential, authentication or authorisation at all; ${MEANING}.`,
      };
  }
}

/**
 * Server text without the request's own credentials, in any form: the words of an echoed key
 * (`hsc-test-key-…`) are not the server's. (Hidden as plain values: a key's marker names it, in
 * words this check reads.)
 */
const withoutCredentials = (request: ProbeRequest, text: string): string => hiderOf(credentialsOf(request).map((c) => c.value)).text(text);

const unauthorized = expectationCheck('AUTH-401');

/**
 * AUTH-BEARER's probes that send no `Authorization` header at all carry no key the document's way:
 * a missing key, so AUTH-401's too ("A missing or invalid key yields HTTP 401"). A server that
 * answers one otherwise breaks both; which carrier it took, AUTH-BEARER's failure says.
 */
const keyMissing = (exchange: Exchange): boolean => exchange.probe.rule === 'AUTH-BEARER' && exchange.probe.expect === 'unauthorized' && header(exchange.probe.request.headers, 'authorization') === undefined && judgesExpectation('AUTH-BEARER')(exchange);

export const auth401: Check = {
  rule: 'AUTH-401',
  ownProbesOnly: true,
  applies: (exchange) => unauthorized.applies(exchange) || keyMissing(exchange),
  check: (context, exchange) => unauthorized.check(context, exchange) ?? messageMeaning(exchange),
};

export const authBearer: Check = expectationCheck('AUTH-BEARER');

/** The scheme word of the request's Authorization header (never the credential). */
const schemeOf = (exchange: Exchange): string => header(exchange.probe.request.headers, 'authorization')?.trim().split(/\s+/)[0] ?? '(none)';

export const authSchemeCase: Check = {
  rule: 'AUTH-SCHEME-CASE',
  ownProbesOnly: true,
  applies: (exchange) => exchange.probe.rule === 'AUTH-SCHEME-CASE' && (exchange.response !== undefined || (exchange.failure !== undefined && !notJudged(exchange.failure))),
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
