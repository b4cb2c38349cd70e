/**
 * Many byte strings as one bytea parameter, cut in the statement by
 * `substring(bytes FROM off + 1 FOR len)`. An array of bytea is sent as hex text (twice the
 * bytes, and a decode on the database), and an array of text is escaped here and parsed back
 * by array_in character by character; one binary parameter is neither (issue 13). A missing
 * part gets length -1, for the statement to turn into NULL.
 */
export function packBytes(parts: (Buffer | null | undefined)[]): { bytes: Buffer; offsets: number[]; lengths: number[] } {
  const offsets: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  for (const p of parts) {
    offsets.push(at);
    lengths.push(p ? p.length : -1);
    at += p?.length ?? 0;
  }
  return { bytes: Buffer.concat(parts.filter((p): p is Buffer => !!p), at), offsets, lengths };
}
