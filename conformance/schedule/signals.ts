/**
 * What an answer says about the target's rate limit, read from the headers servers use:
 * `Retry-After` (seconds or an HTTP date, RFC 9110 §10.2.3), the IETF draft's `RateLimit` and
 * `RateLimit-Policy` (both its dictionary form `limit=…, remaining=…, reset=…` and its later
 * structured form `"default";r=…;t=…` with `q=…;w=…`), its first form's `RateLimit-Limit` /
 * `-Remaining` / `-Reset`, and the common `X-RateLimit-Limit` / `-Remaining` / `-Reset` (a reset
 * in seconds from now, or an epoch time in seconds or milliseconds). The document states no rate
 * limit (§Limits: "Rate limits and quotas: not shown"): these are what the target itself says.
 */

export interface RateSignals {
  /** Requests allowed per window. */
  readonly limit?: number;
  /** The window of `limit`, in ms (a policy's `w`). */
  readonly windowMs?: number;
  /** Requests left before the limit. */
  readonly remaining?: number;
  /** When the limit resets, in ms from now. */
  readonly resetMs?: number;
  /** How long to wait before sending again, in ms from now (`Retry-After`). */
  readonly retryAfterMs?: number;
}

/** Times above this are epoch seconds rather than seconds from now (2001-09-09); above 10^12, epoch ms. */
const EPOCH_SECONDS = 1_000_000_000;
const EPOCH_MS = 1_000_000_000_000;

/** A non-negative number, or undefined. */
const number = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const t = text.trim().replace(/^"|"$/g, '');
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
};

/** A reset time as ms from now: seconds from now, or an epoch time in seconds or ms. */
function resetFrom(value: number | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (value >= EPOCH_MS) return Math.max(0, value - now);
  if (value >= EPOCH_SECONDS) return Math.max(0, value * 1000 - now);
  return value * 1000;
}

/** `Retry-After` as ms from now: delay-seconds or an HTTP date; undefined when it is neither. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** One member of a list or dictionary header: its item (`"default"`, `120`) and its parameters (`q`, `w`, `r`, `t`). */
interface Member {
  readonly item: string;
  readonly params: ReadonlyMap<string, string>;
}

/**
 * A header as list members, commas inside quotes kept. The dictionary form (`limit=10,
 * remaining=1, reset=7`) reads as one member whose parameters are its keys.
 */
function members(value: string): Member[] {
  const parts: string[] = [];
  let quoted = false;
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '"') quoted = !quoted;
    else if (value[i] === ',' && !quoted) {
      parts.push(value.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(value.slice(from));
  const list: Member[] = [];
  const dictionary = new Map<string, string>();
  for (const part of parts) {
    const [item = '', ...rest] = part.split(';').map((p) => p.trim());
    const params = new Map<string, string>();
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
    }
    const eq = item.indexOf('=');
    if (eq > 0 && !item.startsWith('"')) dictionary.set(item.slice(0, eq).trim().toLowerCase(), item.slice(eq + 1).trim());
    else list.push({ item, params });
  }
  return dictionary.size > 0 ? [{ item: '', params: dictionary }, ...list] : list;
}

/** The first draft's counters and the common ones, in that order: limit, remaining, reset (names built once: read on every answer). */
const COUNTER_HEADERS = ['ratelimit-', 'x-ratelimit-', 'x-rate-limit-'].map((prefix) => [`${prefix}limit`, `${prefix}remaining`, `${prefix}reset`] as const);

/** Every rate-limit signal in `headers` (lower-cased names), `now` the local clock (epoch ms). */
export function readSignals(headers: Readonly<Record<string, string>>, now = Date.now()): RateSignals {
  let limit: number | undefined;
  let windowMs: number | undefined;
  let remaining: number | undefined;
  let reset: number | undefined;
  const policy = headers['ratelimit-policy'];
  if (policy !== undefined) {
    // Draft 07: `120;w=60, 10;w=1`; later drafts: `"default";q=120;w=60`. The binding policy is the slowest.
    let slowest = Infinity;
    for (const m of members(policy)) {
      const q = number(m.params.get('q')) ?? number(m.item);
      const w = number(m.params.get('w'));
      if (q === undefined || w === undefined || w <= 0) continue;
      if (q / w < slowest) {
        slowest = q / w;
        limit = q;
        windowMs = w * 1000;
      }
    }
  }
  const combined = headers.ratelimit;
  if (combined !== undefined) {
    // `limit=…, remaining=…, reset=…`, or `"default";r=…;t=…` (the member with the fewest left).
    for (const m of members(combined)) {
      const r = number(m.params.get('remaining')) ?? number(m.params.get('r'));
      if (r === undefined || (remaining !== undefined && r >= remaining)) continue;
      remaining = r;
      reset = number(m.params.get('reset')) ?? number(m.params.get('t'));
      limit ??= number(m.params.get('limit'));
    }
  }
  for (const [limitName, remainingName, resetName] of COUNTER_HEADERS) {
    limit ??= number(headers[limitName]);
    remaining ??= number(headers[remainingName]);
    reset ??= number(headers[resetName]);
  }
  const resetMs = resetFrom(reset, now);
  const retry = retryAfterMs(headers['retry-after'], now);
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(windowMs !== undefined ? { windowMs } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetMs !== undefined ? { resetMs } : {}),
    ...(retry !== undefined ? { retryAfterMs: retry } : {}),
  };
}
