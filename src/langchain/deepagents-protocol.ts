/**
 * The shapes of deepagents' BackendProtocolV2 (deepagents 1.14) that AgentvfsBackend returns,
 * declared here so agentvfs/langchain needs deepagents' types neither at run time nor to compile;
 * a test checks that AgentvfsBackend is assignable to deepagents' own BackendProtocolV2.
 */

/** One entry of an ls or glob result; a directory's path ends with "/". */
export interface DeepagentsFileInfo {
  path: string;
  is_dir?: boolean;
  size?: number;
  /** ISO 8601; "" for a directory, as deepagents' StateBackend gives. */
  modified_at?: string;
}

export interface DeepagentsGrepMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** A file as deepagents stores it (its "v2" format): text as a string, anything else as bytes. */
export interface DeepagentsFileData {
  content: string | Uint8Array;
  mimeType: string;
  created_at: string;
  modified_at: string;
}

export interface LsResult {
  error?: string;
  files?: DeepagentsFileInfo[];
}

export interface ReadResult {
  error?: string;
  content?: string | Uint8Array;
  mimeType?: string;
  totalLines?: number;
  startLine?: number;
  endLine?: number;
  nextOffset?: number;
}

export interface ReadRawResult {
  error?: string;
  data?: DeepagentsFileData;
}

export interface GrepResult {
  error?: string;
  matches?: DeepagentsGrepMatch[];
  truncated?: boolean;
}

export interface GlobResult {
  error?: string;
  files?: DeepagentsFileInfo[];
  truncated?: boolean;
}

/** `filesUpdate` is always null: the files already live in agentvfs, nothing for LangGraph state. */
export interface WriteResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
}

export interface EditResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
  occurrences?: number;
}

export interface DeleteResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
}

export type FileOperationError = 'file_not_found' | 'permission_denied' | 'is_directory' | 'invalid_path';

export interface FileUploadResponse {
  path: string;
  error: FileOperationError | null;
}

export interface FileDownloadResponse {
  path: string;
  content: Uint8Array | null;
  error: FileOperationError | null;
}
