/**
 * Gemini CLI's `.geminiignore`: one file in the project root (here, the session's working
 * directory), in .gitignore syntax, which glob, list_directory and read_many_files respect
 * unless `respect_gemini_ignore` is false (and grep_search unless `no_ignore` is true).
 */
import { isVfsError } from '../../../errors.ts';
import { compileGeminiIgnore } from '../../../ignore/gitignore-rules.ts';
import { isWithin, joinPath, relativeTo } from '../../../paths.ts';
import type { DialectCall } from '../anthropic/context.ts';

const FILE_NAME = '.geminiignore';

/** Whether `.geminiignore` leaves out `path` (absolute; `isDir` for a directory). */
export type GeminiIgnored = (path: string, isDir: boolean) => boolean;

/** The project's `.geminiignore` rules, or null when asked not to respect them or there is no such file to read. */
export async function geminiIgnore(call: DialectCall, respect: boolean): Promise<GeminiIgnored | null> {
  if (!respect) return null;
  const root = await call.backend.resolvePath('.');
  let text: string;
  try {
    text = await call.backend.readText(joinPath(root, FILE_NAME));
  } catch (error) {
    // Missing, a directory, or outside the tool set's permissions: no rules, as Gemini CLI without the file.
    if (isVfsError(error)) return null;
    throw error;
  }
  const matcher = compileGeminiIgnore(text);
  if (matcher === null) return null;
  return (path, isDir) => path !== root && isWithin(path, root) && matcher.ignores(relativeTo(path, root) + (isDir ? '/' : ''));
}
