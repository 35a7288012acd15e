/**
 * Which paths a mutation may have changed, from the calls table: the store then re-reads only
 * those (a path, or everything under a directory). "/" means anything may have changed.
 * (Fed from each call here; a backend's own change events can feed the same set.)
 */
import { backendCall } from '../calls.ts';

export function scopesOfCall(method: string, args: readonly unknown[]): string[] {
  if (method === 'uploadFiles') {
    const files = args[0];
    return Array.isArray(files) ? files.map((f) => (Array.isArray(f) ? String(f[0]) : '/')) : ['/'];
  }
  const info = backendCall(method);
  if (!info?.mutates) return [];
  // restore, rollback, or a method without path arguments: anything may have changed.
  if (info.pathArgs.length === 0) return ['/'];
  return info.pathArgs.map((i) => (typeof args[i] === 'string' ? (args[i] as string) : '/'));
}
