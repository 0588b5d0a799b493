// A few DOM helpers, so the other modules read as what they show.

/** h("button", {class: "x", onclick: f}, "text", child) -> an element. */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of `node` with `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** "pirates_aristocrats" -> "Pirates aristocrats". */
export function humanize(name) {
  const words = String(name).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Seconds as "4:05" (or "1:02:03"). */
export function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const parts = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const [hours, minutes, secs] = parts.map((n) => String(n).padStart(2, "0"));
  return parts[0] ? `${parts[0]}:${minutes}:${secs}` : `${parts[1]}:${secs}`;
}
