/**
 * .gitignore text to a matcher, with the `ignore` package (the matcher ESLint uses) doing the
 * matching; the one file that imports it. Every .gitignore that applies to a directory is
 * rewritten relative to the root and added to one matcher in git's order of precedence
 * (defaults, then the root's file, then deeper ones: the last matching rule wins), so the
 * package's own rule that nothing under an excluded directory can be re-included holds across
 * files as it does in git.
 */
import ignore from 'ignore';

/** Tests root-relative paths without a leading "/"; a directory is tested with a trailing "/". */
export interface IgnoreMatcher {
  ignores(relativePath: string): boolean;
}

/** The default ignores, of lowest precedence: any .gitignore may re-include them. */
const DEFAULT_PATTERNS = ['.git/', 'node_modules/'];

/** Directory names the defaults ignore (at any depth). */
export const DEFAULT_IGNORED_DIRS: ReadonlySet<string> = new Set(DEFAULT_PATTERNS.map((p) => p.slice(0, -1)));

/**
 * Longest rule kept: the \`ignore\` package makes one RegExp per rule, and a rule of some 30,000
 * characters is too large for the engine, which broke every ls (and glob) of the tree. A rule
 * that long matches no real path; it is skipped, as a comment would be.
 */
const MAX_RULE_CHARS = 8192;

/** One .gitignore: the directory it sits in (root-relative, "" for the root) and its text. */
export interface IgnoreSource {
  dir: string;
  text: string;
}

/** The patterns of one .gitignore, rewritten to apply from the root exactly as they applied from `dir`. */
export function rebasePatterns(source: IgnoreSource): string[] {
  const out: string[] = [];
  const text = source.text.charCodeAt(0) === 0xfeff ? source.text.slice(1) : source.text;
  for (const line of text.split(/\r?\n/)) {
    const rebased = rebaseLine(line, source.dir);
    if (rebased !== null && rebased.length <= MAX_RULE_CHARS) out.push(rebased);
  }
  return out;
}

function rebaseLine(line: string, dir: string): string | null {
  if (line === '' || line.startsWith('#') || /^ *$/.test(line)) return null;
  if (dir === '') return line;
  const negative = line.startsWith('!');
  const body = negative ? line.slice(1) : line;
  // Anchored when a "/" stands anywhere but at the end (trailing unescaped spaces do not count).
  const core = body.replace(/(?<!\\) +$/, '').replace(/\/$/, '');
  if (core === '' || core === '/') return null;
  // The directory's name is matched as it is ("app/[slug]", "#notes", "!important"), not as a pattern.
  const at = escapeGlob(dir);
  const rebased = body.startsWith('/') ? `${at}${body}` : core.includes('/') ? `${at}/${body}` : `${at}/**/${body}`;
  return negative ? `!${rebased}` : rebased;
}

/**
 * A matcher for the defaults plus `sources` (outermost first), then `rescued` directories
 * (root-relative) that must not count as excluded: a search asked to look inside an ignored
 * directory looks there, with the rules still applying to what is beneath it.
 */
export function compileMatcher(patterns: readonly (readonly string[])[], rescued: readonly string[] = []): IgnoreMatcher {
  const ig = ignore({ ignorecase: false }).add(DEFAULT_PATTERNS);
  for (const list of patterns) ig.add(list as string[]);
  for (const dir of rescued) ig.add(`!/${escapeGlob(dir)}/`);
  return ig;
}

/** `name` as a pattern matching exactly itself. */
function escapeGlob(name: string): string {
  return name.replace(/[\\*?[\]!# ]/g, '\\$&');
}

/**
 * One ignore file read as Gemini CLI reads its `.geminiignore` (GeminiIgnoreParser): lines
 * trimmed, blank and `#` lines dropped, the rest given to the `ignore` package with its
 * defaults (so names match in either case). Paths are relative to the file's directory; null
 * when no pattern is left.
 */
export function compileGeminiIgnore(text: string): IgnoreMatcher | null {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && line.length <= MAX_RULE_CHARS);
  return patterns.length === 0 ? null : ignore().add(patterns); // no patterns: as if there were no file (Gemini CLI)
}
