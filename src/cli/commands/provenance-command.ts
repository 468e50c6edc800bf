import { sha256InNode } from '../../lib/node-sha256';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { err, formatIssue, ok } from '../../core/errors';
import { authorProvenance } from '../../core/provenance-authoring';
import { EXIT } from '../command';
import { defineCommand } from '../define-command';
import type { PositionalRule } from '../options';
import { fileError, unreadable } from '../read-file';
import { reportError } from '../render';

const options = {
  write: { type: 'boolean', default: false },
  check: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

const oneRecordsFile: PositionalRule<string> = ([file, ...rest]) =>
  file !== undefined && rest.length === 0 ? ok(file) : err({ code: 'GIVE_ONE_RECORDS_FILE', args: {} });

export const provenanceCommand = defineCommand({
  name: 'provenance',
  summary: 'authoring: check or fill provenance.contentHash in your own records file',
  usage: `usage: context-compiler provenance RECORDS.jsonl [--check | --write]
For authoring your own records. --check (the default) lists every record whose provenance.contentHash is
missing or is not the sha256 of its text; --write fills those hashes in the file, keeping every other
line as it was. A hash asserts that the record's text is what its provenance origin holds, which is what
the provenance gate trusts: fill it only for records you wrote, never to let a corpus you did not write
pass that gate. A record without a provenance origin is left alone and reported.
exit: 0 every hash matches (--write: every hash could be filled) · 1 a hash is missing or wrong, or a line
cannot be read, or usage`,
  options,
  positionals: oneRecordsFile,
  async run({ values, positionals: file, usageError }, io) {
    if (values.write && values.check) return usageError('CHECK_OR_WRITE');
    const path = resolve(io.cwd, file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      reportError(io, fileError(file, unreadable(file, error)));
      return EXIT.invalid;
    }
    const authored = authorProvenance(sha256InNode, file, text);
    for (const issue of authored.unfillable) io.stderr(`${formatIssue(issue)}\n`);
    if (values.write) {
      if (authored.filled.length > 0) await writeFile(path, authored.text);
      io.stdout(
        `${file}: ${authored.records} records; filled ${authored.filled.length} hashes, ${authored.matching} ` +
          `already matched, ${authored.unfillable.length} left alone\n`,
      );
      return authored.unfillable.length === 0 ? EXIT.ok : EXIT.invalid;
    }
    for (const issue of authored.filled) io.stdout(`${formatIssue(issue)}\n`);
    io.stdout(
      `${file}: ${authored.records} records; ${authored.matching} hashes match, ${authored.filled.length} ` +
        `missing or wrong, ${authored.unfillable.length} cannot be checked\n`,
    );
    return authored.filled.length === 0 && authored.unfillable.length === 0 ? EXIT.ok : EXIT.invalid;
  },
});
