// What changed in a list's source, read off the bytes: the window of whole
// records two versions differ in, and the text edits it makes.
import { describe, expect, test } from 'vitest';
import { checkConfig } from '../../src/config/declaration.js';
import { LOOKUP_SERVICE_CONFIG } from '../../src/config/preset.js';
import { changedWindow, windowEdits } from '../../src/sources/delta.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

function window(was: string, now: string) {
  const w = changedWindow(bytes(was), bytes(now));
  return w && { header: text(w.header), was: text(w.was), now: text(w.now), line: w.line };
}

const AUTHORS = 'id,text\n1,"Smith, John"\n2,Jones\n3,"Müller, Jürgen"\n';

describe('the changed window', () => {
  test.each([
    ['a text edited in the middle', AUTHORS.replace('Jones', 'Jonas'), { was: '2,Jones\n', now: '2,Jonas\n', line: 3 }],
    [
      'the first record',
      AUTHORS.replace('Smith', 'Smyth'),
      { was: '1,"Smith, John"\n', now: '1,"Smyth, John"\n', line: 2 },
    ],
    [
      'the last record',
      AUTHORS.replace('Jürgen', 'J.'),
      { was: '3,"Müller, Jürgen"\n', now: '3,"Müller, J."\n', line: 4 },
    ],
    [
      'an edit that adds a quoted newline',
      AUTHORS.replace('Jones', '"Jo\nnes"'),
      { was: '2,Jones\n', now: '2,"Jo\nnes"\n', line: 3 },
    ],
    [
      'two neighbouring records',
      AUTHORS.replace('John', 'Joe').replace('Jones', 'Jonas'),
      { was: '1,"Smith, John"\n2,Jones\n', now: '1,"Smith, Joe"\n2,Jonas\n', line: 2 },
    ],
  ])('is the records around %s', (_, now, expected) => {
    expect(window(AUTHORS, now)).toEqual({ header: 'id,text\n', ...expected });
  });

  test('starts after a quoted field that spans lines, and counts its lines', () => {
    const was = 'id,text\n1,"a\nb"\n2,c\n';
    expect(window(was, was.replace('c', 'd'))).toEqual({ header: 'id,text\n', was: '2,c\n', now: '2,d\n', line: 4 });
  });

  test('reaches the end of a file without a final newline', () => {
    expect(window('id,text\n1,a\n2,b', 'id,text\n1,a\n2,bc')).toMatchObject({ was: '2,b', now: '2,bc' });
  });

  test('keeps a BOM and CRLF line ends in the header and records', () => {
    const was = '\uFEFFid,text\r\n1,a\r\n2,b\r\n';
    expect(window(was, was.replace('2,b', '2,x'))).toEqual({
      header: '\uFEFFid,text\r\n',
      was: '2,b\r\n',
      now: '2,x\r\n',
      line: 3,
    });
  });

  test.each([
    ['the header changed', AUTHORS.replace('id,text', 'id,txt')],
    ['the files are the same', AUTHORS],
  ])('is undefined when %s', (_, now) => {
    expect(window(AUTHORS, now)).toBeUndefined();
  });
});

const AUTHOR = checkConfig(LOOKUP_SERVICE_CONFIG, 'x').declaration!.lists.find((l) => l.name === 'author')!;

describe('the edits of a window', () => {
  const edits = (was: string, now: string) => windowEdits(AUTHOR, changedWindow(bytes(was), bytes(now))!);

  test('are the records whose text changed, with their ids', () => {
    expect(edits(AUTHORS, AUTHORS.replace('Jones', 'Jonas').replace('John', 'Joe'))).toEqual([
      { id: 1, text: 'Smith, Joe' },
      { id: 2, text: 'Jonas' },
    ]);
  });

  test.each([
    ['an id changed', AUTHORS.replace('2,Jones', '7,Jones')],
    ['a record was added', AUTHORS.replace('2,Jones\n', '2,Jones\n9,New\n')],
    ['a record was removed', AUTHORS.replace('2,Jones\n', '')],
    ['a text became empty', AUTHORS.replace('Jones', ' ')],
    ['an id is not a number', AUTHORS.replace('2,Jones', 'x,Jones')],
    ['a quote is left open', AUTHORS.replace('2,Jones', '2,"Jones')],
  ])('are undefined when %s: the file is read whole', (_, now) => {
    const w = changedWindow(bytes(AUTHORS), bytes(now));
    expect(w && windowEdits(AUTHOR, w)).toBeUndefined();
  });
});
