import packageJson from '../../package.json' with { type: 'json' };
import { wordMessage } from './messages';

/**
 * The one version of the product: package.json's, written into every receipt as its engine version, printed
 * by `context-compiler --version` and shown in the app's glossary.
 */
export const ENGINE_VERSION: string = packageJson.version;

export const SCHEMA_VERSION = 'context-compiler/5';

/**
 * Why a receipt of another schema or engine version is `STALE_ENGINE_VERSION`: both versions, the receipt's and this
 * engine's.
 */
export function staleEngineDetail(receipt: {
  readonly schemaVersion: string;
  readonly engineVersion?: unknown;
}): string {
  return wordMessage('ENGINES_DIFFER', {
    receipt: typeof receipt.engineVersion === 'string' ? receipt.engineVersion : null,
    receiptSchema: receipt.schemaVersion,
    engine: ENGINE_VERSION,
    schema: SCHEMA_VERSION,
  });
}
