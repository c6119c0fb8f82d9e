// The static hosts a tree is for, and what each refuses, in one table
// (docs/hosts.md gives each figure's source): the names `--host` and the
// config's `host` take, and the caps write/fit.ts holds a tree to. A
// declaration names a host, so the table comes before every stage.

const MiB = 1024 ** 2;

/** What a static host refuses: a deploy over any of these fails there. */
export interface Host {
  /** As `--host` and the config's `host` name it. */
  name: string;
  /** As a person calls it, in messages. */
  title: string;
  /** Files a site may hold. */
  files?: number;
  /** Bytes one file may hold. */
  fileBytes?: number;
  /** Entries (files and folders) one folder may hold. */
  folderEntries?: number;
  /** Bytes a site may hold. */
  siteBytes?: number;
  /** Root files the host reads as its settings, not counted among its files. */
  settings?: readonly string[];
}

/** wrangler's own list: the files `wrangler pages deploy` reads as settings rather than uploads. */
const PAGES_SETTINGS = ['_worker.js', '_redirects', '_headers', '_routes.json'];

/** The hosts `--host` knows. Every one of them stores a tree's `.gz`/`.br` copies as files of their own. */
const TABLE = {
  'github-pages': { name: 'github-pages', title: 'GitHub Pages', siteBytes: 1e9 },
  'cloudflare-pages': {
    name: 'cloudflare-pages',
    title: 'Cloudflare Pages',
    files: 100_000,
    fileBytes: 25 * MiB,
    settings: PAGES_SETTINGS,
  },
  'cloudflare-pages-free': {
    name: 'cloudflare-pages-free',
    title: "Cloudflare Pages' free plan",
    files: 20_000,
    fileBytes: 25 * MiB,
    settings: PAGES_SETTINGS,
  },
  netlify: { name: 'netlify', title: 'Netlify', folderEntries: 54_000 },
  s3: { name: 's3', title: 'Amazon S3', fileBytes: 5 * 1024 * MiB },
  r2: { name: 'r2', title: 'Cloudflare R2', fileBytes: 5 * 1024 * MiB },
} as const satisfies Record<string, Host>;

export type HostName = keyof typeof TABLE;
export const HOSTS: Readonly<Record<HostName, Host>> = TABLE;
export const HOST_NAMES = Object.keys(HOSTS) as HostName[];
export const isHostName = (name: string): name is HostName => Object.hasOwn(HOSTS, name);
