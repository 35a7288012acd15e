/** The names of createStateBackend's options, checked there and, before a worker starts, by the client. */
import { optionNames } from '../option-names.ts';
import type { StateBackendOptions } from './types.ts';

export const STATE_BACKEND_OPTIONS = optionNames<StateBackendOptions>({ files: true, cwd: true, limits: true, now: true, textCacheBytes: true });
