// Load test on loopback: what a server costs per request of each kind.
//
//   npm run load [-- --authors N --duration S --connections C]
//   npm run load -- --against REV [--against REV…] [--rounds R] [--authors N --duration S --connections C]
//
// Builds a tree from a synthetic corpus (100,000 authors by default) and starts,
// each in its own process on a free 127.0.0.1 port: the compat server
// (`reflist serve`), `serve` on the plain files, json-server 0.17 on a db.json
// of the same authors, nginx with the tree's nginx.conf when
// /usr/sbin/nginx exists (handing Term to the compat server), the tree's
// _worker.js in workerd and its Netlify edge function in Deno. autocannon then drives each target for S seconds
// with C connections, one target at a time, and the table gives requests/s,
// p99 latency, errors and non-2xx answers, and the server's resident memory
// before and after. Load generator and servers share this machine's cores, so
// the figures compare targets; they are not a capacity plan.
//
// With --against, only compat servers run: this tree's and, for each REV, the
// one of that commit (cloned and built, as `npm run bench -- ab` does) or of a
// checkout (a folder holding lib/cli.js), over the same tree. Each round
// drives every server on each of their rows (a page file, the search files
// of the Terms, the Terms answered), the servers in a turned order each
// round, and the table gives each server's median requests/s and the median
// of its rounds' ratios to this tree's.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { build } from '../src/build.js';
import { fold } from '../src/client/fold.js';
import { bucketOf, bucketPath, MANIFEST, searchFileFor, searchPath } from '../src/client/paths.js';
import type { ListInfo, Manifest } from '../src/client/types.js';
import { freePort, nginxMainConf, tempDir, type Running } from '../test/helpers.js';
import { cliAt } from './bench-size.js';
import { startNetlifyDeno } from '../test/hosts/netlify.js';
import { startWorkerd } from '../test/hosts/workerd.js';
import { mulberry32 } from './sources/prng.js';
import { writeSynthetic } from './sources.js';

/** The part of autocannon's API used here (it ships no types). */
interface Result {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: { setupRequest: (req: Record<string, unknown>) => Record<string, unknown> }[];
}) => Promise<Result>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const NGINX = '/usr/sbin/nginx';
const ROOT = process.cwd();

interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Resident memory of a process and its descendants (nginx answers from its workers), in bytes. */
function rss(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  let total = 0;
  for (const p of tree) {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      total += Number(kb?.[1] ?? 0) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

async function start(name: string, command: string, args: string[], port: number, probe = '/'): Promise<Server> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    try {
      await fetch(url + probe);
      return { name, url, pid: child.pid!, stop: () => stopChild(child) };
    } catch {
      if (i > 300) throw new Error(`${name} did not answer on ${url} within 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A host's runtime started by the tests' launcher (workerd, Deno), as a target. */
async function adapter(name: string, launch: (tree: string) => Promise<Running>, tree: string): Promise<Server> {
  const running = await launch(tree);
  return { name, url: running.url.replace(/\/$/, ''), pid: running.pid!, stop: running.stop };
}

/** Cycles through paths, one per request. */
function cycle(paths: string[]): () => string {
  let i = 0;
  return () => paths[i++ % paths.length]!;
}

/** autocannon on `url` for `duration` seconds, each request's path the next of `next`. */
function drive(url: string, next: () => string, duration: number, connections: number): Promise<Result> {
  return autocannon({ url, connections, duration, requests: [{ setupRequest: (req) => ({ ...req, path: next() }) }] });
}

/** `lib/cli.js` of a checkout (a folder holding it) or of a commit, cloned and built. */
function cliOf(rev: string): string {
  if (existsSync(join(rev, 'lib/cli.js'))) return join(rev, 'lib/cli.js');
  const { cli, title } = cliAt(rev);
  console.log(`${rev}: ${title}`);
  return cli;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Each arm's compat server over `tree`, driven on every row in each round,
 * the arms in a turned order each round so that none always runs first (a
 * machine's load drifts); requests/s by arm and row, and each arm's ratios to
 * the first's, round by round.
 */
async function abRounds(
  arms: { name: string; cli: string }[],
  rows: [string, () => string][],
  tree: string,
  { rounds, duration, connections }: { rounds: number; duration: number; connections: number },
): Promise<void> {
  const servers: Server[] = [];
  try {
    for (const arm of arms) {
      const port = await freePort();
      const args = [arm.cli, 'serve', '--dir', tree, '--port', String(port), '--host', '127.0.0.1'];
      servers.push(await start(arm.name, process.execPath, args, port, '/lookup.json'));
    }
    const rates = rows.map(() => arms.map((): number[] => []));
    for (let round = 0; round < rounds; round++) {
      for (const [r, [row, next]] of rows.entries()) {
        for (let k = 0; k < arms.length; k++) {
          const a = (k + round) % arms.length;
          const result = await drive(servers[a]!.url, next, duration, connections);
          if (result.errors + result.timeouts + result.non2xx > 0)
            console.log(
              `  ${arms[a]!.name} ${row}: ${result.errors + result.timeouts} errors, ${result.non2xx} non-2xx`,
            );
          rates[r]![a]!.push(result.requests.average);
          console.log(`  round ${round + 1} ${row} ${arms[a]!.name}: ${Math.round(result.requests.average)} req/s`);
        }
      }
    }
    const int = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(`\n${connections} connections, ${duration} s a run, ${rounds} rounds, 127.0.0.1; A is this tree\n`);
    console.log(
      `| row | ${arms.map((a) => `${a.name} req/s`).join(' | ')} | ${arms
        .slice(1)
        .map((a) => `${a.name} / A by round (median)`)
        .join(' | ')} |`,
    );
    console.log(
      `|---|${arms.map(() => '---:|').join('')}${arms
        .slice(1)
        .map(() => '---|')
        .join('')}`,
    );
    for (const [r, [row]] of rows.entries()) {
      const ratios = arms.slice(1).map((_, i) => rates[r]![i + 1]!.map((x, round) => x / rates[r]![0]![round]!));
      console.log(
        `| ${row} | ${rates[r]!.map((xs) => int(median(xs))).join(' | ')} | ${ratios.map((xs) => `${xs.map((x) => x.toFixed(2)).join(', ')} (${median(xs).toFixed(2)})`).join(' | ')} |`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      authors: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      against: { type: 'string', multiple: true },
      rounds: { type: 'string', default: '3' },
    },
  });
  const [authors, duration, connections] = [
    Number(values.authors),
    Number(values.duration),
    Number(values.connections),
  ];
  const started = performance.now();

  execFileSync(process.execPath, ['scripts/compile.mjs'], { stdio: 'inherit' });
  const work = tempDir('reflist-load-');
  const sources = join(work, 'sources');
  const tree = join(work, 'dist');
  await writeSynthetic(sources, { authors });
  const [pc, ps, pj, pn] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  // nginx hands Term and Id to the compat server, as docs/hosts.md sets it up.
  const report = await build({ sources, out: tree, pageSize: 30, nginxUpstream: `http://127.0.0.1:${pc}` });
  console.log(
    `tree: ${report.files} files, ${(report.bytes / 1e6).toFixed(1)} MB from ${authors} authors (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  const rows = parse(readFileSync(join(sources, 'author.csv')), { columns: true, bom: true }) as {
    id: string;
    text: string;
  }[];
  const items = rows.map((r) => ({ id: Number(r.id), text: r.text }));
  writeFileSync(join(work, 'db.json'), JSON.stringify({ author: items }));
  const manifest = JSON.parse(readFileSync(join(tree, MANIFEST), 'utf8')) as Manifest;

  // Real ids and realistic Terms: the first 2 to 6 letters of a word start of a real name.
  const random = mulberry32(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const ids = Array.from({ length: 2000 }, () => pick(items).id);
  const terms = Array.from({ length: 2000 }, () => {
    const words = fold(pick(items).text).split(' ');
    const start = random() < 0.8 ? 0 : Math.floor(random() * words.length);
    return words
      .slice(start)
      .join(' ')
      .slice(0, 2 + Math.floor(random() * 5))
      .trim();
  }).filter((t) => t !== '');
  const { buckets, search, layout } = manifest.lists['author'] as ListInfo;
  const enc = encodeURIComponent;
  const searchFiles = terms.map((t) => '/' + searchPath('author', layout, search, searchFileFor(t, search)));

  if (values.against) {
    const arms = [
      { name: 'this tree', cli: 'lib/cli.js' },
      ...values.against.map((rev) => ({ name: rev, cli: cliOf(rev) })),
    ];
    const rows: [string, () => string][] = [
      ['/author/page/7.json', () => '/author/page/7.json'],
      ['search file of Term=…', cycle(searchFiles)],
      ['/author.json?Term=…', cycle(terms.map((t) => `/author.json?Term=${enc(t)}`))],
    ];
    await abRounds(arms, rows, tree, { rounds: Number(values.rounds), duration, connections });
    rmSync(work, { recursive: true, force: true });
    return;
  }

  const servers: Server[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop()));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    const compat = await start(
      'compat',
      process.execPath,
      ['lib/cli.js', 'serve', '--dir', tree, '--port', String(pc), '--host', '127.0.0.1'],
      pc,
      '/lookup.json',
    );
    servers.push(compat);
    const serve = await start(
      'serve',
      process.execPath,
      [
        join(ROOT, 'node_modules/serve/build/main.js'),
        '-L',
        '-n',
        '--no-port-switching',
        '-l',
        `tcp://127.0.0.1:${ps}`,
        tree,
      ],
      ps,
      '/lookup.json',
    );
    servers.push(serve);
    const json = await start(
      'json-server',
      process.execPath,
      [
        join(ROOT, 'node_modules/json-server/lib/cli/bin.js'),
        join(work, 'db.json'),
        '--port',
        String(pj),
        '--host',
        '127.0.0.1',
        '--quiet',
      ],
      pj,
      '/author/1',
    );
    servers.push(json);
    let nginx: Server | undefined;
    if (existsSync(NGINX)) {
      const prefix = join(work, 'nginx');
      mkdirSync(prefix);
      writeFileSync(join(prefix, 'nginx.conf'), nginxMainConf(prefix, tree, pn));
      nginx = await start(
        'nginx',
        NGINX,
        ['-c', join(prefix, 'nginx.conf'), '-p', prefix, '-e', join(prefix, 'error.log')],
        pn,
        '/lookup.json',
      );
      servers.push(nginx);
    } else console.log(`${NGINX} is missing: no nginx rows`);
    // The edge adapters in their hosts' own runtimes: _worker.js in workerd, the Netlify edge function in Deno.
    const workerd = await adapter('workerd', startWorkerd, tree);
    servers.push(workerd);
    const deno = await adapter('deno', startNetlifyDeno, tree);
    servers.push(deno);

    const targets: [string, Server, () => string][] = [
      ['compat  /author.json?Page=7', compat, () => '/author.json?Page=7'],
      ['compat  /author.json?Id=…', compat, cycle(ids.map((id) => `/author.json?Id=${id}`))],
      ['compat  /author.json?Term=…', compat, cycle(terms.map((t) => `/author.json?Term=${enc(t)}`))],
      ['compat  /author/page/7.json', compat, () => '/author/page/7.json'],
      ['compat  search file of Term=…', compat, cycle(searchFiles)],
      ['serve   /author/page/7.json', serve, () => '/author/page/7.json'],
      [
        'serve   id bucket of Id=…',
        serve,
        cycle(ids.map((id) => '/' + bucketPath('author', layout, buckets, bucketOf(String(id), buckets)))),
      ],
      ['serve   search file of Term=…', serve, cycle(searchFiles)],
      ['workerd _worker.js /author.json?Term=…', workerd, cycle(terms.map((t) => `/author.json?Term=${enc(t)}`))],
      ['workerd _worker.js /author.json?Id=…', workerd, cycle(ids.map((id) => `/author.json?Id=${id}`))],
      ['deno    _netlify/reflist.js /author.json?Term=…', deno, cycle(terms.map((t) => `/author.json?Term=${enc(t)}`))],
      ['json-server /author?_page=7&_limit=30', json, () => '/author?_page=7&_limit=30'],
      ['json-server /author/ID', json, cycle(ids.map((id) => `/author/${id}`))],
      [
        'json-server /author?q=…&_page=1&_limit=30',
        json,
        cycle(terms.map((t) => `/author?q=${enc(t)}&_page=1&_limit=30`)),
      ],
      ...(nginx
        ? ([
            ['nginx   /author.json?Page=7', nginx, () => '/author.json?Page=7'],
            ['nginx   /author/page/7.json', nginx, () => '/author/page/7.json'],
            ['nginx → compat /author.json?Term=…', nginx, cycle(terms.map((t) => `/author.json?Term=${enc(t)}`))],
          ] as [string, Server, () => string][])
        : []),
    ];

    const table: string[][] = [];
    for (const [name, server, next] of targets) {
      const before = rss(server.pid);
      const result = await drive(server.url, next, duration, connections);
      const after = rss(server.pid);
      const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
      table.push([
        name,
        Math.round(result.requests.average).toLocaleString('en-US'),
        `${result.latency.p99} ms`,
        `${result.errors + result.timeouts}/${result.non2xx}`,
        mib(before),
        mib(after),
      ]);
      console.log(`  ${name}: ${Math.round(result.requests.average)} req/s`);
    }
    const head = ['target', 'req/s', 'p99', 'errors/non-2xx', 'RSS before', 'RSS after'];
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
    console.log(`\n${connections} connections, ${duration} s a target, 127.0.0.1, ${authors} authors\n`);
    console.log(line(head));
    console.log('|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
    for (const row of table) console.log(line(row));
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
