/** DOM helpers of the viewer page. Store values reach the page only as text nodes, never as HTML. */

export { figureText } from '../shared/figure-text.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

type Child = Node | string | number | null | undefined | false | Child[];
type Attributes = Record<string, unknown> & {
  text?: unknown;
  style?: Partial<CSSStyleDeclaration>;
};

function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child);
    else if (child !== null && child !== undefined && child !== false)
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: `text` becomes its text, `style` goes through the CSSOM (the CSP forbids style attributes). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name === 'style') Object.assign(node.style, value);
    else if (name.startsWith('on') && typeof value === 'function')
      node.addEventListener(name.slice(2), value as EventListener);
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

/** An SVG element; `text` is its text content. */
export function svg(tag: string, attributes: Record<string, unknown> = {}, text?: unknown): SVGElement {
  const node = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

/** A hash route with its query (empty values left out). */
export function href(route: string, parameters: Record<string, unknown> = {}): string {
  const query = new URLSearchParams(
    Object.entries(parameters)
      .filter(([, value]) => value !== undefined && value !== null && value !== '')
      .map(([name, value]) => [name, String(value)]),
  ).toString();
  return `#/${route}${query ? `?${query}` : ''}`;
}

export const link = (
  text: string,
  route: string,
  parameters: Record<string, unknown> = {},
  attributes: Attributes = {},
) => el('a', { href: href(route, parameters), text, ...attributes });

/** The page's content replaced, and focus moved to it (screen readers announce the new page). */
export function render(...nodes: Child[]): void {
  const app = document.getElementById('app')!;
  const fragment = document.createDocumentFragment();
  append(fragment, nodes);
  app.replaceChildren(fragment);
  app.focus({ preventScroll: true });
}

const missing = (value: number | null | undefined): value is null | undefined =>
  value === null || value === undefined || Number.isNaN(value);

/** A percentage as the report writes it (two decimals); "—" for a missing value, never 0. */
export const percent = (value: number | null | undefined) => (missing(value) ? '—' : value.toFixed(2));
/** A fraction in [0, 1] shown as a percentage with one decimal. */
export const fraction = (value: number | null | undefined) =>
  missing(value) ? '—' : (100 * value).toFixed(1);
/** A mean of counts (KG true positives per sample …), never a percentage. */
export const count = (value: number | null | undefined) => (missing(value) ? '—' : value.toFixed(2));
