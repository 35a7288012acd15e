/**
 * agentvfs's errors end with a next action that names its own tools (ls, glob, read_file). A
 * dialect's model has other tools: these are the same sentences in each dialect's words, so a
 * model is never told to call a tool it does not have.
 */
import type { DialectName } from './names.ts';

type ExtraDialect = Exclude<DialectName, 'agentvfs'>;

type Sentences = Readonly<Record<string, string>>;

const NOT_FOUND = 'Use ls or glob to see what exists.';
const IS_DIR = 'Use ls to see what it contains.';
const NOT_DIR = 'Use read_file to read it.';
const STALE = 'Read it again with read_file, then retry.';
const PERSON_EDITED = 'Read it with read_file before editing it again.';
/** A model cannot remove files with most tool sets: a tool's quota error says what it can do instead, `remove` where it can. */
const quotaStep = (instead: string, remove = '') => `Nothing was written; ${instead}, ${remove}or ask the user to free space or raise the limit.`;
const WRITE_LESS = 'write less';
// Over the file or directory count, writing less does not help: fewer new names does.
const FEWER_FILES = 'put the content in existing files rather than new ones';
const FEWER_DIRECTORIES = 'put new files in existing directories rather than new ones';
export const TOOL_QUOTA_NEXT_STEP = quotaStep(WRITE_LESS);
export const TOOL_FILE_COUNT_NEXT_STEP = quotaStep(FEWER_FILES);
export const TOOL_DIRECTORY_COUNT_NEXT_STEP = quotaStep(FEWER_DIRECTORIES);
/** The three quota sentences, each with `remove` (how this dialect's model deletes files) added. */
const quotaSteps = (remove: string): Sentences => ({
  [TOOL_QUOTA_NEXT_STEP]: quotaStep(WRITE_LESS, remove),
  [TOOL_FILE_COUNT_NEXT_STEP]: quotaStep(FEWER_FILES, remove),
  [TOOL_DIRECTORY_COUNT_NEXT_STEP]: quotaStep(FEWER_DIRECTORIES, remove),
});
// Sentences of the shared edit engine (src/edit/apply-edit.ts, src/text.ts) that name the six tools' arguments.
const REPLACE_WHOLE = 'Replace the whole file with write_file if that is meant.';
const IDENTICAL = 'old_string and new_string are identical;';
const IDENTICAL_AFTER_MATCH = 'new_string is identical to the text it would replace;';
const REPLACE_ALL = 'or set replace_all=true to replace all';
const REREAD = 'Re-read the file with read_file';
const REPLACE_ALL_EXACT = 'replace_all applies only to exact matches: re-read the file with read_file and copy old_string exactly.';

const IN_WORDS_OF: Readonly<Record<ExtraDialect, Sentences>> = {
  openai: {
    [NOT_FOUND]: 'Check the path in the patch.',
    [IS_DIR]: 'A patch changes files: name a file inside it.',
    [NOT_DIR]: 'Check the path in the patch: nothing can exist under a file.',
    [STALE]: 'Send the patch again: the reply shows its current content if it still differs.',
    [PERSON_EDITED]: 'Your next patch of it is refused once, with its content to write the patch against.',
    ...quotaSteps("delete files with '*** Delete File:' sections, "),
    [REPLACE_WHOLE]: "Replace the whole file with an '*** Add File:' section if that is meant.",
  },
  anthropic: {
    [NOT_FOUND]: 'Use the view command on a directory to see what exists.',
    [IS_DIR]: 'Use the view command to see what it contains.',
    [NOT_DIR]: 'Use the view command to read it.',
    [STALE]: 'View it again, then retry.',
    [PERSON_EDITED]: 'View it before editing it again.',
    [REPLACE_WHOLE]: 'These tools cannot edit it.',
    ...quotaSteps('delete memory files no longer needed (memory delete), '),
    [IDENTICAL]: 'old_str and new_str are identical;',
    [IDENTICAL_AFTER_MATCH]: 'new_str is identical to the text it would replace;',
  },
  gemini: {
    [NOT_FOUND]: 'Use list_directory or glob to see what exists.',
    [IS_DIR]: 'Use list_directory to see what it contains.',
    [REPLACE_ALL]: 'or set allow_multiple to true to replace all',
    [REPLACE_ALL_EXACT]: 'allow_multiple applies only to exact matches: re-read the file with read_file and copy old_string exactly.',
  },
  'mcp-filesystem': {
    [NOT_FOUND]: 'Use list_directory or search_files to see what exists.',
    [IS_DIR]: 'Use list_directory to see what it contains.',
    [NOT_DIR]: 'Use read_text_file to read it.',
    [STALE]: 'Read it again with read_text_file, then retry.',
    [PERSON_EDITED]: 'Read it with read_text_file before editing it again.',
    [IDENTICAL_AFTER_MATCH]: 'newText is identical to the text it would replace;',
    [REREAD]: 'Re-read the file with read_text_file',
  },
};

/** `message` (an error's text, or a note the guard added) with its next actions in `dialect`'s words. */
export function inWordsOf(dialect: ExtraDialect, message: string): string {
  let out = message;
  for (const [ours, theirs] of Object.entries(IN_WORDS_OF[dialect])) out = out.replace(asSentence(ours), () => theirs);
  return out;
}

const SENTENCES = new Map<string, RegExp>();

/** `text` where it stands as our own words: after a space or a line start, before a space, a line end or punctuation, never inside quotes. */
function asSentence(text: string): RegExp {
  let re = SENTENCES.get(text);
  if (re === undefined) {
    re = new RegExp(`(?<=^|\\s)${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[\\s,;.])`, 'g');
    SENTENCES.set(text, re);
  }
  return re;
}

/**
 * The parameter and tool names in the shared edit engine's notes (a correction it made, the
 * closest lines it found), as the dialects whose edit tools name them otherwise call them.
 */
const NOTE_WORDS: Readonly<Partial<Record<ExtraDialect, Readonly<Record<string, string>>>>> = {
  anthropic: { old_string: 'old_str', new_string: 'new_str', "read_file's": "view's" },
  'mcp-filesystem': { old_string: 'oldText', new_string: 'newText', "read_file's": "read_text_file's" },
};

/** An edit note (src/edit) in `dialect`'s words. */
export function noteInWordsOf(dialect: ExtraDialect, note: string): string {
  const words = NOTE_WORDS[dialect];
  return words === undefined ? note : note.replace(/\b(?:old_string|new_string|read_file's)/g, (word) => words[word] ?? word);
}

/**
 * An error's text in `dialect`'s words: its first and last lines only, which are agentvfs's own
 * sentences. The lines between may quote the file (the closest lines found, a file shown as it is
 * now, the text the model sent), which are never rewritten.
 */
export function errorInWordsOf(dialect: ExtraDialect, text: string): string {
  const first = text.indexOf('\n');
  if (first < 0) return inWordsOf(dialect, text);
  const last = text.lastIndexOf('\n');
  return inWordsOf(dialect, text.slice(0, first)) + text.slice(first, last + 1) + inWordsOf(dialect, text.slice(last + 1));
}
