/**
 * LIMIT-* (§Limits; §Endpoints): the stated limits of `wp_command`, `exp_interval` and
 * `web_root_subfolder`, broken (expect 400) and met at their boundaries (expect success), each
 * in a request otherwise valid and naming the tenant's real environment. Invalid commands are
 * harmless even if a faulty server ran them; valid ones only read (`wp option get`, `wp cli
 * version`). Valid cases change the target, so they need --allow-destructive (and, for a
 * destructive endpoint whose data only a live environment holds, --allow-live).
 */
import { api } from '../../spec/api.ts';
import type { Endpoint, Field, RuleId } from '../../spec/model.ts';
import { endpoint as endpointNamed, rule } from '../../spec/queries.ts';
import type { Probe, ProbeSource, Skip } from '../types.ts';
import { idsForInvalid, show, standInBody, wrongTypes } from './inputs.ts';
import { bearer, generatedProbe, makeProbe, streamSeed } from './request.ts';

/** One value of the limited field (`absent`: the field left out), and what it shows. */
interface Case {
  readonly value?: unknown;
  readonly absent?: true;
  readonly title: string;
}

interface Limit {
  readonly invalid: readonly Case[];
  readonly valid: readonly Case[];
}

const of = (value: unknown, title: string): Case => ({ value, title: `${show(value)}: ${title}` });
const nonStrings: readonly Case[] = [...wrongTypes({ kind: 'string' }), []].map((v) => of(v, 'not a string'));

const GET = 'wp option get ';
const sized = (length: number) => `${GET}${'a'.repeat(length - GET.length)}`;

/** The stated bound of a limited string field, read from the model. */
function stated<K extends 'maxLength' | 'enum'>(field: Field, key: K): NonNullable<Extract<Field['type'], { kind: 'string' }>[K]> {
  const value = field.type.kind === 'string' ? field.type[key] : undefined;
  if (value === undefined) throw new Error(`${field.name} states no ${key}`);
  return value as NonNullable<Extract<Field['type'], { kind: 'string' }>[K]>;
}

/**
 * `^wp\s+[a-zA-Z0-9_\-./:=@'\s]+$`, at most 5000 characters (the field's `maxLength`). Each
 * forbidden character sits in a command that stays harmless if a shell ran it; whitespace is
 * ASCII only (ASM-WP-WHITESPACE-ASCII).
 */
const wpCommand = (field: Field, max = stated(field, 'maxLength')): Limit => ({
  invalid: [
    { value: sized(max + 1), title: `${max + 1} characters (at most ${max})` },
    ...[
      ['wp option get blogname;', '`;`'],
      ['wp option get blogname|true', '`|`'],
      ['wp option get blogname&', '`&`'],
      ['wp option get $HOME', '`$`'],
      ['wp option get `true`', 'backtick'],
      ['wp option get "blogname"', '`"`'],
      ['wp option get blogname >/dev/null', '`>`'],
      ['wp option get blogname </dev/null', '`<`'],
      ['wp option get blog(name', '`(`'],
      ['wp option get blog)name', '`)`'],
      ['wp option get blogñame', '`ñ` (a letter outside a-z, A-Z)'],
    ].map(([value, what]) => ({ value, title: `${show(value)}: ${what} is not an allowed character` })),
    of('wplist', 'no white space after `wp`'),
    of('wp', '`wp` alone'),
    of(' wp option get blogname', 'a leading space'),
    of('WP option get blogname', 'uppercase `WP`'),
    of('ls -la', 'does not begin with `wp`'),
    ...nonStrings,
  ],
  valid: [
    { value: sized(max), title: `exactly ${max} characters` },
    of("wp option get hsc_probe-0.9/a:b=c@d 'ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789'", 'every allowed character'),
    of('wp\tcli\tversion', 'tabs as white space'),
    of('wp\ncli version', 'a newline as white space'),
    of('wp cli version\r\n', 'a trailing CR LF'),
  ],
});

/**
 * Required; the values shown (`days_7`, the field's `enum.shown`) are valid; strings outside
 * `[a-z0-9_]` are outside all five (ASM-EXP-INTERVAL-OUTSIDE).
 */
const expInterval = (field: Field, { shown } = stated(field, 'enum')): Limit => ({
  invalid: [
    { absent: true, title: 'without exp_interval (stated required)' },
    ...nonStrings,
    of(null, 'null for a required field'),
    of('', 'the empty string'),
    of('days 7', 'a space'),
    of('days-7', 'a hyphen'),
    of('DAYS_7', 'uppercase letters'),
  ],
  valid: shown.map((value) => of(value, shown.length === 1 ? 'the value the document shows' : 'a value the document shows')),
});

/** "a path beginning with `/`". */
const webRootSubfolder = (): Limit => ({
  invalid: [
    ...['public', 'wp/public', './public', '~/public', '\\public'].map((value) => of(value, 'does not begin with `/`')),
    ...nonStrings,
  ],
  valid: [of('/public', 'a path beginning with `/`'), of('/public_html/wp', 'a nested path beginning with `/`')],
});

/** The cases of each limit, built from the limited field's type in the model. */
const limits: Readonly<Partial<Record<RuleId, (field: Field) => Limit>>> = {
  'LIMIT-WP-COMMAND': wpCommand,
  'LIMIT-EXP-INTERVAL': expInterval,
  'LIMIT-WEB-ROOT-SUBFOLDER': webRootSubfolder,
};

/** The endpoint and body field a limit rule constrains, read from the model. */
function limitedField(id: RuleId): { readonly endpoint: Endpoint; readonly field: Field } {
  const scope = rule(id).scope;
  if (typeof scope !== 'object') throw new Error(`${id} is not scoped to endpoints`);
  for (const name of scope.endpoints) {
    const e = endpointNamed(name);
    const field = e.body?.find((f) => f.type.kind === 'string' && f.type.limit === id);
    if (field) return { endpoint: e, field };
  }
  throw new Error(`no body field carries ${id}`);
}

export const limitProbes: ProbeSource = (context) => {
  const { target } = context;
  const probes: Probe[] = [];
  const skipped: Skip[] = [];
  for (const r of api.rules) {
    const cases = limits[r.id];
    if (!r.id.startsWith('LIMIT-')) continue;
    if (!cases) throw new Error(`no cases for ${r.id}`);
    const { endpoint, field } = limitedField(r.id);
    const limit = cases(field);
    const seed = streamSeed(context.seed, 'limits', r.id);
    // Valid cases are sent only where the ids are real (valid requests allowed there), so they serve both.
    const { path, ids, idsUnknown, because } = idsForInvalid(endpoint, target, seed);
    if (!path.ok) {
      skipped.push({ rule: r.id, endpoint, reason: path.reason });
      continue;
    }
    const { drawn } = standInBody(endpoint, ids, seed);
    // The case's value in a stand-in body: shrinking varies the other fields, never the case.
    const probe = (expect: 'invalid' | 'valid', c: Case) => {
      const build = (body: Record<string, unknown>) => {
        const { [field.name]: _, ...rest } = body;
        const json = c.absent ? rest : { ...body, [field.name]: c.value };
        const made = makeProbe(target, r.id, expect, c.absent ? c.title : `${field.name} ${c.title}`, { endpoint, credentials: bearer(target.main.apiKey), path: path.value, body: { json } });
        return idsUnknown ? { ...made, idsUnknown } : made;
      };
      probes.push(generatedProbe(drawn.arbitrary, drawn.value, build));
    };
    for (const c of limit.invalid) probe('invalid', c);
    if (!idsUnknown) for (const c of limit.valid) probe('valid', c);
    else skipped.push({ rule: r.id, endpoint, reason: `its valid boundary cases need ${because!.flag} (${because!.why ? `${because!.why}; ` : ''}the invalid ones were sent)` });
  }
  return { probes, skipped };
};
