import type { SqlDriver } from '../../sqlite/driver';
import { TOKENIZER } from '../../sqlite/record-index';
import type { RecordTokens, Tokeniser } from '../tokens';

const BATCH = 256;

/**
 * The tokens SQLite FTS5 itself finds, read back through fts5vocab: the reference the JavaScript tokenizer
 * (unicode61.ts) is compared with.
 */
export function createFts5Tokeniser(driver: SqlDriver): Tokeniser {
  driver.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.tokenised USING fts5(title, text, ${TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS temp.tokenised_instances USING fts5vocab(temp, tokenised, 'instance');`);
  const insert = driver.prepare('INSERT INTO temp.tokenised (rowid, title, text) VALUES (?, ?, ?)');

  const batch = (texts: readonly (readonly [string, string])[]): RecordTokens[] => {
    const found = texts.map(() => ({
      title: new Map<string, number[]>(),
      text: new Map<string, number[]>(),
      titleTokens: 0,
      textTokens: 0,
    }));
    driver.transaction(() => {
      texts.forEach(([title, text], index) => insert.run([index + 1, title, text]));
      // fts5vocab lists instances by term, then document, column and offset: each term's positions come in order
      // (sorting them by document first was the largest cost of a batch).
      const [row] = driver.all(
        "SELECT json_group_array(json_array(doc, col = 'title', term, offset)) FROM temp.tokenised_instances",
      );
      for (const [doc, inTitle, term, offset] of JSON.parse(String(row?.[0] ?? '[]')) as [
        number,
        number,
        string,
        number,
      ][]) {
        const tokens = found[doc - 1];
        if (tokens === undefined) continue;
        const positions = inTitle === 1 ? tokens.title : tokens.text;
        const list = positions.get(term);
        if (list === undefined) positions.set(term, [offset]);
        else list.push(offset);
        if (inTitle === 1) tokens.titleTokens += 1;
        else tokens.textTokens += 1;
      }
      driver.exec('DELETE FROM temp.tokenised');
    });
    return found;
  };

  return {
    records(texts) {
      const out: RecordTokens[] = [];
      for (let start = 0; start < texts.length; start += BATCH)
        for (const tokens of batch(texts.slice(start, start + BATCH))) out.push(tokens);
      return out;
    },
    phrase(term) {
      const [tokens] = batch([['', term]]);
      const ordered: [number, string][] = [];
      for (const [word, positions] of tokens?.text ?? [])
        for (const position of positions) ordered.push([position, word]);
      return ordered.sort((a, b) => a[0] - b[0]).map(([, word]) => word);
    },
  };
}
