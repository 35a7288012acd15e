/**
 * What a search that found nothing tells the model besides "nothing": the pattern that
 * would have matched (glob without `**`, a regex meant literally). Pure string work; the
 * tools run the suggested search to check it before suggesting it.
 */
import { normalizePath } from '../paths.ts';

/**
 * The glob pattern that matches at any depth below the same directory: `*.py` → `**\/*.py`,
 * `src/*.ts` → `src/**\/*.ts`; null when the last segment can already cross `/` or when its
 * directory part ends inside braces.
 */
export function anyDepthGlob(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  const dir = pattern.slice(0, slash + 1);
  const last = pattern.slice(slash + 1);
  if (last === '' || last.includes('**') || dir.endsWith('**/')) return null;
  // A "/" inside {a,b/c} is not a directory separator of the pattern as a whole.
  if (count(dir, '{') !== count(dir, '}')) return null;
  return `${dir}**/${last}`;
}

/**
 * The glob pattern that finds the directories of `pattern` at any depth: `src/*.ts` → `**\/src/*.ts`
 * (`src` is deeper than the search's base); null for a pattern without a directory, or one that
 * starts at the root or at any depth already.
 */
export function belowAnyDirectory(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  if (slash <= 0 || pattern.startsWith('/') || pattern.startsWith('**') || count(pattern.slice(0, slash), '{') !== count(pattern.slice(0, slash), '}'))
    return null;
  return `**/${pattern}`;
}

/** A pattern that finds at any depth what a glob looked for at one, and why the glob did not. */
export interface AnyDepthRetry {
  glob: string;
  /** 'one depth': its last segment did not reach deeper; 'directories deeper': its directories start below the base. */
  why: 'one depth' | 'directories deeper';
}

/** The retries a hint tries for a glob that found nothing, in order: anyDepthGlob, then belowAnyDirectory. */
export function anyDepthRetries(pattern: string): AnyDepthRetry[] {
  const deeper = anyDepthGlob(pattern);
  const below = belowAnyDirectory(pattern);
  return [
    ...(deeper === null ? [] : [{ glob: deeper, why: 'one depth' as const }]),
    ...(below === null ? [] : [{ glob: below, why: 'directories deeper' as const }]),
  ];
}

function count(s: string, c: string): number {
  let n = 0;
  for (const ch of s) if (ch === c) n++;
  return n;
}

const REGEX_SYNTAX = /[.+*?()[\]{}|^$\\]/;

/** Whether the pattern means something else as a regex than as literal text. */
export function hasRegexSyntax(pattern: string): boolean {
  return REGEX_SYNTAX.test(pattern);
}

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
const REPEAT_COUNT = /^\{\d+(,\d*)?\}/;

/**
 * Regex operators in `pattern` used the way code or prose uses them, which suggests the model
 * meant the text literally: `foo(` and `arr[0]`, `a.b` between words, `a + b` and `x * y`
 * after a space, `$var` and `${x}`, a `^` inside the pattern, ` | ` or `||`, `{` that is not a
 * repeat count. A pattern with a backslash escape was written as a regex on purpose: none.
 */
export function literalLookingSyntax(pattern: string): string[] {
  if (pattern.includes('\\')) return [];
  const found = new Set<string>();
  const alternation = /[^|\s]\|[^|\s]/.test(pattern); // foo|bar: groups are groups
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const before = pattern[i - 1];
    const after = pattern[i + 1];
    switch (c) {
      case '.':
        if (isWord(before) && isWord(after)) found.add(c);
        break;
      case '(':
        if (isWord(before) && !alternation) found.add(c);
        break;
      case '[':
        if (isWord(before) && pattern.indexOf(']', i) !== -1) found.add(c);
        break;
      case '+':
      case '*':
      case '?':
        if (before === undefined || before === ' ') found.add(c);
        break;
      case '$':
        if (after !== undefined && (isWord(after) || after === '{')) found.add(c);
        break;
      case '^':
        if (i > 0 && before !== '[' && before !== '(') found.add(c);
        break;
      case '|':
        if (before === ' ' || before === '|' || after === '|') found.add(c);
        break;
      case '{':
        if (!REPEAT_COUNT.test(pattern.slice(i))) found.add(c);
        break;
    }
  }
  return [...found];
}

/**
 * A relative glob that repeats the searched directory's own path (`src/**\/*.ts` searched under
 * /src, which looks for /src/src/…), without that prefix: `**\/*.ts`. Null when it does not.
 */
export function withoutBasePrefix(pattern: string, base: string): string | null {
  if (base === '/' || pattern.startsWith('/')) return null;
  const segments = base.slice(1).split('/');
  for (let k = segments.length; k >= 1; k--) {
    const prefix = `${segments.slice(segments.length - k).join('/')}/`;
    if (pattern.startsWith(prefix) && pattern.length > prefix.length) return pattern.slice(prefix.length);
  }
  return null;
}

/**
 * A glob written as a list (`*.ts,*.js`, `*.ts *.js`), which is one pattern whose names hold the
 * comma or space: the pattern that matches any of them (`*.{ts,js}`, `{src/*.ts,*.md}`), or null.
 */
export function listAsBraces(pattern: string): string | null {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (const c of pattern) {
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
    if (depth === 0 && (c === ',' || /\s/u.test(c))) {
      if (part !== '') parts.push(part);
      part = '';
    } else part += c;
  }
  if (part !== '') parts.push(part);
  if (parts.length < 2 || depth !== 0) return null;
  const extensions = parts.map((p) => /^\*\.([^*?/{}[\],\s]+)$/.exec(p)?.[1]);
  return extensions.every((e) => e !== undefined) ? `*.{${extensions.join(',')}}` : `{${parts.join(',')}}`;
}

/**
 * A glob pattern naming a directory outside `base` (`/other/*.ts`, `../lib/*.ts`), which a search
 * of `base` cannot find: that directory (absolute) and the pattern within it; null otherwise.
 */
export function outsideBase(pattern: string, base: string): { path: string; pattern: string } | null {
  if (!pattern.startsWith('/') && !/^(\.\/)*\.\.\//.test(pattern)) return null;
  const segments = pattern.split('/');
  const literal = segments.findIndex((s) => /[*?[\]{}]/.test(s));
  if (literal <= 0 || literal === segments.length) return null;
  let dir: string;
  try {
    dir = normalizePath(segments.slice(0, literal).join('/') || '/', base);
  } catch {
    return null; // (`..` above the root)
  }
  // (`/*.ts` searched from /proj more likely meant /proj's own files than the root's: no directory named, no hint.)
  const inside = base === '/' || dir === '/' || dir === base || dir.startsWith(`${base}/`);
  return inside ? null : { path: dir, pattern: segments.slice(literal).join('/') };
}
