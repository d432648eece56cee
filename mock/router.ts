/** Routing in one place: the model's path templates, compiled once, matched per request. */
import { api } from '../spec/api.ts';
import type { Endpoint } from '../spec/model.ts';
import { BoundedMap } from '../sanitize/bounded-map.ts';
import { closestEndpoints } from './closest-endpoints.ts';

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
  // Clients repeat their requests (a status poll, a command run again): each short one is routed once.
  return path.length > ROUTE_MEMO_CHARS ? routeOf(method, path) : routes.getOrAdd(`${method} ${path}`, () => routeOf(method, path));
}

/** Paths up to this long have their route kept (undefined: no endpoint), this many at most. */
const ROUTE_MEMO_CHARS = 512;
const routes = new BoundedMap<string, Route | undefined>(1024);

function routeOf(method: string, path: string): Route | undefined {
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
  // Shared by every request of the same path (`matchRoute` keeps it): frozen, so none can change it for the next.
  return Object.freeze({ endpoint: route.endpoint, params: Object.freeze(params) });
}

/** Why no endpoint answered a request: the methods its path takes, and the nearest endpoints. */
export interface RouteMiss {
  /** Methods whose template matches the path (a wrong method); empty for an unknown path. */
  readonly allowed: readonly string[];
  /** The endpoints a person most likely meant, best first (`closestEndpoints`). */
  readonly closest: readonly Endpoint[];
}

/** For a request no endpoint matched (`path` below the base path): what it may have meant. */
export function missedRoute(method: string, path: string): RouteMiss {
  const allowed = [...new Set(api.endpoints.filter((e) => e.method !== method && matchRoute(e.method, path)).map((e) => e.method))];
  return { allowed, closest: closestEndpoints(method, path) };
}
