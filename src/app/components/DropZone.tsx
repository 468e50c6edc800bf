import { useState, type DragEvent, type ReactNode } from 'react';
import { loadFiles } from '../state/workspace-actions';

const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/** The whole page accepts dropped files; the worker decides what each one is from its content. */
export function DropZone({ children }: { children: ReactNode }) {
  const [depth, setDepth] = useState(0);
  return (
    <div
      className="drop-zone"
      data-testid="drop-zone"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDepth((count) => count + 1);
      }}
      onDragOver={(event) => {
        if (carriesFiles(event)) event.preventDefault();
      }}
      onDragLeave={() => setDepth((count) => Math.max(0, count - 1))}
      onDrop={(event) => {
        event.preventDefault();
        setDepth(0);
        void loadFiles([...event.dataTransfer.files]);
      }}
    >
      {children}
      {depth > 0 ? (
        <div className="drop-overlay" aria-hidden="true">
          <span>Drop records (JSONL), a contract, a scenario, a saved receipt or an expectation suite</span>
        </div>
      ) : null}
    </div>
  );
}
