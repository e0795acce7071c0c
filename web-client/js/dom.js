// Small DOM builders for HTML and SVG; strings always become text nodes, never markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'hidden') {
      node.hidden = true;
    } else if (key === 'value' && 'value' in node) {
      node.value = value;
    } else if (key === 'checked') {
      node.checked = true;
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h('button', {class: 'x', onclick}, 'text', childNode). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Removes every child. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}
