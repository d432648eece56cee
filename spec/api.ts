/**
 * The Hosted Site Management API v2, spec version 1.106.0, as one typed value. Source of truth:
 * `../shared/spec/hosted-site-api.md`; the model follows its copy in `spec/document/`, which
 * `generate --check` keeps equal to it. Every entry cites its section.
 */
import { endpoints } from './endpoints.ts';
import { assumptions, conflicts, ERRORS_TABLE, unknowns } from './gaps.ts';
import { apiIdentity } from './identity.ts';
import type { Api } from './model.ts';
import { resources } from './resources.ts';
import { rules } from './rules.ts';

export const api = {
  ...apiIdentity,
  document: 'hosted-site-api.md',
  auth: {
    scheme: 'bearer',
    header: 'Authorization',
    owner: 'company',
    cite: { section: 'Authentication', quote: 'Every endpoint requires the header `Authorization: Bearer <API_KEY>`' },
  },
  errorTable: ERRORS_TABLE,
  tagGroups: [
    'Company Users',
    'Domains',
    'Available Regions',
    'API Keys',
    'Activity Logs',
    'Site management',
    'Site Environments',
    'Site Tools',
    'Site Themes & Plugins',
    'Site Domains',
    'Edge Caching',
    'CDN',
    'Backups',
    'Logs',
    'Additional SFTP Users',
    'Analytics',
    'Operations',
    'Authentication',
  ],
  resources,
  endpoints,
  rules,
  unknowns,
  assumptions,
  conflicts,
  errorMeanings: [
    { status: 400, meaning: 'Bad request format', condition: 'Malformed or invalid request' },
    { status: 401, meaning: 'No or invalid API key provided', condition: 'Missing or invalid bearer key' },
    { status: 404, meaning: 'Could not find data or the user does not have permissions to retrieve it', condition: 'Unknown resource or no permission' },
    { status: 500, meaning: 'Error occurred while processing the request', condition: 'Server-side failure' },
  ],
} as const satisfies Api;
