/** Routing in one place: the model's path templates, compiled once, matched per request. */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';

export interface Route {
  readonly endpoint: Endpoint;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The templates as a tree of path segments: a literal segment's child by its text, a parameter's
 * child for any other non-empty segment. A path is matched by walking it once; where both a
 * literal and a parameter fit, both branches are followed, and the template with the most literal
 * segments wins (`/sites/environments/...` is not `/sites/{site_id}/...`), as the document reads.
 */
interface Node {
  readonly literals: Map<string, Node>;
  param: Node | undefined;
  /** Templates ending here, by method: the endpoint, its parameters' names, its literal count. */
  readonly ends: Map<string, CompiledRoute>;
}

interface CompiledRoute {
  readonly endpoint: Endpoint;
  readonly names: readonly string[];
  readonly literals: number;
}

const newNode = (): Node => ({ literals: new Map(), param: undefined, ends: new Map() });
const root = newNode();

for (const endpoint of api.endpoints) {
  const segments = endpoint.path.split('/').slice(1);
  const names: string[] = [];
  let node = root;
  for (const segment of segments) {
    const param = /^\{([a-z_]+)\}$/.exec(segment);
    if (param) {
      names.push(param[1]!);
      node = node.param ??= newNode();
    } else {
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = newNode()));
      node = next;
    }
  }
  const known = node.ends.get(endpoint.method);
  if (known) throw new Error(`two endpoints of the model share ${endpoint.method} ${endpoint.path}`);
  node.ends.set(endpoint.method, { endpoint, names, literals: segments.length - names.length });
}

/** The best template under `node` for `segments[at..]`, filling `values` with its parameters' segments. */
function walk(node: Node, method: string, segments: readonly string[], at: number, values: string[], best: { route?: CompiledRoute; values?: string[] }): void {
  if (at === segments.length) {
    const route = node.ends.get(method);
    if (route && (!best.route || route.literals > best.route.literals)) {
      best.route = route;
      best.values = [...values];
    }
    return;
  }
  const segment = segments[at]!;
  const literal = node.literals.get(segment);
  if (literal) walk(literal, method, segments, at + 1, values, best);
  if (node.param && segment !== '') {
    values.push(segment);
    walk(node.param, method, segments, at + 1, values, best);
    values.pop();
  }
}

/**
 * The endpoint for a method and a path below the base path, with its decoded path parameters;
 * undefined when no endpoint of the document matches (or a parameter is not valid percent-encoding).
 */
export function matchRoute(method: string, path: string): Route | undefined {
  if (path.charCodeAt(0) !== 47) return undefined;
  const best: { route?: CompiledRoute; values?: string[] } = {};
  walk(root, method, path.slice(1).split('/'), 0, [], best);
  const { route, values } = best;
  if (!route || !values) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < route.names.length; i++) {
    try {
      params[route.names[i]!] = decodeURIComponent(values[i]!);
    } catch {
      return undefined;
    }
  }
  return { endpoint: route.endpoint, params };
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
