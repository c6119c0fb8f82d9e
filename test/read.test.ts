import { describe, expect, test } from 'vitest';
import { chunkEnd, readTable } from '../src/read.js';

describe('reading a source file', () => {
  test('a file of many chunks, with quoted newlines, quotes and blank lines, reads every row on its own line', () => {
    // Quoted fields that hold newlines and doubled quotes fall on every
    // possible place around the 1 MiB chunk boundaries.
    const text: string[] = ['\ufeffid,text\r\n'];
    const rows: string[][] = [];
    const lines: number[] = [];
    let line = 2;
    for (let i = 0; i < 120_000; i++) {
      if (i % 11 === 0) {
        text.push('\r\n');
        line += 1;
      } else if (i % 7 === 0) {
        const value = `line one\nline "two",\r\n${'x'.repeat(i % 13)}`;
        text.push(`${i},"${value.replaceAll('"', '""')}"\r\n`);
        rows.push([String(i), value]);
        lines.push(line);
        line += 3;
      } else {
        text.push(`${i},plain ${'y'.repeat(i % 17)}\r\n`);
        rows.push([String(i), `plain ${'y'.repeat(i % 17)}`]);
        lines.push(line);
        line += 1;
      }
    }
    const bytes = Buffer.from(text.join(''));
    expect(bytes.length).toBeGreaterThan(2 * (1 << 20));
    const { table, errors } = readTable('author.csv', bytes);
    expect(errors).toEqual([]);
    expect(table.header).toEqual(['id', 'text']);
    expect(table.rows.length).toBe(rows.length);
    // Compared as text: a failing deep comparison of 100,000 rows takes minutes to print.
    expect(JSON.stringify(table.rows) === JSON.stringify(rows)).toBe(true);
    expect(table.lines.join() === lines.join()).toBe(true);
  });

  test('a chunk never ends inside a quoted field, even one that holds newlines', () => {
    const text = 'id,text\n1,"a\nb ""c""\n"\n2,d\n';
    // From inside the quoted field, the first newline with an even count of quotes before it ends row 1.
    expect(chunkEnd(text, 0, text.indexOf('a'))).toBe(text.indexOf('2,d'));
    expect(chunkEnd(text, 0, text.indexOf('2,d'))).toBe(text.length);
    expect(chunkEnd(text, 0, 0)).toBe(text.indexOf('1,'));
  });

  test('a stray quote past the first chunk is reported on its line', () => {
    const rows = Array.from({ length: 80_000 }, (_, i) => `${i},name ${i}`);
    rows[70_000] = '70000,"a"b';
    const { errors } = readTable('author.csv', Buffer.from(['id,text', ...rows].join('\n') + '\n'));
    expect(errors[0]?.line).toBe(70_002);
    expect(errors[0]?.message).toMatch(/^Invalid Closing Quote/);
  });
});
