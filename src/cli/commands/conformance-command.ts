import type { ParseArgsConfig } from 'node:util';
import { postgresUnderTest, referenceCompile } from '../../adapters/conformance/adapters';
import { runErrorSemantics } from '../../adapters/conformance/error-semantics';
import { runConformanceSuite, type SuiteFinding } from '../../adapters/conformance/conformance-suite';
import { probeCapabilities } from '../../adapters/postgres/postgres-adapter';
import { connect, describeDatabase, type Connection } from '../../adapters/postgres/connect';
import { DEFAULT_SCHEMA } from '../../adapters/postgres/schema';
import { createUnicodeTokeniser } from '../../adapters/postgres/unicode61';
import { CAPABILITIES } from '../../core/phases/4-admit/adapter';
import { EXIT } from '../command';
import { inScratchSchema } from '../database';
import { defineCommand } from '../define-command';
import { noPositionals } from '../options';

const options = {
  database: { type: 'string' },
  schema: { type: 'string', default: 'context_compiler_conformance' },
} as const satisfies ParseArgsConfig['options'];

function line(finding: SuiteFinding): string {
  return `${finding.passed ? 'pass' : 'FAIL'}  ${finding.section.padEnd(11)} ${finding.what.replaceAll('\n', '\n                  ')}\n`;
}

export const conformanceCommand = defineCommand({
  name: 'conformance',
  summary: 'run the adapter conformance suite against a PostgreSQL server and print its capability report',
  usage: `usage: context-compiler conformance --database postgres://… [--schema NAME]
options:
  --database TARGET  the server to certify (a URL, key=value string or env: see load --help) (the user needs CREATE on the database)
  --schema NAME   a scratch schema, created, filled with generated cases and dropped (default context_compiler_conformance);
                  never the schema your records are loaded in
Prints which gate semantics the server preserves, then runs every generated case through the PostgreSQL
adapter and the reference evaluator, the mutants, and the error semantics (a timeout, a dropped connection,
a partial result, an unsupported operator).
exit: 0 every check passed · 2 a check failed (do not compile against this server) · 1 usage or connection`,
  options,
  positionals: noPositionals,
  async run({ values: { database: url, schema }, usageError }, io) {
    if (url === undefined) return usageError('GIVE_OPTIONS', { options: ['--database'] });
    if (schema === DEFAULT_SCHEMA) return usageError('SCRATCH_SCHEMA', { schema: DEFAULT_SCHEMA });
    return inScratchSchema(url, schema, io, async (database) => {
      const open = async (): Promise<Connection> => {
        const again = await connect(url, schema);
        if (!again.ok) throw new Error(again.error.message);
        return again.value;
      };
      io.stdout(`capabilities of ${describeDatabase(url)}:\n`);
      const probes = await probeCapabilities(database);
      for (const probe of probes)
        io.stdout(
          `  ${probe.kept ? 'kept' : 'LOST'}  ${probe.capability.padEnd(24)} ${CAPABILITIES[probe.capability]}\n ` +
            `       ${''.padEnd(24)} ${probe.evidence}\n`,
        );
      const tokeniser = createUnicodeTokeniser();
      const findings: SuiteFinding[] = probes.map((probe) => ({
        section: 'capabilities',
        adapter: 'postgresql',
        passed: probe.kept,
        what: `${probe.capability} ${probe.kept ? 'kept' : 'lost'}`,
      }));
      if (findings.every((finding) => finding.passed)) {
        for (const finding of await runConformanceSuite(
          [postgresUnderTest(database, tokeniser)],
          await referenceCompile(),
        ))
          findings.push(finding);
        for (const finding of await runErrorSemantics(database, open, tokeniser)) findings.push(finding);
      }
      io.stdout('\n');
      for (const finding of findings.filter((item) => item.section !== 'capabilities')) io.stdout(line(finding));
      const failed = findings.filter((finding) => !finding.passed).length;
      io.stdout(
        failed === 0
          ? 'conformance: every check passed; this server may serve compiles\n'
          : `conformance: ${failed} check(s) failed; do not compile against this server\n`,
      );
      return failed === 0 ? EXIT.ok : EXIT.failClosed;
    });
  },
});
