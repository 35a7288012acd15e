/** What a dialect tool call works with: the backend, the session's read tracking, and the files the call writes. */
import type { Backend } from '../../../backend/types.ts';
import type { ReadVersions } from '../../read-versions.ts';
import type { FileChange } from '../../types.ts';

export interface DialectCall {
  backend: Backend;
  reads: ReadVersions;
  changed: FileChange[];
}
