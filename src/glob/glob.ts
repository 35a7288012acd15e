/**
 * Glob matching with picomatch's POSIX build: micromatch (which wraps the same
 * engine) needs Node's `util`/`path` and `process` at load time, picomatch does
 * not, so the core stays runtime-neutral and behaves the same on every host.
 *
 * picomatch's regular expressions backtrack: `*a*a*a*a*b` against a long name took
 * seconds, then minutes, blocking the thread (an agent chooses both the pattern and
 * the names). So each one runs on grep's matcher instead (re2-source.ts translates it),
 * which keeps a JS RegExp only where its worst case is bounded and uses its linear
 * engine elsewhere. A negated group `!(…)` needs a lookahead, which only a RegExp has:
 * those patterns keep picomatch's RegExp, within limits that bound its backtracking.
 */
import picomatch from 'picomatch/posix.js';
import { isVfsError, VfsError } from '../errors.ts';
import { compileLineMatcher } from '../grep/matcher.ts';
import { quoted } from '../paths.ts';
import { toRe2 } from './re2-source.ts';

export type PathMatcher = (relativePath: string) => boolean;

/** In a pattern with a negated group: most "*", "**" and "!(" in all (the degree of the polynomial its steps grow by). */
const MAX_DEGREE_WITH_LOOKAHEAD = 3;

/** Longest pattern: picomatch's parse grows faster than linearly with nesting ("{{{…}}}" of 60,000 characters took minutes). */
const MAX_PATTERN_CHARS = 4096;

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
  const invalid = (why: string, cause?: unknown) => new VfsError('EINVAL', `Invalid glob pattern ${quoted(pattern)}: ${why}`, { cause });
  if (pattern.length > MAX_PATTERN_CHARS) throw invalid(`it is ${pattern.length} characters, over the limit of ${MAX_PATTERN_CHARS}. Use a shorter pattern.`);
  let regex: RegExp;
  try {
    // posix: a leading "!" in a class negates it, as in sh ("[!a]" = "[^a]"). Without it picomatch
    // reads "!" as a member, so "[!a]" matched exactly the names it should exclude (picomatch #187).
    regex = picomatch.makeRe(pattern, { dot: true, posix: true, nocase: options.ignoreCase === true });
  } catch (cause) {
    throw invalid((cause as Error).message, cause);
  }
  const test = safeTest(pattern, regex, invalid);
  // As picomatch's own matcher: an empty path never matches, the pattern itself always does.
  return (path) => path !== '' && (path === pattern || test(basename ? path.slice(path.lastIndexOf('/') + 1) : path));
}

/** Longest list of globs a dialect takes (an ignore or exclude list), in patterns and in characters in all. */
const MAX_LIST_PATTERNS = 1000;
const MAX_LIST_CHARS = 32_768;

/**
 * Refuses a list of globs past those bounds: each is compiled (or searched) on its own, so a
 * model's list of 100,000 took seconds, and nested braces minutes (now at most ~2 s of compiling).
 */
export function checkGlobList(patterns: readonly string[], arg: string): void {
  const chars = patterns.reduce((n, p) => n + p.length, 0);
  if (patterns.length > MAX_LIST_PATTERNS || chars > MAX_LIST_CHARS) {
    throw new VfsError(
      'EINVAL',
      `"${arg}" holds ${patterns.length} patterns (${chars} characters), over the limit of ${MAX_LIST_PATTERNS} patterns and ${MAX_LIST_CHARS} characters in all. Nothing was read. Use fewer, broader patterns.`,
    );
  }
}

function safeTest(pattern: string, regex: RegExp, invalid: (why: string, cause?: unknown) => VfsError): (path: string) => boolean {
  const source = toRe2(regex.source);
  if (typeof source === 'string') {
    try {
      const matcher = compileLineMatcher(source, { ignoreCase: regex.flags.includes('i') });
      return (path) => matcher.test(path);
    } catch (cause) {
      if (isVfsError(cause)) throw invalid(cause.message, cause);
      throw cause;
    }
  }
  if (source.unsupported !== undefined) throw invalid(source.unsupported);
  const why = 'needs a lookahead (a negated group "!(…)" does), which only a backtracking matcher has';
  // A group repeated around it, or groups within each other, backtrack exponentially.
  if (/[+*]\(/.test(pattern) || /[@?!+*]\([^)]*[@?!+*]\(/.test(pattern)) {
    throw invalid(
      `it ${why}, and with a repeated group "+(…)"/"*(…)" or a group inside a group it could take minutes to match. Simplify it, or filter the results of a simpler pattern.`,
    );
  }
  // Each "*" or "!(" multiplies the steps by a name's length, each "**" by the number of names,
  // across names too (an earlier name is tried again at every end it could have).
  const segments = pattern.split('/');
  const units = (segment: string) => (segment === '**' ? 1 : (segment.match(/\*|!\(/g) ?? []).length);
  const degree = segments.reduce((sum, segment) => sum + units(segment), 0);
  if (degree > MAX_DEGREE_WITH_LOOKAHEAD) {
    throw invalid(
      `it ${why}, and with ${degree} "*", "**" and "!(" in all (at most ${MAX_DEGREE_WITH_LOOKAHEAD}) it could take minutes to match. Simplify it, or filter the results of a simpler pattern.`,
    );
  }
  return (path) => regex.test(path);
}
