import type { Sha256 } from '../core/fingerprints';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { discloseOutcome, type Audience } from '../core/disclosure';
import type { ReceiptVerdict } from '../core/drill';
import { ok, type CompileError, type Result } from '../core/errors';
import type { SuiteResult } from '../core/expectations/run';
import type { LoadedSuite } from '../core/expectations/suite';
import type { UserViewExport } from '../core/format/user-view-export';
import { serialiseReceipt } from '../core/phases/7-attest/attest';
import type { LoadedScenario, RecordSet } from '../core/phases/1-validate/validate';
import { diffReceipts, type ReceiptDiff } from '../core/receipt-diff';
import type { CompileRequest } from '../core/compile';
import type { Attestation, Baselines, CompileOutcome, Receipt } from '../core/result';
import { buildUserView } from '../core/user-view';
import { ENGINE_VERSION } from '../core/version';
import {
  compileInputs,
  drillInputs,
  rehearseDrill,
  runSuiteOn,
  type CompileDetail,
  type Rehearsal,
  type SuiteOptions,
  type SuiteRun,
} from './answers';
import {
  readCheckedReceipt,
  readInputs,
  readReceipt,
  readRecords,
  readScenario,
  readSuite,
  type Inputs,
  type RecordsSource,
  type ScenarioInputs,
} from './read-inputs';

export type { Inputs, RecordsSource, ScenarioInputs };

export type CompileInputs = (Inputs | ScenarioInputs) & {
  readonly view?: Audience;
  /**
   * How much of the trace the receipt attests: `full` (default, one row per record) or `candidates` (docs/FORMAT.md).
   */
  readonly attestation?: Attestation;
};

/** `compileInDetail`'s inputs: also the baselines, the user view beside the diagnostic one, and a progress callback. */
export type DetailedCompileInputs = CompileInputs & {
  readonly baselines?: boolean;
  readonly userView?: boolean;
  readonly onCompiling?: (records: number) => void;
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

/**
 * The receipt to judge and the current inputs it is judged against (a scenario with its switches, or a contract and
 * records).
 */
export type DrillInputs = (Inputs | ScenarioInputs) & {
  /**
   * The receipt, as its JSON text or value; the drill itself checks its versions and id, and answers with a verdict.
   */
  readonly receipt: string | object;
  /** How problems name the receipt file (default receipt.json). */
  readonly receiptFile?: string;
  /** Late changes declared since the receipt was made (ids). */
  readonly declaredChanges?: readonly string[];
};

/** A suite's text or value, run against the inputs given here (its own `inputs` paths are not read). */
export type SuiteInputs = (Inputs | ScenarioInputs) & { readonly suite: string | object; readonly suiteFile?: string };

/** The functions a program calls; every one validates what it is given with the CLI's schemas and errors. */
export interface ContextCompilerApi {
  readonly version: string;
  readRecords(records: RecordsSource, file?: string): Promise<Result<RecordSet, CompileError>>;
  /** A scenario read once, to be given as `scenario` to the other functions (the CLI reads its files once). */
  readScenario(
    inputs: Pick<ScenarioInputs, 'scenario' | 'scenarioFile' | 'files'>,
  ): Promise<Result<LoadedScenario, CompileError>>;
  readSuite(suite: string | object, file?: string): Result<LoadedSuite, CompileError>;
  /** A receipt read with its schema (a receipt of another schema is STALE_ENGINE_VERSION). */
  readReceipt(receipt: string | object, file?: string): Result<Receipt, CompileError>;
  /** A receipt read and checked as the receipt check does: its versions, and that it hashes to its own id. */
  readCheckedReceipt(receipt: string | object, file?: string): Result<Receipt, CompileError>;
  compile(inputs: CompileInputs): Promise<Result<CompileAnswer, CompileError>>;
  /** The compilation with its outcome and trace: for a caller that renders the view itself (the CLI). */
  compileInDetail(inputs: DetailedCompileInputs): Promise<Result<CompileDetail, CompileError>>;
  drill(inputs: DrillInputs): Promise<Result<ReceiptVerdict, CompileError>>;
  /**
   * The naive and post-filter packets for a compiled request, ranked on a fresh whole-corpus index (a diagnostic
   * comparison, never an input).
   */
  baselines(request: CompileRequest, outcome: CompileOutcome): Promise<Baselines>;
  /** The fire drill rehearsed on a scenario, its `lateChanges` being the ones declared. */
  rehearse(inputs: ScenarioInputs): Promise<Result<Rehearsal, CompileError>>;
  /** Two receipts, each checked first (the first that cannot be used is the error), then compared. */
  diff(
    before: string | object,
    after: string | object,
    files?: readonly [string, string],
  ): Promise<Result<ReceiptDiff, CompileError>>;
  runSuite(inputs: SuiteInputs): Promise<Result<SuiteResult, CompileError>>;
  /** A suite already read, run on the inputs given, with what those inputs offer to be reached (for coverage). */
  runSuiteInDetail(
    suite: LoadedSuite,
    inputs: Inputs | ScenarioInputs,
    options?: SuiteOptions,
  ): Promise<Result<SuiteRun, CompileError>>;
}

export type { CompileDetail, Rehearsal, SuiteOptions, SuiteRun };

function answerOf(sha256: Sha256, detail: CompileDetail): CompileAnswer {
  const { outcome, view, userView } = detail;
  const diagnostic = view === 'diagnostic';
  const document = userView?.document ?? buildUserView(sha256, outcome, discloseOutcome(outcome, 'user')).document;
  const failure =
    outcome.status === 'fail_closed'
      ? {
          code: outcome.failure.code,
          message: diagnostic ? outcome.failure.message : (document.failure?.message ?? outcome.failure.code),
        }
      : null;
  return {
    status: outcome.status,
    view,
    packetText: detail.packetText,
    receipt: diagnostic ? outcome.receipt : null,
    receiptText: diagnostic ? serialiseReceipt(outcome.receipt) : null,
    userView: document,
    failure,
  };
}

/**
 * What an entry point brings: its SHA-256, or the promise of it where it starts asynchronously (WebAssembly in the
 * browser), and how to open a fresh SQL database.
 */
export interface Platform {
  readonly sha256: Sha256 | Promise<Sha256>;
  readonly openDatabase: () => Promise<SqlDriver>;
}

/**
 * The library's functions over one platform: the Node and browser entries pass their own, so this module
 * looks up none. Each call opens a fresh compiler: no state is kept between calls.
 */
export function createApi({ sha256: given, openDatabase }: Platform): ContextCompilerApi {
  // Reading a checked receipt is synchronous, so it needs the SHA-256 at hand: in the browser, once it has started.
  let started = given instanceof Promise ? null : given;
  const ready = Promise.resolve(given).then((sha256) => {
    started = sha256;
    return sha256;
  });
  const startedSha256 = (): Sha256 => {
    if (started === null) throw new Error('the SHA-256 has not started yet: await any other call first');
    return started;
  };
  const freshCompiler = async (): Promise<SqliteCompiler> => createSqliteCompiler(await ready, await openDatabase());
  const compileInDetail = async ({
    view,
    attestation,
    baselines,
    userView,
    onCompiling,
    ...inputs
  }: DetailedCompileInputs) => {
    const sha256 = await ready;
    const read = await readInputs(sha256, inputs);
    if (!read.ok) return read;
    return compileInputs(await freshCompiler(), read.value, { view, attestation, baselines, userView, onCompiling });
  };
  const runSuiteInDetail = async (suite: LoadedSuite, inputs: Inputs | ScenarioInputs, options?: SuiteOptions) => {
    const sha256 = await ready;
    if ('scenario' in inputs) {
      // Read, not prepared: each case applies its own switches, and one that names an unknown switch is refused first.
      const scenario = await readScenario(sha256, inputs);
      if (!scenario.ok) return scenario;
      return runSuiteOn(await freshCompiler(), suite, { scenario: scenario.value }, options);
    }
    const read = await readInputs(sha256, inputs);
    if (!read.ok) return read;
    return runSuiteOn(await freshCompiler(), suite, { request: read.value.request }, options);
  };
  return {
    version: ENGINE_VERSION,
    async readRecords(records, file) {
      const sha256 = await ready;
      return readRecords(sha256, records, file);
    },
    async readScenario(inputs) {
      const sha256 = await ready;
      return readScenario(sha256, inputs);
    },
    readSuite,
    readReceipt,
    readCheckedReceipt: (receipt, file) => readCheckedReceipt(startedSha256(), receipt, file),
    async compile(inputs) {
      const detail = await compileInDetail({ ...inputs, userView: true });
      return detail.ok ? ok(answerOf(await ready, detail.value)) : detail;
    },
    compileInDetail,
    async baselines(request, outcome) {
      return (await freshCompiler()).baselines(request, outcome);
    },
    async drill({ receipt, receiptFile, declaredChanges, ...inputs }) {
      const sha256 = await ready;
      const read = await readInputs(sha256, inputs);
      if (!read.ok) return read;
      const prior = readReceipt(receipt, receiptFile);
      if (!prior.ok) return prior;
      return ok(await drillInputs(await freshCompiler(), read.value, prior.value, declaredChanges ?? []));
    },
    async rehearse(inputs) {
      const sha256 = await ready;
      const scenario = await readScenario(sha256, inputs);
      if (!scenario.ok) return scenario;
      const read = await readInputs(sha256, { ...inputs, scenario: scenario.value });
      if (!read.ok) return read;
      return rehearseDrill(await freshCompiler(), scenario.value, read.value.request, {
        controls: inputs.controls ?? [],
        declared: inputs.lateChanges ?? [],
      });
    },
    async diff(before, after, [beforeFile, afterFile] = ['before.json', 'after.json']) {
      const sha256 = await ready;
      const first = readCheckedReceipt(sha256, before, beforeFile);
      if (!first.ok) return first;
      const second = readCheckedReceipt(sha256, after, afterFile);
      if (!second.ok) return second;
      return ok(diffReceipts(first.value, second.value));
    },
    async runSuite({ suite, suiteFile, ...inputs }) {
      const loaded = readSuite(suite, suiteFile);
      if (!loaded.ok) return loaded;
      const ran = await runSuiteInDetail(loaded.value, inputs);
      return ran.ok ? ok(ran.value.result) : ran;
    },
    runSuiteInDetail,
  };
}
