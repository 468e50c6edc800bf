import { useEffect, type ReactNode } from 'react';
import { useEvaluationStore } from '../state/evaluation-store';
import { useUiStore, VIEWS, type ViewId } from '../state/ui-store';
import { AuditStrip } from './AuditStrip';
import { ComparePanel } from './ComparePanel';
import { CompilerFailure } from './CompilerFailure';
import { ContractPanel } from './ContractPanel';
import { DrillPanel } from './DrillPanel';
import { DropZone } from './DropZone';
import { EvaluationPanel } from './EvaluationPanel';
import { EvidencePanel } from './EvidencePanel';
import { ExportPanel } from './ExportPanel';
import { Header } from './Header';
import { LoadStatus } from './LoadStatus';
import { StorageNotice } from './StorageNotice';
import { TracePanel } from './TracePanel';
import { WorkerStatus } from './WorkerStatus';
import { WorkspaceSwitch } from './WorkspaceSwitch';

const RAILS: Record<ViewId, () => ReactNode> = {
  contract: () => (
    <>
      <ContractPanel />
      <DrillPanel />
    </>
  ),
  compare: () => (
    <>
      <ComparePanel />
      <EvidencePanel />
      <ExportPanel />
    </>
  ),
  trace: () => <TracePanel />,
};

/** Three rails side by side on a wide screen; the same rails behind tabs on a narrow one (CSS decides). */
export function App({ updatePrompt }: { updatePrompt?: ReactNode }) {
  const activeView = useUiStore((state) => state.activeView);
  const theme = useUiStore((state) => state.theme);
  const fatal = useUiStore((state) => state.fatal);
  const evaluationOpen = useEvaluationStore((state) => state.open);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <DropZone>
      <Header />
      <WorkerStatus />
      {/* Its ways back need a running worker; while none runs, the worker status offers its own. */}
      {fatal ? null : <CompilerFailure />}
      <StorageNotice />
      <LoadStatus />
      <AuditStrip />
      <WorkspaceSwitch />
      {/* Hidden rather than unmounted, so unsaved form edits in the rails survive a visit to the Evaluation view. */}
      <div hidden={evaluationOpen}>
        <nav className="view-tabs" role="tablist" aria-label="Views">
          {VIEWS.map((view) => (
            <button key={view.id} type="button" role="tab" id={`tab-${view.id}`} aria-controls={`rail-${view.id}`} aria-selected={activeView === view.id} onClick={() => useUiStore.setState({ activeView: view.id })}>
              {view.label}
            </button>
          ))}
        </nav>
        <main className="rails">
          {VIEWS.map((view) => (
            <div key={view.id} id={`rail-${view.id}`} role="tabpanel" aria-labelledby={`tab-${view.id}`} className={`rail rail-${view.id}${activeView === view.id ? ' active' : ''}`}>
              {RAILS[view.id]()}
            </div>
          ))}
        </main>
      </div>
      {evaluationOpen ? (
        <main>
          <EvaluationPanel />
        </main>
      ) : null}
      {updatePrompt}
    </DropZone>
  );
}
