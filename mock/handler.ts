/** What a handler receives and returns; handlers hold only behaviour, the pipeline does the rest. */
import type { Acknowledgement, EndpointName, Endpoints } from '../generated/types.ts';
import type { CompanySeed } from './fixtures.ts';
import type { Store } from './store.ts';

export interface Context<N extends EndpointName> {
  readonly store: Store;
  /** The company of the API key the request carried. */
  readonly company: CompanySeed;
  readonly params: Endpoints[N]['pathParams'];
  readonly query: Endpoints[N]['query'];
  /** The request body, already checked against the endpoint's request schema. */
  readonly body: Endpoints[N]['request'];
  /** Records an acknowledged operation on `target` and returns its 202 body. */
  readonly acknowledge: (target: string | undefined, details?: object, message?: string) => Extract<Endpoints[N]['response'], Acknowledgement>;
}

export type Handler<N extends EndpointName> = (context: Context<N>) => Endpoints[N]['response'];

export type Handlers = { readonly [N in EndpointName]: Handler<N> };
export type HandlerGroup<N extends EndpointName> = { readonly [K in N]: Handler<K> };

/**
 * `context` with some of its parts changed, for variants that run a handler on other data. The
 * pipeline's context keeps `acknowledge` on its prototype (no closure per request): a spread
 * would lose it, so it is carried over here, bound to the original.
 */
export function derivedContext<N extends EndpointName>(context: Context<N>, changes: Partial<Omit<Context<N>, 'acknowledge'>>): Context<N> {
  return { ...context, acknowledge: context.acknowledge.bind(context), ...changes };
}
