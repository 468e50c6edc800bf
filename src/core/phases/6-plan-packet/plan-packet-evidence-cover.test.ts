import { sha256 } from '../../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../../adapters/sqlite/compiler';
import { buildContract, buildRecord, buildRecordSet } from '../../test-support/builders';
import { freshDriver } from '../../test-support/node-driver';

describe('evidence planning under a tight budget', () => {
  it('covers every proposition before a second record for a covered one', async () => {
    const contract = buildContract({
      query: 'refund policy limit',
      typedEvidenceOnly: true,
      tokenBudget: 20,
      requiredPropositions: [
        { id: 'refund_limit', acceptedClasses: ['policy_clause'] },
        { id: 'refund_window', acceptedClasses: ['policy_clause'] },
      ],
    });
    const limit = (id: string) =>
      buildRecord({
        id,
        text: 'refund policy limit refund policy limit',
        evidence: { class: 'policy_clause', supports: ['refund_limit'] },
      });
    const records = [
      limit('limit-a'),
      limit('limit-b'),
      limit('limit-c'),
      buildRecord({
        id: 'window',
        text: 'refund window of thirty days',
        evidence: { class: 'policy_clause', supports: ['refund_window'] },
      }),
    ];
    const outcome = await createSqliteCompiler(sha256, await freshDriver()).compile({
      contract,
      recordSet: buildRecordSet(records),
    });
    if (!outcome.ok || outcome.value.status !== 'packet') throw new Error('expected a packet');
    expect(outcome.value.packet.entries.map((entry) => entry.id)).toEqual(['limit-a', 'window']);
    expect(outcome.value.decisionBlockedBy).toEqual([]);
    expect(outcome.value.evidence.find((slot) => slot.proposition === 'refund_limit')?.displaced).toEqual([
      'limit-b',
      'limit-c',
    ]);
  });
});
