import { useEffect } from 'react';
import { setControl } from '../state/workspace-actions';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';
import { useChangeText } from './use-change-text';

/** The keys a presenter uses instead of reaching for the mouse; the glossary lists them as the app's help. */
export const SHORTCUTS = [
  {
    keys: 'P',
    text: 'Presenter mode on or off: larger type, the three packets and the lesson’s numbers, nothing else.',
  },
  {
    keys: '1 … 9',
    text: 'In presenter mode: switch the scenario’s first nine controls on or off, in the order the contract lists them.',
  },
  { keys: 'Esc', text: 'Leave presenter mode (when no dialog is open).' },
] as const;

export function setPresenter(on: boolean): void {
  useUiStore.setState(on ? { presenter: true, workspace: 'debugger', activeView: 'compare' } : { presenter: false });
}

/** Typing in a field, or a key chord, is never a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target instanceof HTMLElement ? event.target : null;
  return target !== null && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function onKey(event: KeyboardEvent): void {
  if (event.defaultPrevented || isTyping(event)) return;
  const { presenter } = useUiStore.getState();
  if (event.key === 'p' || event.key === 'P') {
    event.preventDefault();
    setPresenter(!presenter);
    return;
  }
  if (!presenter) return;
  if (event.key === 'Escape' && document.querySelector('dialog[open]') === null) {
    setPresenter(false);
    return;
  }
  const index = /^[1-9]$/.test(event.key) ? Number(event.key) - 1 : -1;
  const control = index < 0 ? undefined : selectedScenario(useScenarioStore.getState())?.controls[index];
  if (!control) return;
  event.preventDefault();
  const on = useScenarioStore.getState().workspace?.selection.controls.includes(control.id) ?? false;
  void setControl(control.id, !on);
}

/** Listens for the shortcuts on the whole page, and marks the document so the stylesheet lays out presenter mode. */
export function PresenterShortcuts() {
  const presenter = useUiStore((state) => state.presenter);
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (presenter) document.documentElement.dataset.presenter = 'on';
    else delete document.documentElement.dataset.presenter;
  }, [presenter]);
  return null;
}

/** Presenter mode's control strip: each control with its key and its state, pressable too. */
export function PresenterControls() {
  const scenario = useScenarioStore(selectedScenario);
  const active = useScenarioStore((state) => state.workspace?.selection.controls ?? []);
  const textOf = useChangeText(scenario?.key ?? '');
  if (!scenario || scenario.controls.length === 0) return null;
  return (
    <nav className="presenter-controls" aria-label="Controls (keys 1 to 9)" data-testid="presenter-controls">
      {scenario.controls.slice(0, 9).map((control, index) => (
        <button
          key={control.id}
          type="button"
          className="secondary"
          aria-pressed={active.includes(control.id)}
          aria-keyshortcuts={String(index + 1)}
          onClick={() => void setControl(control.id, !active.includes(control.id))}
        >
          <kbd>{index + 1}</kbd> {textOf(control, 'control').label}
        </button>
      ))}
      <button type="button" className="secondary" aria-keyshortcuts="P Escape" onClick={() => setPresenter(false)}>
        Leave presenter mode
      </button>
    </nav>
  );
}
