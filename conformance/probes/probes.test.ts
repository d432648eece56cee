/**
 * The probe sources, without a server: requests are built right, valid probes pass the generated
 * validators and invalid ones fail them, nothing positive reaches an action without
 * --allow-destructive, every (rule, endpoint) pair in scope is probed or skipped with a reason,
 * and the same seed gives the same probes.
 */
import { describe, expect, it } from 'vitest';
import { queryValidators, requestValidators, type Validator } from '../../generated/validators.js';
import { api } from '../../spec/api.ts';
import { formatRegex } from '../../spec/formats.ts';
import type { Endpoint, RuleId } from '../../spec/model.ts';
import { endpoint, inScope, isRead, operation, rule } from '../../spec/queries.ts';
import type { Probe, ProbeContext, Target } from '../types.ts';
import { probeSources, scenarioSources } from './index.ts';
import { keySecret, Sanitizer } from '../../sanitize/sanitizer.ts';
import { basicAuthorization, bearer, buildRequest } from './request.ts';
import { JSON_WITH_CHARSET } from './client-shapes.ts';
import { layouts } from '../../mock/layouts.ts';
import { contextOf, layoutTarget, mockTarget } from './test-target.ts';
import { authProbes, KEY_NOT_IN_URL } from './auth.ts';

const allProbes = (context: ProbeContext): Probe[] => probeSources.flatMap((source) => source(context).probes);
const allSkips = (context: ProbeContext) => [...probeSources.flatMap((s) => s(context).skipped), ...scenarioSources.flatMap((s) => s(context).skipped)];

/** The request read back: path values by parameter name, query, parsed body. */
function parse(probe: Probe): { path: Record<string, string>; query: Record<string, string>; body?: { ok: true; json: unknown } | { ok: false } } {
  const url = new URL(probe.request.url);
  const names: string[] = [];
  const source = probe.endpoint.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
  const match = new RegExp(`/v2${source}$`).exec(url.pathname);
  if (!match) throw new Error(`${probe.request.url} does not fit ${probe.endpoint.path}`);
  const path = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  const query = Object.fromEntries(url.searchParams);
  if (probe.request.body === undefined) return { path, query };
  try {
    return { path, query, body: { ok: true, json: JSON.parse(probe.request.body) } };
  } catch {
    return { path, query, body: { ok: false } };
  }
}

const bodyValidator = (e: Endpoint) => (requestValidators as Partial<Record<string, Validator>>)[e.name];
const queryValidator = (e: Endpoint) => (queryValidators as Partial<Record<string, Validator>>)[e.name];

/** Every id either tenant owns (a probe naming none of them in an id slot names unknown data). */
function knownIds(target: Target): Set<string> {
  const ids = new Set<string>();
  for (const tenant of [target.main, target.other]) {
    if (!tenant) continue;
    const t = tenant.ids;
    for (const id of [t.companyId, t.siteId, ...t.envIds, t.envId, t.cdnCacheId, t.domainId, t.userId, ...t.sftpAccountIds]) if (id) ids.add(id.toLowerCase());
  }
  return ids;
}

const idFields = ['environment_id', 'cdn_cache_id', 'notified_user_id'];

/** Why a conformant server must refuse this request whatever its credentials; undefined if it need not. */
function refusedBecause(probe: Probe, known: Set<string>): string | undefined {
  const { path, query, body } = parse(probe);
  const e = probe.endpoint;
  if (body && !body.ok) return 'malformed JSON';
  if (body?.ok) {
    const json = body.json;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'not a JSON object';
    const validate = bodyValidator(e);
    if (validate && !validate(json)) return 'invalid body';
  }
  const validateQuery = queryValidator(e);
  if (validateQuery && !validateQuery(query)) return 'invalid query';
  for (const value of Object.values(path)) if (formatRegex.uuid.test(value) && !known.has(value.toLowerCase())) return 'unknown path id';
  if (body?.ok) {
    const json = body.json as Record<string, unknown>;
    for (const f of idFields) if (typeof json[f] === 'string' && !known.has((json[f] as string).toLowerCase())) return `unknown ${f}`;
  }
  return undefined;
}


/** The forms in which probes carry a key: as is, URI- and form-encoded (query), in HTTP Basic. */
const carriedForms = (key: string): string[] => [
  key,
  encodeURIComponent(key),
  new URLSearchParams({ k: key }).toString().slice(2),
  basicAuthorization(key).replace(/^Basic /, ''),
];

describe('request builder', () => {
  const target = mockTarget({ baseUrl: 'https://api.example.test/v2' });
  const key = target.main.apiKey;
  const cases: [string, { given: Parameters<typeof buildRequest>[1]; want: { url: string; headers: Record<string, string>; body?: string } }][] = [
    [
      'a read with a path id and the bearer key',
      {
        given: { endpoint: endpoint('getSite'), path: { site_id: 'abc' }, credentials: bearer(key) },
        want: { url: 'https://api.example.test/v2/sites/abc', headers: { accept: 'application/json', authorization: `Bearer ${key}` } },
      },
    ],
    [
      'a query and the key in a query parameter',
      {
        given: { endpoint: endpoint('checkWpAdminUserExists'), path: { env_id: 'e' }, query: { email: 'a+b@example.com' }, credentials: { kind: 'query', name: 'api_key', key } },
        want: { url: `https://api.example.test/v2/sites/environments/e/wpa-user-exists?email=a%2Bb%40example.com&api_key=${key}`, headers: { accept: 'application/json' } },
      },
    ],
    [
      'a JSON body, content-type set, scheme as given',
      {
        given: { endpoint: endpoint('runWpCliCommand'), path: { env_id: 'e' }, body: { json: { wp_command: 'wp cli version' } }, credentials: bearer(key, 'BEARER') },
        want: {
          url: 'https://api.example.test/v2/sites/environments/e/run-wp-cli-command',
          headers: { accept: 'application/json', authorization: `BEARER ${key}`, 'content-type': 'application/json' },
          body: '{"wp_command":"wp cli version"}',
        },
      },
    ],
    [
      'raw text sent exactly, no credentials, an id encoded',
      {
        given: { endpoint: endpoint('resetSite'), path: { site_id: 'a b/c' }, body: { raw: '{"admin_password":' }, credentials: { kind: 'none' } },
        want: { url: 'https://api.example.test/v2/sites/a%20b%2Fc/reset-site', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{"admin_password":' },
      },
    ],
    [
      'a key in a header of its own',
      {
        given: { endpoint: endpoint('validateApiKey'), credentials: { kind: 'header', name: 'X-API-Key', key } },
        want: { url: 'https://api.example.test/v2/validate', headers: { accept: 'application/json', 'x-api-key': key } },
      },
    ],
    [
      "another client's header shapes: each replaces the suite's, undefined removes one",
      {
        given: { endpoint: endpoint('runWpCliCommand'), path: { env_id: 'e' }, body: { json: {} }, credentials: bearer(key), headers: { 'content-type': 'application/json; charset=utf-8', accept: undefined } },
        want: { url: 'https://api.example.test/v2/sites/environments/e/run-wp-cli-command', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=utf-8' }, body: '{}' },
      },
    ],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    const request = buildRequest(target, given);
    expect(request).toEqual({ method: given.endpoint.method, url: want.url, headers: want.headers, ...(want.body === undefined ? {} : { body: want.body }) });
  });

  it('every form in which a probe carries a key is one the sanitizer hides', () => {
    const key = 'hsc_k/y+z 0123456789';
    const sanitizer = new Sanitizer([keySecret(key, 'HSC_API_KEY')]);
    for (const carried of carriedForms(key)) expect(sanitizer.text(`x ${carried} y`)).toBe('x [redacted HSC_API_KEY] y');
  });
});

describe('probes of a full target (every id discovered, destructive requests allowed, two tenants)', () => {
  const target = mockTarget();
  const context = contextOf(target);
  const probes = allProbes(context);

  it('every probe goes to the target with a well-formed request', () => {
    expect(probes.length).toBeGreaterThan(500);
    for (const p of probes) {
      expect(p.request.url.startsWith(`${target.baseUrl}/`), p.title).toBe(true);
      expect(p.request.method).toBe(p.endpoint.method);
      // The suite's own header shape, but where a probe says it sends another client's.
      const fetchShaped = /^no body, as fetch-based clients send a GET/.test(p.title);
      expect(p.request.headers.accept, p.title).toBe(fetchShaped ? '*/*' : 'application/json');
      const contentType = p.request.body === undefined ? undefined : p.title.includes(JSON_WITH_CHARSET) ? JSON_WITH_CHARSET : 'application/json';
      expect(p.request.headers['content-type'], p.title).toBe(contentType);
      expect(p.title.length).toBeGreaterThan(0);
      expect(() => parse(p)).not.toThrow();
    }
  });

  it('valid probes pass the generated request validators and name real ids', () => {
    const known = knownIds(target);
    const valid = probes.filter((p) => p.expect === 'valid');
    expect(valid.length).toBeGreaterThan(150);
    for (const p of valid) {
      const { path, query, body } = parse(p);
      const where = `${operation(p.endpoint)}: ${p.title}`;
      for (const value of Object.values(path)) expect(known.has(value.toLowerCase()), `${where}: path id ${value}`).toBe(true);
      const validateQuery = queryValidator(p.endpoint);
      if (validateQuery) expect(validateQuery(query), `${where}: ${JSON.stringify(validateQuery.errors)}`).toBe(true);
      expect(body === undefined, where).toBe(p.endpoint.body === undefined);
      if (body) {
        expect(body.ok, where).toBe(true);
        const validate = bodyValidator(p.endpoint)!;
        expect(validate(body.ok && body.json), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true);
        // Every body field is sent (ASM-NOT-SHOWN-FIELDS-SENT).
        expect(Object.keys(body.ok ? (body.json as object) : {}).sort(), where).toEqual(p.endpoint.body!.map((f) => f.name).sort());
      }
    }
  });

  it('invalid probes fail the generated validators (or are not JSON objects at all) and name only real ids', () => {
    const known = knownIds(target);
    const invalid = probes.filter((p) => p.expect === 'invalid');
    expect(invalid.length).toBeGreaterThan(100);
    for (const p of invalid) {
      const why = refusedBecause(p, known);
      expect(why, `${operation(p.endpoint)}: ${p.title}`).toBeDefined();
      expect(why, `${operation(p.endpoint)}: ${p.title} must be refused for its input, not its ids`).not.toMatch(/^unknown/);
    }
  });

  it('a JSON null body is asserted invalid only where the document marks a body field required', () => {
    const withNull = new Set(probes.filter((p) => p.rule === 'INPUT-400' && p.request.body === 'null').map((p) => p.endpoint.name));
    const stated = api.endpoints.filter((e) => inScope(rule('INPUT-400'), e) && (e.body ?? []).some((f) => f.presence === 'required')).map((e) => e.name);
    expect([...withNull].sort()).toEqual(stated.sort());
  });

  it('full-Unicode free text goes into search/replace and names', () => {
    const texts = probes
      .filter((p) => p.expect === 'valid' && ['searchAndReplace', 'createWpAdminUser'].includes(p.endpoint.name) && p.request.headers['content-type'] !== JSON_WITH_CHARSET)
      .flatMap((p) => {
        const json = JSON.parse(p.request.body!) as Record<string, string>;
        return [json.search, json.replace, json.first_name, json.last_name].filter((t): t is string => t !== undefined);
      });
    expect(texts.length).toBe(4 * context.runs);
    expect(texts.every((t) => t.trim() === t && t.length > 0)).toBe(true);
    expect(texts.some((t) => /[^\u0000-\u007f]/.test(t))).toBe(true);
    expect(texts.some((t) => /[\u{10000}-\u{10ffff}]/u.test(t))).toBe(true);
    expect(texts.filter((t) => /[^\u0000-\u007f]/.test(t)).length).toBe(texts.length);
  });

  it('each probe carries the right tenant key', () => {
    const main = carriedForms(target.main.apiKey);
    const other = carriedForms(target.other!.apiKey);
    const otherIds = knownIds({ ...target, main: target.other!, other: undefined } as Target);
    const carries = (p: Probe, forms: readonly string[]) => {
      const text = `${p.request.url} ${Object.values(p.request.headers).join(' ')}`;
      return forms.some((f) => text.includes(f));
    };
    for (const p of probes) {
      for (const form of [...main, ...other]) expect(p.title.includes(form), p.title).toBe(false);
      if (carries(p, other)) {
        expect(isRead(p.endpoint)).toBe(true);
        if (p.expect === 'foreign-key') {
          // AUTH-401: the other key on the main company's data, expecting it refused.
          expect(p.rule, p.title).toBe('AUTH-401');
          for (const id of Object.values(parse(p).path)) expect(otherIds.has(id.toLowerCase()), p.title).toBe(false);
        } else {
          // Otherwise the other key only reads the other company's own data.
          expect(p.rule, p.title).toBe('INPUT-ACCEPT');
          for (const id of Object.values(parse(p).path)) expect(otherIds.has(id.toLowerCase()), p.title).toBe(true);
        }
      } else if (p.rule === 'AUTH-401') {
        // Never the key itself; a near miss of it (a prefix, one more character, the other case) only where the title says so.
        expect(p.request.headers.authorization, p.title).not.toBe(`Bearer ${target.main.apiKey}`);
        if (carries(p, main)) expect(p.title).toMatch(/^the real key with /);
      } else {
        expect(carries(p, main), p.title).toBe(true);
      }
    }
  });

  it("sends common clients' shapes: a bodied GET with no body, and every body labelled with a charset once", () => {
    const bodied = api.endpoints.filter((e) => e.body !== undefined);
    const bodyless = probes.filter((p) => p.rule === 'STATUS-SET' && p.title.startsWith('no body'));
    expect(bodyless.map((p) => p.endpoint.name).sort()).toEqual(bodied.filter(isRead).map((e) => e.name).sort());
    for (const p of bodyless) {
      expect([p.expect, p.request.body, p.request.headers['content-type']], p.title).toEqual(['observe', undefined, undefined]);
      expect(Object.values(parse(p).path).every((id) => knownIds({ ...target, other: undefined }).has(id.toLowerCase())), p.title).toBe(true);
    }
    const charset = probes.filter((p) => p.request.headers['content-type'] === JSON_WITH_CHARSET);
    expect(charset.map((p) => [p.endpoint.name, p.rule, p.expect]).sort()).toEqual(bodied.map((e) => [e.name, 'INPUT-ACCEPT', 'valid']).sort());
  });

  it("names the other company's data with the main key only to expect a refusal: 404 on reads, ISOLATION-WRITE's on actions", () => {
    const otherIds = knownIds({ ...target, main: target.other!, other: undefined } as Target);
    const theirBackup = (p: Probe) => {
      const { body } = parse(p);
      return body?.ok === true && (body.json as { backup_id?: unknown } | null)?.backup_id === target.other!.ids.backupId;
    };
    const foreign = probes.filter(
      (p) => p.request.headers.authorization === `Bearer ${target.main.apiKey}` && (`${p.request.url} ${p.request.body ?? ''}`.toLowerCase().split(/[^0-9a-f-]+/).some((v) => otherIds.has(v)) || theirBackup(p)),
    );
    expect(foreign.length).toBeGreaterThan(0);
    for (const p of foreign) expect([p.rule, p.expect], p.title).toEqual(isRead(p.endpoint) ? ['READ-404', 'not-found'] : ['ISOLATION-WRITE', 'foreign-write']);
    // Every action that lists a refusal is sent the other company's data, one id role at a time where it has several.
    const refusing = api.endpoints.filter((e) => !isRead(e) && e.errors.includes(400)).map((e) => e.name);
    expect(new Set(foreign.filter((p) => !isRead(p.endpoint)).map((p) => p.endpoint.name))).toEqual(new Set(refusing));
    expect(foreign.filter((p) => p.endpoint.name === 'restoreBackup').map((p) => p.title).sort()).toEqual([
      "backup_id the other company's, the rest this company's",
      "every id the other company's",
      "notified_user_id the other company's, the rest this company's",
      "target_env_id the other company's, the rest this company's",
    ]);
  });
});

describe('the key anywhere but `Authorization: Bearer`', () => {
  const key = mockTarget().main.apiKey;
  const inUrl = (p: Probe) => p.request.url.includes(key) || p.request.url.includes(encodeURIComponent(key));
  const many = (target: Target) => allProbes(contextOf(target)).filter((p) => p.operator?.id === 'carrier:many');

  it('one probe per endpoint carries it in every conventional place at once, no Authorization header; shrinking keeps to some of them', () => {
    const target = { ...mockTarget(), keyInUrl: true };
    const probes = many(target);
    expect(probes.map((p) => p.endpoint.name).sort()).toEqual(api.endpoints.map((e) => e.name).sort());
    for (const p of probes) {
      expect(p.rule).toBe('AUTH-BEARER');
      expect(p.request.headers.authorization).toBeUndefined();
      expect(p.request.headers.cookie).toContain(key);
      expect(Object.entries(p.request.headers).filter(([name, value]) => name !== 'cookie' && value.includes(key)).length).toBeGreaterThan(1);
      expect(inUrl(p)).toBe(true);
      // Smaller requests carry fewer of the places, never a new one, and never an Authorization header.
      const generated = p.generated!;
      let seen = 0;
      for (const smaller of generated.arbitrary.shrink(generated.value.value_, generated.value.context)) {
        if (++seen > 20) break;
        const built = generated.build(smaller.value_)!;
        expect(built.request.headers.authorization).toBeUndefined();
        for (const [name, value] of Object.entries(built.request.headers)) if (value.includes(key)) expect(p.request.headers[name], name).toBeDefined();
      }
      expect(seen).toBeGreaterThan(0);
    }
  });

  it('a URL holds the real key only where the target may log it: the embedded mock, loopback, or --allow-key-in-url', () => {
    const target = { ...mockTarget({ baseUrl: 'https://api.example.com/v2' }), keyInUrl: false };
    const probes = allProbes(contextOf(target));
    expect(probes.filter(inUrl).map((p) => p.title)).toEqual([]);
    expect(many(target).length).toBe(api.endpoints.length);
    // Never a silent gap: every AUTH-BEARER row says what it was not sent.
    const held = authProbes(contextOf(target)).skipped.filter((s) => s.reason === KEY_NOT_IN_URL);
    expect(held.map((s) => [s.rule, s.endpoint.name])).toEqual(api.endpoints.map((e) => ['AUTH-BEARER', e.name]));
    expect(authProbes(contextOf({ ...target, keyInUrl: true })).skipped.filter((s) => s.reason === KEY_NOT_IN_URL)).toEqual([]);
  });
});

describe('safety: without --allow-destructive nothing positive reaches an action', () => {
  for (const other of [true, false]) {
    it(`${other ? 'with' : 'without'} a second tenant`, () => {
      const target = mockTarget({ allowDestructive: false, other });
      const context = contextOf(target);
      const known = knownIds(target);
      const all = allProbes(context).filter((p) => !isRead(p.endpoint));
      // The exception, by design: the second company, a test company, gets the mutating actions
      // naming only its data under this company's key (ISOLATION-WRITE); never a destructive one.
      const foreign = all.filter((p) => p.rule === 'ISOLATION-WRITE');
      expect(foreign.length > 0).toBe(other);
      for (const p of foreign) expect([p.endpoint.effect, p.title], p.title).toEqual(['mutating', "every id the other company's"]);
      const actions = all.filter((p) => p.rule !== 'ISOLATION-WRITE');
      expect(actions.length).toBeGreaterThan(100);
      const reasons = new Map<string, number>();
      for (const p of actions) {
        expect(p.expect, p.title).not.toBe('valid');
        const why = refusedBecause(p, known);
        expect(why, `${operation(p.endpoint)} [${p.rule}] ${p.title}`).toBeDefined();
        reasons.set(why!, (reasons.get(why!) ?? 0) + 1);
      }
      expect([...reasons.keys()].sort()).toEqual(expect.arrayContaining(['invalid body', 'unknown path id']));
      expect(scenarioSources.flatMap((s) => s(context).scenarios)).toEqual([]);
    });
  }

  it('no request to an action names an id the target owns, so even a server that ignores credentials or a broken field acts on nothing', () => {
    const target = mockTarget({ allowDestructive: false });
    const known = knownIds(target);
    const mainIds = knownIds({ ...target, other: undefined });
    const all = allProbes(contextOf(target)).filter((p) => p.endpoint.effect !== 'read');
    // ISOLATION-WRITE names the other company's data only (the test above): none of this company's.
    for (const p of all.filter((x) => x.rule === 'ISOLATION-WRITE')) {
      const text = `${p.request.url} ${p.request.body ?? ''}`.toLowerCase();
      expect([...mainIds].filter((id) => text.includes(id)), p.title).toEqual([]);
    }
    const actions = all.filter((p) => p.rule !== 'ISOLATION-WRITE');
    expect(new Set(actions.filter((p) => p.expect === 'invalid').map((p) => p.rule))).toEqual(new Set(['INPUT-400', 'LIMIT-WP-COMMAND', 'LIMIT-EXP-INTERVAL', 'LIMIT-WEB-ROOT-SUBFOLDER']));
    for (const p of actions) {
      if (p.expect === 'invalid') expect(p.idsUnknown, p.title).toBe(true);
      const text = `${p.request.url} ${p.request.body ?? ''}`.toLowerCase();
      expect([...known].filter((id) => text.includes(id)), `${operation(p.endpoint)} [${p.rule}] ${p.title}`).toEqual([]);
    }
    // Where destructive requests are allowed, the breaks name real data: the break is then the only reason to refuse.
    const allowed = allProbes(contextOf(mockTarget({ allowDestructive: true }))).filter((p) => p.endpoint.effect !== 'read' && p.expect === 'invalid');
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.filter((p) => p.idsUnknown)).toEqual([]);
  });

  it('and each action endpoint gets a "needs --allow-destructive" skip for INPUT-ACCEPT', () => {
    const context = contextOf(mockTarget({ allowDestructive: false }));
    const skips = allSkips(context).filter((s) => s.rule === 'INPUT-ACCEPT');
    expect(skips.map((s) => s.endpoint.name).sort()).toEqual(api.endpoints.filter((e) => !isRead(e)).map((e) => e.name).sort());
    expect(new Set(skips.map((s) => s.reason))).toEqual(new Set(['needs --allow-destructive']));
  });
});

describe('safety: without --allow-live no destructive request names a live environment', () => {
  /** What a destructive request must not name: the live environments' ids and what they hold, and the site (a request naming it acts on every environment). */
  const liveIds = (target: Target): string[] => {
    const live = target.main.ids.places!.filter((p) => p.envName === 'live');
    expect(live.length).toBeGreaterThan(0);
    return [target.main.ids.siteId, ...live.flatMap((p) => [p.envId, p.cdnCacheId, p.domainId, ...p.sftpAccountIds])].filter((id): id is string => id !== undefined).map((id) => id.toLowerCase());
  };
  const named = (p: Probe, ids: readonly string[]) => {
    const text = `${p.request.url} ${p.request.body ?? ''}`.toLowerCase();
    return ids.filter((id) => text.includes(id));
  };
  const skipsOf = (target: Target, rule: RuleId) => new Map(allSkips(contextOf(target)).filter((s) => s.rule === rule).map((s) => [s.endpoint.name, s.reason]));
  const destructive = api.endpoints.filter((e) => e.effect === 'destructive');

  // Every layout keeps a live environment; the flat ids of these targets point at live data wherever staging lacks it.
  it.each(layouts.map((l) => [l.name]))('layout %s: every probe of a destructive action names none of the live ids or the site', (layout) => {
    const target = layoutTarget(layout);
    const forbidden = liveIds(target);
    const probes = allProbes(contextOf(target)).filter((p) => p.endpoint.effect === 'destructive');
    expect(new Set(probes.map((p) => p.endpoint.name))).toEqual(new Set(destructive.map((e) => e.name)));
    for (const p of probes) expect(named(p, forbidden), `${operation(p.endpoint)} [${p.rule}] ${p.title}`).toEqual([]);
    // Broken requests name unknown ids only where valid ones are off limits (with --allow-destructive, real ids are the rule).
    const offLimits = [...skipsOf(target, 'INPUT-ACCEPT')].filter(([, reason]) => reason.startsWith('needs --allow-live')).map(([name]) => name);
    expect(offLimits).toContain('resetSite');
    for (const p of probes.filter((x) => x.idsUnknown)) expect(offLimits, `${operation(p.endpoint)} ${p.title}`).toContain(p.endpoint.name);
  });

  it('where only the live environment holds what a destructive action needs, its checks skip naming --allow-live; with it they run there', () => {
    const without = layoutTarget('staging-without-sftp-and-backups');
    const accept = skipsOf(without, 'INPUT-ACCEPT');
    expect(accept.get('restoreBackup')).toBe('needs --allow-live (only the live environment has a backup)');
    expect(accept.get('removeAdditionalSftpAccount')).toBe('needs --allow-live (only the live environment has an additional SFTP account)');
    expect(accept.get('resetSite')).toMatch(/^needs --allow-live \(it names the whole site/);
    expect(skipsOf(without, 'STATE-SFTP-REMOVE').get('removeAdditionalSftpAccount')).toBe('needs --allow-live (only the live environment has an additional SFTP account)');
    expect(scenarioSources.flatMap((s) => s(contextOf(without)).scenarios).map((s) => s.rule)).not.toContain('STATE-SFTP-REMOVE');
    // The actions staging can serve still run there.
    expect(accept.has('searchAndReplace')).toBe(false);
    expect(accept.has('updateDnsRecords')).toBe(false);

    const withLive = layoutTarget('staging-without-sftp-and-backups', { allowLive: true });
    const live = withLive.main.ids.places!.find((p) => p.envName === 'live')!;
    expect([...skipsOf(withLive, 'INPUT-ACCEPT').values()].filter((r) => r.includes('--allow-live'))).toEqual([]);
    const valid = allProbes(contextOf(withLive)).filter((p) => p.rule === 'INPUT-ACCEPT' && p.expect === 'valid');
    const restore = valid.filter((p) => p.endpoint.name === 'restoreBackup');
    expect(restore.length).toBeGreaterThan(0);
    for (const p of restore) expect(parse(p).path).toEqual({ target_env_id: live.envId });
    expect(valid.filter((p) => p.endpoint.name === 'removeAdditionalSftpAccount').map((p) => Object.values(parse(p).path)[0])).toEqual([live.sftpAccountIds.at(-1)]);
    expect(scenarioSources.flatMap((s) => s(contextOf(withLive)).scenarios).map((s) => s.rule)).toContain('STATE-SFTP-REMOVE');
  });

  it('a site with only its live environment: destructive actions skip, mutating ones and reads still act there', () => {
    const target = layoutTarget('only-live');
    const live = target.main.ids.places![0]!;
    const accept = skipsOf(target, 'INPUT-ACCEPT');
    for (const e of destructive) expect(accept.get(e.name), e.name).toMatch(/^needs --allow-live \(/);
    for (const e of api.endpoints.filter((x) => x.effect !== 'destructive')) expect(accept.has(e.name), e.name).toBe(false);
    const mutating = allProbes(contextOf(target)).filter((p) => p.endpoint.effect === 'mutating' && p.expect === 'valid');
    expect(new Set(mutating.map((p) => p.endpoint.name))).toEqual(new Set(api.endpoints.filter((e) => e.effect === 'mutating').map((e) => e.name)));
    for (const p of mutating) expect(`${p.request.url} ${p.request.body}`, p.title).toContain(live.envId);
    const states = new Map(allSkips(contextOf(target)).filter((s) => s.rule.startsWith('STATE-')).map((s) => [s.rule, s.reason]));
    expect(states.get('STATE-DNS-UPDATE')).toBe('needs --allow-live (the site has only its live environment)');
    expect(states.get('STATE-SFTP-REMOVE')).toBe('needs --allow-live (the site has only its live environment)');
    expect(scenarioSources.flatMap((s) => s(contextOf(target)).scenarios).map((s) => s.rule)).toEqual(['STATE-WPA-USER']);
    // Valid boundary cases of a destructive limit are not sent; the invalid ones name unknown ids.
    const limit = allSkips(contextOf(target)).find((s) => s.rule === 'LIMIT-WP-COMMAND');
    expect(limit?.reason).toBe('its valid boundary cases need --allow-live (the site has only its live environment; the invalid ones were sent)');
  });
});

describe('coverage: every (rule, endpoint) pair in scope is probed or skipped with a reason', () => {
  const probeRules: RuleId[] = ['AUTH-401', 'AUTH-BEARER', 'AUTH-SCHEME-CASE', 'READ-404', 'ISOLATION-WRITE', 'INPUT-400', 'INPUT-ACCEPT', ...api.rules.map((r) => r.id).filter((id) => id.startsWith('LIMIT-'))];
  const scenarioRules = api.rules.map((r) => r.id).filter((id) => id.startsWith('STATE-'));
  const bare: Target = (() => {
    const full = mockTarget();
    const { companyId, siteId, envIds, envId } = full.main.ids;
    return { ...full, main: { apiKey: full.main.apiKey, ids: { companyId, siteId, envIds, envId, sftpAccountIds: [] } }, other: undefined, allowDestructive: false } as Target;
  })();
  const targets: [string, Target, ProbeContext['options']][] = [
    ['a full target', mockTarget(), { strict: false }],
    ['a full target, --strict', mockTarget(), { strict: true }],
    ['a bare target (only the required ids, no second tenant, no destructive requests)', bare, { strict: false }],
    ['a bare target with destructive requests allowed', { ...bare, allowDestructive: true }, { strict: false }],
  ];

  it.each(targets)('%s', (name, target, options) => {
    const context = contextOf(target, 7, 3, options);
    const probed = new Set(allProbes(context).map((p) => `${p.rule} ${p.endpoint.name}`));
    const scenarios = scenarioSources.flatMap((s) => s(context).scenarios);
    for (const s of scenarios) for (const e of s.endpoints) probed.add(`${s.rule} ${e.name}`);
    const skips = allSkips(context);
    for (const s of skips) expect(s.reason.length, `${s.rule} ${s.endpoint.name}`).toBeGreaterThan(10);
    const skipped = new Set(skips.map((s) => `${s.rule} ${s.endpoint.name}`));
    const uncovered: string[] = [];
    for (const id of [...probeRules, ...scenarioRules]) {
      const r = api.rules.find((x) => x.id === id)!;
      for (const e of api.endpoints) if (inScope(r, e) && !probed.has(`${id} ${e.name}`) && !skipped.has(`${id} ${e.name}`)) uncovered.push(`${id} ${operation(e)}`);
    }
    expect(uncovered, name).toEqual([]);
    if (target === targets[0]![1]) {
      // Fully discovered and allowed: nothing is skipped.
      expect([...skipped].sort()).toEqual([]);
      expect(scenarios.map((s) => s.rule).sort()).toEqual([...scenarioRules, 'ISOLATION-WRITE'].sort());
    }
  });

  it('names the reasons a bare target cannot be exercised', () => {
    const reasons = new Set(allSkips(contextOf(bare)).map((s) => s.reason));
    expect(reasons).toContain('needs --allow-destructive');
    expect(reasons).toContain('no domain discovered');
    const allowed = new Set(allSkips(contextOf({ ...bare, allowDestructive: true })).map((s) => `${s.rule} ${s.endpoint.name}: ${s.reason}`));
    expect(allowed).toContain('INPUT-ACCEPT restoreBackup: no backup discovered');
    expect(allowed).toContain('INPUT-ACCEPT clearCdnCache: no CDN cache id discovered');
    expect(allowed).toContain('INPUT-ACCEPT removeAdditionalSftpAccount: no additional SFTP account discovered');
    expect(allowed).toContain('STATE-DNS-UPDATE listDnsRecords: no domain discovered');
    expect(allowed).toContain('STATE-SFTP-REMOVE removeAdditionalSftpAccount: no additional SFTP account discovered');
    expect(allowed).toContain('INPUT-400 updateDnsRecords: no domain discovered');
  });

  it('with --strict, the DNS read only observes unknown domains (CONFLICT-DNS-READ-404)', () => {
    const context = contextOf(mockTarget(), 7, 3, { strict: true });
    const dns = allProbes(context).filter((p) => p.rule === 'READ-404' && p.endpoint.name === 'listDnsRecords');
    expect(dns.length).toBeGreaterThan(0);
    expect(new Set(dns.map((p) => p.expect))).toEqual(new Set(['observe']));
    const lenient = allProbes(contextOf(mockTarget(), 7, 3)).filter((p) => p.rule === 'READ-404' && p.endpoint.name === 'listDnsRecords');
    expect(new Set(lenient.map((p) => p.expect))).toEqual(new Set(['not-found']));
  });
});

describe('determinism', () => {
  const target = mockTarget();
  const freeText = (probes: Probe[]) =>
    probes.filter((p) => p.expect === 'valid' && p.endpoint.name === 'createWpAdminUser').map((p) => (JSON.parse(p.request.body!) as { first_name: string }).first_name);

  it('the same seed sends the same requests', () => {
    // What is sent, and the drawn value a shrink would start from (the arbitrary and builder are functions).
    const sent = (seed: number) => allProbes(contextOf(target, seed)).map(({ generated, ...probe }) => ({ ...probe, drawn: generated?.value.value_ }));
    expect(sent(1234)).toEqual(sent(1234));
    const titles = (seed: number) => scenarioSources.flatMap((s) => s(contextOf(target, seed)).scenarios.map((x) => x.title));
    expect(titles(1234)).toEqual(titles(1234));
  });

  it('different seeds send different free text and different unknown ids', () => {
    const a = allProbes(contextOf(target, 1));
    const b = allProbes(contextOf(target, 2));
    expect(freeText(a)).not.toEqual(freeText(b));
    expect(new Set(freeText(a)).size).toBeGreaterThan(1);
    const unknownUrls = (ps: Probe[]) => ps.filter((p) => p.rule === 'READ-404').map((p) => p.request.url);
    expect(unknownUrls(a)).not.toEqual(unknownUrls(b));
  });

  it('the number of examples follows runs', () => {
    const count = (runs: number) => allProbes(contextOf(target, 5, runs)).filter((p) => p.rule === 'INPUT-ACCEPT' && p.endpoint.name === 'runWpCliCommand' && p.request.headers['content-type'] === 'application/json').length;
    expect([count(1), count(4), count(10)]).toEqual([1, 4, 10]);
  });
});
