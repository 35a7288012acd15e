/** The ENOENT message: name the path, then suggest up to 3 existing paths with the same basename. */
import { baseName } from '../paths.ts';

const MAX_SUGGESTIONS = 3;

export function notFoundMessage(path: string, existing: Iterable<string>): string {
  const suggestions = suggestPaths(path, existing);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : ' Use ls or glob to see what exists.';
  return `No such file or directory: ${path}.${hint}`;
}

/** Same basename first, then same basename ignoring case; nearest in path length first. */
function suggestPaths(path: string, existing: Iterable<string>): string[] {
  const name = baseName(path);
  if (name === '') return [];
  const lower = name.toLowerCase();
  const exact: string[] = [];
  const folded: string[] = [];
  for (const candidate of existing) {
    const candidateName = baseName(candidate);
    if (candidateName === name) exact.push(candidate);
    else if (candidateName.toLowerCase() === lower) folded.push(candidate);
  }
  const byCloseness = (a: string, b: string) => Math.abs(a.length - path.length) - Math.abs(b.length - path.length) || (a < b ? -1 : 1);
  return [...exact.sort(byCloseness), ...folded.sort(byCloseness)].slice(0, MAX_SUGGESTIONS);
}
