import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchemaFiles, SCHEMA_FOLDER } from '../../scripts/generate-schema';
import { FACTS } from '../core/reasons';

describe('public/schema', () => {
  const rendered = renderSchemaFiles();

  it.each([...rendered.keys()])('%s equals what `npm run schema` generates from the zod schemas', (file) => {
    expect(
      readFileSync(`${SCHEMA_FOLDER}${file}`, 'utf8'),
      `public/schema/${file} is out of date: run npm run schema`,
    ).toBe(rendered.get(file));
  });

  it('holds no schema file the generator does not write', () => {
    expect(readdirSync(SCHEMA_FOLDER).sort()).toEqual([...rendered.keys()].sort());
  });

  it('lets a record omit fields that have defaults, requires subject, and still forbids unknown fields', () => {
    const record = JSON.parse(rendered.get('record.schema.json') ?? '{}') as {
      required: string[];
      additionalProperties: boolean;
    };
    expect(record.required).toContain('subject');
    expect(record.required).not.toContain('provenance');
    expect(record.required).toContain('knownAt');
    expect(record.additionalProperties).toBe(false);
  });
});

describe('docs/FORMAT.md', () => {
  it('lists every fact of the catalogue with its wording, exactly as the catalogue has it', () => {
    const format = readFileSync(new URL('../../docs/FORMAT.md', import.meta.url), 'utf8');
    for (const [id, entry] of Object.entries(FACTS)) expect(format, id).toContain(`| \`${id}\` | ${entry.template} |`);
  });
});
