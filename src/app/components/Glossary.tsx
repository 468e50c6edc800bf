import { Fragment, useEffect } from 'react';
import { REASONS, type ReasonCategory, type ReasonCode } from '../../core/reasons';
import { ENGINE_VERSION } from '../../core/version';
import { useUiStore } from '../state/ui-store';
import { SHORTCUTS } from './Presenter';
import { useModalDialog } from './use-modal-dialog';

/** Words and numbers the screen uses without explaining them in place. */
export const GLOSSARY_TERMS = [
  {
    key: 'receipt',
    term: 'Receipt',
    text: 'The SHA-256 id of the compilation’s canonical receipt; the audit strip shows its first 12 hex digits (the full id is in the downloaded receipt). Any change to the contract, a record or a decision gives another receipt.',
  },
  {
    key: 'user-view-id',
    term: 'User-view id',
    text: 'What the user view shows instead of the receipt id: the SHA-256 of the user view’s own content (contract, visible rows as worded, packet, evidence, failure). It leaves out the withheld count, so a change to a record the user view withholds never changes it.',
  },
  {
    key: 'tokens',
    term: 'Tokens',
    text: 'Each record’s declared cost, written in the record (no tokenizer is run). Budgets and the three packets are counted in these numbers.',
  },
  {
    key: 'rank',
    term: 'Rank',
    text: 'Position among the admitted optional records by relevance (#1 is the most relevant). Records refused by a gate, and required records, are not ranked (—). The receipt keeps ranks and scores in its ranking section (ranked), not in the trace rows.',
  },
  {
    key: 'score',
    term: 'Score',
    text: 'Relevance, higher is better: −bm25 from SQLite FTS5, or the record’s declared relevance when the contract says ranking: declared. bm25 over a few short records is tiny, so scores are shown to three significant digits (1.23 × 10⁻⁶).',
  },
  {
    key: 'fact',
    term: 'Boundary fact',
    text: 'The value that decided a record, set against the contract, e.g. “valid_to 2026-08-28 < as_of 2026-08-30”.',
  },
  {
    key: 'required',
    term: 'Required',
    text: 'Named in the contract’s required records: protected before any ranking. If one is missing, illegal, unverifiable or too large, no packet is emitted (fail-closed).',
  },
  {
    key: 'decision',
    term: 'Decision',
    text: 'Whether the assistant’s answer may rest on the packet alone. “May rest on the packet”: every blocking proposition of the contract is supported by an admitted record. “Reserved for a person”: a blocking proposition is not supported, so a person decides. With no packet there is nothing to rest on.',
  },
  {
    key: 'fail-closed',
    term: 'Fail-closed',
    text: 'The compiler read the inputs and refused: an obligation could not be met, so no packet exists and nothing can be copied.',
  },
  {
    key: 'views',
    term: 'User view and diagnostic view',
    text: 'One compilation, two renderings. The diagnostic view names every record; the user view counts, but never names, records excluded by an authorisation rule or a deny label. Exports follow the view on screen.',
  },
] as const;

export type GlossaryTerm = (typeof GLOSSARY_TERMS)[number]['key'];

const CATEGORY_TITLES: Record<ReasonCategory, string> = {
  selected: 'Selected',
  boundary: 'Boundary exclusions',
  lifecycle: 'Lifecycle and sensitivity',
  evidence: 'Evidence exclusions',
  authorisation: 'Authorisation (withheld from the user view)',
  planning: 'Planning and budget',
  required: 'Required records: fail-closed',
  integrity: 'Integrity',
  staleness: 'Fire drill and receipt checks',
  input: 'Input problems',
};

export const glossaryAnchor = (key: string) => `glossary-${key}`;

export function openGlossary(target: string | null = null): void {
  useUiStore.setState({ glossary: { open: true, target } });
}

/** A reason code that may break only after an underscore, never inside a word. */
export function CodeText({ code }: { code: string }) {
  const parts = code.split('_');
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? (
            <>
              _<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </>
  );
}

/** A reason code wherever it is shown: a button that opens the glossary at its entry. */
export function CodeLink({ code, testId }: { code: ReasonCode; testId?: string }) {
  return (
    // The catalogue's plain words ride along as the tooltip and the accessible description; the glossary has the rest.
    <button
      type="button"
      className="code-link"
      aria-haspopup="dialog"
      title={REASONS[code].summary}
      onClick={() => openGlossary(code)}
      data-testid={testId}
    >
      <CodeText code={code} />
    </button>
  );
}

export function TermLink({ term, children }: { term: GlossaryTerm; children: string }) {
  return (
    <button type="button" className="term-link" aria-haspopup="dialog" onClick={() => openGlossary(term)}>
      {children}
    </button>
  );
}

/** Every reason code and term, grouped; opened at one entry, which takes the focus. */
export function Glossary() {
  const { open, target } = useUiStore((state) => state.glossary);
  const ref = useModalDialog(open);
  // The entry asked for takes the focus on opening, and again whenever another is asked for while open.
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const entry = target ? dialog.querySelector<HTMLElement>(`#${CSS.escape(glossaryAnchor(target))}`) : null;
    const focus = entry ?? dialog.querySelector<HTMLElement>('h2');
    focus?.focus();
    entry?.scrollIntoView({ block: 'center' });
  }, [ref, open, target]);
  const close = () => useUiStore.setState({ glossary: { open: false, target: null } });
  const byCategory = new Map<ReasonCategory, ReasonCode[]>();
  for (const code of Object.keys(REASONS) as ReasonCode[])
    byCategory.set(REASONS[code].category, [...(byCategory.get(REASONS[code].category) ?? []), code]);
  return (
    <dialog
      ref={ref}
      className="glossary"
      aria-labelledby="glossary-heading"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      {open ? (
        <>
          <div className="glossary-head">
            <h2 id="glossary-heading" tabIndex={-1}>
              Glossary
            </h2>
            <button type="button" className="secondary" onClick={close}>
              Close glossary
            </button>
          </div>
          <p className="glossary-version" data-testid="glossary-version">
            Context Compiler {ENGINE_VERSION}
          </p>
          <dl className="glossary-list">
            {GLOSSARY_TERMS.map((entry) => (
              <div
                key={entry.key}
                id={glossaryAnchor(entry.key)}
                tabIndex={-1}
                className={target === entry.key ? 'glossary-entry target' : 'glossary-entry'}
                data-testid={glossaryAnchor(entry.key)}
              >
                <dt>{entry.term}</dt>
                <dd>{entry.text}</dd>
              </div>
            ))}
          </dl>
          <h3>Keyboard shortcuts</h3>
          <dl className="glossary-list" data-testid="glossary-shortcuts">
            {SHORTCUTS.map((shortcut) => (
              <div key={shortcut.keys} className="glossary-entry">
                <dt>
                  <kbd>{shortcut.keys}</kbd>
                </dt>
                <dd>{shortcut.text}</dd>
              </div>
            ))}
          </dl>
          <h3>Reason codes</h3>
          {[...byCategory].map(([category, codes]) => (
            <section key={category} aria-label={CATEGORY_TITLES[category]}>
              <h4>{CATEGORY_TITLES[category]}</h4>
              <dl className="glossary-list">
                {codes.map((code) => (
                  <div
                    key={code}
                    id={glossaryAnchor(code)}
                    tabIndex={-1}
                    className={target === code ? 'glossary-entry target' : 'glossary-entry'}
                    data-testid={glossaryAnchor(code)}
                  >
                    <dt>
                      <code>
                        <CodeText code={code} />
                      </code>
                    </dt>
                    <dd>{REASONS[code].summary}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </>
      ) : null}
    </dialog>
  );
}
