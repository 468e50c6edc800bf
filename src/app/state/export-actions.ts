import type { Audience } from '../../core/disclosure';
import type { ActivityCode } from '../../core/messages-app';
import { wordMessage } from '../../core/messages';
import type { CompileView } from '../../worker/protocol';
import { guarded } from './actions';
import { compilerApi } from '../worker-client';
import { useResultStore } from './result-store';
import { selectedScenario, useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';

// What leaves the app as a file or on the clipboard: the scenario, the packet, the receipt, its statement, the user
// view.

/** Saves the selected scenario as a file; the notice says what loading it back gives. */
export async function exportScenario(): Promise<void> {
  await guarded('EXPORTING_SCENARIO', async () => {
    const exported = await compilerApi().exportScenario();
    saveText(exported.fileName, exported.json);
    const workspace = useScenarioStore.getState().workspace;
    const scenario = workspace ? selectedScenario(useScenarioStore.getState()) : null;
    const on =
      scenario && workspace
        ? [...scenario.controls, ...scenario.lateChanges]
            .filter(
              (change) =>
                workspace.selection.controls.includes(change.id) || workspace.selection.lateChanges.includes(change.id),
            )
            .map((change) => change.label)
        : [];
    useScenarioStore.setState({
      exportNotice: wordMessage('SCENARIO_EXPORTED', {
        file: exported.fileName,
        edited: exported.edited,
        switchOn: on,
      }),
    });
  });
}

/** Saves `text` as a download named `name`. */
export function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

const shortId = (hash: string) => hash.slice(0, 12);

/**
 * The result on screen, if it compiled and is still the inputs' result: exports always follow what is shown,
 * in the view it is shown in, and nothing is exported while a compilation is replacing it.
 */
function shownView(): CompileView | null {
  const { response, compiling } = useResultStore.getState();
  return response?.ok && !compiling ? response.view : null;
}

export async function copyPacket(): Promise<void> {
  const view = shownView();
  const text = view?.packetText ?? null;
  if (!view || text === null) return;
  try {
    await navigator.clipboard.writeText(text);
    useUiStore.setState({
      notice:
        view.audience === 'user'
          ? `Packet copied (user view, packet ${shortId(view.packetFingerprint ?? '')}).`
          : `Packet copied (receipt ${shortId(view.receiptId ?? '')}).`,
    });
  } catch {
    useUiStore.setState({ notice: wordMessage('CLIPBOARD_REFUSED') });
  }
}

/** One file a view can be downloaded as: the worker writes it, the name says which view it is of. */
interface Download {
  readonly json: () => Promise<string | null>;
  readonly name: string;
  readonly notice: string;
}

/**
 * Downloads what `file` describes for the view on screen, if it is shown in `audience` (null: either). Nothing is
 * saved when the worker has nothing to write or the view was replaced while it wrote.
 */
async function download(
  during: ActivityCode,
  audience: Audience | null,
  file: (view: CompileView) => Download,
): Promise<void> {
  const view = shownView();
  if (!view || (audience !== null && view.audience !== audience)) return;
  const { json, name, notice } = file(view);
  await guarded(during, async () => {
    const text = await json();
    if (text === null || shownView() !== view) return;
    saveText(name, text);
    useUiStore.setState({ notice });
  });
}

export async function downloadPacket(): Promise<void> {
  await download('EXPORTING_PACKET', null, (view) => {
    const user = view.audience === 'user';
    return {
      json: () => compilerApi().packetJson(view.audience),
      name: user
        ? `packet-user-view-${shortId(view.packetFingerprint ?? '')}.json`
        : `packet-${shortId(view.receiptId ?? '')}.json`,
      notice: user ? 'Packet downloaded (user view).' : 'Packet downloaded.',
    };
  });
}

/** The receipt as an in-toto statement: it carries the receipt, so it too leaves only from the diagnostic view. */
export async function downloadStatement(): Promise<void> {
  await download('EXPORTING_STATEMENT', 'diagnostic', (view) => ({
    json: () => compilerApi().statementJson(),
    name: `statement-${shortId(view.receiptId ?? '')}.intoto.json`,
    notice: wordMessage('STATEMENT_DOWNLOADED'),
  }));
}

/** The receipt names every record: it leaves the app only from the diagnostic view, and its file name says so. */
export async function downloadReceipt(): Promise<void> {
  await download('EXPORTING_RECEIPT', 'diagnostic', (view) => ({
    json: () => compilerApi().receiptJson(),
    name: `receipt-diagnostic-${shortId(view.receiptId ?? '')}.json`,
    notice: wordMessage('RECEIPT_DOWNLOADED'),
  }));
}

export async function downloadUserView(): Promise<void> {
  await download('EXPORTING_USER_VIEW', 'user', (view) => ({
    json: () => compilerApi().userViewJson(),
    name: `user-view-${shortId(view.userViewId ?? '')}.json`,
    notice: wordMessage('USER_VIEW_DOWNLOADED'),
  }));
}
