// A tree built from some sources and asked as a page asks, through the client
// it carries: every file the client reads recorded, every answer held to the
// declared reference's (test/reference-declared.ts).
import { expect } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SearchTuning } from '../src/build.js';
import { checkConfig } from '../src/config/declaration.js';
import { buildFrom, treeClient } from './helpers.js';
import { createDeclaredReference } from './reference-declared.js';

const declarationOf = (config: string) => checkConfig(JSON.parse(config), 'reflist.config.json').declaration!;

/**
 * A tree built from `files` with its search files cut as `search` says, and
 * its client, asked as a page asks: every file it reads (in `read`), every
 * answer held to the reference's.
 */
export async function askedOf(files: Record<string, string>, out: string, pageSize: number, search: SearchTuning) {
  await buildFrom(files, out, pageSize, search);
  const read: string[] = [];
  const client = await treeClient(out, {
    baseUrl: pathToFileURL(`${out}/`),
    fetch: async (url) => {
      read.push(url);
      const data = await readFile(fileURLToPath(url)).catch(() => undefined);
      return {
        ok: data !== undefined,
        status: data ? 200 : 404,
        text: async () => data!.toString('utf8'),
        arrayBuffer: async () => data!.buffer.slice(data!.byteOffset, data!.byteOffset + data!.byteLength),
      };
    },
  });
  const reference = createDeclaredReference(declarationOf(files['reflist.config.json']!), files, pageSize);
  const answer = async (url: string) => {
    const { status, body } = await client.request(url);
    expect({ status, body }, url).toEqual(reference(url));
  };
  return { read, answer };
}
