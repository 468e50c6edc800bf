import '../../src/shared/jitless-zod';
import { sha256InNode } from '../../src/lib/node-sha256';
import { createSqliteCompiler } from '../../src/adapters/sqlite/compiler';
import { contractSchema } from '../../src/core/format/contract';
import { parseRecordsJsonl } from '../../src/core/phases/1-validate/validate';
import { openInMemoryDatabase } from '../../src/sqlite/load-sqlite';
import { benchContract, type GeneratedCorpus } from '../generate-records';

export interface ToggleTargets {
  /** An optional entry of the compiled packet: denying it changes the admitted set. */
  readonly entering: string;
  /** A record no gate admits: denying it changes nothing the admission decides. */
  readonly outside: string;
}

/**
 * The two records the browser benchmark toggles, chosen as the Node benchmark chooses them, by compiling the
 * same corpus under the same contract in this process before the browser sees it.
 */
export async function toggleTargets(corpus: GeneratedCorpus, jsonl: string): Promise<ToggleTargets> {
  const parsed = parseRecordsJsonl(sha256InNode, 'bench.jsonl', jsonl);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const recordSet = parsed.value;
  const compiler = createSqliteCompiler(sha256InNode, await openInMemoryDatabase());
  compiler.index(recordSet);
  const result = await compiler.compile({
    contract: contractSchema.parse(benchContract(corpus.requiredIds)),
    recordSet,
  });
  if (!result.ok) throw new Error(result.error.message);
  const outcome = result.value;
  const required = new Set(corpus.requiredIds);
  const entering =
    outcome.status === 'packet' ? outcome.packet.entries.find((entry) => !required.has(entry.id))?.id : undefined;
  if (entering === undefined) throw new Error('the benchmark packet selected no optional record to toggle');
  const outside = recordSet.records.find((record) => !outcome.admitted.has(record.id))?.id;
  if (outside === undefined) throw new Error('the benchmark corpus has no record outside the admitted set to toggle');
  return { entering, outside };
}
