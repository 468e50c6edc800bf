/** About how many characters of COPY data go in one CopyData message. */
export const COPY_PIECE_CHARS = 1 << 18;

/**
 * COPY's rows joined into pieces of at least `size` characters (the last may be shorter). The driver writes
 * each piece to the socket as a message of its own, two writes a piece: a row or a record at a time, those
 * writes cost the client more than building the rows, and wake the server as often. A message need not end
 * where a row does; the server reads the stream whole.
 */
export function* copyPieces(rows: Iterable<string>, size: number = COPY_PIECE_CHARS): Generator<string> {
  let piece = '';
  for (const row of rows) {
    piece += row;
    if (piece.length >= size) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}
