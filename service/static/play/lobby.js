// The lobby: matches open to join, in play and finished; a form to create one.

import { heldTokens, keepTokens } from "./api.js";
import { fill, h, humanize } from "./dom.js";
import { meetPanels } from "./meet.js";

const TIMERS = [[0, "no timer"], [60, "1 minute"], [300, "5 minutes"], [3600, "1 hour"], [86400, "1 day"]];

const NAME_KEY = "tabula:name";

/** The name this browser plays under (kept across visits). */
function playerName() {
  return localStorage.getItem(NAME_KEY) || "";
}

/** The name at the table: the account's when signed in. */
function tableName(account) {
  return account.name || playerName();
}

/** The lobby in `root`; `shown()` says whether it is still the page on screen. */
export async function showLobby(root, api, account, go, shown) {
  const games = await api.games();
  if (!shown()) return; // the person went elsewhere meanwhile
  const lists = h("div", { class: "lobby-lists" });
  const refresh = () => listMatches(lists, api, account, go, shown);
  const name = account.name
    ? h("p", { class: "your-name" }, "You play as ", h("strong", { class: "signed-in-as" }, account.name))
    : h("label", { class: "your-name" }, "Your name at the table ",
      h("input", { name: "player-name", placeholder: "Your name", value: playerName(), maxlength: 64,
        oninput: (event) => localStorage.setItem(NAME_KEY, event.target.value.trim()) }));
  fill(root,
    h("div", { class: "lobby-side" }, meetPanels(api, account, go, shown),
      h("section", { class: "panel create" },
        h("h2", {}, "New match"), name,
        createForm(api, account, games, go))),
    h("div", {}, h("div", { class: "row" }, h("button", { class: "secondary", onclick: refresh }, "Refresh")), lists));
  await refresh();
}

// --- the match lists -------------------------------------------------------

async function listMatches(root, api, account, go, shown) {
  const sections = [["waiting", "Open seats"], ["active", "In play"], ["finished", "Finished"]];
  const pages = await Promise.all(sections.map(([status]) => api.lobby(status)));
  if (!shown()) return;
  fill(root, sections.map(([status, title], i) => h("section", { class: "panel", "data-status": status },
    h("h2", {}, title),
    pages[i].length ? h("ul", { class: "matches" }, pages[i].map((m) => matchRow(m, api, account, go)))
      : h("p", { class: "muted" }, "None."))));
}

function seatText(seat) {
  if (seat.kind === "open") return "open seat";
  if (seat.kind === "ai") return seat.name ? `${seat.name} (AI, ${seat.level})` : `AI (${seat.level})`;
  if (seat.account) return `${seat.account.name}${seat.account.kind === "bot" ? " (bot)" : ""}`;
  return seat.name || "a player";
}

function matchRow(match, api, account, go) {
  const mine = Object.keys(heldTokens(api.base, match.id)).length > 0
    || (account.name !== null && match.seats.some((s) => s.account?.name === account.name));
  const open = match.seats.some((s) => s.kind === "open");
  const buttons = [];
  if (open && match.status === "waiting") {
    buttons.push(h("button", { onclick: () => join(api, account, match.id, go) }, "Join"));
  }
  buttons.push(mine ? h("button", { onclick: () => go(match.id) }, "Continue")
    : h("button", { class: "secondary", onclick: () => go(match.id) }, "Watch"));
  const options = Object.entries(match.options).map(([k, v]) => `${humanize(k)}: ${humanize(v)}`).join(" · ");
  return h("li", { "data-match": match.id },
    h("div", {}, h("strong", {}, match.game === "anno1503" ? "Anno 1503" : "Anno 1452"), " ",
      h("span", { class: "muted" }, options)),
    h("div", { class: "muted" }, match.seats.map(seatText).join(", ")),
    h("div", { class: "row" }, buttons));
}

async function join(api, account, matchId, go) {
  const joined = await api.join(matchId, tableName(account) || null, account.token);
  keepTokens(api.base, matchId, { [joined.seat]: joined.token });
  go(matchId);
}

// --- the create form -------------------------------------------------------

function createForm(api, account, games, go) {
  const form = h("form", { class: "create-form" });
  const gameSelect = h("select", { name: "game" },
    games.map((g) => h("option", { value: g.id }, g.title || g.id)));
  const optionsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats" });
  const timer = h("select", { name: "timer" }, TIMERS.map(([s, label]) => h("option", { value: s }, label)));
  const seed = h("input", { name: "seed", type: "number", min: 0, placeholder: "random" });
  const reproducible = h("input", { name: "reproducible", type: "checkbox" });
  const error = h("p", { class: "error", role: "alert" });
  const game = () => games.find((g) => g.id === gameSelect.value);

  const redraw = () => {
    fill(optionsBox, Object.entries(game().options).map(([option, spec]) => optionField(option, spec)));
    drawSeats(seatsBox, game(), Math.min(game().max_players, Math.max(game().min_players, seatsBox.children.length || 2)));
  };
  gameSelect.addEventListener("change", redraw);
  redraw();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const created = await api.create(createRequest(form, game(), tableName(account)), account.token);
      keepTokens(api.base, created.match.id, created.tokens);
      go(created.match.id);
    } catch (failure) {
      error.textContent = failure.describe ? failure.describe() : String(failure);
    }
  });
  fill(form,
    h("label", {}, "Game ", gameSelect), optionsBox,
    h("fieldset", {}, h("legend", {}, "Seats"), seatsBox,
      h("div", { class: "row" },
        h("button", { type: "button", class: "secondary", onclick: () => drawSeats(seatsBox, game(), seatsBox.children.length + 1) }, "Add a seat"),
        h("button", { type: "button", class: "secondary", onclick: () => drawSeats(seatsBox, game(), seatsBox.children.length - 1) }, "Remove a seat"))),
    h("label", {}, "Turn timer ", timer),
    h("details", { class: "advanced" }, h("summary", {}, "Dice"),
      h("label", {}, "Seed ", seed),
      h("label", { class: "check" }, reproducible,
        " Reproducible: the seed alone fixes the dice (for tests and research; everyone can know them)")),
    h("button", { type: "submit", class: "primary" }, "Create the match"), error);
  return form;
}

function optionField(option, spec) {
  // The empty value leaves the option out: the server fills in its default
  // (which may depend on the number of seats).
  const choices = (spec.choices || []).filter((c) => c !== spec.default);
  const byDefault = spec.default === undefined ? "default" : `${humanize(spec.default)} (default)`;
  return h("label", { title: spec.description || "" }, `${humanize(option)} `,
    h("select", { name: `option:${option}` }, h("option", { value: "" }, byDefault),
      choices.map((c) => h("option", { value: JSON.stringify(c) }, humanize(c)))));
}

/** `count` seat rows (kept within the game's player range): seat 0 is you. */
function drawSeats(box, game, count) {
  const wanted = Math.min(game.max_players, Math.max(game.min_players, count));
  const kept = [...box.children].map((row) => [row.querySelector("[name=kind]").value, row.querySelector("[name=level]").value]);
  fill(box, Array.from({ length: wanted }, (_, seat) => {
    const [kind, level] = kept[seat] || [seat === 0 ? "you" : "ai", "medium"];
    const kindSelect = h("select", { name: "kind", "aria-label": `Seat ${seat + 1}` },
      [["you", "You"], ["human", "Another person here"], ["ai", "AI"], ["open", "Open seat"]]
        .map(([v, label]) => h("option", { value: v, selected: v === kind }, label)));
    const levelSelect = h("select", { name: "level", "aria-label": `Seat ${seat + 1} AI level` },
      (game.ai_levels || ["easy", "medium", "hard"]).map((l) => h("option", { value: l, selected: l === level }, l)));
    const sync = () => { levelSelect.hidden = kindSelect.value !== "ai"; };
    kindSelect.addEventListener("change", sync);
    sync();
    return h("div", { class: "seat-row", "data-seat": seat },
      h("span", {}, h("span", { class: `seat-dot seat-${seat}` }), ` Seat ${seat + 1}`), kindSelect, levelSelect);
  }));
}

function createRequest(form, game, yourName) {
  const options = {};
  for (const select of form.querySelectorAll("[name^='option:']")) {
    if (select.value) options[select.name.slice("option:".length)] = JSON.parse(select.value);
  }
  const seats = [...form.querySelectorAll(".seat-row")].map((row, seat) => {
    const kind = row.querySelector("[name=kind]").value;
    if (kind === "ai") return { kind: "ai", level: row.querySelector("[name=level]").value };
    if (kind === "open") return { kind: "open" };
    return { kind: "human", name: kind === "you" && yourName ? yourName : `Player ${seat + 1}` };
  });
  const request = { game: game.id, options, seats, turn_timeout_s: Number(form.querySelector("[name=timer]").value) };
  const seed = form.querySelector("[name=seed]").value;
  if (seed !== "") request.seed = Number(seed); // fair dice mix it with the server's secret
  if (form.querySelector("[name=reproducible]").checked) request.dice = "reproducible";
  return request;
}
