// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { REASONS } from '../../core/reasons';
import { installFakeApi, resetStores } from '../test-support';
import { CodeLink, Glossary, GLOSSARY_TERMS, TermLink } from './Glossary';

describe('Glossary', () => {
  beforeEach(() => {
    resetStores();
    installFakeApi();
  });
  afterEach(cleanup);

  it('opens at the code that was pressed, with every reason code and term listed', async () => {
    const user = userEvent.setup();
    render(
      <>
        <CodeLink code="EXCLUDE_NOT_AUTHORISED" />
        <Glossary />
      </>,
    );
    // The code breaks only after underscores: its text is unchanged.
    const link = screen.getByRole('button', { name: /EXCLUDE_\s?NOT_\s?AUTHORISED/ });
    expect(link).toHaveTextContent(/^EXCLUDE_NOT_AUTHORISED$/);
    expect(link.querySelectorAll('wbr')).toHaveLength(2);
    // Its plain words are there before the glossary opens.
    expect(link).toHaveAccessibleDescription(REASONS.EXCLUDE_NOT_AUTHORISED.summary);
    await user.click(link);
    const dialog = screen.getByRole('dialog', { name: 'Glossary' });
    expect(screen.getByTestId('glossary-EXCLUDE_NOT_AUTHORISED')).toHaveFocus();
    expect(screen.getByTestId('glossary-EXCLUDE_NOT_AUTHORISED')).toHaveTextContent(
      REASONS.EXCLUDE_NOT_AUTHORISED.summary,
    );
    for (const code of Object.keys(REASONS)) expect(screen.getByTestId(`glossary-${code}`)).toBeInTheDocument();
    for (const term of GLOSSARY_TERMS) expect(screen.getByTestId(`glossary-${term.key}`)).toBeInTheDocument();
    // The one version: package.json's, which the CLI's --version prints and receipts carry.
    expect(screen.getByTestId('glossary-version')).toHaveTextContent(`Context Compiler ${packageJson.version}`);
    await user.click(screen.getByRole('button', { name: 'Close glossary' }));
    expect(dialog).not.toBeVisible();
  });

  it('explains a term from where it is used', async () => {
    const user = userEvent.setup();
    render(
      <>
        <TermLink term="score">Score</TermLink>
        <Glossary />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Score' }));
    expect(screen.getByTestId('glossary-score')).toHaveFocus();
    expect(screen.getByTestId('glossary-score')).toHaveTextContent('three significant digits');
  });
});
