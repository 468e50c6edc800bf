import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { discloseOutcome } from '../../core/disclosure';
import { factContextOf, renderFact } from '../../core/reasons';
import { packetWithManifest, serialiseReceipt } from '../../core/passes/attest';
import { receiptStatement, serialiseStatement } from '../../core/statement';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { createCompiler } from '../../core/compile';
import { EXIT, type CliCommand } from '../command';
import { loadInputs } from '../load-inputs';
import { audienceSchema, inputOptionSpec, parseCommandArgs } from '../options';
import { renderError, renderOutcome } from '../render';

const options = {
  ...inputOptionSpec,
  packet: { type: 'boolean', default: false },
  'receipt-out': { type: 'string' },
  'packet-out': { type: 'string' },
  'statement-out': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const compileCommand: CliCommand = {
  name: 'compile',
  summary: 'compile a scenario (default: retry-policy) or records + contract into a packet and receipt',
  usage: `usage: context-compiler compile [--scenario ID|PATH] [--control ID]... [--late-change ID]...
       context-compiler compile --records FILE.jsonl --contract FILE.json
options:
  --scenario ID|PATH   a built-in scenario id (retry-policy, atlas-credit-review, refund-desk) or a scenario file
  --control ID         switch on one of the scenario's controls (repeatable)
  --late-change ID     apply one of the scenario's declared late changes (repeatable)
  --view user|diagnostic  user hides records excluded for authorisation or deny reasons (default diagnostic)
  --packet             print the packet text with its manifest header
  --json               print the result as JSON
  --receipt-out FILE   write the receipt (canonical JSON)
  --packet-out FILE    write the packet text with its manifest header
  --statement-out FILE write the receipt as an in-toto Statement v1 (subjects: the packet text, the record set)
exit: 0 packet emitted · 2 fail-closed, no packet · 1 invalid input or usage`,
  async run(args, io) {
    const parsed = parseCommandArgs(args, options);
    if (!parsed.ok) {
      io.stderr(`${parsed.message}\n${this.usage}\n`);
      return EXIT.invalid;
    }
    const { values, positionals } = parsed.value;
    if (values.help) {
      io.stdout(`${this.usage}\n`);
      return EXIT.ok;
    }
    const audience = audienceSchema.safeParse(values.view);
    if (positionals.length > 0 || !audience.success) {
      io.stderr(`${positionals.length > 0 ? `unexpected argument ${positionals[0]}` : `--view must be user or diagnostic, not ${values.view}`}\n${this.usage}\n`);
      return EXIT.invalid;
    }
    const inputs = await loadInputs({ scenario: values.scenario, records: values.records, contract: values.contract, controls: values.control, lateChanges: values['late-change'] }, io.cwd);
    if (!inputs.ok) {
      io.stderr(renderError(inputs.error));
      return EXIT.invalid;
    }
    const compiler = createCompiler(await openInMemoryDatabase());
    const result = compiler.compile(inputs.value.request);
    if (!result.ok) {
      io.stderr(renderError(await inputs.value.place(result.error)));
      return result.error.pass === 'admit' ? EXIT.failClosed : EXIT.invalid;
    }
    const outcome = result.value;
    const baselines = audience.data === 'diagnostic' ? compiler.baselines(inputs.value.request, outcome) : null;
    const packetText = outcome.status === 'packet' ? packetWithManifest(outcome.packet, outcome.receipt) : null;
    if (values['receipt-out']) writeFileSync(resolve(io.cwd, values['receipt-out']), `${serialiseReceipt(outcome.receipt)}\n`);
    if (values['packet-out'] && packetText !== null) writeFileSync(resolve(io.cwd, values['packet-out']), packetText);
    if (values['statement-out']) writeFileSync(resolve(io.cwd, values['statement-out']), serialiseStatement(receiptStatement(outcome.receipt, packetText)));
    if (values.json) {
      const view = discloseOutcome(outcome, audience.data);
      io.stdout(
        `${JSON.stringify(
          {
            status: outcome.status,
            failure: outcome.status === 'fail_closed' ? { pass: outcome.failure.pass, code: outcome.failure.code, message: view.failureMessage, recordId: audience.data === 'user' ? undefined : outcome.failure.recordId } : null,
            packet: packetText,
            evidence: outcome.status === 'packet' ? outcome.evidence : [],
            decisionBlockedBy: outcome.status === 'packet' ? outcome.decisionBlockedBy : [],
            counts: outcome.counts,
            baselines,
            trace: view.rows.map((row) => ({ ...row, factText: renderFact(row, factContextOf(outcome.receipt.contract)) })),
            withheld: view.withheldNotice,
            receipt: audience.data === 'diagnostic' ? outcome.receipt : { receiptId: outcome.receipt.receiptId },
          },
          null,
          2,
        )}\n`,
      );
    } else {
      io.stdout(renderOutcome(outcome, audience.data, baselines));
      if (values.packet && packetText !== null) io.stdout(`\n${packetText}`);
    }
    return outcome.status === 'packet' ? EXIT.ok : EXIT.failClosed;
  },
};
