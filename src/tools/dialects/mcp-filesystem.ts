/** The 'mcp-filesystem' dialect's tools: the reference MCP filesystem server's, over the backend (read_file runs as read_text_file). */
import type { Backend } from '../../backend/types.ts';
import type { CallReads } from '../read-versions.ts';
import type { ToolHandler } from '../run-tool.ts';
import { MCP_FILESYSTEM_ALIASES, type McpFilesystemToolName } from './mcp-filesystem/names.ts';
import * as fs from './mcp-filesystem/tools.ts';

export const mcpFilesystemAliases = MCP_FILESYSTEM_ALIASES;

export function mcpFilesystemHandlers({ backend, reads }: { backend: Backend; reads: CallReads }): Record<McpFilesystemToolName, ToolHandler> {
  const c = (changed: Parameters<ToolHandler>[1]) => ({ backend, reads, changed });
  const s = (v: unknown) => v as string;
  const list = (v: unknown) => (v as string[] | undefined) ?? [];
  return {
    read_text_file: (a, ch) => fs.readTextFile(c(ch), s(a.path), a.head as number | undefined, a.tail as number | undefined),
    read_multiple_files: (a, ch) => fs.readMultipleFiles(c(ch), list(a.paths)),
    write_file: (a, ch) => fs.writeFile(c(ch), s(a.path), s(a.content)),
    edit_file: (a, ch) => fs.editFile(c(ch), s(a.path), a.edits as unknown as fs.Edit[], a.dryRun === true),
    create_directory: (a, ch) => fs.createDirectory(c(ch), s(a.path)),
    list_directory: (a, ch) => fs.listDirectory(c(ch), s(a.path)),
    read_media_file: (a, ch) => fs.readMediaFile(c(ch), s(a.path)),
    list_directory_with_sizes: (a, ch) => fs.listDirectoryWithSizes(c(ch), s(a.path), a.sortBy === 'size' ? 'size' : 'name'),
    directory_tree: (a, ch) => fs.directoryTree(c(ch), s(a.path), list(a.excludePatterns)),
    move_file: (a, ch) => fs.moveFile(c(ch), s(a.source), s(a.destination)),
    search_files: (a, ch) => fs.searchFiles(c(ch), s(a.path), s(a.pattern), list(a.excludePatterns)),
    get_file_info: (a, ch) => fs.getFileInfo(c(ch), s(a.path)),
  };
}
