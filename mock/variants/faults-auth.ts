/** Faults of the auth rules (§Authentication): auth ignored or loosened on one endpoint. */
import type { EndpointName } from '../../generated/types.ts';
import type { MockRequest } from '../app.ts';
import type { Variant } from '../variant.ts';
import { seedCompanies } from '../fixtures.ts';
import { editError, fault, replaceAnswer } from './build.ts';

const header = (request: MockRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** The bearer credential a request carries, if any. */
const bearerOf = (request: MockRequest) => /^bearer +(\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];

/** The main company's key: the fixtures are the same in every mock. */
const MAIN_KEY = seedCompanies()[0]!.apiKey;

/** Lets requests to one endpoint through as the main company when `accept` says so. */
const looseAuth = (endpoint: EndpointName, accept: (request: MockRequest) => boolean) => ({
  authenticate: (e: { name: string } | undefined, request: MockRequest, reference: boolean) => reference || (e?.name === endpoint && accept(request)),
});

export const authFaults: readonly Variant[] = [
  fault('auth-ignored-get-site', 'AUTH-401', 'getSite', 'GET /sites/{site_id} answers without any key.', looseAuth('getSite', () => true)),
  fault('auth-ignored-run-wp-cli', 'AUTH-401', 'runWpCliCommand', 'The command runner accepts requests without a key.', looseAuth('runWpCliCommand', () => true)),
  fault('auth-missing-header-accepted-users', 'AUTH-401', 'listCompanyUsers', 'Company users are listed when the Authorization header is missing.', looseAuth('listCompanyUsers', (r) => r.headers.authorization === undefined)),
  fault('auth-empty-bearer-accepted-ssh-status', 'AUTH-401', 'getSshStatus', 'An empty bearer token is accepted on ssh/get-status.', looseAuth('getSshStatus', (r) => /^bearer\s*$/i.test(header(r, 'authorization') ?? 'x'))),
  fault('auth-query-key-accepted-backups', 'AUTH-BEARER', 'listBackups', 'The key in the query string is accepted on the backups list.', looseAuth('listBackups', (r) => /[?&]api_?key=/i.test(r.url))),
  fault('auth-x-api-key-accepted-environments', 'AUTH-BEARER', 'listEnvironments', 'An X-API-Key header is accepted on the environments list.', looseAuth('listEnvironments', (r) => header(r, 'x-api-key') !== undefined)),
  fault('auth-basic-accepted-validate', 'AUTH-BEARER', 'validateApiKey', 'Basic credentials are accepted by GET /validate.', looseAuth('validateApiKey', (r) => /^basic /i.test(header(r, 'authorization') ?? ''))),
  fault('auth-token-scheme-accepted-dns', 'AUTH-BEARER', 'listDnsRecords', 'The `Token` scheme is accepted on the DNS records list.', looseAuth('listDnsRecords', (r) => /^token /i.test(header(r, 'authorization') ?? ''))),
  // Keys that are almost right: a comparison of the first characters, of a prefix, or without case.
  fault('auth-key-first-16-characters-environments', 'AUTH-401', 'listEnvironments', 'Any key sharing the real key\'s first 16 characters is accepted on the environments list.', looseAuth('listEnvironments', (r) => bearerOf(r)?.slice(0, 16) === MAIN_KEY.slice(0, 16))),
  fault('auth-key-prefix-accepted-file-list', 'AUTH-401', 'getFileList', 'A key the real key begins with (one character short) is accepted on the file list.', looseAuth('getFileList', (r) => { const key = bearerOf(r); return key !== undefined && key.length > 0 && MAIN_KEY.startsWith(key); })),
  fault('auth-key-case-insensitive-backups', 'AUTH-401', 'listBackups', 'The key is compared without case on the backups list.', looseAuth('listBackups', (r) => bearerOf(r)?.toLowerCase() === MAIN_KEY.toLowerCase())),
  fault('auth-scheme-case-sensitive', 'AUTH-SCHEME-CASE', 'getSite', 'Only the exact spelling `Bearer` is accepted; `bearer` gets 401.', {
    authenticate: (_e, request, reference) => reference && (header(request, 'authorization') ?? '').startsWith('Bearer '),
  }),
  fault(
    'auth-403-instead-of-401-api-keys',
    'AUTH-401',
    'listApiKeys',
    'A missing or invalid key on the API keys list answers 403.',
    replaceAnswer('listApiKeys', (r) => r.status === 401, (r) => ({ ...r, status: 403, body: { message: 'Forbidden', status: 403 } })),
  ),
  fault(
    'auth-401-message-request-denied',
    'AUTH-401',
    'getFileList',
    'A missing or invalid key on the file list answers 401 "Request denied", which names no key at all.',
    editError('getFileList', (b) => ({ ...b, message: 'Request denied' }), (s) => s === 401),
  ),
];
