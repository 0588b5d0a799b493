// The board: the server's SVG (GET .../board.svg) put inline, so its
// elements can be clicked. Elements that actions refer to carry `data-`
// attributes, and the picture's root says which action parameter names
// which attribute (`data-click-targets`): this file needs no geometry.

import { h } from "./dom.js";

/** Put `svgText` into `container`; returns the <svg> element. */
export function showBoard(container, svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = document.importNode(doc.documentElement, true);
  container.replaceChildren(svg);
  return svg;
}

/** `[attribute, value]` of the board element `action` refers to, or null. */
export function placeOf(svg, action, seat) {
  const rules = JSON.parse(svg.dataset.clickTargets || "{}")[action.type] || [];
  for (const [param, attribute, own] of rules) {
    const value = action[param];
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(",") : String(value);
    return [attribute, own ? `${seat},${text}` : text];
  }
  return null;
}

function elementAt(svg, [attribute, value]) {
  return svg.querySelector(`[data-${attribute}="${CSS.escape(value)}"]`);
}

/**
 * Make the board elements of `actions` clickable. A click on an element
 * that one action refers to plays it; several actions open a small menu.
 * Returns the actions that found no element (they become buttons).
 */
export function wireTargets(svg, actions, seat, label, play) {
  const byElement = new Map();
  const unplaced = [];
  for (const action of actions) {
    const place = placeOf(svg, action, seat);
    const element = place && elementAt(svg, place);
    if (!element) {
      unplaced.push(action);
      continue;
    }
    if (!byElement.has(element)) byElement.set(element, []);
    byElement.get(element).push(action);
  }
  svg.classList.toggle("choosing", byElement.size > 0);
  ring(svg, [...byElement.keys()]);
  for (const [element, choices] of byElement) {
    element.classList.add("target");
    element.setAttribute("tabindex", "0");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", choices.length === 1 ? label(choices[0]) : `${choices.length} moves here`);
    const choose = (event) => {
      event.stopPropagation();
      if (choices.length === 1) play(choices[0]);
      else openMenu(element, choices, label, play);
    };
    element.addEventListener("click", choose);
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") choose(event);
    });
  }
  return unplaced;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Draw a ring over each element, on top of the picture (a glow alone is
 * faint on a small square). The ring is in the picture's own coordinates,
 * whatever transforms the element sits in, and lets clicks through.
 */
function ring(svg, elements) {
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "rings");
  const toPicture = svg.getScreenCTM()?.inverse();
  for (const element of elements) {
    const box = element.getBBox();
    const matrix = toPicture && element.getScreenCTM() ? toPicture.multiply(element.getScreenCTM()) : null;
    if (!matrix) continue;
    const corners = [[box.x, box.y], [box.x + box.width, box.y + box.height]]
      .map(([x, y]) => new DOMPoint(x, y).matrixTransform(matrix));
    const shape = document.createElementNS(SVG_NS, "rect");
    const [x, y] = [Math.min(corners[0].x, corners[1].x), Math.min(corners[0].y, corners[1].y)];
    shape.setAttribute("x", x - 3);
    shape.setAttribute("y", y - 3);
    shape.setAttribute("width", Math.abs(corners[1].x - corners[0].x) + 6);
    shape.setAttribute("height", Math.abs(corners[1].y - corners[0].y) + 6);
    shape.setAttribute("rx", 6);
    layer.append(shape);
  }
  svg.append(layer);
}

/** A menu of the moves on one element, next to it. */
function openMenu(element, choices, label, play) {
  closeMenu();
  const box = element.getBoundingClientRect();
  const menu = h("div", { class: "move-menu", role: "menu" },
    choices.map((action) => h("button", { role: "menuitem", onclick: () => { closeMenu(); play(action); } }, label(action))),
    h("button", { class: "secondary", onclick: closeMenu }, "Cancel"));
  menu.style.left = `${window.scrollX + box.left}px`;
  menu.style.top = `${window.scrollY + box.bottom + 4}px`;
  document.body.append(menu);
  menu.querySelector("button").focus();
}

export function closeMenu() {
  document.querySelector(".move-menu")?.remove();
}

/** The name a picture gives a thing: the <title> of the element with that attribute. */
export function titleOf(svg, attribute, value) {
  const element = svg && svg.querySelector(`[data-${attribute}="${CSS.escape(String(value))}"]`);
  const title = element && element.querySelector("title");
  return title ? title.textContent.trim() : null;
}
