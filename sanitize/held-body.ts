/**
 * Bytes a tool holds but does not parse, read for secrets all the same, before any text is made
 * of the exchange: a body in a content coding nobody asked for (CDNs compress on their own), a
 * body cut at the size cap, one the target broke off. Each coding Node decodes (gzip, deflate,
 * br, and zstd where this Node has it) is decoded for learning within the same cap as a body is
 * kept to, as far as it decodes (a cut stream yields its head); the secret fields' values are
 * then learned from the text as `Sanitizer.learnText` finds them in every layout, and a value
 * the text ends inside is learned as an open head (`Secret.open`). A body that cannot be read at
 * all (a coding this Node does not decode) leaves the sanitizer blind (`Sanitizer.blind`): the
 * caller then withholds what it would have printed of the target's text, never guessing.
 */
import * as zlib from 'node:zlib';
import type { Origin, Sanitizer } from './sanitizer.ts';

/** A body as held: its bytes, its `Content-Encoding`, and whether it went on past them. */
export interface HeldBody {
  readonly bytes: Buffer;
  readonly contentEncoding?: string | undefined;
  /** The body went on past these bytes (cut at the cap, broken off): its last value may be a head. */
  readonly cut: boolean;
}

/** What reading a body for secrets came to: its text (whole, or its head), or why it could not be read. */
export type BodyReading = { readonly text: string; readonly whole: boolean } | { readonly unreadable: string };

type Decode = (input: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Buffer;

const zstd = (zlib as unknown as { zstdDecompressSync?: Decode }).zstdDecompressSync;

/** A zlib-wrapped (or gzip) stream, else a raw deflate one. */
function inflateEither(input: Buffer, options: zlib.ZlibOptions): Buffer {
  try {
    return zlib.unzipSync(input, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error;
    return zlib.inflateRawSync(input, options);
  }
}

/** Each coding Node decodes, and the flush that lets a cut stream yield what it holds. */
const CODINGS: Readonly<Record<string, { readonly decode: Decode; readonly flush: number }>> = {
  gzip: { decode: zlib.gunzipSync, flush: zlib.constants.Z_SYNC_FLUSH },
  'x-gzip': { decode: zlib.gunzipSync, flush: zlib.constants.Z_SYNC_FLUSH },
  // `deflate` is zlib-wrapped by the RFC (`unzip` reads a gzip too), raw in some servers.
  deflate: { decode: (input, options) => inflateEither(input, options), flush: zlib.constants.Z_SYNC_FLUSH },
  br: { decode: zlib.brotliDecompressSync, flush: zlib.constants.BROTLI_OPERATION_FLUSH },
  ...(zstd ? { zstd: { decode: zstd, flush: 0 } } : {}),
};

/** Halvings a stream that decodes past the cap (or breaks) is searched in for the longest head that fits. */
const MAX_HALVINGS = 24;

/** Codings of the HTTP registry a body may be named in, decodable here or not. */
const KNOWN_CODINGS: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd', 'compress', 'x-compress', 'exi', 'pack200-gzip', 'aes128gcm', 'dcb', 'dcz']);

/** Bytes past the cap a coding under another may decode to. */
const STAGE_SLACK = 64 * 1024;

/** The codings this Node decodes, for a note. */
export const decodedCodings: readonly string[] = Object.keys(CODINGS).filter((c) => c !== 'x-gzip');

/**
 * `bytes` decoded by `coding` to at most `cap` bytes: whole when it fits and decodes, else the
 * longest head of the input that does (a bomb's first `cap` bytes or less; a corrupt stream up
 * to where it breaks). Undefined for a coding this Node does not decode.
 */
export function decodeBounded(bytes: Buffer, coding: string, cap: number): { readonly bytes: Buffer; readonly whole: boolean } | undefined {
  const known = CODINGS[coding];
  if (!known) return undefined;
  const attempt = (input: Buffer, finish: boolean): Buffer | undefined => {
    try {
      // Finishing, a stream that ends early throws; flushing, it yields what it holds.
      return known.decode(input, finish ? { maxOutputLength: cap } : { finishFlush: known.flush, maxOutputLength: cap });
    } catch {
      return undefined;
    }
  };
  const whole = attempt(bytes, true);
  if (whole) return { bytes: whole, whole: true };
  const flushed = attempt(bytes, false);
  if (flushed) return { bytes: flushed, whole: false };
  // Too large or broken somewhere: a head of the input decodes to a head of the output.
  let best: Buffer = Buffer.alloc(0);
  let low = 0;
  let high = bytes.length;
  for (let i = 0; i < MAX_HALVINGS && high - low > 1; i++) {
    const middle = (low + high) >>> 1;
    const out = attempt(bytes.subarray(0, middle), false);
    if (out) {
      low = middle;
      best = out;
    } else high = middle;
  }
  return { bytes: best, whole: false };
}

/** Bytes that read as text: UTF-8 with no character a decoder had to replace, and no control character but white space. */
function isText(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return !/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/.test(text.slice(0, -1)) && text.length > 0;
}

/** Whether a `Content-Encoding` value names any coding. */
export const isCoded = (contentEncoding: string | undefined): boolean => codingsOf(contentEncoding ?? '').length > 0;

/** The codings of a `Content-Encoding` value, in the order they were applied. */
const codingsOf = (header: string): string[] =>
  header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');

/** The body as text, decoded through its codings within `cap`, or why it cannot be read. */
export function readHeldBody(body: HeldBody, cap: number): BodyReading {
  let bytes = body.bytes;
  let whole = !body.cut;
  // Applied in order, so taken off from the last; a coding under another is held to a little
  // more than the cap (a compressed stream of a short text is longer than the text).
  const codings = codingsOf(body.contentEncoding ?? '').reverse();
  for (const [i, coding] of codings.entries()) {
    const decoded = decodeBounded(bytes, coding, i === codings.length - 1 ? cap : cap + STAGE_SLACK);
    // A cut stream may end before its first byte of text (a gzip header alone): read, and empty.
    if (decoded && (decoded.bytes.length > 0 || bytes.length === 0 || body.cut)) {
      bytes = decoded.bytes;
      whole &&= decoded.whole;
      continue;
    }
    // Nothing decodes: a body mislabelled (plain JSON under `gzip`) is read as the text it is; bytes that are no text cannot be read.
    if (isText(bytes)) break;
    // Named only when it is a coding this tool knows: the header is the target's text, and nothing vouches for it now.
    const named = KNOWN_CODINGS.has(coding) ? `(${coding})` : '(not one this tool knows)';
    return {
      unreadable: decoded
        ? `it does not decode as its content coding says ${named}, and is no text`
        : `its content coding ${named} is one this Node cannot decode (it decodes ${decodedCodings.join(', ')})`,
    };
  }
  return { text: bytes.toString('utf8'), whole };
}

/**
 * Teaches `sanitizer` the secret field values `body` holds, as far as it can be read; returns
 * what it read, for the caller to withhold a body it could not read at all.
 */
export function learnHeldBody(sanitizer: Sanitizer, body: HeldBody, cap: number, origin: Origin = 'served', streaming = false): BodyReading {
  const reading = readHeldBody(body, cap);
  if ('unreadable' in reading) {
    // Still streaming, a coded head may not decode yet: it is read again once more has come.
    if (!streaming) sanitizer.blind(`a body could not be read for secrets: ${reading.unreadable}`);
  } else if (reading.text !== '' && sanitizer.fields.namedIn(reading.text)) sanitizer.learnText(reading.text, origin, { cut: !reading.whole, streaming });
  return reading;
}

/**
 * A body read for secrets as it streams by, past what is kept of it: read in windows of `window`
 * bytes, each beginning with the last `overlap` bytes of the one before, so a field's name and a
 * value of up to `overlap` bytes are read whole whatever the chunks. Identity bodies only (a
 * coded stream is read within the cap, `learnHeldBody`).
 */
export class StreamLearner {
  #held: Buffer[] = [];
  #size = 0;

  constructor(
    private readonly sanitizer: Sanitizer,
    private readonly window: number,
    private readonly overlap: number,
    private readonly origin: Origin = 'served',
  ) {}

  add(chunk: Buffer): void {
    this.#held.push(chunk);
    this.#size += chunk.length;
    // A full window: the body goes on, so a value it ends inside is read again with the next.
    if (this.#size >= this.window) this.#read(true, true);
  }

  /** What is held so far, read as a head (the body goes on), and kept for the window it belongs to. */
  peek(): void {
    if (this.#size > 0) learnHeldBody(this.sanitizer, { bytes: Buffer.concat(this.#held, this.#size), cut: true }, this.#size, this.origin, true);
  }

  /** The rest, at the end of the body; `cut` when it broke off. */
  end(cut: boolean): void {
    if (this.#size > 0) this.#read(cut, false);
  }

  #read(cut: boolean, streaming: boolean): void {
    const bytes = Buffer.concat(this.#held, this.#size);
    learnHeldBody(this.sanitizer, { bytes, cut }, bytes.length, this.origin, streaming);
    const tail = bytes.subarray(Math.max(0, bytes.length - this.overlap));
    this.#held = [Buffer.from(tail)];
    this.#size = tail.length;
  }
}
