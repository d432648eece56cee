import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJsonTree, writeJsonTree } from './json-tree.ts';
import { REDACTED, SecretFields } from './structure.ts';

const fields = new SecretFields(['sftp_password', 'admin_password']);
const PW = 'q7Zx-secret-Lm3p';

describe('readJsonTree', () => {
  it('reads any JSON value as JSON.parse does, and writes it back to text JSON.parse reads the same', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (text) => {
        const tree = readJsonTree(text);
        expect(tree.complete).toBe(true);
        expect(JSON.parse(writeJsonTree(tree.root!))).toEqual(JSON.parse(text));
      }),
      { seed: 1106, numRuns: 300 },
    );
  });

  it.each([
    ['a duplicate key: both members kept, in order', '{"a":1,"a":2}', true, '{"a":1,"a":2}'],
    ['trailing garbage: the value read, not complete', '{"a":[1,2]}<!-- x -->', false, '{"a":[1,2]}'],
    ['cut short: not closed', '{"a":[1,', false, undefined],
    ['not JSON at all', '&quot;a&quot;', false, undefined],
    ['a big integer, written as it came', '{"n":123456789012345678901234567890}', true, '{"n":123456789012345678901234567890}'],
  ])('%s', (_, text, complete, written) => {
    const tree = readJsonTree(text);
    expect(tree.complete).toBe(complete);
    expect(tree.closed ? writeJsonTree(tree.root!) : undefined).toBe(written);
  });

  it('stops at its depth bound without recursion, whatever the nesting', () => {
    const tree = readJsonTree(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(tree.complete).toBe(false);
  });
});

describe('SecretFields: a secret field in any spelling', () => {
  it.each([
    ['sftp_password', 'sftp_password'],
    ['sftpPassword', 'sftp_password'],
    ['SFTP-PASSWORD', 'sftp_password'],
    ['environment[admin_password]', 'admin_password'],
    ['sftp_password_hash', 'sftp_password'],
    ['password', undefined],
    ['sftp', undefined],
  ])('fieldOf(%s)', (key, field) => {
    expect(fields.fieldOf(key)).toBe(field);
  });

  it.each([
    ['JSON', `{"environment":{"sftp_password":"${PW}"}}`],
    ['JSON, its key escaped', `{"sftp\\u005fpassword":"${PW}"}`],
    ['JSON, HTML-escaped', `{&quot;sftp_password&quot;:&quot;${PW}&quot;}`],
    ['JSON, HTML-escaped with numeric references', `{&#34;sftp&#95;password&#34;:&#34;${PW}&#34;}`],
    ['form-encoded, bracketed', `environment%5Bsftp_password%5D=${PW}&x=1`],
    ['form-encoded, plain', `sftp_password=${PW}&x=1`],
    ['camel case', `{"sftpPassword":"${PW}"}`],
    ['JSON inside a JSON string', JSON.stringify({ debug: JSON.stringify({ sftp_password: PW }) })],
    ['YAML', `environment:\n  sftp_password: ${PW}\n`],
    ['PHP array syntax', `'sftp_password' => '${PW}'`],
  ])('finds the name and the value: %s', (_, text) => {
    expect(fields.namedIn(text)).toBe(true);
    expect(fields.valuesIn(text).map((v) => v.value)).toContain(PW);
    expect(fields.maskIn(text)).not.toContain(PW);
    expect(fields.maskIn(text)).toContain(REDACTED);
  });

  it('names nothing in text without a secret field, and leaves it as it is', () => {
    for (const text of ['{"environment":{"id":"e","password_hint":"x"}}', 'sftp password reset', 'admin: pass']) {
      expect(fields.valuesIn(text)).toEqual([]);
      expect(fields.maskIn(text)).toBe(text);
    }
  });
});

describe('SecretFields.screen: an answer read for its secrets', () => {
  it('a duplicate key: both values learned (JSON.parse keeps only the decoy), both replaced in the shape', () => {
    const screened = fields.screen(`{"sftp_password":"${PW}","sftp_password":"decoy-value-1234"}`);
    expect(screened.values.map((v) => v.value)).toEqual([PW, 'decoy-value-1234']);
    expect(screened.shape).toBe(`{"sftp_password":"${REDACTED}","sftp_password":"${REDACTED}"}`);
    expect(screened.json).toEqual({ sftp_password: REDACTED });
  });

  it('JSON inside a string: learned, replaced there, the string still JSON', () => {
    const screened = fields.screen(JSON.stringify({ id: 'e', debug: JSON.stringify({ sftp_password: PW, n: 1 }) }));
    expect(screened.values).toEqual([{ field: 'sftp_password', value: PW }]);
    expect(JSON.parse((screened.json as { debug: string }).debug)).toEqual({ sftp_password: REDACTED, n: 1 });
  });

  it('keeps each secret value\'s type for the checks, and writes the marker in the shape', () => {
    const screened = fields.screen('{"sftp_password":12345678,"admin_password":["abcdefgh",true,null]}');
    expect(screened.json).toEqual({ sftp_password: 0, admin_password: [REDACTED, true, null] });
    expect(screened.shape).toBe(`{"sftp_password":"${REDACTED}","admin_password":["${REDACTED}",true,null]}`);
    expect(screened.values.map((v) => v.value).sort()).toEqual(['12345678', 'abcdefgh']);
  });

  it('trailing garbage: no JSON for the checks, the shape of what was read, its value learned', () => {
    const screened = fields.screen(`{"sftp_password":"${PW}"}<!-- debug -->`);
    expect(screened.json).toBeUndefined();
    expect(screened.shape).toBe(`{"sftp_password":"${REDACTED}"}`);
    expect(screened.shapeComplete).toBe(false);
    expect(screened.values.map((v) => v.value)).toContain(PW);
  });

  it('text that is no JSON: its values learned, no shape', () => {
    const screened = fields.screen(`environment[sftp_password]=${PW}`);
    expect(screened.shape).toBeUndefined();
    expect(screened.values.map((v) => v.value)).toEqual([PW]);
  });
});
