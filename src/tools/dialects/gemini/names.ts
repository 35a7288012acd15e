/** Gemini CLI's file tool names (no code: the definitions load without the tools). */
const GEMINI_TOOL_NAMES = ['read_file', 'write_file', 'replace', 'glob', 'grep_search', 'list_directory', 'read_many_files'] as const;
export type GeminiToolName = (typeof GEMINI_TOOL_NAMES)[number];

/** Older names models still emit, run as the tool they became. */
export const GEMINI_TOOL_ALIASES: Readonly<Record<string, GeminiToolName>> = { search_file_content: 'grep_search' };

// Gemini CLI's limits (packages/core/src/utils/constants.ts, tools/grep.ts).
export const MAX_LINES = 2000;
export const MAX_LINE_LENGTH = 2000;
export const GREP_DEFAULT_MAX_MATCHES = 100;
