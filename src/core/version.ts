import { version } from '../../package.json';

/**
 * The one version of the product: package.json's, written into every receipt as its engine version, printed
 * by `context-compiler --version` and shown in the app's glossary. A bundler inlines the one field.
 */
export const ENGINE_VERSION: string = version;
