/**
 * Bytes held but not parsed are read for secrets: a served password in a body of every layout
 * the structural sanitizer knows, in every coding Node decodes, cut at a random byte past the
 * password or inside it, over the cap or not, is learned, and its echo elsewhere is never shown.
 * How much of a coded body a cut leaves readable is found here with zlib's streams, not the
 * module's one-shot decoding, so the test does not share its reading.
 */
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretFieldNames } from '../spec/queries.ts';
import { decodeBounded, learnHeldBody, StreamLearner } from './held-body.ts';
import { Sanitizer } from './sanitizer.ts';

const SEED = Number(process.env.HSC_SEED ?? 29_2911);

/** Characters a password is drawn from: any but quotes, back-slashes, white space and markup, which end a value in the layouts below. */
const passwordArb = fc.string({ unit: fc.constantFrom(...'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.!@#$%^*+=~'), minLength: 12, maxLength: 40 });

/** Layouts a server writes a secret field in, each with where the value's written form starts and ends. */
const LAYOUTS: Readonly<Record<string, (field: string, pw: string) => string>> = {
  json: (f, pw) => JSON.stringify({ environment: { id: 'e1', [f]: pw, note: 'after' } }),
  'json, pretty': (f, pw) => JSON.stringify({ environment: { id: 'e1', [f]: pw } }, null, 2),
  'json, camelCase key': (f, pw) => JSON.stringify({ environment: { [f.replace(/_(.)/g, (_, c: string) => c.toUpperCase())]: pw } }),
  'json in a string': (f, pw) => JSON.stringify({ debug: JSON.stringify({ [f]: pw }) }),
  'a 401 with data': (f, pw) => JSON.stringify({ message: 'No or invalid API key provided', status: 401, data: { [f]: pw } }),
  ndjson: (f, pw) => `${JSON.stringify({ id: 'a' })}\n${JSON.stringify({ [f]: pw })}\n${JSON.stringify({ id: 'b' })}\n`,
  'html-escaped json': (f, pw) => JSON.stringify({ environment: { [f]: pw } }).replace(/"/g, '&quot;'),
  'form-encoded': (f, pw) => `environment%5Bid%5D=e1&environment%5B${f}%5D=${encodeURIComponent(pw)}&x=1`,
  xml: (f, pw) => `<?xml version="1.0"?><environment><id>e1</id><${f}>${pw}</${f}></environment>`,
  yaml: (f, pw) => `environment:\n  id: e1\n  ${f}: ${pw}\n  note: after\n`,
};

type Coding = 'identity' | 'gzip' | 'deflate' | 'br' | 'gzip, br';
const CODINGS: readonly Coding[] = ['identity', 'gzip', 'deflate', 'br', 'gzip, br'];

const encode = (text: Buffer, coding: Coding): Buffer => {
  switch (coding) {
    case 'identity':
      return text;
    case 'gzip':
      return zlib.gzipSync(text);
    case 'deflate':
      return zlib.deflateSync(text);
    case 'br':
      return zlib.brotliCompressSync(text);
    case 'gzip, br':
      return zlib.brotliCompressSync(zlib.gzipSync(text));
  }
};

/** What zlib's streams make of a cut stream: every byte they emit before the cut ends them. */
async function streamed(bytes: Buffer, coding: string): Promise<Buffer> {
  const stream = coding === 'gzip' ? zlib.createGunzip() : coding === 'deflate' ? zlib.createInflate() : zlib.createBrotliDecompress();
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  await new Promise<void>((resolve) => {
    stream.on('error', () => resolve());
    stream.on('end', () => resolve());
    stream.end(bytes);
  });
  return Buffer.concat(out);
}

/** The text a cut coded body still yields, through each of its codings. */
async function readable(bytes: Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'identity') return bytes;
  if (coding === 'gzip, br') return streamed(await streamed(bytes, 'br'), 'gzip');
  return streamed(bytes, coding);
}

/** The shortest head of `encoded` that still yields `need` bytes of text (a binary search over zlib's streams). */
async function shortestYielding(encoded: Buffer, coding: Coding, need: number): Promise<number> {
  let low = 0;
  let high = encoded.length;
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if ((await readable(encoded.subarray(0, middle), coding)).length >= need) high = middle;
    else low = middle;
  }
  return high;
}

/** Every run of 8 characters of the password found in `shown`: none may be. */
const windowsIn = (shown: string, pw: string): string[] => {
  const found: string[] = [];
  for (let i = 0; i + 8 <= pw.length; i++) if (shown.includes(pw.slice(i, i + 8))) found.push(pw.slice(i, i + 8));
  return found;
};

/** Echoes of a password a target sends elsewhere: in an error's message, a header, a URL. */
const echoes = (pw: string) => [`{"message":"wrong password ${pw} for this account","status":400}`, `x-debug: ${pw}`, `https://example.com/login?p=${pw}&next=1`];

describe('a served password in a body held but not parsed', () => {
  it('is learned whatever the layout, coding, cut and cap, and never shown where it is echoed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(LAYOUTS)),
        fc.constantFrom(...CODINGS),
        fc.constantFrom(...secretFieldNames),
        passwordArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (layout, coding, field, pw, where, capAt) => {
          const text = Buffer.from(LAYOUTS[layout]!(field, pw), 'utf8');
          const encoded = encode(text, coding);
          // Where the password's written form ends in the text: the body must reach that far to hold all of it.
          const written = text.toString('utf8');
          const marker = layout === 'form-encoded' ? encodeURIComponent(pw) : layout === 'json in a string' ? JSON.stringify(pw).slice(1, -1) : pw;
          const valueEnd = Buffer.byteLength(written.slice(0, written.indexOf(marker) + marker.length));
          // Cut anywhere from the first byte that yields the whole value to the body's end (the end: not cut).
          const first = await shortestYielding(encoded, coding, valueEnd);
          const cutAt = first + Math.round(where * (encoded.length - first));
          // The cap: at least the value's end in the text, up to past the whole body.
          const cap = valueEnd + Math.round(capAt * text.length);
          const held = encoded.subarray(0, coding === 'identity' ? Math.min(cutAt, cap) : cutAt);
          const sanitizer = new Sanitizer();
          const reading = learnHeldBody(sanitizer, { bytes: held, contentEncoding: coding, cut: held.length < encoded.length }, cap);
          expect('text' in reading, JSON.stringify(reading)).toBe(true);
          expect(sanitizer.overflow).toBeUndefined();
          for (const echo of echoes(pw)) expect(windowsIn(sanitizer.text(echo), pw), `${layout}, ${coding}, cut at ${cutAt}/${encoded.length}, cap ${cap}: ${sanitizer.text(echo)}`).toEqual([]);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('cut inside the value: its head is learned open, and an echo of the whole is hidden past the head', () => {
    fc.assert(
      fc.property(fc.constantFrom('json', 'yaml', 'xml', 'ndjson', 'a 401 with data'), passwordArb, fc.nat(), (layout, pw, at) => {
        const text = LAYOUTS[layout]!('sftp_password', pw);
        const start = text.indexOf(pw);
        // At least 12 characters of it read (a shorter head is no secret to search for), never all of it.
        const cut = start + 12 + (at % (pw.length - 12 + 1));
        if (cut >= start + pw.length) return;
        const sanitizer = new Sanitizer();
        learnHeldBody(sanitizer, { bytes: Buffer.from(text.slice(0, cut)), cut: true }, 1 << 20);
        for (const echo of echoes(pw)) expect(windowsIn(sanitizer.text(echo), pw), sanitizer.text(echo)).toEqual([]);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('a body whose coding this Node cannot decode, or that does not decode, and is no text, leaves the sanitizer blind, saying why', () => {
    const binary = Buffer.from([0x1f, 0x9d, 0x90, 0x00, 0xff, 0x81, 0x02, 0x03]);
    for (const [coding, why] of [
      ['compress', /content coding \(compress\) is one this Node cannot decode/],
      ['gzip', /does not decode as its content coding says \(gzip\)/],
    ] as const) {
      const sanitizer = new Sanitizer();
      expect(learnHeldBody(sanitizer, { bytes: binary, contentEncoding: coding, cut: false }, 1024)).toEqual({ unreadable: expect.stringMatching(why) });
      expect(sanitizer.overflow).toMatch(/could not be read for secrets/);
    }
  });

  it('a body mislabelled with a coding, that is plain text, is read as the text it is', () => {
    for (const coding of ['gzip', 'compress']) {
      const sanitizer = new Sanitizer();
      learnHeldBody(sanitizer, { bytes: Buffer.from('{"sftp_password":"mislabelled-pw-0123"}'), contentEncoding: coding, cut: false }, 1024);
      expect(sanitizer.overflow).toBeUndefined();
      expect(sanitizer.text('echo mislabelled-pw-0123')).toBe('echo [redacted]');
    }
  });

  it('a body that ends fewer than 8 characters into a value leaves the sanitizer blind (its echo could not be found), naming the field', () => {
    for (const kept of [1, 3, 7]) {
      const sanitizer = new Sanitizer();
      learnHeldBody(sanitizer, { bytes: Buffer.from(`{"sftp_password":"${'Pw-123456789'.slice(0, kept)}`), cut: true }, 1024);
      expect(sanitizer.overflow, `${kept} characters kept`).toMatch(new RegExp(`a body ended ${kept} characters into a value of sftp_password`));
    }
    // Still streaming, the same head is read again once more has come: not yet blind.
    const streaming = new Sanitizer();
    learnHeldBody(streaming, { bytes: Buffer.from('{"sftp_password":"Pw-'), cut: true }, 1024, 'served', true);
    expect(streaming.overflow).toBeUndefined();
  });

  it('a value cut inside an escape after it is open too: `&#x` begun, `\\u00` begun', () => {
    for (const [body, echo] of [
      ['<sftp_password>Escape-head-0123&#xE', 'Escape-head-0123äöü/the-rest'],
      ['{"sftp_password":"Escape-head-0123\\u00', 'Escape-head-0123é/the-rest'],
    ] as const) {
      const sanitizer = new Sanitizer();
      learnHeldBody(sanitizer, { bytes: Buffer.from(body), cut: true }, 1024);
      expect(sanitizer.text(`echo ${echo} echo`)).toBe('echo [redacted] echo');
    }
  });

  it('a value longer than a text value is read to is learned as a head, and its whole echo hidden', () => {
    const long = 'L'.repeat(100 * 1024) + 'the-very-end-of-it';
    const sanitizer = new Sanitizer();
    learnHeldBody(sanitizer, { bytes: Buffer.from(`sftp_password: ${long}\n`), cut: false }, 1 << 20);
    expect(sanitizer.text(`echo ${long} echo`)).toBe('echo [redacted] echo');
  });

  it('deflate raw as well as zlib-wrapped, and a gzip stream cut after its header (read, and empty)', () => {
    const body = Buffer.from('{"sftp_password":"raw-deflate-pw-0123"}');
    const sanitizer = new Sanitizer();
    learnHeldBody(sanitizer, { bytes: zlib.deflateRawSync(body), contentEncoding: 'deflate', cut: false }, 1024);
    expect(sanitizer.text('echo raw-deflate-pw-0123')).toBe('echo [redacted]');
    const cut = new Sanitizer();
    expect(learnHeldBody(cut, { bytes: zlib.gzipSync(body).subarray(0, 10), contentEncoding: 'gzip', cut: true }, 1024)).toEqual({ text: '', whole: false });
    expect(cut.overflow).toBeUndefined();
  });

  it('a gzip bomb is decoded no further than the cap, its head learned', () => {
    const head = Buffer.from('{"sftp_password":"bomb-password-123456","padding":"');
    const bomb = zlib.gzipSync(Buffer.concat([head, Buffer.alloc(32 * 1024 * 1024, 'A'), Buffer.from('"}')]));
    const decoded = decodeBounded(bomb, 'gzip', 64 * 1024);
    expect(decoded?.whole).toBe(false);
    expect(decoded!.bytes.length).toBeLessThanOrEqual(64 * 1024);
    expect(decoded!.bytes.subarray(0, head.length).equals(head)).toBe(true);
    const sanitizer = new Sanitizer();
    learnHeldBody(sanitizer, { bytes: bomb, contentEncoding: 'gzip', cut: false }, 64 * 1024);
    expect(sanitizer.text('echo: bomb-password-123456')).toBe('echo: [redacted]');
  });

  it('a window that ends three characters into a value does not leave the sanitizer blind: the next window reads it whole', () => {
    const head = '{"sftp_password":"';
    const body = Buffer.from(`${head}Window-edge-pw-0123","x":1}`);
    const sanitizer = new Sanitizer();
    const learner = new StreamLearner(sanitizer, head.length + 3, 64);
    for (let at = 0; at < body.length; at++) learner.add(body.subarray(at, at + 1));
    learner.end(false);
    expect(sanitizer.overflow).toBeUndefined();
    expect(sanitizer.text('echo Window-edge-pw-0123')).toBe('echo [redacted]');
  });

  it('a body read as it streams, in chunks of any size, past any window: every value learned', () => {
    fc.assert(
      fc.property(fc.array(passwordArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 2048, max: 8192 }), (pws, chunk, window) => {
        const filler = 'x'.repeat(3000);
        const text = Buffer.from(pws.map((pw) => `{"pad":"${filler}","sftp_password":"${pw}"}`).join('\n'));
        const sanitizer = new Sanitizer();
        const learner = new StreamLearner(sanitizer, window, 1024);
        for (let at = 0; at < text.length; at += chunk) learner.add(text.subarray(at, at + chunk));
        learner.end(false);
        for (const pw of pws) expect(windowsIn(sanitizer.text(`echo ${pw} echo`), pw)).toEqual([]);
        // A window that ends a few characters into a value is no unreadable body: the next one reads it whole.
        expect(sanitizer.overflow).toBeUndefined();
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});
