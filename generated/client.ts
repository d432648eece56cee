/*
 * generated from spec 1.106.0 — do not edit.
 * Written by generator/client.ts (npm run generate); edit the model in spec/ or the generator instead.
 */

import { request, type Dispatcher } from 'undici';
import type { ChangeSshExpirationIntervalPathParams, ChangeSshExpirationIntervalRequest, ChangeSshExpirationIntervalResponse, ChangeWebrootSubfolderPathParams, ChangeWebrootSubfolderRequest, ChangeWebrootSubfolderResponse, CheckWpAdminUserExistsPathParams, CheckWpAdminUserExistsQuery, CheckWpAdminUserExistsResponse, ClearCdnCacheRequest, ClearCdnCacheResponse, CreateWpAdminUserPathParams, CreateWpAdminUserRequest, CreateWpAdminUserResponse, EndpointName, Endpoints, ErrorBody, GetFileListPathParams, GetFileListResponse, GetSftpPasswordPathParams, GetSftpPasswordResponse, GetSitePathParams, GetSiteResponse, GetSshAllowedIpsPathParams, GetSshAllowedIpsResponse, GetSshStatusPathParams, GetSshStatusResponse, ListAdditionalSftpAccountsPathParams, ListAdditionalSftpAccountsResponse, ListApiKeysPathParams, ListApiKeysResponse, ListAvailableRegionsPathParams, ListAvailableRegionsResponse, ListBackupsPathParams, ListBackupsResponse, ListCompanyUsersPathParams, ListCompanyUsersResponse, ListDnsRecordsPathParams, ListDnsRecordsResponse, ListEnvironmentsPathParams, ListEnvironmentsResponse, ListPluginsPathParams, ListPluginsResponse, ListThemesPathParams, ListThemesRequest, ListThemesResponse, RemoveAdditionalSftpAccountPathParams, RemoveAdditionalSftpAccountResponse, ResetSitePathParams, ResetSiteRequest, ResetSiteResponse, RestoreBackupPathParams, RestoreBackupRequest, RestoreBackupResponse, RunWpCliCommandPathParams, RunWpCliCommandRequest, RunWpCliCommandResponse, SearchAndReplaceRequest, SearchAndReplaceResponse, SetEdgeCachingStatusRequest, SetEdgeCachingStatusResponse, UpdateDnsRecordsPathParams, UpdateDnsRecordsRequest, UpdateDnsRecordsResponse, ValidateApiKeyResponse } from './types.ts';

/** The version segment the path of every base URL ends in (§Versioning). */
const BASE_PATH = '/v2';

/** Deadline of one call when the options set none. */
const DEFAULT_TIMEOUT_MS = 10000;

/** Where an endpoint lives, and how its one parameter object splits into path and query. */
interface Route {
  readonly method: Dispatcher.HttpMethod;
  /** The path template exactly as the document writes it, relative to the base URL. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
}


/** Every endpoint’s route, from the spec model. */
const routes: { readonly [N in EndpointName]: Route } = {
  listCompanyUsers: {
    method: 'GET',
    path: '/company/{id}/users',
    pathParams: ['id'],
    queryParams: []
  },
  listApiKeys: {
    method: 'GET',
    path: '/company/{id}/api-keys',
    pathParams: ['id'],
    queryParams: []
  },
  listAvailableRegions: {
    method: 'GET',
    path: '/company/{id}/available-regions',
    pathParams: ['id'],
    queryParams: []
  },
  validateApiKey: {
    method: 'GET',
    path: '/validate',
    pathParams: [],
    queryParams: []
  },
  listDnsRecords: {
    method: 'GET',
    path: '/domains/{domain_id}/dns-records',
    pathParams: ['domain_id'],
    queryParams: []
  },
  getSite: {
    method: 'GET',
    path: '/sites/{site_id}',
    pathParams: ['site_id'],
    queryParams: []
  },
  listEnvironments: {
    method: 'GET',
    path: '/sites/{site_id}/environments',
    pathParams: ['site_id'],
    queryParams: []
  },
  listBackups: {
    method: 'GET',
    path: '/sites/environments/{env_id}/backups',
    pathParams: ['env_id'],
    queryParams: []
  },
  getFileList: {
    method: 'GET',
    path: '/sites/environments/{env_id}/file-list',
    pathParams: ['env_id'],
    queryParams: []
  },
  listPlugins: {
    method: 'GET',
    path: '/sites/environments/{env_id}/plugins',
    pathParams: ['env_id'],
    queryParams: []
  },
  listThemes: {
    method: 'GET',
    path: '/sites/environments/{env_id}/wp-themes',
    pathParams: ['env_id'],
    queryParams: []
  },
  listAdditionalSftpAccounts: {
    method: 'GET',
    path: '/sites/environments/{env_id}/additional-sftp-accounts',
    pathParams: ['env_id'],
    queryParams: []
  },
  getSshAllowedIps: {
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/get-allowed-ips',
    pathParams: ['env_id'],
    queryParams: []
  },
  getSshStatus: {
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/get-status',
    pathParams: ['env_id'],
    queryParams: []
  },
  getSftpPassword: {
    method: 'GET',
    path: '/sites/environments/{env_id}/ssh/password',
    pathParams: ['env_id'],
    queryParams: []
  },
  checkWpAdminUserExists: {
    method: 'GET',
    path: '/sites/environments/{env_id}/wpa-user-exists',
    pathParams: ['env_id'],
    queryParams: ['email']
  },
  clearCdnCache: {
    method: 'POST',
    path: '/sites/cdn/clear-cache',
    pathParams: [],
    queryParams: []
  },
  setEdgeCachingStatus: {
    method: 'PUT',
    path: '/sites/edge-caching/status',
    pathParams: [],
    queryParams: []
  },
  updateDnsRecords: {
    method: 'PUT',
    path: '/domains/{domain_id}/dns-records',
    pathParams: ['domain_id'],
    queryParams: []
  },
  searchAndReplace: {
    method: 'POST',
    path: '/sites/tools/search-and-replace',
    pathParams: [],
    queryParams: []
  },
  changeWebrootSubfolder: {
    method: 'POST',
    path: '/sites/environments/{env_id}/change-webroot-subfolder',
    pathParams: ['env_id'],
    queryParams: []
  },
  restoreBackup: {
    method: 'POST',
    path: '/sites/environments/{target_env_id}/backups/restore',
    pathParams: ['target_env_id'],
    queryParams: []
  },
  runWpCliCommand: {
    method: 'POST',
    path: '/sites/environments/{env_id}/run-wp-cli-command',
    pathParams: ['env_id'],
    queryParams: []
  },
  resetSite: {
    method: 'POST',
    path: '/sites/{site_id}/reset-site',
    pathParams: ['site_id'],
    queryParams: []
  },
  removeAdditionalSftpAccount: {
    method: 'DELETE',
    path: '/sites/environments/additional-sftp-accounts/{sftp_account_id}',
    pathParams: ['sftp_account_id'],
    queryParams: []
  },
  createWpAdminUser: {
    method: 'POST',
    path: '/sites/environments/{env_id}/wpa-create-user',
    pathParams: ['env_id'],
    queryParams: []
  },
  changeSshExpirationInterval: {
    method: 'POST',
    path: '/sites/environments/{env_id}/ssh/change-expiration-interval',
    pathParams: ['env_id'],
    queryParams: []
  }
};

export interface HostedSiteClientOptions {
  /** Base URL of the API; its path ends in the version segment, e.g. `https://api.example.com/v2`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never part of an error. */
  readonly apiKey: string;
  /** Deadline of one call, connect to last body byte, in milliseconds. Default 10000. */
  readonly timeoutMs?: number;
  /** undici dispatcher (Agent, Pool, MockAgent, ProxyAgent); undici's global one by default. */
  readonly dispatcher?: Dispatcher;
  /** Check every success body with the generated `responseValidators` (./validators.js, loaded on first use); a mismatch throws `ResponseValidationError`. */
  readonly validateResponses?: boolean;
}

/** What the client needs of a generated validator: a verdict, and on failure the reasons. */
interface ResponseValidator {
  (data: unknown): boolean;
  readonly errors?: readonly { readonly instancePath: string; readonly keyword: string; readonly message?: string; }[] | null;
}

/** The base of every error a client call throws (`ApiError`, `TransportError` and its `TimeoutError`, `ResponseValidationError`): one `instanceof` check catches them all, and each says on which endpoint it happened. */
export abstract class HostedSiteClientError extends Error {
  override name: string = 'HostedSiteClientError';
  /** The endpoint, by its client method name. */
  readonly endpoint: EndpointName;
  /** `METHOD /path/template`, exactly as the document writes it. */
  readonly operation: string;

  constructor(message: string, details: { readonly endpoint: EndpointName; readonly operation: string; }, options?: ErrorOptions) {
    super(message, options);
    this.endpoint = details.endpoint;
    this.operation = details.operation;
  }
}

/** An answer with a status outside 2xx. Every text it carries has the API key cut out. */
export class ApiError extends HostedSiteClientError {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The error body when the answer is JSON shaped `{ message, status }`. */
  readonly body: ErrorBody | undefined;
  /** The raw answer text, kept whether or not it is JSON. */
  readonly text: string;

  constructor(details: { readonly endpoint: EndpointName; readonly operation: string; readonly status: number; readonly body: ErrorBody | undefined; readonly text: string; }) {
    const detail = details.body?.message ?? (details.text.slice(0, 200) || '(empty body)');
    super(`${details.operation} answered HTTP ${details.status}: ${detail}`, details);
    this.status = details.status;
    this.body = details.body;
    this.text = details.text;
  }
}

/** No answer arrived: the connection was refused or reset, the host was not found, ... The cause is undici's error. */
export class TransportError extends HostedSiteClientError {
  override name: string = 'TransportError';
  /** The system's or undici's error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly code: string | undefined;

  constructor(details: { readonly endpoint: EndpointName; readonly operation: string; readonly message: string; readonly code: string | undefined; readonly cause: unknown; }) {
    super(details.message, details, { cause: details.cause });
    this.code = details.code;
  }
}

/** No complete answer (headers and body) within `timeoutMs`. */
export class TimeoutError extends TransportError {
  override name: string = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(details: { readonly endpoint: EndpointName; readonly operation: string; readonly timeoutMs: number; readonly cause: unknown; }) {
    super({ ...details, message: `${details.operation} got no complete answer within ${details.timeoutMs} ms`, code: 'TIMEOUT' });
    this.timeoutMs = details.timeoutMs;
  }
}

/** A success answer whose body is not JSON, or, with `validateResponses`, does not match its schema. */
export class ResponseValidationError extends HostedSiteClientError {
  override readonly name = 'ResponseValidationError';
  readonly status: number;
  /** The parsed body, or the raw text when it is not JSON. */
  readonly body: unknown;
  /** What does not match, one entry per problem. */
  readonly problems: readonly string[];

  constructor(details: { readonly endpoint: EndpointName; readonly operation: string; readonly status: number; readonly body: unknown; readonly problems: readonly string[]; }) {
    super(`${details.operation} answered HTTP ${details.status} with an unexpected body: ${details.problems.join('; ')}`, details);
    this.status = details.status;
    this.body = details.body;
    this.problems = details.problems;
  }
}

/** Fills a path template, encoding each value. `.`, `..` and the empty string are refused: URL parsing would turn them into another path, and so another endpoint. */
function fillPath(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (typeof value !== 'string') throw new TypeError(`path parameter ${name} of ${template} must be a string`);
    if (value === '' || value === '.' || value === '..') throw new TypeError(`path parameter ${name} of ${template} must not be ${JSON.stringify(value)}`);
    return encodeURIComponent(value);
  });
}

/** `?name=value&...` for the parameters that are set, or the empty string. */
function queryString(names: readonly string[], values: Readonly<Record<string, unknown>>): string {
  const search = new URLSearchParams();
  for (const name of names) {
    const value = values[name];
    if (value !== undefined) search.append(name, String(value));
  }

  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The parsed text, or `undefined` with `ok: false` when it is not JSON. */
function parseJson(text: string): { readonly ok: boolean; readonly value: unknown; } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, value: undefined };
  }
}

/** The value when it has the shape of the Error body (`message` string, `status` number). */
function asErrorBody(value: unknown): ErrorBody | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, status } = value as Partial<Record<keyof ErrorBody, unknown>>;
  return typeof message === 'string' && typeof status === 'number' ? (value as ErrorBody) : undefined;
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown; }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Client of the Hosted Site Management API (/v2, spec 1.106.0): one method per endpoint, bearer auth, JSON in and out. */
export class HostedSiteClient {
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #validateResponses: boolean;
  #validators: Promise<Readonly<Record<EndpointName, ResponseValidator>>> | undefined;

  constructor(options: HostedSiteClientOptions) {
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    if (!new URL(baseUrl).pathname.endsWith(BASE_PATH)) {
      throw new TypeError(`baseUrl must end in ${BASE_PATH}, e.g. https://api.example.com${BASE_PATH}; got ${options.baseUrl}`);
    }

    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) throw new TypeError('timeoutMs must be a positive number of milliseconds');
    this.#baseUrl = baseUrl;
    this.#apiKey = options.apiKey;
    this.#timeoutMs = timeoutMs;
    this.#dispatcher = options.dispatcher;
    this.#validateResponses = options.validateResponses ?? false;
  }

  /**
   * List a company's users.
   *
   * `GET /company/{id}/users`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listCompanyUsers(params: ListCompanyUsersPathParams): Promise<ListCompanyUsersResponse> {
    return this.#call('listCompanyUsers', params, undefined);
  }

  /**
   * List a company's API keys.
   *
   * `GET /company/{id}/api-keys`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listApiKeys(params: ListApiKeysPathParams): Promise<ListApiKeysResponse> {
    return this.#call('listApiKeys', params, undefined);
  }

  /**
   * List the hosting regions available to a company.
   *
   * `GET /company/{id}/available-regions`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listAvailableRegions(params: ListAvailableRegionsPathParams): Promise<ListAvailableRegionsResponse> {
    return this.#call('listAvailableRegions', params, undefined);
  }

  /**
   * Validate the API key in use and return its name, expiry, company and status.
   *
   * `GET /validate`
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  validateApiKey(): Promise<ValidateApiKeyResponse> {
    return this.#call('validateApiKey', undefined, undefined);
  }

  /**
   * List a domain's DNS records.
   *
   * `GET /domains/{domain_id}/dns-records`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listDnsRecords(params: ListDnsRecordsPathParams): Promise<ListDnsRecordsResponse> {
    return this.#call('listDnsRecords', params, undefined);
  }

  /**
   * Get a site.
   *
   * `GET /sites/{site_id}`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  getSite(params: GetSitePathParams): Promise<GetSiteResponse> {
    return this.#call('getSite', params, undefined);
  }

  /**
   * List a site's environments.
   *
   * `GET /sites/{site_id}/environments`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listEnvironments(params: ListEnvironmentsPathParams): Promise<ListEnvironmentsResponse> {
    return this.#call('listEnvironments', params, undefined);
  }

  /**
   * List an environment's backups.
   *
   * `GET /sites/environments/{env_id}/backups`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listBackups(params: ListBackupsPathParams): Promise<ListBackupsResponse> {
    return this.#call('listBackups', params, undefined);
  }

  /**
   * Get an environment's file tree.
   *
   * `GET /sites/environments/{env_id}/file-list`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  getFileList(params: GetFileListPathParams): Promise<GetFileListResponse> {
    return this.#call('getFileList', params, undefined);
  }

  /**
   * List an environment's plugins (deprecated; a newer plugins endpoint replaces it).
   *
   * `GET /sites/environments/{env_id}/plugins`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   * @deprecated `GET /sites/environments/{env_id}/plugins` is deprecated in favour of a newer plugins endpoint. Replacement: not shown (UNK-NEW-PLUGINS-ENDPOINT).
   */
  listPlugins(params: ListPluginsPathParams): Promise<ListPluginsResponse> {
    return this.#call('listPlugins', params, undefined);
  }

  /**
   * List an environment's themes; the request carries a JSON body.
   *
   * `GET /sites/environments/{env_id}/wp-themes`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listThemes(params: ListThemesPathParams, body: ListThemesRequest): Promise<ListThemesResponse> {
    return this.#call('listThemes', params, body);
  }

  /**
   * List an environment's additional SFTP accounts.
   *
   * `GET /sites/environments/{env_id}/additional-sftp-accounts`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  listAdditionalSftpAccounts(params: ListAdditionalSftpAccountsPathParams): Promise<ListAdditionalSftpAccountsResponse> {
    return this.#call('listAdditionalSftpAccounts', params, undefined);
  }

  /**
   * List the IP addresses allowed to connect by SFTP/SSH.
   *
   * `GET /sites/environments/{env_id}/ssh/get-allowed-ips`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  getSshAllowedIps(params: GetSshAllowedIpsPathParams): Promise<GetSshAllowedIpsResponse> {
    return this.#call('getSshAllowedIps', params, undefined);
  }

  /**
   * Tell whether SSH is enabled.
   *
   * `GET /sites/environments/{env_id}/ssh/get-status`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  getSshStatus(params: GetSshStatusPathParams): Promise<GetSshStatusResponse> {
    return this.#call('getSshStatus', params, undefined);
  }

  /**
   * Get the environment's SFTP password (a secret).
   *
   * `GET /sites/environments/{env_id}/ssh/password`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  getSftpPassword(params: GetSftpPasswordPathParams): Promise<GetSftpPasswordResponse> {
    return this.#call('getSftpPassword', params, undefined);
  }

  /**
   * Tell whether a site-admin user with an e-mail address exists.
   *
   * `GET /sites/environments/{env_id}/wpa-user-exists`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 404 (Could not find data or the user does not have permissions to retrieve it), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  checkWpAdminUserExists(params: CheckWpAdminUserExistsPathParams & CheckWpAdminUserExistsQuery): Promise<CheckWpAdminUserExistsResponse> {
    return this.#call('checkWpAdminUserExists', params, undefined);
  }

  /**
   * Clear an environment's CDN cache.
   *
   * `POST /sites/cdn/clear-cache`
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `cdn-cache:clear-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  clearCdnCache(body: ClearCdnCacheRequest): Promise<ClearCdnCacheResponse> {
    return this.#call('clearCdnCache', undefined, body);
  }

  /**
   * Switch edge caching on or off for an environment.
   *
   * `PUT /sites/edge-caching/status`
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `edge-cache:update-status-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  setEdgeCachingStatus(body: SetEdgeCachingStatusRequest): Promise<SetEdgeCachingStatusResponse> {
    return this.#call('setEdgeCachingStatus', undefined, body);
  }

  /**
   * Change a domain's DNS records: add the new values and remove the removed ones.
   *
   * `PUT /domains/{domain_id}/dns-records`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `domains:update-dns-record-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  updateDnsRecords(params: UpdateDnsRecordsPathParams, body: UpdateDnsRecordsRequest): Promise<UpdateDnsRecordsResponse> {
    return this.#call('updateDnsRecords', params, body);
  }

  /**
   * Search and replace in an environment's database.
   *
   * `POST /sites/tools/search-and-replace`
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `environments:search-and-replace-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  searchAndReplace(body: SearchAndReplaceRequest): Promise<SearchAndReplaceResponse> {
    return this.#call('searchAndReplace', undefined, body);
  }

  /**
   * Change an environment's webroot subfolder.
   *
   * `POST /sites/environments/{env_id}/change-webroot-subfolder`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `sites:change-webroot-subfolder-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  changeWebrootSubfolder(params: ChangeWebrootSubfolderPathParams, body: ChangeWebrootSubfolderRequest): Promise<ChangeWebrootSubfolderResponse> {
    return this.#call('changeWebrootSubfolder', params, body);
  }

  /**
   * Restore a backup into a target environment.
   *
   * `POST /sites/environments/{target_env_id}/backups/restore`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `backups:restore-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  restoreBackup(params: RestoreBackupPathParams, body: RestoreBackupRequest): Promise<RestoreBackupResponse> {
    return this.#call('restoreBackup', params, body);
  }

  /**
   * Run a WP-CLI command in an environment.
   *
   * `POST /sites/environments/{env_id}/run-wp-cli-command`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `environment:run-wp-cli-command-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  runWpCliCommand(params: RunWpCliCommandPathParams, body: RunWpCliCommandRequest): Promise<RunWpCliCommandResponse> {
    return this.#call('runWpCliCommand', params, body);
  }

  /**
   * Reset a site.
   *
   * `POST /sites/{site_id}/reset-site`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `sites:reset-site-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  resetSite(params: ResetSitePathParams, body: ResetSiteRequest): Promise<ResetSiteResponse> {
    return this.#call('resetSite', params, body);
  }

  /**
   * Remove an additional SFTP account.
   *
   * `DELETE /sites/environments/additional-sftp-accounts/{sftp_account_id}`
   * @param params Path and query parameters; path values are URL-encoded.
   * @returns The HTTP 202 acknowledgement; its `operation_id` is `sftp-accounts:remove-additional-sftp-account-<UUID>`.
   * @throws {ApiError} On any status outside 2xx; the document lists 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  removeAdditionalSftpAccount(params: RemoveAdditionalSftpAccountPathParams): Promise<RemoveAdditionalSftpAccountResponse> {
    return this.#call('removeAdditionalSftpAccount', params, undefined);
  }

  /**
   * Create a site-admin user.
   *
   * `POST /sites/environments/{env_id}/wpa-create-user`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  createWpAdminUser(params: CreateWpAdminUserPathParams, body: CreateWpAdminUserRequest): Promise<CreateWpAdminUserResponse> {
    return this.#call('createWpAdminUser', params, body);
  }

  /**
   * Change the SFTP/SSH access expiration interval.
   *
   * `POST /sites/environments/{env_id}/ssh/change-expiration-interval`
   * @param params Path and query parameters; path values are URL-encoded.
   * @param body Request body, sent as JSON.
   * @returns The success body, parsed.
   * @throws {ApiError} On any status outside 2xx; the document lists 400 (Bad request format), 401 (No or invalid API key provided), 500 (Error occurred while processing the request).
   * @throws {TransportError} When no answer arrives ({TimeoutError} after `timeoutMs`).
   */
  changeSshExpirationInterval(params: ChangeSshExpirationIntervalPathParams, body: ChangeSshExpirationIntervalRequest): Promise<ChangeSshExpirationIntervalResponse> {
    return this.#call('changeSshExpirationInterval', params, body);
  }

  /** One call: build the URL, exchange, then map the answer to a result or an error. */
  async #call<N extends EndpointName>(endpoint: N, params: object | undefined, body: unknown): Promise<Endpoints[N]['response']> {
    const route = routes[endpoint];
    const operation = `${route.method} ${route.path}`;
    // The typed parameter interfaces have no index signature; the route names the keys to read.
    const values = (params ?? {}) as Readonly<Record<string, unknown>>;
    const url = `${this.#baseUrl}${fillPath(route.path, values)}${queryString(route.queryParams, values)}`;
    const answer = await this.#exchange(endpoint, operation, route.method, url, body);
    if (answer.status < 200 || answer.status > 299) {
      const text = this.#redact(answer.text);
      throw new ApiError({ endpoint, operation, status: answer.status, body: asErrorBody(parseJson(text).value), text });
    }

    const parsed = parseJson(answer.text);
    if (!parsed.ok) {
      throw new ResponseValidationError({ endpoint, operation, status: answer.status, body: answer.text, problems: ['the body is not JSON'] });
    }

    if (this.#validateResponses) await this.#validate(endpoint, operation, answer.status, parsed.value);
    return parsed.value as Endpoints[N]['response'];
  }

  /** Sends the request and reads the whole answer under one deadline. */
  async #exchange(endpoint: EndpointName, operation: string, method: Dispatcher.HttpMethod, url: string, body: unknown): Promise<{ readonly status: number; readonly text: string; }> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        dispatcher: this.#dispatcher,
      });
      return { status: response.statusCode, text: await response.body.text() };
    } catch (error) {
      if (signal.aborted) throw new TimeoutError({ endpoint, operation, timeoutMs: this.#timeoutMs, cause: error });
      const reason = error instanceof Error ? error.message : String(error);
      throw new TransportError({ endpoint, operation, message: this.#redact(`${operation} failed: ${reason}`), code: errorCode(error), cause: error });
    }
  }

  async #validate(endpoint: EndpointName, operation: string, status: number, body: unknown): Promise<void> {
    this.#validators ??= import('./validators.js').then((module) => module.responseValidators);
    const validate = (await this.#validators)[endpoint];
    if (validate(body)) return;
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'}: ${e.message ?? e.keyword}`);
    throw new ResponseValidationError({ endpoint, operation, status, body, problems });
  }

  /** Cuts the API key out of text a server or the network stack produced. */
  #redact(text: string): string {
    return this.#apiKey ? text.split(this.#apiKey).join('[redacted]') : text;
  }
}
