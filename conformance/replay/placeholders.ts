/**
 * Request text with every secret as a placeholder, for files a developer takes home (HAR
 * recordings): the key is `${HSC_API_KEY}`, a key the suite derived from it is the expression that
 * rebuilds it (`${HSC_API_KEY:0:5}X${HSC_API_KEY:6}`, the curl lines' own), and a literal `$` is
 * `$$`. Filling a template evaluates exactly the expressions this module writes, and nothing else:
 * a recording is data, never a script (no shell runs it).
 *
 * The grammar: `$$`; `${NAME}`, `${NAME:OFFSET}`, `${NAME:OFFSET:LENGTH}`, `$NAME`;
 * `$(printf FORMAT ARG | STAGE | ...)` with FORMAT `%s` or a single-quoted text holding one `%s`,
 * ARG a double-quoted string of the same grammar (without `$$`), and STAGEs `base64` (which wraps
 * at 76 characters and ends in a line break, as coreutils' does), `tr -d 'CHARS'` and
 * `tr a-zA-Z A-Za-z`. Anything else refuses to fill, saying where.
 */
import { secretParts } from '../curl.ts';
import type { Sanitizer } from '../../sanitize/sanitizer.ts';
import type { ProbeRequest } from '../types.ts';

/** A string whose secrets are placeholders, or undefined where one cannot be (the sanitizer's marker would stand there). */
export function templateOf(value: string, sanitizer: Sanitizer): string | undefined {
  let out = '';
  for (const part of secretParts(value, sanitizer)) {
    // A secret no expression rebuilds became the sanitizer's marker: no placeholder holds it.
    if ('marked' in part) return undefined;
    out += 'text' in part ? part.text.replaceAll('$', '$$$$') : unquoted(part.shell);
  }
  return out;
}

/** A shell word as curl writes it (`"$NAME"`, `"${NAME:0:3}x"`, `"$(…)"`), as a placeholder: its outer quotes off, `$NAME` braced. */
function unquoted(shell: string): string {
  const inner = shell.startsWith('"') && shell.endsWith('"') ? shell.slice(1, -1) : shell;
  return inner.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string, at: number, all: string) => (all[at + 1] === '{' ? whole : `\${${name}}`));
}

/** A request with its secrets as placeholders: method, URL, headers and body, each a template. */
export interface RequestTemplate {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The request as a template, or undefined where a secret in it has no placeholder. */
export function requestTemplate(request: ProbeRequest, sanitizer: Sanitizer): RequestTemplate | undefined {
  const url = templateOf(request.url, sanitizer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const t = templateOf(value, sanitizer);
    if (t === undefined) return undefined;
    headers[name] = t;
  }
  const body = request.body === undefined ? undefined : templateOf(request.body, sanitizer);
  if (url === undefined || (request.body !== undefined && body === undefined)) return undefined;
  return { method: request.method, url, headers, ...(body !== undefined ? { body } : {}) };
}

/** A request template filled from `env`. */
export function fillRequest(template: RequestTemplate, env: Readonly<Record<string, string | undefined>>): ProbeRequest {
  return {
    method: template.method,
    url: fill(template.url, env),
    headers: Object.fromEntries(Object.entries(template.headers).map(([k, v]) => [k, fill(v, env)])),
    ...(template.body !== undefined ? { body: fill(template.body, env) } : {}),
  };
}

/** The variables placeholders read: the suite's (`HSC_API_KEY`, `HSC_OTHER_API_KEY`, `HSC_<FIELD>`) and the proxy's clients' key. */
export const PLACEHOLDER_VARIABLE = /^(HSC_[A-Z0-9_]+|CLIENT_API_KEY)$/;

export class PlaceholderError extends Error {
  override readonly name = 'PlaceholderError';
}

/** The names of the variables a template reads. */
export const variablesOf = (template: string): string[] => [...new Set([...template.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];

/** A template filled from `env`: every placeholder evaluated, `$$` a dollar. */
export function fill(template: string, env: Readonly<Record<string, string | undefined>>): string {
  const parser = new Parser(template, env);
  const out = parser.text(false);
  if (!parser.done()) parser.fail('unexpected text');
  return out;
}

class Parser {
  #at = 0;
  constructor(
    readonly source: string,
    readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  done = (): boolean => this.#at >= this.source.length;
  fail(what: string): never {
    throw new PlaceholderError(`${what} at character ${this.#at + 1} of a placeholder (only what hosted-site-contract writes is read)`);
  }
  #peek = (n = 1) => this.source.slice(this.#at, this.#at + n);
  #take(expected: string): void {
    if (this.#peek(expected.length) !== expected) this.fail(`expected \`${expected}\``);
    this.#at += expected.length;
  }
  #variable(name: string): string {
    // Only the variables this tool writes placeholders for: a tampered file must not read the rest of the environment.
    if (!PLACEHOLDER_VARIABLE.test(name)) throw new PlaceholderError(`reads ${name}, which is no variable this tool writes (HSC_*, CLIENT_API_KEY)`);
    const value = this.env[name];
    if (value === undefined || value === '') throw new PlaceholderError(`needs the variable ${name}, which is not set`);
    return value;
  }

  /** Text up to the end (or, quoted, to the closing `"`). */
  text(quoted: boolean): string {
    let out = '';
    while (!this.done()) {
      const c = this.#peek();
      if (quoted && c === '"') return out;
      if (c !== '$') {
        out += c;
        this.#at++;
        continue;
      }
      const next = this.#peek(2);
      if (next === '$$' && !quoted) {
        out += '$';
        this.#at += 2;
      } else if (next === '${') out += this.#expansion();
      else if (next === '$(') out += this.#command();
      else if (/^\$[A-Za-z_]/.test(next)) {
        this.#at++;
        out += this.#variable(this.#name());
      } else this.fail('a `$` that begins no placeholder');
    }
    if (quoted) this.fail('a quote that does not close');
    return out;
  }

  #name(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.source.slice(this.#at));
    if (!m) this.fail('expected a variable name');
    this.#at += m[0].length;
    return m[0];
  }

  #number(): number {
    const m = /^\d{1,6}/.exec(this.source.slice(this.#at));
    if (!m) this.fail('expected a number');
    this.#at += m[0].length;
    return Number(m[0]);
  }

  /** `${NAME}`, `${NAME:OFFSET}`, `${NAME:OFFSET:LENGTH}`. */
  #expansion(): string {
    this.#take('${');
    const value = this.#variable(this.#name());
    let out = value;
    if (this.#peek() === ':') {
      this.#at++;
      const offset = this.#number();
      let length: number | undefined;
      if (this.#peek() === ':') {
        this.#at++;
        length = this.#number();
      }
      out = value.slice(offset, length === undefined ? undefined : offset + length);
    }
    this.#take('}');
    return out;
  }

  /** `$(printf FORMAT "ARG" | STAGE | ...)`. */
  #command(): string {
    this.#take('$(printf ');
    let format: string;
    if (this.#peek() === "'") format = this.#single();
    else {
      this.#take('%s');
      format = '%s';
    }
    if (format.split('%s').length !== 2) this.fail('a format other than one %s');
    this.#take(' "');
    const arg = this.text(true);
    this.#take('"');
    let out = format.replace('%s', arg);
    while (this.#peek(3) === ' | ') {
      this.#at += 3;
      if (this.#peek(6) === 'base64') {
        this.#at += 6;
        const encoded = Buffer.from(out, 'utf8').toString('base64');
        out = `${encoded.match(/.{1,76}/g)?.join('\n') ?? ''}\n`;
      } else if (this.#peek(6) === 'tr -d ') {
        this.#at += 6;
        const chars = this.#single().replaceAll('\\n', '\n');
        out = [...out].filter((c) => !chars.includes(c)).join('');
      } else if (this.#peek(16) === 'tr a-zA-Z A-Za-z') {
        this.#at += 16;
        out = out.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      } else this.fail('a stage other than base64, tr -d or tr a-zA-Z A-Za-z');
    }
    this.#take(')');
    return out;
  }

  /** A single-quoted word: its text, as the shell takes it. */
  #single(): string {
    this.#take("'");
    const end = this.source.indexOf("'", this.#at);
    if (end < 0) this.fail('a quote that does not close');
    const text = this.source.slice(this.#at, end);
    this.#at = end + 1;
    return text;
  }
}
