// After the end: the result, the dice check, and a step-through of the
// match action by action (the server draws each position from the replay).

import { showBoard } from "./board.js";
import { fill, h, humanize } from "./dom.js";
import { actionLabel } from "./labels.js";
import { verifyDice } from "./verify.js";

const shown = new WeakMap(); // ending box -> match id already drawn into it

export async function showEnding(box, api, match, token, names, boardBox) {
  if (shown.get(box) === match.id) return;
  shown.set(box, match.id);
  const raw = await api.replay(match.id);
  const replay = JSON.parse(raw);
  const checks = h("ul", { class: "checks" }, h("li", {}, "Checking…"));
  fill(box,
    h("section", { class: "panel result" }, h("h3", {}, "Result"), resultTable(match, names)),
    h("section", { class: "panel" }, h("h3", {}, "Dice check"), checks),
    h("section", { class: "panel" }, h("h3", {}, "Step through"), stepper(api, match, token, replay, names, boardBox)));
  const results = await verifyDice(raw);
  fill(checks, results.map((r) => h("li", { class: r.ok === true ? "ok" : r.ok === false ? "bad" : "muted", "data-ok": String(r.ok) },
    `${r.ok === true ? "✔" : r.ok === false ? "✘" : "–"} ${r.check} (${r.detail})`)));
}

function resultTable(match, names) {
  const result = match.result || {};
  const scores = result.scores || {};
  return h("table", {},
    h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Score"), h("th", {}, "")),
    match.seats.map((seat) => h("tr", {},
      h("td", {}, names.seat(seat.seat)),
      h("td", {}, typeof scores[seat.seat] === "object" ? JSON.stringify(scores[seat.seat]) : String(scores[seat.seat] ?? "")),
      h("td", {}, (result.winners || []).includes(seat.seat) ? "winner" : seat.resigned ? "resigned" : ""))),
    h("caption", {}, humanize(result.reason || "")));
}

function stepper(api, match, token, replay, names, boardBox) {
  const total = replay.actions.length;
  const slider = h("input", { type: "range", min: 0, max: total, value: total, "aria-label": "Step" });
  const caption = h("p", { class: "muted" });
  let request = 0;
  const go = async (step) => {
    step = Math.max(0, Math.min(total, step));
    slider.value = step;
    const done = replay.actions[step - 1];
    caption.textContent = step === 0 ? `Set-up (0 of ${total})`
      : `After move ${step} of ${total}: ${names.seat(done.seat)}: ${actionLabel(match.game, done.action, names)}`;
    const mine = ++request;
    const board = await api.board(match.id, token, undefined, step);
    if (mine === request) showBoard(boardBox, board.body); // a later step may have been asked meanwhile
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  return h("div", { class: "stepper" },
    h("div", { class: "row" },
      h("button", { class: "secondary", onclick: () => go(0) }, "Start"),
      h("button", { class: "secondary", onclick: () => go(Number(slider.value) - 1), "aria-label": "Previous move" }, "◀"),
      h("button", { class: "secondary", onclick: () => go(Number(slider.value) + 1), "aria-label": "Next move" }, "▶"),
      h("button", { class: "secondary", onclick: () => go(total) }, "End")),
    slider, caption);
}
