import type { Sha256 } from '../../core/fingerprints';
import { canonicalJson } from '../../core/canonical';
import type { Audience } from '../../core/disclosure';
import { packetWithManifest, serialiseReceipt } from '../../core/phases/7-attest/attest';
import { receiptStatement, serialiseStatement } from '../../core/statement';
import { serialiseUserView } from '../../core/user-view';
import type { Compilations } from '../compilations/compilations';
import type { ScenarioExport } from '../protocol';
import type { SessionTests } from '../suites/session-tests';
import type { Workspace } from '../workspace/workspace';

/**
 * The files the page downloads: of the last compilation (receipt, packet, statement, user view) and of the scenario in
 * force.
 */
export function createExports({
  sha256,
  workspace,
  compilations,
  tests,
}: {
  /** The SHA-256 the session's compiler hashes with. */
  readonly sha256: Sha256;
  readonly workspace: Workspace;
  readonly compilations: Compilations;
  readonly tests: SessionTests;
}) {
  return {
    receiptJson(): string | null {
      const last = compilations.last();
      return last ? serialiseReceipt(last.outcome.receipt) : null;
    },

    /**
     * The packet as JSON: its entries, the fingerprinted body and the copyable text. The diagnostic one is tied
     * to its receipt; the user view's carries no digest that covers a withheld record, and says which view it is.
     */
    packetJson(audience: Audience): string | null {
      const last = compilations.last();
      if (!last || last.outcome.status !== 'packet') return null;
      const { packet, receipt } = last.outcome;
      const common = {
        view: audience,
        packetFingerprint: receipt.packetFingerprint,
        contractFingerprint: receipt.contractFingerprint,
        tokensUsed: packet.tokensUsed,
        tokenBudget: packet.tokenBudget,
        entries: packet.entries,
        body: packet.body,
      };
      if (audience === 'user') {
        const userView = compilations.userViewOf(last);
        return canonicalJson({ ...common, userViewId: userView.id, text: userView.packetText });
      }
      return canonicalJson({ ...common, receiptId: receipt.receiptId, text: packetWithManifest(packet, receipt) });
    },

    /** The user view as a document (docs/FORMAT.md, "User-view export"); null before the first compilation. */
    userViewJson(): string | null {
      const last = compilations.last();
      return last ? serialiseUserView(compilations.userViewOf(last).document) : null;
    },

    statementJson(): string | null {
      const last = compilations.last();
      if (!last) return null;
      const { outcome } = last;
      return serialiseStatement(
        receiptStatement(
          sha256,
          outcome.receipt,
          outcome.status === 'packet' ? packetWithManifest(outcome.packet, outcome.receipt) : null,
        ),
      );
    },

    /**
     * The selected scenario as a scenario file that loads back to the same receipt: the contract in force
     * (with the user's edit), the records inline, and the scenario's controls, late changes and tour.
     */
    exportScenario(): ScenarioExport {
      const entry = workspace.currentEntry();
      const { scenario, recordSet } = workspace.effective(entry);
      const file = {
        id: scenario.id,
        title: scenario.title,
        description: scenario.description,
        contract: scenario.contract,
        records: recordSet.records,
        controls: scenario.controls,
        lateChanges: scenario.lateChanges,
        ...(scenario.tour ? { tour: scenario.tour } : {}),
        ...tests.exported(),
      };
      return {
        fileName: `${scenario.id}.scenario.json`,
        json: `${JSON.stringify(file, null, 2)}\n`,
        edited: workspace.value().contractEdits.has(entry.key),
      };
    },
  };
}
