/** Tag group Domains: DNS records, read and update. */
import { notFound } from '../errors.ts';
import type { Context, HandlerGroup } from '../handler.ts';

function ownDomain(context: Context<'listDnsRecords' | 'updateDnsRecords'>) {
  const domain = context.store.domain(context.company.id, context.params.domain_id);
  if (!domain) throw notFound('domain');
  return domain;
}

export const domainHandlers: HandlerGroup<'listDnsRecords' | 'updateDnsRecords'> = {
  listDnsRecords: (context) => ({ domain: { dns_records: ownDomain(context).dnsRecords } }),
  updateDnsRecords: (context) => {
    const domain = ownDomain(context);
    context.store.updateDnsRecords(domain, context.body);
    return context.acknowledge(domain.id, context.body);
  },
};
