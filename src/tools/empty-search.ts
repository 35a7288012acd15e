/**
 * The text a model gets when glob or grep finds nothing, or when its regex does not compile:
 * why (a `*` that does not cross `/`, binary files skipped, regex syntax meant literally) and
 * the call that would find something, checked by running it first.
 */
import type { Backend } from '../backend/types.ts';
import { counted } from '../counted.ts';
import { VfsError } from '../errors.ts';
import { clipped, quoted, unicodeEscape } from '../paths.ts';
import { type AnyDepthRetry, anyDepthRetries, hasRegexSyntax, listAsBraces, literalLookingSyntax, outsideBase, withoutBasePrefix } from './search-hints.ts';
import type { OutputMode } from './format-grep.ts';
import { typedFlags } from './typed-flags.ts';

/**
 * `ignored`: files matching the pattern that ignore rules left out. A hint comes from searches run
 * after the call's own: one is given only if the call would still find nothing (a write made beside
 * it, as parallel tool calls make, could have changed the answer).
 */
export async function globNothingFound(backend: Backend, pattern: string, base: string, respectGitIgnore: boolean, ignored: number): Promise<string> {
  const head = `No files found matching ${quoted(pattern)} in ${base}.${ignoredSentence(ignored, 'matching file', 'matching files', 'includes them')}`;
  const hint = await globRetryHint(backend, pattern, base, { respectGitIgnore });
  return hint === '' ? head : `${head} ${hint}`;
}

/** How the glob that found nothing looked: a hint looks the same way, so what it finds, the glob finds. */
export interface GlobLook {
  respectGitIgnore: boolean;
  /** Letters match in either case (Gemini's glob by default). */
  ignoreCase?: boolean;
  /** The files the glob shows of those found (Gemini's .geminiignore leaves some out). */
  keep?: (path: string) => boolean;
  /** The glob tool's argument for the directory it searches (default `path`). */
  pathArgument?: string;
}

/**
 * Why the glob `pattern` (relative to `base`) found nothing and the pattern that finds files, checked
 * by running it as the glob runs (`look`); '' when there is none, or when the pattern itself finds files now.
 */
export async function globRetryHint(backend: Backend, pattern: string, base: string, how: GlobLook): Promise<string> {
  const find = async (p: string, ignoreCase = how.ignoreCase === true, path = base): Promise<string[] | null> => {
    const paths = await backend.glob(p, { path, respectGitIgnore: how.respectGitIgnore, ...(ignoreCase ? { ignoreCase } : {}) }).catch(() => null);
    return paths === null || how.keep === undefined ? paths : paths.filter(how.keep);
  };
  const hint = await globHint(pattern, base, how, find);
  if (hint === '') return '';
  const still = await find(pattern);
  return still !== null && still.length === 0 ? hint : '';
}

/** The files the glob finds with `pattern` (from `path`, by default the call's), as the call would show them; null if it fails. */
type Find = (pattern: string, ignoreCase?: boolean, path?: string) => Promise<string[] | null>;

/** A glob written as a list found nothing: what one pattern for all of them finds. */
function listNote(noun: 'pattern' | 'glob', pattern: string, braced: string, paths: readonly string[]): string {
  return `The ${noun} is one ${noun === 'glob' ? 'pattern' : 'glob'}, so the ${pattern.includes(',') ? 'comma' : 'space'} in ${quoted(pattern)} is part of the names it looks for; ${quoted(braced)} matches any of them: ${counted(paths.length, 'file')}, e.g. ${first(paths)}.`;
}

async function globHint(pattern: string, base: string, how: GlobLook, find: Find): Promise<string> {
  const look = async (p: string, ignoreCase?: boolean, path?: string) => (await find(p, ignoreCase, path)) ?? [];
  const unprefixed = withoutBasePrefix(pattern, base);
  if (unprefixed !== null) {
    const paths = await look(unprefixed);
    if (paths.length > 0) return `${relativeNote(pattern, base, unprefixed, paths)} Retry with pattern ${quoted(unprefixed)}.`;
  }
  // A directory's path (`src/`): glob lists files, so the files in it are what was meant.
  if (/[^/]\/+$/.test(pattern)) {
    const inside = `${pattern.replace(/\/+$/, '')}/**`;
    const paths = await look(inside);
    if (paths.length > 0)
      return `glob matches files, not directories; ${quoted(inside)} matches the ${counted(paths.length, 'file')} in it, e.g. ${first(paths)}. Retry with pattern ${quoted(inside)}.`;
  }
  const outside = outsideBase(pattern, base);
  if (outside !== null) {
    const paths = await look(outside.pattern, undefined, outside.path);
    if (paths.length > 0)
      return `glob looks only inside ${base}, and ${quoted(pattern)} names files outside it; with ${how.pathArgument ?? 'path'} ${quoted(outside.path)} and pattern ${quoted(outside.pattern)} it matches ${counted(paths.length, 'file')}, e.g. ${first(paths)}. Retry with those.`;
  }
  const braced = listAsBraces(pattern);
  if (braced !== null) {
    const paths = await look(braced);
    if (paths.length > 0) return `${listNote('pattern', pattern, braced, paths)} Retry with pattern ${quoted(braced)}.`;
  }
  // (A rewritten pattern that does not compile finds nothing: no help.)
  for (const retry of anyDepthRetries(pattern)) {
    const paths = await look(retry.glob);
    if (paths.length > 0) return `${anyDepthNote('pattern', pattern, base, retry, paths)} Retry with pattern ${quoted(retry.glob)}.`;
  }
  // (A glob that matches in either case already has no case to get wrong.)
  const inCase = how.ignoreCase === true ? '' : await caseHint(pattern, look);
  return inCase === '' ? unicodeFormHint(pattern, look) : inCase;
}

/** Why the glob `pattern` (relative to `base`) found nothing, and the retry that finds `paths` at any depth. */
function anyDepthNote(noun: 'pattern' | 'glob', pattern: string, base: string, retry: AnyDepthRetry, paths: readonly string[]): string {
  const found = `${counted(paths.length, 'file')}, e.g. ${first(paths)}.`;
  return retry.why === 'one depth'
    ? `The ${noun} matches at one directory depth only${crossesNot(pattern) ? ' ("*" does not cross "/")' : ''}; ${quoted(retry.glob)} matches at any depth: ${found}`
    : `The ${noun} is matched relative to ${base}, so its directories must start there; ${quoted(retry.glob)} finds them at any depth: ${found}`;
}

/** glob matches letters in their case (`*.TS` finds no `a.ts`): the files it would find in either case, if any. */
async function caseHint(pattern: string, look: (pattern: string, ignoreCase?: boolean) => Promise<string[]>): Promise<string> {
  if (!/\p{L}/u.test(pattern)) return '';
  const paths = await look(pattern, true);
  if (paths.length === 0) return '';
  return `glob matches letters in their case; in either case the pattern matches ${counted(paths.length, 'file')}, e.g. ${first(paths)}. Retry with the case those names have.`;
}

/**
 * glob compares code points, so `café` typed composed (NFC) finds no `cafe` + U+0301 (NFD, as macOS
 * writes names), though both read the same: the files the pattern finds in the other form, if any,
 * and that pattern with JSON escapes, the one way a model can tell the two apart and send it.
 */
export async function unicodeFormHint(pattern: string, look: (pattern: string) => Promise<string[]>, tool = 'glob'): Promise<string> {
  if (/^[\x00-\x7f]*$/.test(pattern)) return '';
  for (const form of ['NFD', 'NFC'] as const) {
    const other = pattern.normalize(form);
    if (other === pattern) continue;
    const paths = await look(other);
    if (paths.length === 0) continue;
    const found = `${tool} compares names code point by code point, and the names here write accented letters in another Unicode form (${form}): in that form the pattern matches ${counted(paths.length, 'file')}, e.g. ${first(paths)}.`;
    // A pattern too long to quote whole is not offered clipped: sent back as given, its "…" would find nothing.
    if (clipped(other) !== other) return `${found} Retry with the pattern written in ${form}.`;
    const escaped = JSON.stringify(other).replace(/[^\x20-\x7e]/g, unicodeEscape);
    return `${found} Retry with pattern ${escaped}, written with these JSON escapes.`;
  }
  return '';
}

/** The first by path, not glob's newest-first: the same files give the same text whatever their times. */
function first(paths: readonly string[]): string {
  let example = paths[0]!;
  for (const path of paths) if (path < example) example = path;
  return example;
}

/** The last segment of the pattern has a `*`, which a model may expect to match any depth. */
function crossesNot(pattern: string): boolean {
  return pattern.slice(pattern.lastIndexOf('/') + 1).includes('*');
}

export interface GrepCall {
  pattern: string;
  base: string;
  glob: string | undefined;
  ignoreCase: boolean;
  fixedStrings: boolean;
  respectGitIgnore: boolean;
  outputMode: OutputMode;
  /** Lines of context (content mode). */
  context: number;
}

function ignoredSentence(count: number, one: string, many: string, what: string): string {
  if (count === 0) return '';
  return ` ${counted(count, one, many)} ${count === 1 ? 'is' : 'are'} ignored by .gitignore or the default .git/ and node_modules/ ignores; respect_git_ignore: false ${what}.`;
}

/** What the glob `pattern` (relative to `base`) looked for, and what it would match without the prefix it repeats. */
function relativeNote(pattern: string, base: string, unprefixed: string, paths: readonly string[]): string {
  const example = [...paths].sort()[0]!;
  return `The glob is matched relative to ${base}, so ${quoted(pattern)} looks for ${base}/${clipped(pattern)}; ${quoted(unprefixed)} matches ${counted(paths.length, 'file')}, e.g. ${example}.`;
}

/** The files the call would find with `change` (one match each); null if that search fails (no hint then). */
async function filesFound(
  backend: Backend,
  call: GrepCall,
  change: { glob?: string; ignoreCase?: boolean; fixedStrings?: boolean; pattern?: string; base?: string },
): Promise<string[] | null> {
  try {
    const found = await backend.grep(change.pattern ?? call.pattern, {
      path: change.base ?? call.base,
      ...((change.glob ?? call.glob) === undefined ? {} : { glob: change.glob ?? call.glob }),
      ignoreCase: change.ignoreCase ?? call.ignoreCase,
      fixedStrings: change.fixedStrings ?? call.fixedStrings,
      maxMatchesPerFile: 1,
      respectGitIgnore: call.respectGitIgnore,
    });
    return [...new Set(found.filter((m) => m.binary !== true).map((m) => m.path))].sort();
  } catch {
    return null;
  }
}

/** Files under the call's path that hold the pattern as literal text; null if that search fails (no hint then). */
async function literalFiles(backend: Backend, call: GrepCall): Promise<number | null> {
  try {
    const found = await backend.grep(call.pattern, {
      path: call.base,
      ...(call.glob === undefined ? {} : { glob: call.glob }),
      ignoreCase: call.ignoreCase,
      fixedStrings: true,
      maxMatchesPerFile: 1,
      respectGitIgnore: call.respectGitIgnore,
    });
    return found.length;
  } catch {
    return null;
  }
}

/**
 * `binaries`: the binary files in scope, which grep skipped; `ignored`: files in scope that ignore
 * rules left out. A hint is given only if the call would still find nothing (see globNothingFound).
 */
export async function grepNothingFound(backend: Backend, call: GrepCall, binaries: readonly string[], ignored: number): Promise<string> {
  const { text, hint } = await grepHint(backend, call, binaries, ignored);
  if (hint === '') return text;
  const still = await filesFound(backend, call, {});
  return still !== null && still.length === 0 ? `${text} ${hint}` : text;
}

async function grepHint(backend: Backend, call: GrepCall, binaries: readonly string[], ignored: number): Promise<{ text: string; hint: string }> {
  const where = `${call.base}${call.glob === undefined ? '' : ` (files matching ${quoted(call.glob)})`}`;
  let text = `No matches found for ${quoted(call.pattern)} in ${where}.`;
  if (binaries.length === 1 && binaries[0] === call.base) {
    text = `No matches found for ${quoted(call.pattern)} in ${call.base}: it is a binary file, and grep searches text files only.`;
  } else if (binaries.length > 0) {
    text += ` ${counted(binaries.length, 'binary file was', 'binary files were')} skipped (grep searches text files only), e.g. ${binaries[0]}.`;
  }
  text += ignoredSentence(ignored, 'file in scope', 'files in scope', 'searches them');
  // A carriage return: sought to find CRLF files, it is never matched there (said, not a hint to check).
  if (call.pattern.includes('\r') || (!call.fixedStrings && /(?<!\\)(?:\\\\)*\\r/.test(call.pattern))) {
    text += ' grep matches each line without its line ending, so the \\r of a CRLF line ending is never matched (only a \\r inside a line is).';
  }
  const unprefixed = call.glob === undefined ? null : withoutBasePrefix(call.glob, call.base);
  if (unprefixed !== null) {
    const found = await filesFound(backend, call, { glob: unprefixed });
    if (found !== null && found.length > 0)
      return { text, hint: `${relativeNote(call.glob!, call.base, unprefixed, found)} Retry with glob ${quoted(unprefixed)}.` };
  }
  const outside = call.glob === undefined ? null : outsideBase(call.glob, call.base);
  if (outside !== null) {
    const found = await filesFound(backend, call, { base: outside.path, glob: outside.pattern });
    if (found !== null && found.length > 0)
      return {
        text,
        hint: `grep searches only inside ${call.base}, and the glob ${quoted(call.glob!)} names files outside it; with path ${quoted(outside.path)} and glob ${quoted(outside.pattern)} it matches ${counted(found.length, 'file')}, e.g. ${first(found)}. Retry with those.`,
      };
  }
  const braced = call.glob === undefined ? null : listAsBraces(call.glob);
  if (braced !== null) {
    const found = await filesFound(backend, call, { glob: braced });
    if (found !== null && found.length > 0) return { text, hint: `${listNote('glob', call.glob!, braced, found)} Retry with glob ${quoted(braced)}.` };
  }
  // A glob with a directory is matched from the base (one without matches names at any depth).
  for (const retry of call.glob?.includes('/') ? anyDepthRetries(call.glob) : []) {
    const found = await filesFound(backend, call, { glob: retry.glob });
    if (found !== null && found.length > 0)
      return { text, hint: `${anyDepthNote('glob', call.glob!, call.base, retry, found)} Retry with glob ${quoted(retry.glob)}.` };
  }
  // Flags typed into the pattern (`-n add`): what the rest alone finds with them, and the arguments that say them.
  const typed = typedFlags(call.pattern);
  if (typed !== null) {
    const ignoreCase = call.ignoreCase || typed.ignoreCase;
    const fixedStrings = call.fixedStrings || typed.fixedStrings;
    const found = await filesFound(backend, call, { pattern: typed.rest, ignoreCase, fixedStrings });
    if (found !== null && found.length > 0) {
      const meant = [
        ignoreCase !== call.ignoreCase ? 'ignore_case: true' : null,
        fixedStrings !== call.fixedStrings ? 'fixed_strings: true' : null,
        typed.outputMode !== undefined && typed.outputMode !== call.outputMode ? `output_mode: "${typed.outputMode}"` : null,
        typed.context !== undefined && typed.context !== call.context ? `context: ${typed.context}` : null,
      ].filter((a) => a !== null);
      const instead = meant.length > 0 ? ` (for ${typed.flags.join(' ')}, pass ${meant.join(', ')})` : '';
      return {
        text,
        hint: `${quoted(typed.flags.join(' '))} looks like a command-line flag, but the whole text is the pattern; ${quoted(typed.rest)} alone matches ${counted(found.length, 'file')}, e.g. ${found[0]}. Retry with pattern ${quoted(typed.rest)}${instead}.`,
      };
    }
  }
  // (Only for literal text, which the search index answers fast: a regex would cost a full scan.)
  if (!call.ignoreCase && /\p{L}/u.test(call.pattern) && (call.fixedStrings || !hasRegexSyntax(call.pattern))) {
    const found = await filesFound(backend, call, { ignoreCase: true });
    if (found !== null && found.length > 0) {
      return { text, hint: `Ignoring case (ignore_case: true), it matches ${counted(found.length, 'file')}, e.g. ${found[0]}.` };
    }
  }
  if (call.fixedStrings || !hasRegexSyntax(call.pattern)) return { text, hint: '' };
  const literal = await literalFiles(backend, call);
  if (literal === null) return { text, hint: '' };
  if (literal > 0) {
    return {
      text,
      hint: `Taken literally (fixed_strings: true), the pattern matches ${counted(literal, 'file')}: its regex syntax is probably meant as text. Retry with fixed_strings: true.`,
    };
  }
  const syntax = literalLookingSyntax(call.pattern);
  if (syntax.length === 0) return { text, hint: '' };
  return {
    text,
    hint: `${syntax.map((c) => JSON.stringify(c)).join(', ')} ${syntax.length === 1 ? 'is' : 'are'} regex syntax here; fixed_strings: true matches the text as typed, but it is not found that way either.`,
  };
}

/**
 * An EREGEX for a pattern that does not compile, with what fixed_strings: true would find.
 * Other errors (and fixed-string searches) come back as they are.
 */
export async function withLiteralHint(backend: Backend, call: GrepCall, error: unknown): Promise<unknown> {
  if (call.fixedStrings || !(error instanceof Error) || (error as { code?: unknown }).code !== 'EREGEX') return error;
  if (!error.message.startsWith('Invalid regex') || error.message.includes('too large')) return error;
  const literal = await literalFiles(backend, call);
  if (literal === null) return error;
  // The engine's own message may already offer fixed_strings (unsupported syntax): then only say what it finds.
  if (error.message.includes('use fixed_strings or rewrite the pattern')) {
    const found = literal > 0 ? `it occurs in ${counted(literal, 'file')}` : 'it is not found either, so rewrite the pattern';
    return new VfsError('EREGEX', `${error.message} Searched for as typed instead (fixed_strings: true), ${found}.`);
  }
  // Offered only where it finds something; otherwise said once, so the model fixes the regex instead.
  const tail =
    literal > 0
      ? `Or set fixed_strings: true to search for the text as typed, which occurs in ${counted(literal, 'file')}.`
      : 'Searched for as typed instead (fixed_strings: true), it is not found either.';
  return new VfsError('EREGEX', `${error.message} ${tail}`);
}
