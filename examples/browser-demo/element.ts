// Builds DOM elements from text only (never HTML strings), so whatever the API answers is shown, never executed.

type Child = Node | string | number | null | undefined | false;

/**
 * Creates an element with attributes and children; strings become text nodes.
 * @example h('p', { class: 'note', 'data-testid': 'note' }, 'Deployed ', h('code', {}, agentId))
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/**
 * The element with this id, which the page must have: a missing one is a bug in index.html, reported by name.
 * @example const form = byId('deploy-form', HTMLFormElement);
 */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`index.html has no <${type.name}> with id "${id}"`);
  return element;
}
