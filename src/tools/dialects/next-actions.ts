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

const IN_WORDS_OF: Readonly<Record<ExtraDialect, Sentences>> = {
  openai: {
    [NOT_FOUND]: 'Check the path in the patch.',
    [IS_DIR]: 'A patch changes files: name a file inside it.',
    [NOT_DIR]: 'Nothing can be created under a file: use another path.',
    [STALE]: 'Read it again, then retry with a patch made for its current content.',
    [PERSON_EDITED]: 'Read it before patching it again.',
  },
  anthropic: {
    [NOT_FOUND]: 'Use the view command on a directory to see what exists.',
    [IS_DIR]: 'Use the view command to see what it contains.',
    [NOT_DIR]: 'Use the view command to read it.',
    [STALE]: 'View it again, then retry.',
    [PERSON_EDITED]: 'View it before editing it again.',
  },
  gemini: {
    [NOT_FOUND]: 'Use list_directory or glob to see what exists.',
    [IS_DIR]: 'Use list_directory to see what it contains.',
  },
  'mcp-filesystem': {
    [NOT_FOUND]: 'Use list_directory or search_files to see what exists.',
    [IS_DIR]: 'Use list_directory to see what it contains.',
    [NOT_DIR]: 'Use read_text_file to read it.',
    [STALE]: 'Read it again with read_text_file, then retry.',
    [PERSON_EDITED]: 'Read it with read_text_file before editing it again.',
  },
};

/** `message` (an error's text, or a note the guard added) with its next actions in `dialect`'s words. */
export function inWordsOf(dialect: ExtraDialect, message: string): string {
  let out = message;
  for (const [ours, theirs] of Object.entries(IN_WORDS_OF[dialect])) out = out.replaceAll(ours, theirs);
  return out;
}
