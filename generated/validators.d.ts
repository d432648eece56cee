/*
 * generated from spec 1.106.0 — do not edit.
 * Written by generator/validators.ts (npm run generate); edit the model in spec/ or the generator instead.
 */
import type { Acknowledgement, AdditionalSftpAccount, ApiKey, Backup, ChangeSshExpirationIntervalRequest, ChangeSshExpirationIntervalResponse, ChangeWebrootSubfolderRequest, ChangeWebrootSubfolderResponse, CheckWpAdminUserExistsQuery, CheckWpAdminUserExistsResponse, ClearCdnCacheRequest, ClearCdnCacheResponse, CompanyUser, CreateWpAdminUserRequest, CreateWpAdminUserResponse, DnsRecord, Domain, Environment, ErrorBody, FileNode, GetFileListResponse, GetSftpPasswordResponse, GetSiteResponse, GetSshAllowedIpsResponse, GetSshStatusResponse, ListAdditionalSftpAccountsResponse, ListApiKeysResponse, ListAvailableRegionsResponse, ListBackupsResponse, ListCompanyUsersResponse, ListDnsRecordsResponse, ListEnvironmentsResponse, ListPluginsResponse, ListThemesRequest, ListThemesResponse, Plugin, Region, RemoveAdditionalSftpAccountResponse, ResetSiteRequest, ResetSiteResponse, ResourceRecordValue, RestoreBackupRequest, RestoreBackupResponse, RunWpCliCommandRequest, RunWpCliCommandResponse, SearchAndReplaceRequest, SearchAndReplaceResponse, SetEdgeCachingStatusRequest, SetEdgeCachingStatusResponse, Site, SiteEnvironmentSummary, Theme, UpdateDnsRecordsRequest, UpdateDnsRecordsResponse, ValidateApiKeyResponse, ValidatedKey } from './types.js';

/** One problem ajv found: where (`instancePath`), which schema keyword, and its parameters. */
export interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled schema: true when `data` conforms; otherwise `errors` says why. */
export interface Validator<T = unknown> {
  (data: unknown): data is T;
  errors?: ValidationError[] | null;
}

/** `#/$defs/Site` of schemas.json. */
export declare const validateSite: Validator<Site>;
/** `#/$defs/SiteEnvironmentSummary` of schemas.json. */
export declare const validateSiteEnvironmentSummary: Validator<SiteEnvironmentSummary>;
/** `#/$defs/Environment` of schemas.json. */
export declare const validateEnvironment: Validator<Environment>;
/** `#/$defs/Domain` of schemas.json. */
export declare const validateDomain: Validator<Domain>;
/** `#/$defs/ResourceRecordValue` of schemas.json. */
export declare const validateResourceRecordValue: Validator<ResourceRecordValue>;
/** `#/$defs/DnsRecord` of schemas.json. */
export declare const validateDnsRecord: Validator<DnsRecord>;
/** `#/$defs/Backup` of schemas.json. */
export declare const validateBackup: Validator<Backup>;
/** `#/$defs/Theme` of schemas.json. */
export declare const validateTheme: Validator<Theme>;
/** `#/$defs/Plugin` of schemas.json. */
export declare const validatePlugin: Validator<Plugin>;
/** `#/$defs/AdditionalSftpAccount` of schemas.json. */
export declare const validateAdditionalSftpAccount: Validator<AdditionalSftpAccount>;
/** `#/$defs/FileNode` of schemas.json. */
export declare const validateFileNode: Validator<FileNode>;
/** `#/$defs/ApiKey` of schemas.json. */
export declare const validateApiKeyRecord: Validator<ApiKey>;
/** `#/$defs/ValidatedKey` of schemas.json. */
export declare const validateValidatedKey: Validator<ValidatedKey>;
/** `#/$defs/CompanyUser` of schemas.json. */
export declare const validateCompanyUser: Validator<CompanyUser>;
/** `#/$defs/Region` of schemas.json. */
export declare const validateRegion: Validator<Region>;
/** `#/$defs/ErrorBody` of schemas.json. */
export declare const validateErrorBody: Validator<ErrorBody>;
/** `#/$defs/Acknowledgement` of schemas.json. */
export declare const validateAcknowledgement: Validator<Acknowledgement>;
/** `#/$defs/listCompanyUsers.response` of schemas.json. */
export declare const validateListCompanyUsersResponse: Validator<ListCompanyUsersResponse>;
/** `#/$defs/listApiKeys.response` of schemas.json. */
export declare const validateListApiKeysResponse: Validator<ListApiKeysResponse>;
/** `#/$defs/listAvailableRegions.response` of schemas.json. */
export declare const validateListAvailableRegionsResponse: Validator<ListAvailableRegionsResponse>;
/** `#/$defs/validateApiKey.response` of schemas.json. */
export declare const validateValidateApiKeyResponse: Validator<ValidateApiKeyResponse>;
/** `#/$defs/listDnsRecords.response` of schemas.json. */
export declare const validateListDnsRecordsResponse: Validator<ListDnsRecordsResponse>;
/** `#/$defs/getSite.response` of schemas.json. */
export declare const validateGetSiteResponse: Validator<GetSiteResponse>;
/** `#/$defs/listEnvironments.response` of schemas.json. */
export declare const validateListEnvironmentsResponse: Validator<ListEnvironmentsResponse>;
/** `#/$defs/listBackups.response` of schemas.json. */
export declare const validateListBackupsResponse: Validator<ListBackupsResponse>;
/** `#/$defs/getFileList.response` of schemas.json. */
export declare const validateGetFileListResponse: Validator<GetFileListResponse>;
/** `#/$defs/listPlugins.response` of schemas.json. */
export declare const validateListPluginsResponse: Validator<ListPluginsResponse>;
/** `#/$defs/listThemes.response` of schemas.json. */
export declare const validateListThemesResponse: Validator<ListThemesResponse>;
/** `#/$defs/listThemes.request` of schemas.json. */
export declare const validateListThemesRequest: Validator<ListThemesRequest>;
/** `#/$defs/listAdditionalSftpAccounts.response` of schemas.json. */
export declare const validateListAdditionalSftpAccountsResponse: Validator<ListAdditionalSftpAccountsResponse>;
/** `#/$defs/getSshAllowedIps.response` of schemas.json. */
export declare const validateGetSshAllowedIpsResponse: Validator<GetSshAllowedIpsResponse>;
/** `#/$defs/getSshStatus.response` of schemas.json. */
export declare const validateGetSshStatusResponse: Validator<GetSshStatusResponse>;
/** `#/$defs/getSftpPassword.response` of schemas.json. */
export declare const validateGetSftpPasswordResponse: Validator<GetSftpPasswordResponse>;
/** `#/$defs/checkWpAdminUserExists.response` of schemas.json. */
export declare const validateCheckWpAdminUserExistsResponse: Validator<CheckWpAdminUserExistsResponse>;
/** `#/$defs/checkWpAdminUserExists.query` of schemas.json. */
export declare const validateCheckWpAdminUserExistsQuery: Validator<CheckWpAdminUserExistsQuery>;
/** `#/$defs/clearCdnCache.response` of schemas.json. */
export declare const validateClearCdnCacheResponse: Validator<ClearCdnCacheResponse>;
/** `#/$defs/clearCdnCache.request` of schemas.json. */
export declare const validateClearCdnCacheRequest: Validator<ClearCdnCacheRequest>;
/** `#/$defs/setEdgeCachingStatus.response` of schemas.json. */
export declare const validateSetEdgeCachingStatusResponse: Validator<SetEdgeCachingStatusResponse>;
/** `#/$defs/setEdgeCachingStatus.request` of schemas.json. */
export declare const validateSetEdgeCachingStatusRequest: Validator<SetEdgeCachingStatusRequest>;
/** `#/$defs/updateDnsRecords.response` of schemas.json. */
export declare const validateUpdateDnsRecordsResponse: Validator<UpdateDnsRecordsResponse>;
/** `#/$defs/updateDnsRecords.request` of schemas.json. */
export declare const validateUpdateDnsRecordsRequest: Validator<UpdateDnsRecordsRequest>;
/** `#/$defs/searchAndReplace.response` of schemas.json. */
export declare const validateSearchAndReplaceResponse: Validator<SearchAndReplaceResponse>;
/** `#/$defs/searchAndReplace.request` of schemas.json. */
export declare const validateSearchAndReplaceRequest: Validator<SearchAndReplaceRequest>;
/** `#/$defs/changeWebrootSubfolder.response` of schemas.json. */
export declare const validateChangeWebrootSubfolderResponse: Validator<ChangeWebrootSubfolderResponse>;
/** `#/$defs/changeWebrootSubfolder.request` of schemas.json. */
export declare const validateChangeWebrootSubfolderRequest: Validator<ChangeWebrootSubfolderRequest>;
/** `#/$defs/restoreBackup.response` of schemas.json. */
export declare const validateRestoreBackupResponse: Validator<RestoreBackupResponse>;
/** `#/$defs/restoreBackup.request` of schemas.json. */
export declare const validateRestoreBackupRequest: Validator<RestoreBackupRequest>;
/** `#/$defs/runWpCliCommand.response` of schemas.json. */
export declare const validateRunWpCliCommandResponse: Validator<RunWpCliCommandResponse>;
/** `#/$defs/runWpCliCommand.request` of schemas.json. */
export declare const validateRunWpCliCommandRequest: Validator<RunWpCliCommandRequest>;
/** `#/$defs/resetSite.response` of schemas.json. */
export declare const validateResetSiteResponse: Validator<ResetSiteResponse>;
/** `#/$defs/resetSite.request` of schemas.json. */
export declare const validateResetSiteRequest: Validator<ResetSiteRequest>;
/** `#/$defs/removeAdditionalSftpAccount.response` of schemas.json. */
export declare const validateRemoveAdditionalSftpAccountResponse: Validator<RemoveAdditionalSftpAccountResponse>;
/** `#/$defs/createWpAdminUser.response` of schemas.json. */
export declare const validateCreateWpAdminUserResponse: Validator<CreateWpAdminUserResponse>;
/** `#/$defs/createWpAdminUser.request` of schemas.json. */
export declare const validateCreateWpAdminUserRequest: Validator<CreateWpAdminUserRequest>;
/** `#/$defs/changeSshExpirationInterval.response` of schemas.json. */
export declare const validateChangeSshExpirationIntervalResponse: Validator<ChangeSshExpirationIntervalResponse>;
/** `#/$defs/changeSshExpirationInterval.request` of schemas.json. */
export declare const validateChangeSshExpirationIntervalRequest: Validator<ChangeSshExpirationIntervalRequest>;
/** The resource validators, keyed by resource name. */
export declare const resourceValidators: {
  readonly Site: Validator<Site>;
  readonly SiteEnvironmentSummary: Validator<SiteEnvironmentSummary>;
  readonly Environment: Validator<Environment>;
  readonly Domain: Validator<Domain>;
  readonly ResourceRecordValue: Validator<ResourceRecordValue>;
  readonly DnsRecord: Validator<DnsRecord>;
  readonly Backup: Validator<Backup>;
  readonly Theme: Validator<Theme>;
  readonly Plugin: Validator<Plugin>;
  readonly AdditionalSftpAccount: Validator<AdditionalSftpAccount>;
  readonly FileNode: Validator<FileNode>;
  readonly ApiKey: Validator<ApiKey>;
  readonly ValidatedKey: Validator<ValidatedKey>;
  readonly CompanyUser: Validator<CompanyUser>;
  readonly Region: Validator<Region>;
  readonly ErrorBody: Validator<ErrorBody>;
  readonly Acknowledgement: Validator<Acknowledgement>;
};
/** The response validators, keyed by endpoint name. */
export declare const responseValidators: {
  readonly listCompanyUsers: Validator<ListCompanyUsersResponse>;
  readonly listApiKeys: Validator<ListApiKeysResponse>;
  readonly listAvailableRegions: Validator<ListAvailableRegionsResponse>;
  readonly validateApiKey: Validator<ValidateApiKeyResponse>;
  readonly listDnsRecords: Validator<ListDnsRecordsResponse>;
  readonly getSite: Validator<GetSiteResponse>;
  readonly listEnvironments: Validator<ListEnvironmentsResponse>;
  readonly listBackups: Validator<ListBackupsResponse>;
  readonly getFileList: Validator<GetFileListResponse>;
  readonly listPlugins: Validator<ListPluginsResponse>;
  readonly listThemes: Validator<ListThemesResponse>;
  readonly listAdditionalSftpAccounts: Validator<ListAdditionalSftpAccountsResponse>;
  readonly getSshAllowedIps: Validator<GetSshAllowedIpsResponse>;
  readonly getSshStatus: Validator<GetSshStatusResponse>;
  readonly getSftpPassword: Validator<GetSftpPasswordResponse>;
  readonly checkWpAdminUserExists: Validator<CheckWpAdminUserExistsResponse>;
  readonly clearCdnCache: Validator<ClearCdnCacheResponse>;
  readonly setEdgeCachingStatus: Validator<SetEdgeCachingStatusResponse>;
  readonly updateDnsRecords: Validator<UpdateDnsRecordsResponse>;
  readonly searchAndReplace: Validator<SearchAndReplaceResponse>;
  readonly changeWebrootSubfolder: Validator<ChangeWebrootSubfolderResponse>;
  readonly restoreBackup: Validator<RestoreBackupResponse>;
  readonly runWpCliCommand: Validator<RunWpCliCommandResponse>;
  readonly resetSite: Validator<ResetSiteResponse>;
  readonly removeAdditionalSftpAccount: Validator<RemoveAdditionalSftpAccountResponse>;
  readonly createWpAdminUser: Validator<CreateWpAdminUserResponse>;
  readonly changeSshExpirationInterval: Validator<ChangeSshExpirationIntervalResponse>;
};
/** The request validators, keyed by endpoint name. */
export declare const requestValidators: {
  readonly listThemes: Validator<ListThemesRequest>;
  readonly clearCdnCache: Validator<ClearCdnCacheRequest>;
  readonly setEdgeCachingStatus: Validator<SetEdgeCachingStatusRequest>;
  readonly updateDnsRecords: Validator<UpdateDnsRecordsRequest>;
  readonly searchAndReplace: Validator<SearchAndReplaceRequest>;
  readonly changeWebrootSubfolder: Validator<ChangeWebrootSubfolderRequest>;
  readonly restoreBackup: Validator<RestoreBackupRequest>;
  readonly runWpCliCommand: Validator<RunWpCliCommandRequest>;
  readonly resetSite: Validator<ResetSiteRequest>;
  readonly createWpAdminUser: Validator<CreateWpAdminUserRequest>;
  readonly changeSshExpirationInterval: Validator<ChangeSshExpirationIntervalRequest>;
};
/** The query validators, keyed by endpoint name. */
export declare const queryValidators: {
  readonly checkWpAdminUserExists: Validator<CheckWpAdminUserExistsQuery>;
};
