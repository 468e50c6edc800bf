/**
 * The published JSON Schemas name themselves by file (`"$id": "contract.schema.json"`), which is all the package
 * needs. On the site they are published at an address editors can fetch, so a build for the site rewrites each
 * `$id` to that address; the `$ref`s inside are document-local (`#/$defs/...`) and resolve the same either way.
 */
export function withSiteId(schemaText: string, file: string, siteUrl: string): string {
  const base = siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`;
  const schema = JSON.parse(schemaText) as Record<string, unknown>;
  if (schema.$id !== file) throw new Error(`${file}: its $id is ${JSON.stringify(schema.$id)}, not its own file name`);
  return `${JSON.stringify({ ...schema, $id: new URL(`schema/${file}`, base).href }, null, 2)}\n`;
}
