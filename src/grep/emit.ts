/** Turns a parsed RE2 pattern into JavaScript RegExp source (for the `u` flag) with the same matches. */

import { escapeCodePoint } from './escape.ts';
import type { ReNode } from './syntax.ts';

export function toJsSource(node: ReNode): string {
  switch (node.kind) {
    case 'char':
      return escapeCodePoint(node.cp);
    case 'set':
    case 'assert':
      return node.js;
    case 'concat':
      return node.items.map((item) => (item.kind === 'alt' ? `(?:${toJsSource(item)})` : toJsSource(item))).join('');
    case 'alt':
      return node.branches.map(toJsSource).join('|');
    case 'repeat': {
      const body = node.body.kind === 'char' || node.body.kind === 'set' ? toJsSource(node.body) : `(?:${toJsSource(node.body)})`;
      return body + quantifier(node.min, node.max) + (node.lazy ? '?' : '');
    }
  }
}

function quantifier(min: number, max: number): string {
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}
