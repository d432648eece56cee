import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlReferences, phpJsonEncode } from './echo-forms.ts';
import { SecretFields } from './structure.ts';
import { fieldSecret, keySecret, MAX_SERVED_SECRETS, PATTERN_KEPT, REDACTED, Sanitizer, unsearchedNote, type Secret } from './sanitizer.ts';

const KEY = 'hsc_k/y\u00e9+Q%z_0123456789abcdef';
const PASSWORD = 'p@ss/w\u00f6rd "quoted" & <tagged>';

/** Forms a server echoes a secret in; each must be hidden wherever it sits in a text. */
function echoes(value: string): [string, string][] {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return [
    ['as sent', value],
    ['JSON-escaped', JSON.stringify(value).slice(1, -1)],
    ["PHP's json_encode (\\/ and \\u00e9)", phpJsonEncode(value).slice(1, -1)],
    ['URI-encoded', encodeURIComponent(value)],
    ['form-encoded', new URLSearchParams({ v: value }).toString().slice(2)],
    ['HTML references', htmlReferences(value)],
    ['upper-cased', value.toUpperCase()],
    ['base64', b64(value)],
    ['base64 of HTTP Basic `value:`', b64(`${value}:`)],
    ['base64 of HTTP Basic `:value`', b64(`:${value}`)],
    ['base64url', Buffer.from(value).toString('base64url')],
    ['a 12-character prefix', value.slice(0, 12)],
    ['a 20-character prefix, JSON-escaped', phpJsonEncode(value.slice(0, 20)).slice(1, -1)],
  ];
}

describe('Sanitizer.text hides a secret in every form a server echoes it', () => {
  const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY'), fieldSecret(PASSWORD, 'sftp_password')]);
  for (const [secret, marker] of [
    [KEY, '[redacted HSC_API_KEY]'],
    [PASSWORD, REDACTED],
  ] as const) {
    it.each(echoes(secret))(`${marker}: %s`, (_, form) => {
      const out = sanitizer.text(`error: "${form}" was refused`);
      expect(out).not.toContain(form);
      expect(out).toContain(marker);
      expect(out.startsWith('error: "')).toBe(true);
      expect(out.endsWith('" was refused')).toBe(true);
    });
  }

  it('leaves text without secrets as it is, and a prefix shorter than 12 characters', () => {
    const text = `no secret here, only ${KEY.slice(0, 11)}, and ${KEY.slice(0, 2)}…`;
    expect(sanitizer.text(text)).toBe(text);
  });

  it('hides the head of a secret where an excerpt was cut short (…), from 3 characters', () => {
    for (const head of [3, 5, 11]) {
      expect(sanitizer.text(`the server said "Invalid key ${KEY.slice(0, head)}…"`)).toBe('the server said "Invalid key [redacted HSC_API_KEY]…"');
      expect(sanitizer.text(`{"message":"${PASSWORD.slice(0, head)}\u2026"}`)).toBe(`{"message":"${REDACTED}\u2026"}`);
    }
  });

  it('hides a base64 form at any byte offset of a longer base64 text', () => {
    for (const before of ['', 'x', 'xy', 'xyz']) {
      for (const after of ['', 'q', 'qr']) {
        const encoded = Buffer.from(`${before}${KEY}${after}`).toString('base64');
        const out = sanitizer.text(`Authorization: Basic ${encoded}`);
        // What stays encodes the neighbours, plus at most the two characters they share with the key, and padding.
        const neighbours = Math.ceil((4 * (before.length + after.length)) / 3);
        expect(out).toContain('[redacted HSC_API_KEY]');
        expect(out.replace('Authorization: Basic ', '').replace('[redacted HSC_API_KEY]', '').length).toBeLessThanOrEqual(neighbours + 4);
      }
    }
  });
});

describe('Sanitizer.text: how real servers mangle what they echo', () => {
  const key = 'Zq/8vR+eW1xYp0LmNs2TbHc4Uj6Kd9Fg';
  const sanitizer = new Sanitizer([keySecret(key, 'HSC_API_KEY'), keySecret(` ${KEY}`, 'HSC_OTHER_API_KEY')]);
  const wrapped = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\r\n');
  it.each([
    ['URI-encoded twice (a URL in a query string)', encodeURIComponent(encodeURIComponent(key))],
    ['JSON inside JSON, PHP style', JSON.stringify(phpJsonEncode(key)).slice(1, -1)],
    ['HTML-escaped twice', htmlReferences(key).replace(/&/g, '&amp;')],
    ["an HTML reference JSON-escaped the way Go writes it", JSON.stringify(htmlReferences(key)).slice(1, -1).replace(/&/g, '\\u0026')],
    ['split by a line break', `${key.slice(0, 16)}\n${key.slice(16)}`],
    ['base64 wrapped at 76 columns (MIME)', wrapped(Buffer.from(`Authorization: Bearer ${key}${key}${key}`).toString('base64'), 76)],
    ['cut short with three dots', `${key.slice(0, 7)}...`],
    ['cut short inside an escape, URI-encoded twice', `${encodeURIComponent(encodeURIComponent(key.slice(0, 20)))}%2…`],
    ['\\xHH escapes (JavaScript encoders, Python)', key.replace(/[/+]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)],
    ['\\u{…} escapes (JavaScript, Rust)', key.replace(/[/+]/g, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)],
    ["%uHHHH (JavaScript's escape)", key.replace(/[/+]/g, (c) => `%u00${c.charCodeAt(0).toString(16)}`)],
    ['octal escapes', key.replace(/[/+]/g, (c) => `\\${c.charCodeAt(0).toString(8)}`)],
    ['CSS escapes', key.replace(/[/+]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `)],
    ['quoted-printable', key.replace(/[/+]/g, (c) => `=${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['\\xHH escapes, quoted by a message in JSON', JSON.stringify(key.replace(/[/+]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`)).slice(1, -1)],
    ['base64 of PHP-encoded JSON holding it (a JWT)', Buffer.from(phpJsonEncode({ sub: key })).toString('base64url')],
  ])('%s', (_, form) => {
    const out = sanitizer.text(`echo: ${form} (end)`);
    expect(out).toContain('[redacted HSC_API_KEY]');
    for (const piece of [key.slice(0, 7), key.slice(-7), key.slice(10, 17)]) expect(out).not.toContain(piece);
  });

  it('a key given with outer white space, echoed trimmed', () => {
    expect(sanitizer.text(`Invalid API key '${KEY}' provided`)).toBe("Invalid API key '[redacted HSC_OTHER_API_KEY]' provided");
  });

  it.each([
    ['Latin-1 bytes read as UTF-8', (v: string) => Buffer.from(v, 'latin1').toString('utf8')],
    ['UTF-8 bytes read as Latin-1', (v: string) => Buffer.from(v, 'utf8').toString('latin1')],
  ])('a key read through the wrong character set: %s', (_, misread) => {
    const latin = 'hsc_live/k\u00e9y+Secret_0123456789ABCDEF';
    const out = new Sanitizer([keySecret(latin, 'HSC_API_KEY')]).text(`invalid key Bearer ${misread(latin)}`);
    expect(out).toBe('invalid key Bearer [redacted HSC_API_KEY]');
  });

  it.each([
    ['as HTML references', 'https:&#x2F;&#x2F;deploy:S3cretDeployPass&#64;db.example.test', 'https:&#x2F;&#x2F;[redacted]&#64;db.example.test'],
    ['as zero-padded HTML references', 'https:&#00047;&#00047;deploy:S3cretDeployPass&#064;db.example.test', 'https:&#00047;&#00047;[redacted]&#064;db.example.test'],
    ['JSON \\u escapes', 'https:\\u002f\\u002fdeploy:S3cretDeployPass@db.example.test', 'https:\\u002f\\u002f[redacted]@db.example.test'],
    ['URI-encoded twice', 'next=https%253A%252F%252Fdeploy%253AS3cretDeployPass%2540db', 'next=https%253A%252F%252F[redacted]%2540db'],
    ['with a scheme', 'https://deploy:S3cretDeployPass@api.example.test/v2', 'https://[redacted]@api.example.test/v2'],
    ['without one', '(Location: //deploy:S3cretDeployPass@api.example.test/v2)', '(Location: //[redacted]@api.example.test/v2)'],
    ['JSON-escaped', '"https:\\/\\/deploy:S3cretDeployPass@host\\/v2"', '"https:\\/\\/[redacted]@host\\/v2"'],
    ['percent-encoded in a query', 'next=https%3A%2F%2Fdeploy%3AS3cretDeployPass%40host%2Fv2', 'next=https%3A%2F%2F[redacted]%40host%2Fv2'],
    ['not in a path or an e-mail address', 'see https://example.test/a/b?mail=me@example.test', 'see https://example.test/a/b?mail=me@example.test'],
  ])('the credentials of a URL %s', (_, text, want) => {
    expect(new Sanitizer().text(text)).toBe(want);
  });
});

describe('Sanitizer: secrets of any length', () => {
  it('hides a 1 MB key and a 1 MB served password without a regular expression, with their prefixes', () => {
    const key = 'k'.repeat(1 << 20);
    const password = Array.from({ length: 1 << 20 }, (_, i) => String.fromCharCode(0x21 + ((i * 7919) % 90))).join('');
    const sanitizer = new Sanitizer([keySecret(key, 'HSC_API_KEY')]);
    sanitizer.learn({ environment: { sftp_password: password } }, 'served');
    const text = `key=${key}; pw=${JSON.stringify(password)}; b64=${Buffer.from(`${key}:`).toString('base64')}; cut=${password.slice(0, 5000)}…`;
    const out = sanitizer.text(text);
    expect(out.length).toBeLessThan(200);
    expect(out).toBe(`key=[redacted HSC_API_KEY]; pw="${REDACTED}"; b64=[redacted HSC_API_KEY]; cut=${REDACTED}…`);
  });

  it('a secret that the marker would complete is hidden by a plainer marker', () => {
    for (const secret of ['[redacted]]x]', ']d][redacted][hidden]', '***[redacted]***', '[hidden][hidden]']) {
      const sanitizer = new Sanitizer([fieldSecret(secret, 'sftp_password')], new SecretFields([]));
      const out = sanitizer.text(`a ${secret}x ${secret.toUpperCase()} b`);
      expect(out.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});

describe('Sanitizer: long secrets are kept short', () => {
  // Non-ASCII of two UTF-8 bytes: PHP escapes each to six characters, and base64 of that is eight per unit.
  const longPassword = (seed: number, length: number) => Array.from({ length }, (_, i) => String.fromCharCode(0x100 + ((i * 7919 + seed * 104_729) % 0x700))).join('');

  it('keeps at most PATTERN_KEPT units of each form of a secret, whatever its length', () => {
    const sanitizer = new Sanitizer();
    for (let seed = 0; seed < 8; seed++) sanitizer.learn({ environment: { sftp_password: longPassword(seed, 500_000) } }, 'served');
    sanitizer.text('warm');
    // Eight secrets of 500 000 units: their forms whole would be about 200 million units.
    expect(sanitizer.keptUnits).toBeLessThanOrEqual(8 * 40 * PATTERN_KEPT);
  });

  it('hides the whole of a long form, PHP-escaped and base64, and stops where the text leaves its characters', () => {
    const password = longPassword(3, 100_000);
    const sanitizer = new Sanitizer();
    sanitizer.learn({ environment: { sftp_password: password } }, 'served');
    const php = phpJsonEncode(password).slice(1, -1);
    const text = `a=${php} b=${Buffer.from(php).toString('base64')} c=${password.slice(0, 2 * PATTERN_KEPT)}… d=visible`;
    expect(sanitizer.text(text)).toBe(`a=${REDACTED} b=${REDACTED} c=${REDACTED}… d=visible`);
  });
});

describe('Sanitizer.learn and learnText', () => {
  it('learns secret field values at any depth of a parsed answer', () => {
    let deep: unknown = { sftp_password: 'deep-secret-value' };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const sanitizer = new Sanitizer();
    sanitizer.learn(deep, 'served');
    expect(sanitizer.text('the password is deep-secret-value')).toBe(`the password is ${REDACTED}`);
  });

  it.each([
    ['cut inside the value', '{"environment":{"id":"e","sftp_password":"q7Zx-secret-Lm3p'],
    ['cut inside an escape', '{"environment":{"sftp_password":"q7Zx-secret-Lm3p\\u00'],
    ['JSON inside a JSON string', '{"text":"{\\"sftp_password\\":\\"q7Zx-secret-Lm3p\\"}"}'],
    ['spaced out', '{ "sftp_password" :\n "q7Zx-secret-Lm3p" }'],
    ['form-encoded, bracketed', 'environment%5Bsftp_password%5D=q7Zx-secret-Lm3p&x=1'],
    ['HTML-escaped JSON', '{&quot;sftp_password&quot;:&quot;q7Zx-secret-Lm3p&quot;}'],
    ['its name escaped', '{"sftp\\u005fpassword":"q7Zx-secret-Lm3p"}'],
    ['its name in camel case', '{"sftpPassword":"q7Zx-secret-Lm3p"}'],
  ])('learns a value from JSON text that was not parsed: %s', (_, text) => {
    const sanitizer = new Sanitizer();
    sanitizer.learnText(text, 'served');
    expect(sanitizer.text('echo q7Zx-secret-Lm3p!')).toBe(`echo ${REDACTED}!`);
  });

  it('does not learn short values the suite sent, booleans, nor numbers the suite sent as type probes', () => {
    const sanitizer = new Sanitizer();
    sanitizer.learn({ sftp_password: 'abc', admin_password: 12345, x: { sftp_password: true } }, 'sent');
    sanitizer.learnText('{"sftp_password": null, "admin_password": 123456}', 'sent');
    expect(sanitizer.secrets).toEqual([]);
  });

  it('keeps a short value a target served, hidden where it stands, and names it in a note without showing it', () => {
    const sanitizer = new Sanitizer();
    sanitizer.learn({ environment: { sftp_password: 'x9!' } }, 'served');
    expect(sanitizer.unsearched.map((u) => [u.secret.value, u.why])).toEqual([['x9!', 'short']]);
    expect(sanitizer.text('free text x9! stays')).toBe('free text x9! stays');
    expect(sanitizer.value({ sftp_password: 'x9!' })).toEqual({ sftp_password: REDACTED });
    const note = unsearchedNote(sanitizer)!;
    expect(note).toMatch(/1 value\(s\) of HSC_SFTP_PASSWORD: shorter than 8 characters/);
    expect(note).not.toContain('x9!');
  });

  it('learns served values of any JSON type, and from text that is not JSON at all', () => {
    const sanitizer = new Sanitizer();
    sanitizer.learn({ environment: { sftp_password: 123456789012345 } }, 'served');
    sanitizer.learn({ environment: { sftp_password: ['in-an-array-9q'] } }, 'served');
    sanitizer.learn({ environment: { sftp_password: { value: 'in-an-object-7z' } } }, 'served');
    for (const text of [
      '<?xml version="1.0"?><environment><sftp_password>from-xml-3k</sftp_password></environment>',
      '<table><tr><td>sftp_password</td><td>from-html-5m</td></tr></table>',
      'environment:\n  sftp_password: from-yaml-8p\n',
      "{'environment': {'sftp_password': 'single-quoted-2x'}}",
    ]) {
      sanitizer.learnText(text, 'served');
    }
    expect(sanitizer.secrets.map((s) => s.value).sort()).toEqual(
      ['123456789012345', 'in-an-array-9q', 'in-an-object-7z', 'from-xml-3k', 'from-html-5m', 'from-yaml-8p', 'single-quoted-2x'].sort(),
    );
  });

  it('masks a served value too short to learn where it is served', () => {
    const sanitizer = new Sanitizer();
    expect(sanitizer.maskFieldValues('{"environment":{"id":1,"sftp_password":"x9!"}}')).toBe(`{"environment":{"id":1,"sftp_password":"${REDACTED}"}}`);
    expect(sanitizer.maskFieldValues('sftp_password: ab\nnext: 1')).toBe(`sftp_password: ${REDACTED}\nnext: 1`);
  });

  it(`stops tracking what a target serves past ${MAX_SERVED_SECRETS} values, and says so; what the suite sends is not counted`, () => {
    const sanitizer = new Sanitizer();
    for (let i = 0; i < MAX_SERVED_SECRETS + 5; i++) sanitizer.learn({ admin_password: `sent-password-${i}` }, 'sent');
    expect(sanitizer.overflow).toBeUndefined();
    for (let i = 0; i < MAX_SERVED_SECRETS; i++) sanitizer.learn({ sftp_password: `served-password-${i}` }, 'served');
    expect(sanitizer.overflow).toBeUndefined();
    sanitizer.learn({ sftp_password: 'one-too-many' }, 'served');
    expect(sanitizer.overflow).toMatch(/served more secret values .* than the suite tracks \(1000 distinct/);
  });

  it('value() keeps JSON valid: a number or boolean holding a secret becomes the marker string', () => {
    const sanitizer = new Sanitizer([fieldSecret('110611061106', 'sftp_password')]);
    const out = sanitizer.value({ seed: 110611061106, ok: true, other: 7, note: 'seed 110611061106' });
    expect(out).toEqual({ seed: REDACTED, ok: true, other: 7, note: `seed ${REDACTED}` });
    expect(() => JSON.parse(JSON.stringify(out))).not.toThrow();
  });

  it("value() replaces secret fields, sanitizes strings but never the report's own keys, and stops at a depth bound", () => {
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY'), fieldSecret('failures-and-more', 'sftp_password')]);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200; i++) deep = [deep];
    const out = sanitizer.value({ admin_password: 'x', failures: `k ${KEY}`, 'failures-and-more': 'failures-and-more', deep });
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(JSON.stringify(out)).not.toContain('bottom');
    expect(out).toMatchObject({ admin_password: REDACTED, failures: 'k [redacted HSC_API_KEY]', 'failures-and-more': REDACTED });
  });
});

// ---- the property --------------------------------------------------------------------------------

/** A string of `length` code units from a small seeded generator: any unit, or a narrow alphabet (periodic). */
function expand(length: number, seed: number, alphabet: 'any' | 'narrow' | 'ascii'): string {
  let state = seed >>> 0 || 1;
  const units = new Uint16Array(length);
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const r = state >>> 0;
    units[i] = alphabet === 'narrow' ? 0x61 + (r % 2) : alphabet === 'ascii' ? 0x20 + (r % 95) : r % 0x10000;
  }
  let out = '';
  for (let i = 0; i < length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192));
  return out;
}

const secretArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        // Up to 1 MiB; the long ones are rarer (each costs a second), never absent.
        length: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 4096 }) }, { weight: 1, arbitrary: fc.integer({ min: 4097, max: 1 << 20 }) }),
        seed: fc.integer(),
        alphabet: fc.constantFrom('any', 'narrow', 'ascii') as fc.Arbitrary<'any' | 'narrow' | 'ascii'>,
      })
      .map(({ length, seed, alphabet }) => expand(length, seed, alphabet)),
  },
);

/** No lone surrogate: the text has a UTF-8 form (URI encoding throws otherwise). */
function wellFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A form of the secret as a server would echo it; only forms the sanitizer claims to hide. */
type Form = (secret: string, choice: number) => string | undefined;

const varyCase = (secret: string, choice: number): string =>
  [...secret]
    .map((c, i) => {
      const upper = c.toUpperCase();
      return (choice >> i % 30) & 1 && upper.length === c.length && upper.toLowerCase() === c.toLowerCase() ? upper : c;
    })
    .join('');

const forms: readonly [string, Form][] = [
  ['raw', (s) => s],
  ['JSON', (s) => JSON.stringify(s).slice(1, -1)],
  // Each character of the secret either as JSON.stringify writes it or as a `\u` escape.
  ['JSON, random \\u escapes', (s, choice) => Array.from(s, (c, i) => ((choice >> i % 30) & 1 ? c.split("").map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') : JSON.stringify(c).slice(1, -1))).join('')],
  ['PHP JSON', (s) => phpJsonEncode(s).slice(1, -1)],
  ['URI', (s) => (wellFormed(s) ? encodeURIComponent(s) : undefined)],
  ['form', (s) => (wellFormed(s) ? new URLSearchParams({ v: s }).toString().slice(2) : undefined)],
  ['HTML', (s) => (wellFormed(s) ? htmlReferences(s) : undefined)],
  ['case varied', varyCase],
  // HTTP Basic carries keys, not secret field values.
  ['base64 Basic (keys)', (s) => Buffer.from(`${s}:`).toString('base64')],
  ['base64', (s) => Buffer.from(s).toString('base64')],
  ['base64url', (s) => (Buffer.byteLength(s) >= 6 ? Buffer.from(s).toString('base64url') : undefined)],
  ['prefix', (s, choice) => (s.length >= 12 ? s.slice(0, 12 + (choice % (s.length - 11))) : undefined)],
];

describe('Sanitizer property: no embedded secret survives, in linear work', () => {
  it('for random secrets (1 character to 1 MB) embedded in random text in any supported form: hidden when searched for, the text untouched when not', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.constantFrom(...forms),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.boolean(),
        (secret, [name, form], choice, before, after, isKey) => {
          const echoed = form(secret, choice);
          fc.pre(echoed !== undefined && echoed !== '' && (isKey || !name.endsWith('(keys)')));
          const text = `${before}${echoed}${after}`;
          const sanitizer = new Sanitizer([isKey ? keySecret(secret, 'HSC_API_KEY') : fieldSecret(secret, 'sftp_password')]);
          const out = sanitizer.text(text);
          if (sanitizer.unsearched.length > 0) {
            // Too short, or a word of the suite's own: free text is left as a sanitizer without it leaves it.
            expect(secret.trim().length < 8 || sanitizer.unsearched[0]!.why === 'vocabulary').toBe(true);
            expect(out).toBe(new Sanitizer().text(text));
            return;
          }
          expect(out.includes(echoed!)).toBe(false);
          expect(out.includes(secret)).toBe(false);
          // Linear: a bounded number of steps per code unit, whatever the secret. (A short text with
          // every escape character in it is read through up to ~250 stacked views: the constant.)
          expect(sanitizer.work).toBeLessThanOrEqual(1000 * (text.length + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the work per code unit does not grow with the text (periodic text, periodic secret)', () => {
    const perUnit = (n: number) => {
      const sanitizer = new Sanitizer([keySecret('ab'.repeat(5000), 'HSC_API_KEY'), fieldSecret('a'.repeat(3000) + 'b', 'sftp_password')]);
      sanitizer.text(`${'ab'.repeat(n)}%61%62&#x61;\\u0062${'a'.repeat(n)}`);
      return sanitizer.work / (4 * n);
    };
    const small = perUnit(20_000);
    const large = perUnit(320_000);
    expect(large).toBeLessThan(small * 1.5);
  });
});

describe('Sanitizer.oneLine', () => {
  it('folds line breaks and writes every terminal control as \\uXXXX: a target cannot redraw, hide or reorder a message', () => {
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
    const hostile = `key ${KEY}\r\n\u001b[2K\u001b[32m✓ conforms\u0007\u0000\u009b1m\u202eevil\u2028x`;
    expect(sanitizer.oneLine(hostile)).toBe('key [redacted HSC_API_KEY] \\u001b[2K\\u001b[32m✓ conforms\\u0007\\u0000\\u009b1m\\u202eevil x');
  });
});

describe('Sanitizer.writer', () => {
  it('sanitizes every write, secrets learned later included', () => {
    const written: string[] = [];
    const sink = { write: (chunk: string | Uint8Array) => (written.push(String(chunk)), true) } as unknown as NodeJS.WritableStream;
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
    const out = sanitizer.writer(sink);
    out.write(`a ${KEY}\n`);
    sanitizer.add({ value: 'learned-later-secret', name: 'HSC_SFTP_PASSWORD', kind: 'field' } satisfies Secret);
    out.write(Buffer.from('b learned-later-secret\n'));
    expect(written).toEqual(['a [redacted HSC_API_KEY]\n', `b ${REDACTED}\n`]);
  });
});

describe('Sanitizer: a long text found clean is not scanned again', () => {
  const report = (extra: string) => `${'{"rule":"AUTH-401","operation":"GET /sites/{site_id}","ok":true}\n'.repeat(100)}${extra}`;

  it('a rendered report checked whole and then written is scanned once, while nothing new is learned', () => {
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
    const text = report('');
    expect(sanitizer.spans(text)).toEqual([]);
    const before = sanitizer.work;
    expect(sanitizer.text(text)).toBe(text);
    expect(sanitizer.work).toBe(before);
  });

  it('a secret learned after the check is found in the same text when it is written', () => {
    const password = 'Zq8-learned-after-the-check-Wm3';
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
    const text = report(`"served": "${password}"`);
    expect(sanitizer.spans(text)).toEqual([]);
    sanitizer.learn({ environment: { sftp_password: password } }, 'served');
    const written = sanitizer.text(text);
    expect(written).not.toContain(password);
    expect(written).toContain(REDACTED);
  });

  it('a text whose only secret is a URL credential is not taken as clean by the secret check', () => {
    const sanitizer = new Sanitizer([keySecret(KEY, 'HSC_API_KEY')]);
    const text = report('see https://admin:hunter2-Zq8@example.test/path');
    expect(sanitizer.spans(text)).toEqual([]);
    expect(sanitizer.text(text)).not.toContain('hunter2-Zq8');
  });
});

describe('Sanitizer: an encoding is read where one of its escapes decodes, and only there', () => {
  // A DNS listing holds `=` (`v=DMARC1`), `%` and `&` that start no escape: read as they are.
  const decoys = '{"value":"v=DMARC1; p=none"},{"value":"100% & more"},{"value":"a\\\\b"}';
  const qp = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const percent = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

  it('a secret among decoy escape characters is hidden raw, quoted-printable, percent-encoded and HTML-escaped', () => {
    const sanitizer = new Sanitizer([fieldSecret(PASSWORD, 'sftp_password')]);
    for (const form of [PASSWORD, qp(PASSWORD), percent(PASSWORD), PASSWORD.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')]) {
      const out = sanitizer.text(`${decoys.repeat(40)}{"note":"${form}"}${decoys}`);
      expect(out, form).not.toContain(form);
      expect(out).toContain('v=DMARC1');
    }
  });

  it('text whose escape characters decode nothing is left exactly as it is', () => {
    const sanitizer = new Sanitizer([fieldSecret(PASSWORD, 'sftp_password')]);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('=', '=Z', '%', '%zz', '&', '&nope', '\\q', 'v=DMARC1', 'x', ' '), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(sanitizer.text(text)).toBe(text);
      }),
    );
  });
});
