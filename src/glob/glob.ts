/**
 * Glob matching with picomatch's POSIX build: micromatch (which wraps the same
 * engine) needs Node's `util`/`path` and `process` at load time, picomatch does
 * not, so the core stays runtime-neutral and behaves the same on every host.
 */
import picomatch from 'picomatch/posix.js';
import { VfsError } from '../errors.ts';

export type PathMatcher = (relativePath: string) => boolean;

/**
 * Compiles a glob once. Dotfiles are included. With `basenameIfNoSlash`, a
 * pattern without "/" matches the last segment at any depth (grep's `glob`); with
 * `ignoreCase`, letters match either case.
 */
export function compileGlob(pattern: string, options: { basenameIfNoSlash?: boolean; ignoreCase?: boolean } = {}): PathMatcher {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new VfsError('EINVAL', 'The glob pattern is empty. Use "**/*" to match every file.');
  }
  const basename = options.basenameIfNoSlash === true && !pattern.includes('/');
  try {
    // posix: a leading "!" in a class negates it, as in sh ("[!a]" = "[^a]"). Without it picomatch
    // reads "!" as a member, so "[!a]" matched exactly the names it should exclude (picomatch #187).
    return picomatch(pattern, { dot: true, basename, posix: true, nocase: options.ignoreCase === true });
  } catch (cause) {
    throw new VfsError('EINVAL', `Invalid glob pattern ${JSON.stringify(pattern)}: ${(cause as Error).message}`, { cause });
  }
}
