/**
 * Type-level tests of generated/types.ts and generated/client.ts: `npx tsc -p .` checks this file
 * (tsconfig includes generator/); nothing here runs. Each `@ts-expect-error` fails the type check
 * if the line below it ever compiles, so wrong calls stay wrong and right calls stay right.
 */
import type { HostedSiteClient } from '../generated/client.ts';
import type {
  Acknowledgement,
  ChangeSshExpirationIntervalRequest,
  ClearCdnCacheResponse,
  EndpointName,
  Endpoints,
  FileNode,
  ListThemesRequest,
  OperationKind,
  RunWpCliCommandRequest,
  Site,
} from '../generated/types.ts';

const uuid = '0b7c2a53-3c1e-4d5e-9f7a-1a2b3c4d5e6f';

export async function requestBodies(client: HostedSiteClient): Promise<void> {
  // Right: the document's fields with the document's types.
  await client.runWpCliCommand({ env_id: uuid }, { wp_command: 'wp plugin list' });
  await client.clearCdnCache({ environment_id: uuid, cdn_cache_id: uuid });
  await client.listThemes({ env_id: uuid }, { status: 'active', column: 'name' });
  await client.checkWpAdminUserExists({ env_id: uuid, email: 'admin@example.com' });
  await client.changeSshExpirationInterval({ env_id: uuid }, { exp_interval: 'days_7' });
  // Fields whose marking is "not shown" are optional.
  await client.setEdgeCachingStatus({ enabled: true });

  // @ts-expect-error wp_command is a string
  await client.runWpCliCommand({ env_id: uuid }, { wp_command: 5 });
  // @ts-expect-error cdn_cache_id is required (§Endpoints: "`cdn_cache_id` string, required")
  await client.clearCdnCache({ environment_id: uuid });
  // @ts-expect-error exp_interval is required
  await client.changeSshExpirationInterval({ env_id: uuid }, {});
  // @ts-expect-error the themes list takes its JSON body as an argument
  await client.listThemes({ env_id: uuid });
  // @ts-expect-error env_id is a path parameter of runWpCliCommand
  await client.runWpCliCommand({}, { wp_command: 'wp plugin list' });
  // @ts-expect-error the e-mail query parameter is required
  await client.checkWpAdminUserExists({ env_id: uuid });
  // @ts-expect-error no endpoint of that name
  await client.deleteSite({ site_id: uuid });
  // @ts-expect-error enabled is a boolean
  await client.setEdgeCachingStatus({ environment_id: uuid, enabled: 'yes' });
}

export async function responses(client: HostedSiteClient): Promise<void> {
  // Right: an acknowledgement carries its own kind; status is exactly 202.
  const cleared: Acknowledgement<'cdn-cache:clear'> = await client.clearCdnCache({ environment_id: uuid, cdn_cache_id: uuid });
  const id: `cdn-cache:clear-${string}` = cleared.operation_id;
  const status: 202 = cleared.status;
  const anyAck: Acknowledgement = cleared;

  // @ts-expect-error a CDN clear is not acknowledged as a site reset
  const wrongKind: Acknowledgement<'sites:reset-site'> = await client.clearCdnCache({ environment_id: uuid, cdn_cache_id: uuid });
  // @ts-expect-error an operation id of another kind
  const wrongId: ClearCdnCacheResponse = { operation_id: `sites:reset-site-${uuid}`, message: 'in progress', status: 202 };
  // @ts-expect-error not a kind of the document's table
  const unknownKind: OperationKind = 'sites:create';
  // @ts-expect-error acknowledgements answer 202
  const wrongStatus: ClearCdnCacheResponse = { operation_id: `cdn-cache:clear-${uuid}`, message: 'in progress', status: 200 };

  // Right: read bodies are typed to the leaf.
  const site = await client.getSite({ site_id: uuid });
  const live: Site['status'] = site.site.status;
  const enabled: boolean = (await client.getSshStatus({ env_id: uuid })).environment.active_container.is_ssh_enabled;
  const result: null = (await client.changeSshExpirationInterval({ env_id: uuid }, { exp_interval: 'days_7' })).result;
  // Children are absent on leaves, so they are optional.
  const leaf: FileNode = { name: 'index.php', path: 'index.php' };

  // @ts-expect-error getSite answers { site }, not the Site itself
  const notASite: Site = site;

  void [id, status, anyAck, wrongKind, wrongId, unknownKind, wrongStatus, live, enabled, result, leaf, notASite];
}

export function openValues(): void {
  // Right: known values complete, and other strings are accepted, as the full sets are not shown.
  const known: Site['status'] = 'live';
  const other: Site['status'] = 'suspended';
  const interval: ChangeSshExpirationIntervalRequest['exp_interval'] = 'days_30';
  const themes: ListThemesRequest = {};
  // @ts-expect-error still a string
  const notString: Site['status'] = 1;
  // @ts-expect-error wp_command is a string
  const command: RunWpCliCommandRequest = { wp_command: ['wp'] };
  void [known, other, interval, themes, notString, command];
}

export function endpointMap(): void {
  const name: EndpointName = 'listThemes';
  const method: Endpoints['listThemes']['method'] = 'GET';
  const body: Endpoints['listThemes']['request'] = { column: 'name' };
  const noBody: Endpoints['getSite']['request'] = undefined;
  const errors: Endpoints['getSftpPassword']['errors'][] = [400, 401, 404];
  // @ts-expect-error unknown endpoint name
  const unknown: EndpointName = 'deleteSite';
  // @ts-expect-error the password read does not list 500 (§Errors)
  const notListed: Endpoints['getSftpPassword']['errors'] = 500;
  void [name, method, body, noBody, errors, unknown, notListed];
}
