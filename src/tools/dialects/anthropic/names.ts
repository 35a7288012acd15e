/** The names, built-in types and commands of Anthropic's two tools (no code: the definitions load without the tools). */
export const TEXT_EDITOR_NAME = 'str_replace_based_edit_tool';
export const TEXT_EDITOR_TYPE = 'text_editor_20250728';
export const TEXT_EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert'] as const;

export const MEMORY_NAME = 'memory';
export const MEMORY_TYPE = 'memory_20250818';
export const MEMORY_ROOT = '/memories';
export const MEMORY_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;

export type AnthropicToolName = typeof TEXT_EDITOR_NAME | typeof MEMORY_NAME;
