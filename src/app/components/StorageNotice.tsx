import { formatIssue } from '../../core/errors';
import { saveWorkspaceAgain } from '../state/workspace-actions';
import { useScenarioStore } from '../state/scenario-store';

/**
 * Says plainly when loaded work will not survive a reload (and, after storage was cleared, offers to save it again),
 * and what could not be restored.
 */
export function StorageNotice() {
  const workspace = useScenarioStore((state) => state.workspace);
  if (!workspace) return null;
  const { storage, restoreIssues, database, databaseNotice } = workspace;
  if (
    storage.status === 'persistent' &&
    restoreIssues.length === 0 &&
    database.kind === 'opfs' &&
    databaseNotice === null
  )
    return null;
  return (
    <div className="notice" role="status" data-testid="storage-notice">
      {database.kind === 'memory' ? <p data-testid="database-fallback">{database.message}</p> : null}
      {databaseNotice !== null ? <p data-testid="database-notice">{databaseNotice}</p> : null}
      {storage.status !== 'persistent' ? <p>{storage.message}</p> : null}
      {storage.status === 'cleared' ? (
        <button type="button" onClick={() => void saveWorkspaceAgain()}>
          Save workspace again
        </button>
      ) : null}
      {restoreIssues.length > 0 ? (
        <>
          <p>Some saved files could not be restored:</p>
          <ul>
            {restoreIssues.map((issue, index) => (
              <li key={index}>{formatIssue(issue)}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
