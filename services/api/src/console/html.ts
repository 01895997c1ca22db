/**
 * The console's only way to write HTML: the `html` tag escapes every interpolated value, unless the value is
 * itself `html` (a fragment already built this way) or a list of such fragments. Outside text (an e-mail, a
 * crew name, a supplier's message) can therefore never become markup, whatever page a later change adds.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export function escapeHtml(value: string | number | boolean): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Value = SafeHtml | readonly SafeHtml[] | string | number | boolean | null | undefined | Date;

const isList = (value: Value): value is readonly SafeHtml[] => Array.isArray(value);

function part(value: Value): string {
  if (value instanceof SafeHtml) return value.text;
  if (isList(value)) return value.map(part).join('');
  if (value instanceof Date) return escapeHtml(value.toISOString());
  if (value === false || value === null || value === undefined) return '';
  return escapeHtml(value);
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` fragments and lists of them stay markup. */
export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/**
 * A horizontal bar of segments, each as wide as its share (0..100) and coloured by its class. It only repeats
 * numbers a table already states, so it is hidden from screen readers; attributes, never inline style (the CSP).
 */
export function stackedBar(segments: readonly { css: string; width: number }[]): SafeHtml {
  let x = 0;
  const rects = segments.map(({ css, width }) => {
    const rect = html`<rect class="bar-${css}" x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="10" />`;
    x += width;
    return rect;
  });
  return html`<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
    <rect class="bar-empty" x="0" y="0" width="100" height="10" />
    ${rects}
  </svg>`;
}
