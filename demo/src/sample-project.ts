// The small TypeScript project every session starts with (and Reset returns to).
// The scripted agent renames formatPrice → formatMoney across it.
export const SAMPLE_PROJECT: Record<string, string> = {
  '/package.json': `{
  "name": "tiny-shop",
  "version": "1.4.0",
  "type": "module",
  "scripts": { "test": "vitest run" }
}
`,
  '/README.md': `# tiny-shop

A small storefront library: a cart, a checkout and a price tag component.
Prices are integers in cents and are shown with \`formatPrice\` from \`src/utils/format.ts\`.
`,
  '/src/index.ts': `export { Cart } from './cart';
export { checkout } from './checkout';
export { formatPrice } from './utils/format';
export { PriceTag } from './components/PriceTag';
`,
  '/src/utils/format.ts': `const formatters = new Map<string, Intl.NumberFormat>();

/** Formats an amount in cents, e.g. formatPrice(1999) → "$19.99". */
export function formatPrice(cents: number, currency = 'USD'): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    formatters.set(currency, formatter);
  }
  return formatter.format(cents / 100);
}

export function formatQuantity(n: number): string {
  return n === 1 ? '1 item' : \`\${n} items\`;
}
`,
  '/src/cart.ts': `import { formatPrice, formatQuantity } from './utils/format';

export interface CartLine {
  sku: string;
  name: string;
  cents: number;
  quantity: number;
}

export class Cart {
  private lines: CartLine[] = [];

  add(line: CartLine): void {
    this.lines.push(line);
  }

  get totalCents(): number {
    return this.lines.reduce((sum, l) => sum + l.cents * l.quantity, 0);
  }

  summary(): string {
    const count = this.lines.reduce((n, l) => n + l.quantity, 0);
    return \`\${formatQuantity(count)}, \${formatPrice(this.totalCents)}\`;
  }

  receipt(): string[] {
    return this.lines.map((l) => \`\${l.quantity} × \${l.name}  \${formatPrice(l.cents * l.quantity)}\`);
  }
}
`,
  '/src/checkout.ts': `import type { Cart } from './cart';
import { formatPrice } from './utils/format';

export interface CheckoutResult {
  ok: boolean;
  message: string;
}

export function checkout(cart: Cart, balanceCents: number): CheckoutResult {
  if (cart.totalCents > balanceCents) {
    return { ok: false, message: \`Insufficient funds: need \${formatPrice(cart.totalCents)}\` };
  }
  return { ok: true, message: \`Paid \${formatPrice(cart.totalCents)}\` };
}
`,
  '/src/components/PriceTag.tsx': `import { formatPrice } from '../utils/format';

export function PriceTag({ cents, currency }: { cents: number; currency?: string }) {
  return <span className="price-tag">{formatPrice(cents, currency)}</span>;
}
`,
  '/test/format.test.ts': `import { describe, expect, it } from 'vitest';
import { formatPrice } from '../src/utils/format';

describe('formatPrice', () => {
  it('formats cents as dollars', () => {
    expect(formatPrice(1999)).toBe('$19.99');
  });
  it('supports other currencies', () => {
    expect(formatPrice(500, 'EUR')).toBe('€5.00');
  });
});
`,
};
