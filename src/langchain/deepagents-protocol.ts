/**
 * The shapes of deepagents' BackendProtocolV2 (deepagents 1.14) that AgentvfsBackend returns,
 * declared here so agentvfs/langchain needs deepagents' types neither at run time nor to compile;
 * a test checks that AgentvfsBackend is assignable to deepagents' own BackendProtocolV2. Named
 * Deepagents… so they never read as agentvfs's own ReadResult, WriteResult or EditResult.
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

export interface DeepagentsLsResult {
  error?: string;
  files?: DeepagentsFileInfo[];
}

export interface DeepagentsReadResult {
  error?: string;
  content?: string | Uint8Array;
  mimeType?: string;
  totalLines?: number;
  startLine?: number;
  endLine?: number;
  nextOffset?: number;
}

export interface DeepagentsReadRawResult {
  error?: string;
  data?: DeepagentsFileData;
}

export interface DeepagentsGrepResult {
  error?: string;
  matches?: DeepagentsGrepMatch[];
  truncated?: boolean;
}

export interface DeepagentsGlobResult {
  error?: string;
  files?: DeepagentsFileInfo[];
  truncated?: boolean;
}

/** `filesUpdate` is always null: the files already live in agentvfs, nothing for LangGraph state. */
export interface DeepagentsWriteResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
}

export interface DeepagentsEditResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
  occurrences?: number;
}

export interface DeepagentsDeleteResult {
  error?: string;
  path?: string;
  filesUpdate?: null;
}

export type DeepagentsFileOperationError = 'file_not_found' | 'permission_denied' | 'is_directory' | 'invalid_path';

export interface DeepagentsFileUploadResponse {
  path: string;
  error: DeepagentsFileOperationError | null;
}

export interface DeepagentsFileDownloadResponse {
  path: string;
  content: Uint8Array | null;
  error: DeepagentsFileOperationError | null;
}
