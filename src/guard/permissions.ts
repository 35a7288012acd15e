/**
 * permissions.read / permissions.write compiled to path tests. A path is readable (writable)
 * when it matches one of the globs, or when the list is absent. A directory may be listed or
 * searched when something readable could lie inside it, so `ls /` works with `read: ['/src/**']`
 * and shows only `/src`; its results are then filtered path by path.
 */
import { compileGlob } from '../glob/glob.ts';
import { VfsError } from '../errors.ts';
import { checkGlobs } from './options.ts';
import type { Permissions } from './types.ts';

export interface PathRules {
  /** False when every path may be read (no read list). */
  readonly limitsRead: boolean;
  canRead(path: string): boolean;
  canWrite(path: string): boolean;
  /** `dir` is readable, or some read glob could match a path inside it. */
  mayHoldReadable(dir: string): boolean;
  /** Throws EACCES naming the rule unless `path` is readable. */
  requireRead(path: string): void;
  /** Throws EACCES naming the rule unless `dir` may hold readable paths. */
  requireSearchable(dir: string): void;
  /** Throws EACCES naming the rule unless `path` is writable. */
  requireWrite(path: string): void;
  /**
   * Throws EACCES unless every one of `paths` (inside `dir`, which a call moves or removes) may be
   * read or written: the refusal names `dir`, never a path inside it the session may not see.
   */
  requireEach(dir: string, paths: Iterable<string>, kind: 'read' | 'write', what: string): void;
}

interface Rule {
  readonly globs: readonly string[];
  readonly test: (path: string) => boolean;
  /** Per glob: could it match a path inside this directory? */
  readonly within: readonly ((dir: string) => boolean)[];
}

export function compilePermissions(permissions: Permissions | undefined): PathRules {
  const read = compileRule(permissions?.read, 'read');
  const write = compileRule(permissions?.write, 'write');
  const canRead = (path: string) => read === null || read.test(path);
  const mayHoldReadable = (dir: string) => read === null || read.test(dir) || read.within.some((within) => within(dir));
  const refuse = (path: string, kind: 'read' | 'write', rule: Rule, what: string): never => {
    const list = rule.globs.map((g) => JSON.stringify(g)).join(', ');
    throw new VfsError(
      'EACCES',
      `${path} is outside the paths this tool set may ${kind} (permissions.${kind}: ${list}). Nothing was ${what}. Use a path that matches one of them.`,
      { path },
    );
  };
  return {
    limitsRead: read !== null,
    canRead,
    canWrite: (path) => write === null || write.test(path),
    mayHoldReadable,
    requireRead(path) {
      if (!canRead(path)) refuse(path, 'read', read!, 'read');
    },
    requireSearchable(dir) {
      if (!mayHoldReadable(dir)) refuse(dir, 'read', read!, 'read');
    },
    requireWrite(path) {
      if (write !== null && !write.test(path)) refuse(path, 'write', write, 'written');
    },
    requireEach(dir, paths, kind, what) {
      const rule = kind === 'read' ? read : write;
      if (rule === null) return;
      for (const path of paths) {
        if (rule.test(path)) continue;
        const list = rule.globs.map((g) => JSON.stringify(g)).join(', ');
        throw new VfsError(
          'EACCES',
          `${dir} holds paths outside those this tool set may ${kind} (permissions.${kind}: ${list}). Nothing was ${what}. Leave it as it is, or ${what === 'moved' ? 'move' : 'remove'} only paths that match them.`,
          { path: dir },
        );
      }
    },
  };
}

/**
 * The rules as a call that writes meets them: a path it may not write is refused by the write
 * rule, readable or not, so the model is not sent to read a path it still may not write (no
 * ENOTREAD "read it first" for a file only the write rule keeps it from changing).
 */
export function forWriting(rules: PathRules): PathRules {
  return {
    ...rules,
    requireRead(path) {
      rules.requireWrite(path);
      rules.requireRead(path);
    },
  };
}

function compileRule(globs: unknown, kind: 'read' | 'write'): Rule | null {
  if (globs === undefined) return null;
  checkGlobs(globs, kind);
  const list = globs as string[];
  // The same options as the glob tool: dotfiles match, and "[!a]" negates as in sh.
  const tests = list.map((glob) => compileGlob(glob));
  const test = (path: string) => tests.some((t) => t(path));
  return { globs: list, test, within: list.map(matchesWithin) };
}

/**
 * For `glob`, a test of whether it could match some path inside a directory: the directory's
 * names each match the glob's segment at that depth, and the glob goes deeper (or reaches a
 * `**`). So "/src/*.ts" reaches into "/src" but not "/src/private". A glob whose braces or
 * extglobs hold a "/" cannot be cut into segments: it may reach anywhere under its literal start.
 */
function matchesWithin(glob: string): (dir: string) => boolean {
  const segments = glob.split('/').slice(1);
  if (slashInGroup(glob)) {
    const literal = segments.slice(
      0,
      Math.max(
        0,
        segments.findIndex((s) => /[*?[\]{}()!+@]/.test(s)),
      ),
    );
    const start = `/${literal.join('/')}`;
    return (dir) => dir === '/' || start === '/' || dir === start || dir.startsWith(`${start}/`) || start.startsWith(`${dir}/`);
  }
  // An empty segment ("/src//a", "/src/") matches no name: paths have no empty segments.
  const tests = segments.map((s) => (s.includes('**') ? null : s === '' ? () => false : compileGlob(s)));
  return (dir) => {
    const names = dir === '/' ? [] : dir.slice(1).split('/');
    for (let i = 0; i < names.length; i++) {
      if (i >= tests.length) return false;
      const test = tests[i] as ((name: string) => boolean) | null;
      if (test === null) return true; // ** may stand for the rest of the directory and more
      if (!test(names[i]!)) return false;
    }
    return tests.length > names.length;
  };
}

/** Whether a "/" stands inside braces, parentheses or brackets (at any depth, escapes skipped). */
function slashInGroup(glob: string): boolean {
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{' || c === '(' || c === '[') depth++;
    else if ((c === '}' || c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '/' && depth > 0) return true;
  }
  return false;
}
