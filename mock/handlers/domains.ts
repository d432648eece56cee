/** Tag group Domains: DNS records, read and update. */
import type { DnsRecord } from '../../generated/types.ts';
import { notFound } from '../errors.ts';
import type { Context, HandlerGroup } from '../handler.ts';

function ownDomain(context: Context<'listDnsRecords' | 'updateDnsRecords'>) {
  const domain = context.store.domain(context.company.id, context.params.domain_id);
  if (!domain) throw notFound('domain');
  return domain;
}

/**
 * §Endpoints > Behaviours: "The DNS update adds the records named in `new_resource_records` and
 * removes those in `removed_resource_records`", on the record of that type and name. A record
 * left without values disappears; one that does not exist yet is created with the given TTL.
 */
function applyDnsUpdate(records: DnsRecord[], update: Context<'updateDnsRecords'>['body']): void {
  const { type, name, ttl } = update;
  if (type === undefined || name === undefined) return;
  let record = records.find((r) => r.type === type && r.name === name);
  if (!record) {
    record = { type, name, ttl: ttl ?? 3600, resource_records: [] };
    records.push(record);
  }
  if (ttl !== undefined) record.ttl = ttl;
  const removed = new Set((update.removed_resource_records ?? []).map((r) => r.value));
  record.resource_records = record.resource_records.filter((r) => !removed.has(r.value));
  for (const { value } of update.new_resource_records ?? []) {
    if (!record.resource_records.some((r) => r.value === value)) record.resource_records.push({ value });
  }
  if (record.resource_records.length === 0) records.splice(records.indexOf(record), 1);
}

export const domainHandlers: HandlerGroup<'listDnsRecords' | 'updateDnsRecords'> = {
  listDnsRecords: (context) => ({ domain: { dns_records: ownDomain(context).dnsRecords } }),
  updateDnsRecords: (context) => {
    const domain = ownDomain(context);
    applyDnsUpdate(domain.dnsRecords, context.body);
    return context.acknowledge(domain.id, context.body);
  },
};
