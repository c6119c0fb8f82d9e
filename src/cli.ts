// The command line: declares options, validates them once, and runs a stage.
// `run` takes argv and the output streams and returns an exit code, so tests drive it.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { DEFAULT_PAGE_SIZE } from './build.js';
import { buildWithin, MEMORY } from './commands/build-process.js';
import { buildReport } from './commands/report.js';
import { startDev, type DevOptions } from './commands/dev.js';
import { didYouMean, errorLines, ReflistError, ReflistErrors } from './errors.js';
import { init, ownVersion } from './commands/init.js';
import { createProgress, type Io } from './progress.js';
import { checkTree, createCompatServer, listen } from './commands/serve.js';
import { types, TYPES_FILE, type TypesOptions } from './commands/types.js';
import { HOST_NAMES, isHostName, type HostName } from './config/hosts.js';
import { PAGE_SIZE } from './config/schema.js';

export type { Io } from './progress.js';

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`${name}: expected an integer from ${min} to ${max}, got "${value}"`);
    }
    return Number(value);
  };
}

/** An http(s) origin, written into nginx.conf: nothing but scheme, host and port gets through. */
function origin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  ) {
    throw new InvalidArgumentError(`--nginx-upstream: expected an origin like http://127.0.0.1:8081, got "${value}"`);
  }
  return url.origin;
}

function hostName(value: string): HostName {
  if (!isHostName(value))
    throw new InvalidArgumentError(
      `--host: expected one of ${HOST_NAMES.join(', ')}, got "${value}"${didYouMean(value, HOST_NAMES)}`,
    );
  return value;
}

/** `reflist init [dir]`: a project of one's own lists. */
function initCommand(program: Command, io: Io): void {
  program
    .command('init')
    .description('start a project of your own lists: example sources, package.json, a GitHub Pages workflow, a README')
    .argument('[dir]', 'the project folder, created if missing', '.')
    .option(
      '--preset <name>',
      'the lists to start from: example (institutions by country, a taxonomy with counts) or lookup-service (the original lookup service)',
      'example',
    )
    .addHelpText(
      'after',
      `
Writes sources/reflist.config.json (the lists, docs/lists.md) and sources/*.csv (a few
example rows of every list), package.json (scripts build, dev,
serve, types), .github/workflows/pages.yml, README.md, .gitignore and vendor/reflist-VERSION.tgz
(this reflist, which package.json installs). If any of them exists,
it writes nothing and names them. Then: npm install, npm run build.
`,
    )
    .action((dir: string, opts: { preset: string }) => init(dir, io, opts.preset));
}

/** `reflist build`: the tree from the sources, and its report. */
function buildCommand(program: Command, io: Io): void {
  program
    .command('build')
    .description('build the static tree from the source CSVs; on any error nothing is written')
    .option('--sources <dir>', 'folder of the source CSV files and their reflist.config.json', 'sources')
    .option('--config <file>', 'the config declaring the lists, when not in --sources; sources are read relative to it')
    .option(
      '--out <dir>',
      "output folder, replaced whole when the build succeeds: a link into .reflist/, the build's state",
      'dist',
    )
    .option(
      '--page-size <n>',
      `items per page of every paged list (default: the config's pageSize, else ${DEFAULT_PAGE_SIZE})`,
      integer('--page-size', PAGE_SIZE.minimum, PAGE_SIZE.maximum),
    )
    .option('--compress', 'also write .gz and .br copies of JSON, JS and HTML files, for hosts that serve them')
    .option(
      '--nginx-upstream <url>',
      'nginx.conf hands Term, Id and child requests to `reflist serve` at this origin',
      origin,
    )
    .option(
      '--host <name>',
      `the host the tree is for (default: the config's host): a tree over its caps fails and the served one stays; one of ${HOST_NAMES.join(', ')}`,
      hostName,
    )
    .option(
      '--memory <MB>',
      "the build's memory budget: the most its heap may hold; a build that needs more stops and says so, the served tree as it was",
      integer('--memory', MEMORY.minimum, MEMORY.maximum),
      MEMORY.default,
    )
    .option('-q, --quiet', 'print nothing but errors')
    .action(
      async ({
        memory,
        quiet,
        ...opts
      }: {
        sources: string;
        config?: string;
        out: string;
        pageSize?: number;
        compress?: boolean;
        nginxUpstream?: string;
        host?: HostName;
        memory: number;
        quiet?: boolean;
      }) => {
        const say = quiet ? () => {} : io.stdout;
        const progress = createProgress(quiet ? undefined : io.progress);
        // Within its budget: a build that outgrows it fails with one sentence, not V8's abort.
        const { report, peak } = await buildWithin(opts, memory, {
          log: (line) => say(line + '\n'),
          warn: (line) => io.stderr(`warning: ${line}\n`),
          progress,
        });
        for (const line of buildReport(report, opts.out, peak)) say(`${line}\n`);
      },
    );
}

/** `reflist types`: the declared lists as TypeScript types. */
function typesCommand(program: Command, io: Io): void {
  program
    .command('types')
    .description("write the declared lists' types, so that reflist/client types each answer by its URL")
    .option('--sources <dir>', 'folder of the source CSV files and their reflist.config.json', 'sources')
    .option('--config <file>', 'the config declaring the lists, when not in --sources')
    .option('--out <file>', 'the .d.ts file to write', TYPES_FILE)
    .addHelpText(
      'after',
      `
Writes, from the config a build reads, each list's item type (its keys in
order: id a number or a string, label a string, fields by type, count where
the list has counts, its children) and Lists, each list's shape, paths and
item. A page or app imports it for the client:

  import { createLookupClient } from 'reflist/client';
  import type { Lists } from './${TYPES_FILE.replace(/\.d\.ts$/, '.js')}';
  const client = createLookupClient<Lists>({ baseUrl: '/lookup/' });

Then client.request('/city.json?Term=ber') answers an envelope of CityItem,
and a path no list has does not compile. Run it again after editing the
config; with any error in the config, nothing is written.
`,
    )
    .action((opts: TypesOptions) => types(opts, io));
}

/** `reflist serve`: a built tree, and the original query-string URLs. */
function serveCommand(program: Command, io: Io): void {
  program
    .command('serve')
    .description('serve a built tree, also answering the original query-string URLs (with CORS)')
    .option('--dir <dir>', 'the built tree', 'dist')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integer('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (opts: { dir: string; port: number; host: string }) => {
      checkTree(opts.dir);
      const port = await listen(createCompatServer({ dir: opts.dir }), opts.port, opts.host);
      io.stdout(`serving ${opts.dir} at http://${opts.host}:${port}/\n`);
      await new Promise<void>(() => {}); // until the process is stopped
    });
}

/** `reflist dev`: build, serve and rebuild on every change. */
function devCommand(program: Command, io: Io): void {
  program
    .command('dev')
    .description('build, serve the tree and the drop-down demo, and rebuild when a source changes; Ctrl-C stops')
    .option('--sources <dir>', 'folder of the source CSV files and their reflist.config.json, watched', 'sources')
    .option(
      '--config <file>',
      'the config declaring the lists, when not in --sources; watched, with the sources beside it',
    )
    .option('--out <dir>', 'output folder, replaced by each build that succeeds', 'dist')
    .option('--port <n>', 'port to listen on (0 picks a free one)', integer('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--page-size <n>',
      `items per page of every paged list (default: the config's pageSize, else ${DEFAULT_PAGE_SIZE})`,
      integer('--page-size', PAGE_SIZE.minimum, PAGE_SIZE.maximum),
    )
    .action(async (opts: DevOptions) => {
      const dev = await startDev(opts, io);
      // Until Ctrl-C or SIGTERM; a second one while closing stops the process at once (Node's default).
      await new Promise<void>((stopped) => {
        const stop = () => {
          process.off('SIGINT', stop).off('SIGTERM', stop);
          stopped();
        };
        process.on('SIGINT', stop).on('SIGTERM', stop);
      });
      await dev.close();
    });
}

export async function run(argv: string[], io: Io): Promise<number> {
  let exit = 0;
  const program = new Command('reflist')
    .description(
      'Turn CSV reference lists into a static JSON lookup API for drop-downs (select2, react-select, Tom Select, Choices.js), served by any static host.',
    )
    .version(ownVersion(), '-V, --version', "print reflist's version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showSuggestionAfterError(true);

  initCommand(program, io);
  buildCommand(program, io);
  typesCommand(program, io);
  serveCommand(program, io);
  devCommand(program, io);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) exit = err.exitCode === 0 ? 0 : 2;
    else if (err instanceof ReflistErrors) {
      for (const line of errorLines(err)) io.stderr(`${line}\n`);
      io.stderr(
        `build failed with ${err.errors.length} error${err.errors.length > 1 ? 's' : ''}; nothing was written\n`,
      );
      exit = 1;
    } else if (err instanceof ReflistError) {
      for (const line of errorLines(err)) io.stderr(`${line}\n`);
      exit = 1;
    } else throw err;
  }
  return exit;
}
