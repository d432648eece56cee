/** Tag groups Company Users, API Keys, Available Regions and Authentication. */
import { notFound } from '../errors.ts';
import type { Context, HandlerGroup } from '../handler.ts';

/** §Authentication 4: another company's id reads as data that does not exist. */
function ownCompany(context: Context<'listCompanyUsers' | 'listApiKeys' | 'listAvailableRegions'>) {
  const company = context.store.company(context.company.id, context.params.id);
  if (!company) throw notFound('company');
  return company;
}

export const companyHandlers: HandlerGroup<'listCompanyUsers' | 'listApiKeys' | 'listAvailableRegions' | 'validateApiKey'> = {
  listCompanyUsers: (context) => ({ company: { users: ownCompany(context).users } }),
  listApiKeys: (context) => ({ api_keys: ownCompany(context).apiKeys }),
  listAvailableRegions: (context) => ({ company: { available_regions: ownCompany(context).regions } }),
  validateApiKey: ({ company }) => ({
    name: company.apiKeyName,
    expires_at: String(company.apiKeyExpiresAt),
    company: company.id,
    status: 'active',
  }),
};
