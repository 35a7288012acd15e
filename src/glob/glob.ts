/**
 * Glob matching with picomatch's POSIX build: micromatch (which wraps the same
 * engine) needs Node's `util`/`path` and `process` at load time, picomatch does
 * not, so the core stays runtime-neutral and behaves the same on every host.
 *
 * picomatch's regular expressions backtrack: `*a*a*a*a*b` against a long name took
 * seconds, then minutes, blocking the thread (an agent chooses both the pattern and
 * the names). So each one runs on grep's matcher instead, which keeps a JS RegExp only
 * where its worst case is bounded and uses its linear engine elsewhere.
 */
import picomatch from 'picomatch/posix.js';
import { VfsError } from '../errors.ts';
import { compileLineMatcher } from '../grep/matcher.ts';

export type PathMatcher = (relativePath: string) => boolean;

/**
 * picomatch keeps "." and ".." segments and empty names out with lookaheads, which grep's
 * engine (RE2 syntax) has not. The paths matched here are normalized, with no such segment
 * and no empty name, so these always hold there and are dropped.
 */
const HOLD_FOR_NORMALIZED_PATHS = ['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)'];
/** Most `*` a pattern that still needs a lookahead (a negated extglob, `!(…)`) may hold: it runs as a RegExp. */
const MAX_STARS_WITH_LOOKAHEAD = 2;

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
  let regex: RegExp;
  try {
    // posix: a leading "!" in a class negates it, as in sh ("[!a]" = "[^a]"). Without it picomatch
    // reads "!" as a member, so "[!a]" matched exactly the names it should exclude (picomatch #187).
    regex = picomatch.makeRe(pattern, { dot: true, posix: true, nocase: options.ignoreCase === true });
  } catch (cause) {
    throw new VfsError('EINVAL', `Invalid glob pattern ${JSON.stringify(pattern)}: ${(cause as Error).message}`, { cause });
  }
  const test = safeTest(pattern, regex);
  // As picomatch's own matcher: an empty path never matches, the pattern itself always does.
  return (path) => path !== '' && (path === pattern || test(basename ? path.slice(path.lastIndexOf('/') + 1) : path));
}

function safeTest(pattern: string, regex: RegExp): (path: string) => boolean {
  let source = regex.source;
  for (const always of HOLD_FOR_NORMALIZED_PATHS) source = source.replaceAll(always, '');
  source = source.replace(/\\(.)/gsu, (escaped, c: string) => (c.charCodeAt(0) > 0x7f ? c : escaped)); // "\é": JS reads "é", RE2 refuses
  if (!/\(\?[=!<]/.test(source)) {
    const matcher = compileLineMatcher(source, { ignoreCase: regex.flags.includes('i') });
    return (path) => matcher.test(path);
  }
  if ((pattern.match(/\*/g)?.length ?? 0) > MAX_STARS_WITH_LOOKAHEAD) {
    throw new VfsError(
      'EINVAL',
      `The glob pattern ${JSON.stringify(pattern)} combines a negated group "!(…)" with more than ${MAX_STARS_WITH_LOOKAHEAD} "*": it could take minutes to match. Use fewer "*", or filter the results of a simpler pattern.`,
    );
  }
  return (path) => regex.test(path);
}
