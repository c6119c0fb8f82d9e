// What `reflist dev` watches: the config's folder and each folder below it
// that a declared source lies in (`sub/author.csv`), each folder alone. A
// save wherever a source lies starts a build, and nothing else below the
// config's folder (node_modules, the build's .reflist/) is walked or watched.
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { sourceFiles } from '../config/declaration.js';
import { CONFIG_FILE, readDeclaration } from '../config/load.js';

export interface Inputs {
  /** Whether a change of this path below the config's folder, with `/` (`sub/author.csv`), may change the build. */
  isInput(file: string): boolean;
  /** The folders the inputs lie in, below the config's folder (`''` is that folder); none while the config cannot be read. */
  folders?: string[];
}

/** The folders on the way to a file: `a/b/x.csv` → `a`, `a/b`. */
const foldersOf = (file: string): string[] =>
  file
    .split('/')
    .slice(0, -1)
    .map((_, i, parts) => parts.slice(0, i + 1).join('/'));

/**
 * The paths whose change may change the build, as the config names them: the
 * config, the sources it declares and the folders on the way to them (a
 * folder made anew may bring a source with it), or, while the config cannot
 * be read, every CSV file the build would warn of. An editor's `.#author.csv`
 * lock or a note is none of them.
 */
export function buildInputs(sources: string, config: string | undefined): Inputs {
  const configName = config === undefined ? CONFIG_FILE : basename(config);
  try {
    const files = sourceFiles(readDeclaration(sources, config).declaration).map((s) => s.file);
    const folders = [...new Set(files.flatMap(foldersOf))];
    const inputs = new Set([configName, ...files, ...folders]);
    return { isInput: (file) => inputs.has(file), folders: ['', ...folders] };
  } catch {
    return {
      isInput: (file) =>
        file === configName ||
        (file.endsWith('.csv') && !file.split('/').some((part) => part.startsWith('.') || part === 'node_modules')),
    };
  }
}

/**
 * Watches folders below `root`, each alone, and tells `onChange` the path
 * below `root` that changed (null where the system names none). `watch`
 * changes the folders watched; a folder that is not there (yet) is watched
 * through its nearest parent that is, whose change names it.
 */
export function watchFolders(
  root: string,
  onChange: (file: string | null) => void,
  onError: (folder: string, err: Error) => void,
) {
  const watchers = new Map<string, FSWatcher>();
  const present = (folder: string): string =>
    folder === '' || statSync(join(root, folder), { throwIfNoEntry: false })?.isDirectory()
      ? folder
      : present(posix.dirname(folder).replace(/^\.$/, ''));
  return {
    watch(folders: readonly string[]): void {
      const wanted = new Set(folders.map(present));
      for (const [folder, watcher] of watchers) {
        if (!wanted.has(folder)) {
          watcher.close();
          watchers.delete(folder);
        }
      }
      for (const folder of wanted) {
        if (watchers.has(folder)) continue;
        try {
          const watcher = watch(join(root, folder), (_event, name) =>
            onChange(name === null ? null : folder === '' ? name : `${folder}/${name}`),
          );
          watcher.on('error', (err) => {
            watchers.delete(folder);
            onError(folder, err);
          });
          watchers.set(folder, watcher);
        } catch {
          // Removed since: its parent's change starts a build, which watches again.
        }
      }
    },
    close(): void {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * The watch loop: the config's folder and the folders its sources lie in are
 * watched, and each change of an input is passed to `onInput`. `refresh`
 * reads the config again and watches the folders it names now; dev calls it
 * before each build reads them, so that a save during the build is built after it.
 */
export function watchInputs(
  sources: string,
  config: string | undefined,
  onInput: (file: string) => void,
  onError: (folder: string, err: Error) => void,
) {
  // The folder of the config and its sources (a missing --config is the first build's error).
  const root = config === undefined ? sources : dirname(config);
  let inputs = buildInputs(sources, config);
  let folders = [''];
  const watcher = watchFolders(
    root,
    (file) => {
      // Linux and macOS always name the file; elsewhere a change without a name may be a source's.
      if (file === null || inputs.isInput(file)) onInput(file ?? 'a source');
    },
    (folder, err) => onError(join(root, folder), err),
  );
  return {
    refresh(): void {
      inputs = buildInputs(sources, config);
      folders = inputs.folders ?? folders;
      watcher.watch(folders);
    },
    close: (): void => watcher.close(),
  };
}
