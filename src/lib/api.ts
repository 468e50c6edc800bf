import type { CompileRequest } from '../core/compile';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { discloseOutcome, type Audience } from '../core/disclosure';
import { drill as drillReceipt, receiptIntegrity } from '../core/drill';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { packetWithManifest, serialiseReceipt } from '../core/phases/7-attest/attest';
import { parseContractJson, parseReceiptJson, parseRecordsJsonl, parseScenarioJson, validateContract, type LoadedScenario, type RecordSet } from '../core/phases/1-validate/validate';
import { diffReceipts, type ReceiptDiff } from '../core/receipt-diff';
import type { Attestation, CompileOutcome, Receipt } from '../core/result';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { buildUserView } from '../core/user-view';
import { ENGINE_VERSION } from '../core/version';
import { prepareScenario } from '../scenarios/prepare';
import { runSuite, type SuiteEnvironment, type SuiteResult } from '../core/expectations/run';
import { checkSwitches, parseExpectationSuiteJson } from '../core/expectations/suite';

type Switches = { readonly controls: readonly string[]; readonly lateChanges: readonly string[] };
import type { ReceiptVerdict } from '../core/drill';
import type { UserViewExport } from '../core/format/user-view';

/** A contract as JSON text or as the parsed value; records as JSONL text or as an array of record values. */
export interface Inputs {
  readonly contract: string | object;
  readonly records: string | readonly unknown[];
}

/** A scenario file's text or value, with the controls and late changes to apply (by id). */
export interface ScenarioInputs {
  readonly scenario: string | object;
  /** The text of each JSONL file the scenario names in "records" (by that name), when its records are not inline. */
  readonly files?: Readonly<Record<string, string>>;
  readonly controls?: readonly string[];
  readonly lateChanges?: readonly string[];
}

export type CompileInputs = (Inputs | ScenarioInputs) & {
  readonly view?: Audience;
  /** How much of the trace the receipt attests: `full` (default, one row per record) or `candidates` (docs/FORMAT.md). */
  readonly attestation?: Attestation;
};

/**
 * What one compile gives its caller. In the user view `receipt` is null (the receipt names every record)
 * and `userView` is the document the app's "Download user view" writes; in the diagnostic view both are there.
 */
export interface CompileAnswer {
  readonly status: CompileOutcome['status'];
  readonly view: Audience;
  /** The packet as text with its manifest header, or null when compilation failed closed. */
  readonly packetText: string | null;
  readonly receipt: Receipt | null;
  /** The receipt's canonical bytes, which hash to its id (null in the user view). */
  readonly receiptText: string | null;
  readonly userView: UserViewExport;
  readonly failure: { readonly code: string; readonly message: string } | null;
}

/** The receipt to judge and the current inputs it is judged against (a scenario with its switches, or a contract and records). */
export type DrillInputs = (Inputs | ScenarioInputs) & {
  /** The receipt, as its JSON text or value. */
  readonly receipt: string | object;
  /** Late changes declared since the receipt was made (ids). */
  readonly declaredChanges?: readonly string[];
};

/** A suite's text or value, run against the inputs given here (its own `inputs` paths are not read). */
export type SuiteInputs = (Inputs | ScenarioInputs) & { readonly suite: string | object };

/** The functions a program calls; every one validates what it is given with the CLI's schemas and errors. */
export interface ContextCompilerApi {
  readonly version: string;
  readRecords(records: string | readonly unknown[], file?: string): Promise<Result<RecordSet, CompileError>>;
  compile(inputs: CompileInputs): Promise<Result<CompileAnswer, CompileError>>;
  drill(inputs: DrillInputs): Promise<Result<ReceiptVerdict, CompileError>>;
  diff(before: string | object, after: string | object): Promise<Result<ReceiptDiff, CompileError>>;
  runSuite(inputs: SuiteInputs): Promise<Result<SuiteResult, CompileError>>;
}

const asText = (value: string | object): string => (typeof value === 'string' ? value : JSON.stringify(value));

function readRecords(records: string | readonly unknown[], file = 'records.jsonl'): Result<RecordSet, CompileError> {
  const text = typeof records === 'string' ? records : records.map((record) => JSON.stringify(record)).join('\n');
  return parseRecordsJsonl(file, text);
}

function readInputs(inputs: Inputs): Result<CompileRequest, CompileError> {
  const contract = typeof inputs.contract === 'string' ? parseContractJson('contract.json', inputs.contract) : validateContract('contract.json', inputs.contract);
  if (!contract.ok) return contract;
  const recordSet = readRecords(inputs.records);
  if (!recordSet.ok) return recordSet;
  return ok({ contract: contract.value, recordSet: recordSet.value });
}

function loadScenario(inputs: ScenarioInputs): Result<LoadedScenario, CompileError> {
  return parseScenarioJson('scenario.json', asText(inputs.scenario), (name) => inputs.files?.[name] ?? null);
}

function readScenario(inputs: ScenarioInputs): Result<CompileRequest, CompileError> {
  const loaded = loadScenario(inputs);
  if (!loaded.ok) return loaded;
  return prepareScenario(loaded.value, { controls: inputs.controls ?? [], lateChanges: inputs.lateChanges ?? [] });
}

/** How a suite's cases get their inputs: a scenario with each case's controls and late changes, or one fixed request. */
function suitePreparation(inputs: Inputs | ScenarioInputs): Result<{ prepare: SuiteEnvironment['prepare']; declared: Switches }, CompileError> {
  if ('scenario' in inputs) {
    const loaded = loadScenario(inputs);
    if (!loaded.ok) return loaded;
    const { scenario } = loaded.value;
    const declared = { controls: scenario.controls.map((control) => control.id), lateChanges: scenario.lateChanges.map((change) => change.id) };
    return ok({ prepare: (selection) => prepareScenario(loaded.value, selection), declared });
  }
  const request = readInputs(inputs);
  if (!request.ok) return request;
  return ok({ prepare: () => request, declared: { controls: [], lateChanges: [] } });
}

function readReceipt(file: string, value: string | object): Result<Receipt, CompileError> {
  const receipt = parseReceiptJson(file, asText(value));
  if (!receipt.ok) return receipt;
  const unusable = receiptIntegrity(receipt.value);
  return unusable ? err({ pass: 'validate', code: unusable.code, message: unusable.detail }) : receipt;
}

function answerOf(outcome: CompileOutcome, view: Audience): CompileAnswer {
  const userView = buildUserView(outcome, discloseOutcome(outcome, 'user'));
  const diagnostic = view === 'diagnostic';
  const packetText = outcome.status === 'packet' ? (diagnostic ? packetWithManifest(outcome.packet, outcome.receipt) : userView.packetText) : null;
  const failure =
    outcome.status === 'fail_closed' ? { code: outcome.failure.code, message: diagnostic ? outcome.failure.message : (userView.document.failure?.message ?? outcome.failure.code) } : null;
  return {
    status: outcome.status,
    view,
    packetText,
    receipt: diagnostic ? outcome.receipt : null,
    receiptText: diagnostic ? serialiseReceipt(outcome.receipt) : null,
    userView: userView.document,
    failure,
  };
}

/** What an entry point brings: when its SHA-256 is installed, and how to open a fresh SQL database. */
export interface Platform {
  readonly ready: Promise<void>;
  readonly openDatabase: () => Promise<SqlDriver>;
}

/**
 * The library's functions over one platform: the Node and browser entries pass their own, so this module
 * looks up none. Each call opens a fresh compiler: no state is kept between calls.
 */
export function createApi({ ready, openDatabase }: Platform): ContextCompilerApi {
  return {
    version: ENGINE_VERSION,
    async readRecords(records, file) {
      await ready;
      return readRecords(records, file);
    },
    async compile(inputs) {
      await ready;
      const request = 'scenario' in inputs ? readScenario(inputs) : readInputs(inputs);
      if (!request.ok) return request;
      const compiled = await createSqliteCompiler(await openDatabase()).compile({ ...request.value, attestation: inputs.attestation ?? 'full' });
      if (!compiled.ok) return compiled;
      return ok(answerOf(compiled.value, inputs.view ?? 'diagnostic'));
    },
    async drill(inputs) {
      await ready;
      const receipt = readReceipt('receipt.json', inputs.receipt);
      if (!receipt.ok) return receipt;
      const request = 'scenario' in inputs ? readScenario(inputs) : readInputs(inputs);
      if (!request.ok) return request;
      const compiler = createSqliteCompiler(await openDatabase());
      return ok(await drillReceipt(compiler, { ...request.value, priorReceipt: receipt.value, declaredChanges: inputs.declaredChanges ?? [] }));
    },
    async diff(before, after) {
      await ready;
      const first = readReceipt('before.json', before);
      if (!first.ok) return first;
      const second = readReceipt('after.json', after);
      if (!second.ok) return second;
      return ok(diffReceipts(first.value, second.value));
    },
    async runSuite(inputs) {
      await ready;
      const loaded = parseExpectationSuiteJson('suite.expect.json', asText(inputs.suite));
      if (!loaded.ok) return loaded;
      const preparation = suitePreparation(inputs);
      if (!preparation.ok) return preparation;
      const unknown = checkSwitches(loaded.value, preparation.value.declared);
      if (unknown !== null) return err(unknown);
      return ok(await runSuite(loaded.value, { compiler: createSqliteCompiler(await openDatabase()), prepare: preparation.value.prepare }));
    },
  };
}
