/** "problem" or "problems": the word as a count of it reads. */
export const plural = (count: number, word: string) => `${word}${count === 1 ? '' : 's'}`;

/** A count with its thousands grouped, as British English writes it: "12,345". */
export const grouped = (count: number) => count.toLocaleString('en-GB');
