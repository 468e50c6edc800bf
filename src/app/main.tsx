import '../shared/jitless-zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './components/App';
import { PwaUpdate } from './components/PwaUpdate';
import { boot, recoverFromWorkerLoss } from './state/session-actions';
import { openLinkInAddressBar } from './state/workspace-actions';
import { watchCompilations } from './state/debug-actions';
import { useUiStore } from './state/ui-store';
import { watchPwaStatus } from './pwa-status';
import { connectCompilerWorker } from './worker-client';
import './styles.css';

useUiStore.setState({ theme: window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light' });
connectCompilerWorker((reason) => void recoverFromWorkerLoss(reason));
watchPwaStatus();
watchCompilations();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App updatePrompt={<PwaUpdate />} />
  </StrictMode>,
);
void boot();
// A share link pasted into this tab's address bar changes only the fragment: no reload, so listen for it.
window.addEventListener('hashchange', () => void openLinkInAddressBar());
