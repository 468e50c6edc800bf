import type { InstallPromptEvent } from './install-prompt-event';
import { useUiStore } from './state/ui-store';

function isInstallPrompt(event: Event): event is InstallPromptEvent {
  return 'prompt' in event && typeof event.prompt === 'function';
}

/**
 * The path without its trailing slash (`/some-repo` for `/some-repo/`): outside the service worker's scope,
 * so offline it can only be answered by the host's redirect kept in the HTTP cache; null at the site root.
 */
export function pathWithoutSlash(location: Location | URL): string | null {
  const base = new URL('.', location.href);
  return base.pathname === '/' ? null : `${base.origin}${base.pathname.slice(0, -1)}`;
}

/**
 * Says when the app can work offline (the service worker's ready signal), keeps the browser's install
 * prompt for an Install button, and refreshes the cached redirect of the slash-less path while online.
 */
export function watchPwaStatus(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    if (!isInstallPrompt(event)) return;
    // The browser's mini-infobar is replaced by the header's Install button.
    event.preventDefault();
    useUiStore.setState({ installPrompt: event });
  });
  window.addEventListener('appinstalled', () => useUiStore.setState({ installPrompt: null }));
  if (!('serviceWorker' in navigator)) {
    useUiStore.setState({ offline: 'unsupported' });
    return;
  }
  const container = navigator.serviceWorker;
  void container.ready.then(async () => {
    // Ready means a worker is active, not that it answers this page: wait until it controls it (clientsClaim).
    if (container.controller === null)
      await new Promise<void>((resolve) =>
        container.addEventListener('controllerchange', () => resolve(), { once: true }),
      );
    useUiStore.setState({ offline: 'ready' });
    const alias = pathWithoutSlash(window.location);
    // The fetch stores the host's 301 in the HTTP cache; that is what answers the slash-less path offline.
    if (alias !== null && navigator.onLine)
      void fetch(alias, { cache: 'no-cache', credentials: 'omit' }).catch(() => undefined);
  });
}

export async function promptInstall(): Promise<void> {
  const prompt = useUiStore.getState().installPrompt;
  if (!prompt) return;
  useUiStore.setState({ installPrompt: null });
  await prompt.prompt();
  await prompt.userChoice;
}
