/**
 * The definition of the 'openai' dialect's one tool, `apply_patch` (what openai.ts runs): apart
 * from its code, so a page whose tools run in a worker shows the definition without carrying it.
 */
import type { ToolDefinition } from '../definitions.ts';
import type { DialectToolName } from './names.ts';

type OpenaiToolName = DialectToolName<'openai'>;

const APPLY_PATCH_DESCRIPTION = [
  'Create, update, delete and move files with one patch. The patch is all-or-nothing: if any part does not apply, no file changes.',
  'Format: "*** Begin Patch", then sections, then "*** End Patch". Sections:',
  '"*** Add File: <path>" followed by the new file\'s lines, each starting with "+";',
  '"*** Delete File: <path>";',
  '"*** Update File: <path>", optionally "*** Move to: <new path>", then one or more chunks.',
  'A chunk starts with "@@" (optionally "@@ <a line of the file>", e.g. a class or function line, to say where; several such lines in a row narrow it in order),',
  'then lines starting with " " (unchanged context), "-" (removed) or "+" (added).',
  'Give about 3 lines of context above and below each change; context must match the file.',
  'End a chunk that changes the end of the file with "*** End of File" (it is matched there first).',
  'Paths are relative to the workspace root or absolute. No line numbers.',
].join(' ');

export function openaiDefinitions(descriptions: Partial<Record<string, string>>): ToolDefinition<OpenaiToolName>[] {
  return [
    {
      name: 'apply_patch',
      type: 'apply_patch',
      description: descriptions.apply_patch ?? APPLY_PATCH_DESCRIPTION,
      parameters: {
        type: 'object',
        properties: { input: { type: 'string', description: 'The whole patch, from "*** Begin Patch" to "*** End Patch".' } },
        required: ['input'],
        additionalProperties: false,
      },
    },
  ];
}
