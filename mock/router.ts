/** Routing in one place: the model's path templates, compiled once, matched per request. */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { escapeRegex } from '../spec/queries.ts';

export interface Route {
  readonly endpoint: Endpoint;
  readonly params: Readonly<Record<string, string>>;
}

interface CompiledRoute {
  readonly endpoint: Endpoint;
  readonly regex: RegExp;
  readonly names: readonly string[];
  /** Literal segments win over parameters: `/sites/environments/...` is not `/sites/{site_id}`. */
  readonly literals: number;
}

function compile(endpoint: Endpoint): CompiledRoute {
  const names: string[] = [];
  const segments = endpoint.path.split('/').slice(1);
  const source = segments
    .map((segment) => {
      const param = /^\{([a-z_]+)\}$/.exec(segment);
      if (!param) return escapeRegex(segment);
      names.push(param[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { endpoint, regex: new RegExp(`^/${source}$`), names, literals: segments.length - names.length };
}

const SLASH = 47;
/** `/a/{b}/c` has three: a template only matches paths with as many (`[^/]+` holds none). */
function countSegments(path: string): number {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === SLASH) count++;
  return count;
}

/** Routes by method and segment count, so a request tries only the few that could match. */
const routesByShape = new Map<string, CompiledRoute[]>();
for (const route of api.endpoints.map(compile).sort((a, b) => b.literals - a.literals)) {
  const key = `${route.endpoint.method} ${countSegments(route.endpoint.path)}`;
  routesByShape.set(key, [...(routesByShape.get(key) ?? []), route]);
}

/**
 * The endpoint for a method and a path below the base path, with its decoded path parameters;
 * undefined when no endpoint of the document matches (or a parameter is not valid percent-encoding).
 */
export function matchRoute(method: string, path: string): Route | undefined {
  for (const route of routesByShape.get(`${method} ${countSegments(path)}`) ?? []) {
    const match = route.regex.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.names.length; i++) {
      try {
        params[route.names[i]!] = decodeURIComponent(match[i + 1]!);
      } catch {
        return undefined;
      }
    }
    return { endpoint: route.endpoint, params };
  }
  return undefined;
}

/** Why no endpoint answered a request: the methods its path takes, and the nearest endpoints. */
export interface RouteMiss {
  /** Methods whose template matches the path (a wrong method); empty for an unknown path. */
  readonly allowed: readonly string[];
  /** The endpoints nearest by method and path template, nearest first (at most three). */
  readonly closest: readonly Endpoint[];
}

const SKIP = 1;

/** Levenshtein distance over characters, divided by the longer length: 0 equal, 1 nothing shared. */
export function textDistance(a: string, b: string): number {
  if (a === b) return 0;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length]! / Math.max(a.length, b.length);
}

/** A misspelt literal costs its distance; one more than half different is another word, as costly as a skip. */
const literalCost = (a: string, b: string) => {
  const d = textDistance(a, b);
  return d <= 0.5 ? d : SKIP;
};

/** What a path segment that fills a parameter looks like: an id, or a template's `{name}` copied as is. */
const ID_LIKE = /^(\{[^}]*\}|[0-9a-f-]{8,}|\d+|.*\d.*)$/i;

/** Segment edit distance between a request path and a template: parameters take id-like segments for free. */
function pathDistance(path: readonly string[], template: readonly string[]): number {
  let row = Array.from({ length: template.length + 1 }, (_, j) => j * SKIP);
  for (let i = 1; i <= path.length; i++) {
    const next = [i * SKIP];
    for (let j = 1; j <= template.length; j++) {
      const t = template[j - 1]!;
      const p = path[i - 1]!;
      const cost = t.startsWith('{') ? (ID_LIKE.test(p) ? 0 : 0.5) : literalCost(p.toLowerCase(), t);
      next.push(Math.min(row[j]! + SKIP, next[j - 1]! + SKIP, row[j - 1]! + cost));
    }
    row = next;
  }
  return row[template.length]!;
}

const OTHER_METHOD = 0.75;
/** Endpoints this much farther than the nearest are still named beside it. */
const NEAR_ENOUGH = 0.25;
const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');
const templates = api.endpoints.map((endpoint) => ({ endpoint, segments: segmentsOf(endpoint.path) }));

/** For a request no endpoint matched (`path` below the base path): what it may have meant. */
export function missedRoute(method: string, path: string): RouteMiss {
  const allowed = [...new Set(api.endpoints.filter((e) => e.method !== method && matchRoute(e.method, path)).map((e) => e.method))];
  let segments: string[];
  try {
    segments = segmentsOf(path).map((s) => decodeURIComponent(s));
  } catch {
    segments = segmentsOf(path);
  }
  const scored = templates
    .map(({ endpoint, segments: template }) => ({ endpoint, score: pathDistance(segments, template) + (endpoint.method === method.toUpperCase() ? 0 : OTHER_METHOD) }))
    .sort((a, b) => a.score - b.score);
  const best = scored[0]!.score;
  return { allowed, closest: scored.filter((s) => s.score <= best + NEAR_ENOUGH).slice(0, 3).map((s) => s.endpoint) };
}
