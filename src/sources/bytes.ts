// UTF-8 at the seams of a file read a chunk at a time (read.ts, utf8.ts): where a
// character a chunk's end cuts short begins, and the bytes of two chunks
// joined. Pure.

/** The length a UTF-8 lead byte announces (1 for bytes that cannot lead a longer character). */
export const sequenceLength = (byte: number) =>
  byte >= 0xf0 && byte < 0xf8 ? 4 : byte >= 0xe0 && byte < 0xf0 ? 3 : byte >= 0xc0 && byte < 0xe0 ? 2 : 1;

/** Where a character that the end of `bytes` cuts short begins (bytes.length if none does). */
export function unfinished(bytes: Uint8Array, from: number): number {
  let i = bytes.length - 1;
  while (i >= from && i > bytes.length - 4 && (bytes[i]! & 0xc0) === 0x80) i--;
  return i >= from && i + sequenceLength(bytes[i]!) > bytes.length ? i : bytes.length;
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}
