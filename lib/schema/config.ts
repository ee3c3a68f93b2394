/** The bodies of `/config/*`: what this server is and offers (lib/endpoints/config*.ts). */
import * as t from 'io-ts';
import { component } from '../openapi/jsonSchema.ts';
import { emptyList, Integer, nullable } from './scalars.ts';

export const BackendVersion = t.type({ backend_version: nullable(t.string) });

export const BackendConfig = t.type({ chain_type: nullable(t.string), openapi_spec_folder_name: nullable(t.string) });

export const IndexerConfig = t.type({
  indexer_enabled: t.boolean,
  internal_transactions_fetcher_enabled: t.boolean,
  pending_transactions_fetcher_enabled: t.boolean,
  block_reward_fetcher_enabled: t.boolean,
  token_instance_retry_fetcher_enabled: t.boolean,
  token_instance_sanitize_fetcher_enabled: t.boolean,
});

export const CsvExportConfig = t.type({ limit: Integer, async_enabled: t.boolean });

export const PublicMetricsConfig = t.type({ update_period_hours: Integer });

export const BackgroundMigrations = t.type({ migrations: emptyList('schema migrations run when a store opens, before it serves; none runs in the background') });

/** Blockscout's smart-contract languages. */
export const Language = component('Language', t.keyof({ solidity: null, vyper: null, yul: null, geas: null }));

export const SmartContractLanguages = t.type({ languages: t.array(Language) });
