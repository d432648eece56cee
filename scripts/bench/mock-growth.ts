/**
 * The mock on a long run, where clients grow its data:
 *   (a) 2 000 POST wpa-create-user on a fresh mock, and 2 000 more in the same environment
 *       once 40 000 users exist there; their ratio stays near 1 when the lookup is constant-time;
 *   (b) the heap before and after 100 000 acknowledged actions (POST run-wp-cli-command), with
 *       the default bound of the operation log and, for scale, with a bound that keeps them all.
 * Requests run through the mock's pipeline in process (`createApp`, no HTTP): the store is what
 * is measured, and the section takes seconds. Heap figures are after a full garbage collection.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { createApp } from '../../mock/app.ts';
import { MAX_KEPT_OPERATIONS } from '../../mock/policy.ts';
import { Store } from '../../mock/store.ts';
import { api } from '../../spec/api.ts';
import { fillPath } from '../../spec/queries.ts';
import { msRow, summarize, time, type Row, type Section } from './harness.ts';

const CREATES = 2_000;
const GROWN_USERS = 40_000;
const ACTIONS = 100_000;
const MB = 1024 * 1024;

/** Heap in use after a full collection (exposed on demand: the bench runs without --expose-gc). */
function heapMeter(): () => number {
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  return () => {
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };
}

/** One environment of the first company, and a way to send it JSON requests through the pipeline. */
function pipeline(store: Store) {
  const app = createApp(store);
  const company = store.companies[0]!;
  const envId = company.sites[0]!.environments[0]!.id;
  const headers = { authorization: `Bearer ${company.apiKey}`, 'content-type': 'application/json' };
  const path = (name: string) => `${api.basePath}${fillPath(api.endpoints.find((e) => e.name === name)!.path, { env_id: envId })}`;
  const createUrl = path('createWpAdminUser');
  const actionUrl = path('runWpCliCommand');
  const post = (url: string, body: object, status: number): void => {
    const response = app({ method: 'POST', url, headers, body: Buffer.from(JSON.stringify(body)) });
    if (response.status !== status) throw new Error(`POST ${url}: ${response.status} ${JSON.stringify(response.body)}`);
  };
  let users = 0;
  return {
    /** Creates `count` users with addresses not used before in this store. */
    createUsers(count: number): void {
      for (let i = 0; i < count; i++) post(createUrl, { email: `user-${users++}@growth.example.test`, first_name: 'Ada', last_name: 'Admin' }, 200);
    },
    act(count: number): void {
      for (let i = 0; i < count; i++) post(actionUrl, { wp_command: `wp cache flush --run=${i}` }, 202);
    },
    get users() {
      return users;
    },
  };
}

/** Heap before and after `ACTIONS` acknowledged actions on a fresh store keeping `maxOperations`. */
function heapAcross(heapUsed: () => number, maxOperations: number): { before: number; after: number; store: Store } {
  const store = new Store({ maxOperations });
  const mock = pipeline(store);
  const before = heapUsed();
  mock.act(ACTIONS);
  return { before, after: heapUsed(), store };
}

function heapRows(heapUsed: () => number, what: string, maxOperations: number): Row[] {
  const { before, after, store } = heapAcross(heapUsed, maxOperations);
  const mb = (bytes: number) => bytes / MB;
  const note = `+${mb(after - before).toFixed(1)} MB; ${store.operations.length} kept, ${store.droppedOperations} dropped`;
  return [
    { what: `heap before, ${what}`, runs: 1, median: mb(before), best: mb(before), unit: 'MB' },
    { what: `  after ${ACTIONS} actions`, runs: 1, median: mb(after), best: mb(after), unit: 'MB', note },
  ];
}

export const section: Section = {
  title: 'mock-growth',
  async run(options) {
    const runs = options.runs ?? 3;
    pipeline(new Store()).createUsers(CREATES); // warm-up: the first timed batch should not pay for compilation

    const fresh = await time(runs, () => pipeline(new Store()).createUsers(CREATES));
    const grown = pipeline(new Store());
    grown.createUsers(GROWN_USERS);
    const from = grown.users;
    const after = await time(runs, () => grown.createUsers(CREATES));
    const ratio = summarize(after.samples.map((ms, i) => ms / fresh.samples[i]!));
    const heapUsed = heapMeter();

    return [
      msRow(`${CREATES} POST wpa-create-user, fresh mock`, fresh, 'in process, through createApp'),
      msRow(`${CREATES} POST wpa-create-user, after ${GROWN_USERS} users`, after, `${from} to ${grown.users} users in the environment`),
      { what: '  after / fresh', runs, median: ratio.median, best: ratio.min, unit: '×', note: 'run by run' },
      ...heapRows(heapUsed, `bound ${MAX_KEPT_OPERATIONS} (default)`, MAX_KEPT_OPERATIONS),
      ...heapRows(heapUsed, `bound ${ACTIONS} (all kept, for scale)`, ACTIONS),
    ];
  },
};
