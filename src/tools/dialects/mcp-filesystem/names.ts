/** The reference MCP filesystem server's tool names (no code: the definitions load without the tools). */
export type McpFilesystemToolName =
  | 'read_text_file'
  | 'read_multiple_files'
  | 'write_file'
  | 'edit_file'
  | 'create_directory'
  | 'list_directory'
  | 'list_directory_with_sizes'
  | 'read_media_file'
  | 'directory_tree'
  | 'move_file'
  | 'search_files'
  | 'get_file_info';

/** Older names models still emit: read_file became read_text_file. */
export const MCP_FILESYSTEM_ALIASES: Readonly<Record<string, McpFilesystemToolName>> = { read_file: 'read_text_file' };
