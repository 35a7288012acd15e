/**
 * Which files .gitignore rules (and the default ignores of .git/ and node_modules/) leave out
 * of glob, grep and ls. Kept beside the tree, like grep's filters: the verdict of every file is
 * worked out once per state of the tree (its file list and the content of its .gitignore files)
 * and read by position afterwards (and kept by path while the rules are unchanged, so a new file
 * costs a lookup per file), and a tree with no .gitignore and nothing under .git/ or node_modules/
 * gives no flags: the search loops then do what they did without ignore rules.
 */
import { ancestorsOf, baseName, parentOf, relativeTo } from '../paths.ts';
import { decodeText } from '../text.ts';
import { contentKey, type FileList, type Meta } from '../backend/tree.ts';
import { compileMatcher, DEFAULT_IGNORED_DIRS, type IgnoreMatcher, rebasePatterns } from './gitignore-rules.ts';

/** What the rules read of the tree. */
export interface IgnoredTree {
  fileListUnder(path: string): FileList;
  get(path: string): Meta | undefined;
  view(path: string): Uint8Array;
}

const GITIGNORE = '.gitignore';

export class GitIgnores {
  // The tree's whole sorted file list the verdicts below were made for (it is kept until a file is created or removed).
  #paths: readonly string[] | null = null;
  // Its .gitignore files, in path order, and their content keys when #flags was made.
  #sources: string[] = [];
  // The directory of each .gitignore, to its position in #sources.
  #sourceDirs = new Map<string, number>();
  #keys: Meta[] = [];
  // Some file is under a directory named .git or node_modules.
  #defaultsApply = false;
  // Per file of #paths, 1 when ignored; null when nothing is.
  #flags: Uint8Array | null = null;
  // Rewritten patterns per .gitignore content, and a matcher per chain of .gitignore files (by the innermost one's directory).
  readonly #patterns = new WeakMap<Meta, { dir: string; patterns: string[] }>();
  #matchers = new Map<string, { keys: Meta[]; matcher: IgnoreMatcher }>();
  // Verdicts by absolute path (directories with a trailing "/"), while the rules are unchanged.
  readonly #verdicts = new Map<string, boolean>();

  /**
   * Per file of `list` (a run of the tree's file list, as fileListUnder gives it for `base`),
   * 1 when the rules leave it out; null when they leave out none. A `base` that is itself
   * ignored (or inside an ignored directory) is searched as asked, with the rules applying beneath it.
   */
  flagsFor(tree: IgnoredTree, list: FileList, base: string): Uint8Array | null {
    if (tree.get(base)?.kind !== 'dir') return null; // a file named on purpose is searched
    this.#refresh(tree);
    if (this.#flags === null) return null;
    if (base !== '/' && this.#verdict(`${base}/`)) return this.#flagsBeneath(list.paths, base);
    return this.#flags.subarray(list.offset, list.offset + list.paths.length);
  }

  /** Per entry of directory `dir`, whether the rules leave it out (the same rules for an ignored `dir` as flagsFor). */
  entriesIgnored(tree: IgnoredTree, dir: string, entries: readonly { path: string; isDir: boolean }[]): boolean[] {
    this.#refresh(tree);
    if (this.#sources.length === 0) return entries.map((e) => e.isDir && DEFAULT_IGNORED_DIRS.has(baseName(e.path)));
    if (dir !== '/' && this.#verdict(`${dir}/`)) {
      const rescued = this.#rescuedMatcher(dir);
      return entries.map((e) => rescued.ignores(relativeTo(e.path, '/') + (e.isDir ? '/' : '')));
    }
    return entries.map((e) => this.#verdict(e.isDir ? `${e.path}/` : e.path));
  }

  #refresh(tree: IgnoredTree): void {
    const root = tree.fileListUnder('/');
    const listChanged = root.paths !== this.#paths;
    const sources = this.#sources;
    if (listChanged) {
      this.#paths = root.paths;
      this.#sources = [];
      this.#defaultsApply = false;
      for (const path of root.paths) {
        if (path.endsWith(`/${GITIGNORE}`)) this.#sources.push(path);
        if (!this.#defaultsApply && (path.includes('/node_modules/') || path.includes('/.git/'))) this.#defaultsApply = true;
      }
      this.#sourceDirs = new Map(this.#sources.map((s, i) => [parentOf(s), i]));
      for (const dir of this.#matchers.keys()) if (dir !== '' && !this.#sourceDirs.has(`/${dir}`)) this.#matchers.delete(dir);
    }
    const keys = this.#sources.map((s) => contentKey(tree.get(s)!));
    const sameRules = keys.length === this.#keys.length && keys.every((k, i) => k === this.#keys[i] && this.#sources[i] === sources[i]);
    if (sameRules && !listChanged) return; // nothing the verdicts depend on changed
    if (!sameRules) {
      this.#forgetBeneath(changedDirs(sources, this.#keys, this.#sources, keys));
      this.#keys = keys;
      for (let i = 0; i < this.#sources.length; i++) this.#compilePatterns(tree, this.#sources[i]!, keys[i]!);
    } else if (this.#verdicts.size > 2 * root.paths.length) this.#verdicts.clear(); // paths long gone
    this.#flags = this.#sources.length === 0 && !this.#defaultsApply ? null : this.#computeFlags(root.paths);
  }

  /** Drops the verdicts a .gitignore in one of `dirs` decides: those of paths beneath it. */
  #forgetBeneath(dirs: readonly string[]): void {
    if (dirs.includes('/')) {
      this.#verdicts.clear();
      return;
    }
    const prefixes = dirs.map((d) => `${d}/`);
    for (const path of this.#verdicts.keys()) if (prefixes.some((p) => path.startsWith(p))) this.#verdicts.delete(path);
  }

  #compilePatterns(tree: IgnoredTree, path: string, key: Meta): void {
    const dir = relativeTo(parentOf(path), '/');
    if (this.#patterns.get(key)?.dir === dir) return;
    this.#patterns.set(key, { dir, patterns: rebasePatterns({ dir, text: decodeText(tree.view(path)) }) });
  }

  #computeFlags(paths: readonly string[]): Uint8Array | null {
    const flags = new Uint8Array(paths.length);
    const verdicts = this.#verdicts;
    let any = false;
    let dir: string | null = null;
    let matcher: IgnoreMatcher | null = null; // dir's, made when a verdict is not known
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i]!;
      const d = parentOf(path);
      if (d !== dir) {
        dir = d;
        matcher = null;
        if (d !== '/' && this.#verdict(`${d}/`)) {
          // Everything beneath an excluded directory is excluded: one run in path order.
          const prefix = `${d}/`;
          flags[i] = 1;
          while (i + 1 < paths.length && paths[i + 1]!.startsWith(prefix)) flags[++i] = 1;
          any = true;
          dir = null;
          continue;
        }
      }
      // Known verdicts are kept while the rules are unchanged: a file created elsewhere costs a lookup per file.
      let ignored = verdicts.get(path);
      if (ignored === undefined) verdicts.set(path, (ignored = (matcher ??= this.#matcherFor(d)).ignores(path.slice(1))));
      if (ignored) {
        flags[i] = 1;
        any = true;
      }
    }
    return any ? flags : null;
  }

  /** Whether `path` (absolute; a directory with a trailing "/") is excluded, remembered while the rules are unchanged. */
  #verdict(path: string): boolean {
    let ignored = this.#verdicts.get(path);
    if (ignored === undefined) {
      const dir = parentOf(path.endsWith('/') ? path.slice(0, -1) : path);
      this.#verdicts.set(path, (ignored = this.#matcherFor(dir).ignores(path.slice(1))));
    }
    return ignored;
  }

  /** Flags of `paths` (all beneath the ignored directory `base`), with `base` and its ancestors rescued. */
  #flagsBeneath(paths: readonly string[], base: string): Uint8Array {
    // By the innermost .gitignore that applies (null: none), as #matcherFor shares them.
    const rescued = new Map<Meta | null, IgnoreMatcher>();
    const flags = new Uint8Array(paths.length);
    let dir: string | null = null;
    let matcher: IgnoreMatcher | null = null;
    for (let i = 0; i < paths.length; i++) {
      const d = parentOf(paths[i]!);
      if (d !== dir) {
        dir = d;
        const innermost = this.#chain(d).at(-1) ?? null;
        matcher = rescued.get(innermost) ?? null;
        if (matcher === null) rescued.set(innermost, (matcher = this.#rescuedMatcher(d, base)));
      }
      if (matcher!.ignores(paths[i]!.slice(1))) flags[i] = 1;
    }
    return flags;
  }

  /** A matcher for paths directly in `dir`, under which `base` (and its ancestors) count as not excluded. */
  #rescuedMatcher(dir: string, base = dir): IgnoreMatcher {
    const rescued = [...ancestorsOf(base), base].map((d) => d.slice(1));
    return compileMatcher(
      this.#chain(dir).map((key) => this.#patterns.get(key)!.patterns),
      rescued,
    );
  }

  /** The content keys of the .gitignore files that apply beneath `dir`, outermost first. */
  #chain(dir: string): Meta[] {
    const keys: Meta[] = [];
    for (const d of dir === '/' ? ['/'] : ['/', ...ancestorsOf(dir), dir]) {
      const at = this.#sourceDirs.get(d);
      if (at !== undefined) keys.push(this.#keys[at]!);
    }
    return keys;
  }

  /** The matcher for paths directly in `dir`, shared by every directory with the same innermost .gitignore and kept while those files are unchanged. */
  #matcherFor(dir: string): IgnoreMatcher {
    const keys = this.#chain(dir);
    const innermost = keys.length === 0 ? '' : this.#patterns.get(keys[keys.length - 1]!)!.dir;
    const known = this.#matchers.get(innermost);
    if (known !== undefined && known.keys.length === keys.length && known.keys.every((k, i) => k === keys[i])) return known.matcher;
    const matcher = compileMatcher(keys.map((key) => this.#patterns.get(key)!.patterns));
    this.#matchers.set(innermost, { keys, matcher });
    return matcher;
  }
}

/** Directories whose .gitignore was added, removed or changed between two lists of sources and their content keys. */
function changedDirs(before: readonly string[], beforeKeys: readonly Meta[], after: readonly string[], afterKeys: readonly Meta[]): string[] {
  const old = new Map(before.map((s, i) => [s, beforeKeys[i]]));
  const dirs: string[] = [];
  after.forEach((s, i) => {
    if (old.get(s) !== afterKeys[i]) dirs.push(parentOf(s));
    old.delete(s);
  });
  for (const s of old.keys()) dirs.push(parentOf(s));
  return dirs;
}
