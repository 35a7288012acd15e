/**
 * The 'anthropic' dialect's definitions: Claude's built-in text editor (`str_replace_based_edit_tool`,
 * text_editor_20250728) and memory tool (`memory`, memory_20250818). Each carries the built-in
 * `type` (formatDefinitions(…, 'anthropic') sends just `{ type, name }`, as Anthropic's API
 * expects) and a JSON Schema with a description, for any other model or framework. No tool code
 * here: a worker client loads the definitions alone.
 */
import type { JsonSchemaProperty, ToolDefinition, ToolParameters } from '../definitions.ts';
import {
  MEMORY_COMMANDS,
  MEMORY_NAME,
  MEMORY_ROOT,
  MEMORY_TYPE,
  TEXT_EDITOR_COMMANDS,
  TEXT_EDITOR_NAME,
  TEXT_EDITOR_TYPE,
  type AnthropicToolName,
} from './anthropic/names.ts';

const DESCRIPTIONS: Readonly<Record<AnthropicToolName, string>> = {
  [TEXT_EDITOR_NAME]:
    'Custom editing tool for viewing, creating and editing files.\n' +
    '* If `path` is a file, `view` displays the result of applying `cat -n`; `view_range` [start, end] (1-based, end -1 for the last line) shows part of it. If `path` is a directory, `view` lists non-hidden files and directories up to 2 levels deep.\n' +
    '* The `create` command cannot be used if the specified `path` already exists.\n' +
    '* `str_replace`: `old_str` must match EXACTLY one or more consecutive lines of the file (mind whitespace); if it is not unique the replacement is not performed; include enough context to make it unique. `new_str` holds the edited lines.\n' +
    '* `insert` adds `insert_text` after line `insert_line` (0 = the top of the file).',
  [MEMORY_NAME]:
    `Memory directory ${MEMORY_ROOT}: store and retrieve what you learn across conversations. Every path must be inside ${MEMORY_ROOT}. ` +
    'Commands: view (a directory listing, or a file with line numbers; optional view_range), create (path, file_text; not over an existing file), ' +
    'str_replace (path, old_str unique in the file, new_str), insert (path, insert_line, insert_text), delete (path), rename (old_path, new_path).',
};

const str = (description: string): JsonSchemaProperty => ({ type: 'string', description });
const VIEW_RANGE: JsonSchemaProperty = {
  type: 'array',
  items: { type: 'integer' },
  description: 'For view of a file: [start_line, end_line], 1-based; end_line -1 shows to the end.',
};

function params(properties: Record<string, JsonSchemaProperty>, required: string[]): ToolParameters {
  return { type: 'object', properties, required, additionalProperties: false };
}

export function anthropicDefinitions(descriptions: Partial<Record<string, string>>): ToolDefinition<AnthropicToolName>[] {
  const d = (name: AnthropicToolName) => descriptions[name] ?? DESCRIPTIONS[name];
  return [
    {
      name: TEXT_EDITOR_NAME,
      type: TEXT_EDITOR_TYPE,
      description: d(TEXT_EDITOR_NAME),
      parameters: params(
        {
          command: { type: 'string', description: 'The command to run.', enum: TEXT_EDITOR_COMMANDS },
          path: str('Absolute path to the file or directory, e.g. /repo/file.py.'),
          file_text: str('Required for create: the content of the file.'),
          view_range: VIEW_RANGE,
          old_str: str('Required for str_replace: the exact text to replace.'),
          new_str: str('For str_replace: the new text (empty when left out).'),
          insert_line: { type: 'integer', description: 'Required for insert: insert_text goes after this line (0 = the top).', minimum: 0 },
          insert_text: str('Required for insert: the text to insert (new_str is accepted too).'),
        },
        ['command', 'path'],
      ),
    },
    {
      name: MEMORY_NAME,
      type: MEMORY_TYPE,
      description: d(MEMORY_NAME),
      parameters: params(
        {
          command: { type: 'string', description: 'The memory command to run.', enum: MEMORY_COMMANDS },
          path: str(`A path inside ${MEMORY_ROOT} (every command but rename).`),
          view_range: VIEW_RANGE,
          file_text: str('Required for create: the content of the file.'),
          old_str: str('Required for str_replace: the exact text to replace.'),
          new_str: str('For str_replace: the new text.'),
          insert_line: { type: 'integer', description: 'Required for insert: insert_text goes after this line (0 = the top).', minimum: 0 },
          insert_text: str('Required for insert: the text to insert.'),
          old_path: str('Required for rename: the current path.'),
          new_path: str('Required for rename: the new path.'),
        },
        ['command'],
      ),
    },
  ];
}
