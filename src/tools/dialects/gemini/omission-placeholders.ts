/**
 * Lines that stand for code the model left out ("// rest of methods ...", "(unchanged code ...)"):
 * Gemini CLI refuses a write_file content or a replace new_string holding one, so a file is never
 * overwritten with the placeholder instead of the code. Ported from Gemini CLI
 * (packages/core/src/tools/omissionPlaceholderDetector.ts, Apache-2.0), rule for rule.
 */
const OMITTED_PREFIXES = new Set(['rest of', 'rest of method', 'rest of methods', 'rest of code', 'unchanged code', 'unchanged method', 'unchanged methods']);

/** The placeholders in `text`, one normalized token each ("rest of methods ..."). */
export function omissionPlaceholders(text: string): string[] {
  const found: string[] = [];
  for (const line of text.replaceAll('\r\n', '\n').split('\n')) {
    const token = placeholder(line);
    if (token !== null) found.push(token);
  }
  return found;
}

function placeholder(line: string): string | null {
  let text = line.trim();
  if (text.startsWith('//')) text = text.slice(2).trim();
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  const ellipsis = text.indexOf('...');
  if (ellipsis < 0) return null;
  const prefix = text
    .slice(0, ellipsis)
    .trim()
    .toLowerCase()
    .split(/[ \t\n\r]+/)
    .filter(Boolean)
    .join(' ');
  const suffix = text.slice(ellipsis + 3).trim();
  if (!OMITTED_PREFIXES.has(prefix) || !/^\.*$/.test(suffix)) return null;
  return `${prefix} ...`;
}
