import { useEffect, type KeyboardEvent, type ReactNode } from 'react';
import { closeSuite, openSuites } from '../state/tests-actions';
import { useUiStore, VIEWS, type ViewId } from '../state/ui-store';
import { AsOfStepper } from './AsOfStepper';
import { AuditStrip } from './AuditStrip';
import { BaselinePanel } from './BaselinePanel';
import { ComparePanel } from './ComparePanel';
import { CompilerFailure } from './CompilerFailure';
import { ContractPanel } from './ContractPanel';
import { DrillView } from './DrillView';
import { DropZone } from './DropZone';
import { EvaluationPanel } from './EvaluationPanel';
import { EvidencePanel } from './EvidencePanel';
import { ExportPanel } from './ExportPanel';
import { Glossary } from './Glossary';
import { Header } from './Header';
import { LoadStatus } from './LoadStatus';
import { RecordInspector } from './RecordInspector';
import { ShareDialog, ShareNotice } from './Share';
import { PresenterControls, PresenterShortcuts } from './Presenter';
import { SkipLinks } from './SkipLinks';
import { Tour } from './Tour';
import { StorageNotice } from './StorageNotice';
import { RecordEditor } from './RecordEditor';
import { TestsPanel } from './TestsPanel';
import { TracePanel } from './TracePanel';
import { WorkerStatus } from './WorkerStatus';
import { WorkspaceSwitch } from './WorkspaceSwitch';

const RAILS: Record<ViewId, () => ReactNode> = {
  contract: () => (
    <>
      <ContractPanel />
      <AsOfStepper />
      <RecordEditor />
    </>
  ),
  compare: () => (
    <>
      <ComparePanel />
      <BaselinePanel />
      <EvidencePanel />
      <ExportPanel />
    </>
  ),
  trace: () => <TracePanel />,
};

/** Arrow keys, Home and End move between the tabs and open the one they reach (the ARIA tabs pattern). */
function onTabKey(event: KeyboardEvent<HTMLElement>): void {
  const current = VIEWS.findIndex((view) => view.id === useUiStore.getState().activeView);
  const last = VIEWS.length - 1;
  const next = {
    ArrowRight: current === last ? 0 : current + 1,
    ArrowLeft: current === 0 ? last : current - 1,
    Home: 0,
    End: last,
  }[event.key];
  const view = next === undefined ? undefined : VIEWS[next];
  if (!view) return;
  event.preventDefault();
  useUiStore.setState({ activeView: view.id });
  document.getElementById(`tab-${view.id}`)?.focus();
}

/** Three rails side by side on a wide screen; the same rails behind tabs on a narrow one (CSS decides). */
export function App({ updatePrompt }: { updatePrompt?: ReactNode }) {
  const activeView = useUiStore((state) => state.activeView);
  const theme = useUiStore((state) => state.theme);
  const fatal = useUiStore((state) => state.fatal);
  const workspace = useUiStore((state) => state.workspace);
  const presenter = useUiStore((state) => state.presenter);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <DropZone>
      <SkipLinks />
      <Header />
      <WorkerStatus />
      {/* Its ways back need a running worker; while none runs, the worker status offers its own. */}
      {fatal ? null : <CompilerFailure />}
      <StorageNotice />
      <ShareNotice />
      <LoadStatus />
      <AuditStrip />
      <WorkspaceSwitch />
      {/* Hidden rather than unmounted, so unsaved form edits in the rails survive a visit to another view. */}
      <PresenterShortcuts />
      <div hidden={workspace !== 'debugger'}>
        {presenter ? <PresenterControls /> : null}
        <nav className="view-tabs" aria-label="Views">
          <div className="view-tab-list" role="tablist" aria-label="Views" onKeyDown={onTabKey}>
            {VIEWS.map((view) => (
              <button
                key={view.id}
                type="button"
                role="tab"
                id={`tab-${view.id}`}
                aria-controls={`rail-${view.id}`}
                aria-selected={activeView === view.id}
                tabIndex={activeView === view.id ? 0 : -1}
                onClick={() => useUiStore.setState({ activeView: view.id })}
              >
                {view.label}
              </button>
            ))}
          </div>
        </nav>
        <main className="rails">
          {VIEWS.map((view) => (
            <div
              key={view.id}
              id={`rail-${view.id}`}
              role="tabpanel"
              aria-labelledby={`tab-${view.id}`}
              className={`rail rail-${view.id}${activeView === view.id ? ' active' : ''}`}
            >
              {RAILS[view.id]()}
            </div>
          ))}
        </main>
      </div>
      {workspace === 'drill' ? <DrillView /> : null}
      {workspace === 'evaluation' ? (
        <main id="main-evaluation" tabIndex={-1}>
          <EvaluationPanel />
        </main>
      ) : null}
      {workspace === 'tests' ? (
        <main id="main-tests" tabIndex={-1}>
          <TestsPanel onOpen={(files) => void openSuites(files)} onClose={(file) => void closeSuite(file)} />
        </main>
      ) : null}
      <Tour />
      <Glossary />
      <RecordInspector />
      <ShareDialog />
      {updatePrompt}
    </DropZone>
  );
}
