/**
 * Walks the document against the model: every endpoint, error status, resource field, body
 * field, response container and citation of the model must match the document's text.
 */
import { describe, expect, it } from 'vitest';
import { api } from './api.ts';
import { codeSpans, readSections, tableRows } from './document.ts';
import type { Endpoint, Field, FieldType, ResourceName } from './model.ts';
import { formats } from './formats.ts';
import { citesOf, holdsEpochMs, operation, quotePieces, readOf, resource } from './queries.ts';

const sections = readSections();
const section = (path: string) => {
  const found = sections.find((s) => s.path === path);
  if (!found) throw new Error(`document has no section ${path}`);
  return found;
};
const sectionStartingWith = (prefix: string) => {
  const found = sections.find((s) => s.path.startsWith(prefix));
  if (!found) throw new Error(`document has no section starting ${prefix}`);
  return found;
};
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const documentText = squash(sections.map((s) => `${s.path}\n${s.body}`).join('\n'));

const endpointTables = ['Endpoints > Read endpoints', 'Endpoints > Action endpoints', 'Endpoints > Other action endpoints'];
const documentOperations = endpointTables.flatMap((prefix) =>
  tableRows(sectionStartingWith(prefix).body).map((cells) => ({ method: cells[0]!, path: cells[1]!.split(' ')[0]!, cells })),
);

describe('endpoints: the document tables against the model', () => {
  it('has exactly the 27 endpoints of the document, no missing, no extra', () => {
    const fromDocument = documentOperations.map((o) => `${o.method} ${o.path}`).sort();
    const fromModel = api.endpoints.map(operation).sort();
    expect(fromModel).toEqual(fromDocument);
    expect(fromModel).toHaveLength(27);
    expect(new Set(api.endpoints.map((e) => e.name)).size).toBe(27);
  });

  it('classifies 16 reads, 9 acknowledged actions and 2 other actions as the tables do', () => {
    const count = (prefix: string) => tableRows(sectionStartingWith(prefix).body).length;
    expect(api.endpoints.filter((e) => e.success.kind === 'data')).toHaveLength(count('Endpoints > Read endpoints'));
    expect(api.endpoints.filter((e) => e.success.kind === 'ack')).toHaveLength(count('Endpoints > Action endpoints'));
    expect(api.endpoints.filter((e) => e.success.kind === 'sync-action')).toHaveLength(count('Endpoints > Other action endpoints'));
  });

  it('gives each acknowledged action the kind the kind-prefix table names for it', () => {
    const kinds = tableRows(section('Endpoints > Conventions').body).map((cells) => codeSpans(cells[1]!)[0]!);
    const modelKinds = api.endpoints.flatMap((e) => (e.success.kind === 'ack' ? [e.success.operationKind] : []));
    expect([...modelKinds].sort()).toEqual([...kinds].sort());
  });

  it('marks the old plugins endpoint deprecated, as the table and §Versioning do', () => {
    const deprecated = documentOperations.filter((o) => o.cells[1]!.includes('deprecated')).map((o) => `${o.method} ${o.path}`);
    expect(api.endpoints.filter((e) => e.deprecated).map(operation)).toEqual(deprecated);
    expect(section('Versioning').body).toContain(deprecated[0]!.split(' ')[1]!);
  });
});

describe('tag groups', () => {
  const intro = section('What the service does').body;
  const named = /Tag groups named by the interface: ([^.]+)\./.exec(intro)![1]!.split(', ');
  const hidden = /Endpoints of the ([^,]+(?:, [^,]+)*?) groups/.exec(intro)![1]!.replace(' and ', ', ').split(', ');

  it('lists every group the document names, in its order', () => {
    expect(api.tagGroups).toEqual(named);
  });

  it('puts endpoints only in groups whose endpoints are shown, and uses every shown group', () => {
    const used = new Set(api.endpoints.map((e) => e.tag));
    expect([...used].filter((t) => hidden.includes(t))).toEqual([]);
    expect(named.filter((t) => !hidden.includes(t) && !used.has(t as never))).toEqual([]);
  });
});

describe('error statuses: the per-endpoint table of §Errors', () => {
  const rows = tableRows(section('Errors').body).filter((cells) => /^[A-Z]+ /.test(cells[0]!));

  /** Resolve a label such as `POST search-and-replace` or `/company/{id}/api-keys` to model endpoints. */
  const resolve = (label: string, method: string) =>
    api.endpoints.filter((e) => e.method === method && (e.path === label || e.path.endsWith(`/${label.replace(/^\//, '')}`)));

  const entries = rows.flatMap((cells) => {
    const statuses = cells[1]!.split(',').map((s) => Number(s.trim()));
    let method = '';
    return cells[0]!.split(/[;,]/).map((raw) => {
      const label = raw.trim();
      const withMethod = /^([A-Z]+) (.*)$/.exec(label);
      if (withMethod) method = withMethod[1]!;
      const path = withMethod ? withMethod[2]! : label;
      return { label, matches: resolve(path, method), statuses };
    });
  });

  it.each(entries.map((e) => [e.label, e] as const))('%s names exactly one endpoint, with the model\'s statuses', (_, entry) => {
    expect(entry.matches.map(operation)).toHaveLength(1);
    expect([...entry.matches[0]!.errors].sort()).toEqual(entry.statuses);
  });

  it('covers every endpoint exactly once', () => {
    const covered = entries.flatMap((e) => e.matches.map(operation)).sort();
    expect(covered).toEqual(api.endpoints.map(operation).sort());
  });

  it('models every status of the Errors table with its meaning and condition', () => {
    const statusRows = tableRows(section('Errors').body).filter((cells) => /^\d{3}$/.test(cells[0]!));
    expect(api.errorMeanings.map((m) => [String(m.status), m.meaning, m.condition])).toEqual(statusRows);
  });
});

/** Top-level field names of a resource as the document lists them. */
const resourceSections: readonly [string, ResourceName][] = [
  ['Resources and fields > Site', 'Site'],
  ['Resources and fields > Environment', 'Environment'],
  ['Resources and fields > Domain', 'Domain'],
  ['Resources and fields > DNS record', 'DnsRecord'],
  ['Resources and fields > Backup', 'Backup'],
  ['Resources and fields > Theme', 'Theme'],
  ['Resources and fields > Additional SFTP account', 'AdditionalSftpAccount'],
  ['Resources and fields > File node', 'FileNode'],
  ['Resources and fields > API key', 'ApiKey'],
  ['Resources and fields > Validated key', 'ValidatedKey'],
  ['Resources and fields > Region', 'Region'],
  ['Resources and fields > Error body', 'ErrorBody'],
];

const documentFieldNames = (body: string): string[] => {
  const rows = tableRows(body);
  if (rows.length) return rows.map((cells) => cells[0]!);
  // Prose resources: "`name` (string), `path` (string, ...)".
  return [...body.matchAll(/`([a-z_]+)` \(/g)].map((m) => m[1]!);
};

/** Each field of a resource section with the document's words for its type. */
const documentFieldTypes = (body: string): [string, string][] => {
  const rows = tableRows(body);
  if (rows.length) return rows.map((cells) => [cells[0]!, cells[1]!]);
  return [...body.matchAll(/`([a-z_]+)` \(([^)]*)\)/g)].map((m) => [m[1]!, m[2]!]);
};

describe('resources: every field of §Resources and fields', () => {
  it.each(resourceSections)('%s: the fields typed as epoch milliseconds are those the document says hold them', (path, name) => {
    const stated = documentFieldTypes(sectionStartingWith(path).body).filter(([, words]) => /epoch milliseconds/.test(words)).map(([field]) => field);
    expect(resource(name).fields.filter((f) => holdsEpochMs(f.type)).map((f) => f.name)).toEqual(stated);
  });

  it.each(resourceSections)('%s has the same fields as the model', (path, name) => {
    const expected = documentFieldNames(sectionStartingWith(path).body);
    expect(resource(name).fields.map((f) => f.name)).toEqual(expected);
  });

  it('the Site-environment summary lists the fields the Site row names', () => {
    const row = tableRows(section('Resources and fields > Site').body).find((cells) => cells[0] === 'environments')!;
    const inner = /\(([^)]*)\)/.exec(row[1]!)![1]!;
    const names = inner.split(',').map((part) => part.split(':')[0]!.trim());
    expect(resource('SiteEnvironmentSummary').fields.map((f) => f.name)).toEqual(names);
  });

  it('the Company user item has the fields of its shape line', () => {
    const line = codeSpans(section('Resources and fields > Company user').body)[0]!;
    const inner = /user: \{([^}]*)\}/.exec(line)![1]!.split(',').map((p) => p.trim().split(':')[0]!);
    const user = resource('CompanyUser').fields[0]!;
    expect(user.name).toBe('user');
    expect(user.type.kind === 'object' && user.type.fields.map((f) => f.name)).toEqual(inner);
  });

  it('Plugin has exactly the Theme fields the document names, with the same types', () => {
    const names = /Fields ([a-z_, ]+):/.exec(section('Resources and fields > Plugin (item of plugins list)').body)![1]!.split(', ');
    const plugin = resource('Plugin').fields;
    expect(plugin.map((f) => f.name)).toEqual(names);
    for (const f of plugin) expect(f.type).toEqual(resource('Theme').fields.find((t) => t.name === f.name)!.type);
  });

  it('types every identifier the document lists as a UUID string, and backup id as an integer', () => {
    const ids = codeSpans(/Identifiers \(([^)]*)\)/.exec(section('Resources and fields').body)![1]!);
    const seen = new Set<string>();
    const visit = (fields: readonly Field[], owner: string) => {
      for (const f of fields) {
        if (ids.includes(f.name) && f.type.kind !== 'ref' && f.type.kind !== 'object') {
          seen.add(f.name);
          const want = owner === 'Backup' && f.name === 'id' ? { kind: 'integer' } : { kind: 'string', format: 'uuid' };
          // Environment ids inside responses are untyped containers in the document ("`environment.id` (string)").
          if (!(f.name === 'id' && f.type.kind === 'string' && !f.type.format && owner === 'response')) expect([owner, f.name, f.type]).toEqual([owner, f.name, want]);
        }
        if (f.type.kind === 'object') visit(f.type.fields, owner);
      }
    };
    for (const r of api.resources) visit(r.fields, r.name);
    for (const e of api.endpoints) {
      visit(e.body ?? [], 'body');
      if (e.success.kind !== 'ack' && e.success.body.kind === 'object') visit(e.success.body.fields, 'response');
    }
    for (const e of api.endpoints) for (const p of e.pathParams) expect(p.type).toEqual({ kind: 'string', format: 'uuid' });
    expect(ids.filter((id) => !seen.has(id) && !api.endpoints.some((e) => e.pathParams.some((p) => p.name === id)))).toEqual([]);
  });
});

describe('what request identifiers name (refersTo)', () => {
  const conventions = section('Endpoints > Conventions').body;

  it('every path parameter says what it names; `{id}` is the company, as the conventions say', () => {
    expect(conventions).toContain('`{id}` is a company id');
    for (const e of api.endpoints) {
      for (const p of e.pathParams) expect([operation(e), p.name, p.refersTo !== undefined]).toEqual([operation(e), p.name, true]);
    }
    const idParams = api.endpoints.flatMap((e) => e.pathParams.filter((p) => p.name === 'id'));
    expect(idParams.length).toBeGreaterThan(0);
    for (const p of idParams) expect(p.refersTo).toBe('company');
  });

  it('every body field that holds an identifier says what it names, and no other field does but the DNS record name', () => {
    const ids = codeSpans(/Identifiers \(([^)]*)\)/.exec(section('Resources and fields').body)![1]!);
    for (const e of api.endpoints) {
      for (const f of e.body ?? []) {
        const holdsId = ids.includes(f.name) || /_id$/.test(f.name);
        const dnsName = e.success.kind === 'ack' && e.success.operationKind === 'domains:update-dns-record' && f.name === 'name';
        expect([operation(e), f.name, f.refersTo !== undefined]).toEqual([operation(e), f.name, holdsId || dnsName]);
      }
    }
  });

  it('every referent can be found through a read of the model (discovery reads nothing else)', () => {
    const referents = new Set(api.endpoints.flatMap((e) => [...e.pathParams, ...(e.body ?? [])].flatMap((p) => (p.refersTo ? [p.refersTo] : []))));
    // What holds each referent's id or name: a resource a read answers, or a field of one.
    const holder: Record<string, ResourceName> = {
      company: 'ValidatedKey',
      site: 'Site',
      environment: 'Environment',
      domain: 'Environment',
      'dns-record': 'DnsRecord',
      backup: 'Backup',
      'additional-sftp-account': 'AdditionalSftpAccount',
      'cdn-cache': 'Environment',
      'company-user': 'CompanyUser',
    };
    for (const r of referents) expect([r, readOf(holder[r]!).endpoint.effect]).toEqual([r, 'read']);
  });
});

/** Dotted paths such as `company.users[]` resolved through a model type. */
function pathExists(type: FieldType, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  const [head, ...rest] = path;
  const key = head!.replace(/\[\]$/, '');
  const resolved = type.kind === 'ref' ? ({ kind: 'object', fields: resource(type.resource).fields } as const) : type;
  if (resolved.kind !== 'object') return false;
  const field = resolved.fields.find((f) => f.name === key);
  if (!field) return false;
  const inner = head!.endsWith('[]') ? (field.type.kind === 'array' ? field.type.items : undefined) : field.type;
  return inner !== undefined && pathExists(inner, rest);
}

const modelEndpoint = (method: string, path: string): Endpoint => api.endpoints.find((e) => e.method === method && e.path === path)!;

describe("what actions do to the data they name (effects)", () => {
  // The resource a referent's data is listed as, where one is (a site-admin user is listed by none).
  const listedAs: Partial<Record<string, Parameters<typeof resource>[0]>> = { 'dns-record': 'DnsRecord', 'additional-sftp-account': 'AdditionalSftpAccount' };
  const withEffects = api.endpoints.filter((e) => e.effects);

  it('the actions the state properties observe say what they do', () => {
    const observed = api.rules.flatMap((r) => (r.id.startsWith('STATE-') && typeof r.scope === 'object' ? [r.scope.endpoints[0]!] : []));
    expect(withEffects.map((e) => e.name).sort()).toEqual([...observed].sort());
  });

  it.each(withEffects.map((e) => [e.name, e] as const))('%s: what names the data is a parameter or a body field of it, each flow from a body field to a field of the data', (_, e) => {
    const effects = e.effects!;
    const inputs = new Set([...e.pathParams.map((p) => p.name), ...(e.body ?? []).map((f) => f.name)]);
    for (const name of effects.names.by) expect(inputs.has(name), name).toBe(true);
    const flows = [effects.adds, effects.takesAway, ...(effects.sets ?? [])].filter((f) => f !== undefined);
    const listed = listedAs[effects.names.referent];
    for (const flow of flows) {
      expect((e.body ?? []).some((f) => f.name === flow.from), flow.from).toBe(true);
      if (listed) expect(resource(listed).fields.some((f) => f.name === flow.to), flow.to).toBe(true);
      if (flow.assumption) expect(api.assumptions.some((a) => a.id === flow.assumption)).toBe(true);
    }
    // A removal or a creation acts on what it names as a whole; the others change fields of it.
    expect(Boolean(effects.removes) || Boolean(effects.creates) || flows.length > 0).toBe(true);
  });
});

describe('request and response shapes of the endpoint tables', () => {
  const withResponses = documentOperations.filter((o) => o.cells.length === 4);

  it.each(withResponses.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: every response path of the table exists in the model', (_, o) => {
    const e = modelEndpoint(o.method, o.path);
    if (e.success.kind === 'ack') throw new Error('acknowledged actions have no response column');
    const paths = codeSpans(o.cells[3]!).filter((span) => /^[a-z_A-Z.[\]]+$/.test(span));
    for (const p of paths) expect([p, pathExists(e.success.body, p.split('.'))]).toEqual([p, true]);
  });

  it.each(documentOperations.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: body fields and their required marking match', (_, o) => {
    const e = modelEndpoint(o.method, o.path);
    const bodyCell = o.cells[2]!;
    const jsonBody = bodyCell.startsWith('JSON body') || o.cells.length === 3 || o.path.includes('wpa-create-user') || o.path.includes('change-expiration');
    const names = jsonBody ? codeSpans(bodyCell).filter((s) => /^[a-z_]+(\[\])?$/.test(s)).map((s) => s.replace('[]', '')) : [];
    expect((e.body ?? []).map((f) => f.name)).toEqual(names);
    const requiredNames = bodyCell.split(';').filter((part) => /\brequired\b/.test(part)).map((part) => codeSpans(part)[0]);
    expect((e.body ?? []).filter((f) => f.presence === 'required').map((f) => f.name)).toEqual(requiredNames);
  });
});

describe('citations', () => {
  const cites = [...citesOf(api), ...Object.values(formats).map((f) => f.cite)];

  it.each(cites.map((c) => [c.section, c] as const))('%s is a section of the document, quoting its words', (_, cite) => {
    expect(sections.map((s) => s.path)).toContain(cite.section);
    // A quote may elide with "..." / "(...)"; each remaining piece is verbatim.
    for (const piece of quotePieces(cite.quote)) {
      expect(documentText.includes(squash(piece)), `quote not in the document: ${piece}`).toBe(true);
    }
  });

  it('records the spec version and base path the document states', () => {
    expect(section('Versioning').body).toContain(`version \`${api.specVersion}\``);
    expect(section('Versioning').body).toContain(`\`${api.basePath}\``);
  });

  it('models every "not shown" of the document as an unknown', () => {
    const notShown = documentText.split('not shown').length - 1;
    // Each unknown quotes the sentence it stands for; some sentences carry two ("Key creation,
    // revocation and per-key permissions") and the success-status line is also an unknown.
    const quotedNotShown = new Set(api.unknowns.map((u) => u.cite.quote).filter((q) => q?.includes('not shown')));
    expect(quotedNotShown.size).toBeGreaterThanOrEqual(notShown - 1);
  });
});

describe('gaps: assumptions, conflicts and unknowns are referenced and well formed', () => {
  const ids = JSON.stringify({ api, formats });

  it.each(api.conflicts.map((c) => [c.id, c] as const))('%s names model endpoints whose table omits its extra status', (_, c) => {
    for (const name of c.endpoints) {
      const e = api.endpoints.find((x) => x.name === name);
      expect(e, name).toBeDefined();
      if (c.extraStatus) expect(e!.errors).not.toContain(c.extraStatus);
    }
  });

  it('scopes of rules and assumptions name only endpoints of the model', () => {
    const names = new Set(api.endpoints.map((e) => e.name));
    for (const entry of [...api.rules, ...api.assumptions]) {
      if (typeof entry.scope === 'object') for (const name of entry.scope.endpoints) expect([entry.id, names.has(name)]).toEqual([entry.id, true]);
    }
  });

  it('ASM-EPOCH-MS-PLAUSIBLE is scoped to exactly the endpoints whose success body holds epoch milliseconds', () => {
    const holds = (type: FieldType, seen: Set<ResourceName>): boolean => {
      if (holdsEpochMs(type)) return true;
      if (type.kind === 'array') return holds(type.items, seen);
      if (type.kind === 'object') return type.fields.some((f) => holds(f.type, seen));
      if (type.kind !== 'ref' || seen.has(type.resource)) return false;
      seen.add(type.resource);
      return resource(type.resource).fields.some((f) => holds(f.type, seen));
    };
    const carrying = api.endpoints.filter((e) => e.success.kind !== 'ack' && holds(e.success.body, new Set())).map((e) => e.name);
    expect(carrying.length).toBeGreaterThan(0);
    expect(api.assumptions.find((a) => a.id === 'ASM-EPOCH-MS-PLAUSIBLE')?.scope).toEqual({ endpoints: carrying });
  });

  it('references only assumption and unknown ids that exist', () => {
    const referenced = new Set([...ids.matchAll(/"((?:ASM|UNK)-[A-Z0-9-]+)"/g)].map((m) => m[1]!));
    const defined = new Set<string>([...api.assumptions.map((a) => a.id), ...api.unknowns.map((u) => u.id)]);
    expect([...referenced].filter((id) => !defined.has(id))).toEqual([]);
  });
});
