// One match: the board, your legal actions, the live event log, the clock,
// and after the end the result, the dice check and a step-through.

import { ApiError, forgetToken, heldTokens, keepTokens } from "./api.js";
import { closeMenu, showBoard, titleOf, wireTargets } from "./board.js";
import { clock, fill, h, humanize } from "./dom.js";
import { showEnding } from "./ending.js";
import { actionLabel, decisionText, eventSentence } from "./labels.js";
import { LiveMatch } from "./live.js";

const LOG_LINES_SHOWN = 300;
const GAME_TITLES = { anno1503: "Anno 1503", anno1452: "Anno 1452" };

/** Show a match in `root`: `ready` settles once it is drawn; `stop()` when the page is left. */
export function openMatch(root, api, matchId) {
  const page = new MatchPage(root, api, matchId);
  return { ready: page.start(), stop: () => page.stop() };
}

class MatchPage {
  constructor(root, api, matchId) {
    Object.assign(this, { root, api, matchId });
    this.match = null;
    this.matchEtag = null;
    this.boardEtag = null;
    this.svg = null;
    this.actions = { version: null, actions: [] };
    this.log = [];
    this.refreshing = null;
    this.again = false;
    this.boardText = null;
    this.drawnSeat = null; // the seat the page last drew for
    this.layout();
  }

  // --- who we are: the seat this browser plays (hot seat: the one to act) --

  tokens() { return heldTokens(this.api.base, this.matchId); }

  seat() {
    const held = Object.keys(this.tokens()).map(Number).sort((a, b) => a - b);
    const toAct = this.match?.to_act || [];
    const due = held.find((s) => toAct.includes(s));
    return due !== undefined ? due : held.length ? held[0] : null;
  }

  token() { const seat = this.seat(); return seat === null ? null : this.tokens()[seat]; }

  names() {
    const seats = this.match?.seats || [];
    const view = this.match?.view || {};
    return {
      // As the board names them (engine/render/svg.py seat_name).
      seat: (n) => seats[n]?.account?.name || seats[n]?.name || `Seat ${n + 1}`,
      region: (r) => view.regions?.[r]?.name || `region ${r}`,
      card: (id) => (titleOf(this.svg, "card", id) || `card ${id}`).split(/ [—:(]/)[0],
    };
  }

  // --- layout ------------------------------------------------------------

  layout() {
    this.title = h("h2", {});
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.clockLine = h("p", { class: "clock" });
    this.liveState = h("span", { class: "live-state muted" });
    this.alert = h("p", { class: "error", role: "alert" });
    this.boardBox = h("div", { class: "board", "aria-label": "Board" });
    this.actionBox = h("div", { class: "actions" });
    this.logBox = h("ol", { class: "log", "aria-label": "What happened" });
    this.endBox = h("div", { class: "ending" });
    this.tools = h("div", { class: "row tools" });
    fill(this.root,
      h("div", { class: "match-head" }, this.title, this.status, this.clockLine, this.alert, this.tools),
      h("div", { class: "match-body" },
        this.boardBox,
        h("aside", { class: "side" },
          h("section", { class: "panel" }, h("h3", {}, "Your moves"), this.actionBox),
          this.endBox,
          h("section", { class: "panel" }, h("h3", {}, "What happened ", this.liveState), this.logBox))));
    this.ticker = setInterval(() => this.drawClock(), 1000);
  }

  async start() {
    await this.refresh();
    await this.loadLog();
    if (!this.stopped) this.follow();
  }

  stop() {
    this.stopped = true; // reads still in flight draw nothing
    clearInterval(this.ticker);
    this.live?.stop();
    closeMenu();
  }

  follow() {
    this.live?.stop();
    this.live = new LiveMatch(this.api, this.matchId, this.token(), {
      onMatch: () => this.refreshSoon(),
      onEvent: (event) => { this.addEvents([event]); this.refreshSoon(); },
      onEnd: () => this.refreshSoon(),
      onState: (text) => { this.liveState.textContent = `(${text})`; },
    });
    this.live.start(this.lastSeq());
  }

  lastSeq() { return this.log.length ? this.log[this.log.length - 1].seq : 0; }

  // --- reading the match -------------------------------------------------

  /** Coalesce bursts of events (an AI plays several moves at once) into one refresh. */
  refreshSoon() {
    clearTimeout(this.soon);
    this.soon = setTimeout(() => this.refresh(), 80);
  }

  /** Read the match, moves and board; resolves once the page shows the latest of them. */
  async refresh() {
    if (this.refreshing) {
      this.again = true; // the running refresh reads once more before it resolves
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.read().catch((error) => this.showError(error));
      } while (this.again);
    })().finally(() => { this.refreshing = null; });
    return this.refreshing;
  }

  async read() {
    const token = this.token();
    const got = await this.api.match(this.matchId, token, this.matchEtag);
    if (got.status !== 304) { this.match = got.body; this.matchEtag = got.etag; }
    const seat = this.seat();
    const wantsActions = seat !== null && this.match.status === "active" && this.match.to_act.includes(seat);
    const [board, actions] = await Promise.all([
      this.api.board(this.matchId, this.token(), this.boardEtag),
      wantsActions ? this.api.actions(this.matchId, this.tokens()[seat]) : { version: this.match.version, actions: [] },
    ]);
    if (this.stopped) return;
    const unchanged = got.status === 304 && board.status === 304
      && actions.version === this.actions.version && seat === this.drawnSeat;
    if (board.status !== 304) {
      this.boardEtag = board.etag;
      this.boardText = board.body;
    }
    this.actions = actions;
    // Nothing new (the live stream's echo of a move that the move's own read
    // has drawn already): the picture is not replaced, so a click under way
    // on it is not lost (a press on the old picture and a release on the new
    // one make no click: seen as a move that never left the page).
    if (unchanged) return;
    this.drawnSeat = seat;
    this.draw();
  }

  async loadLog() {
    let after = 0;
    for (;;) {
      const page = await this.api.events(this.matchId, this.token(), after);
      this.addEvents(page.events);
      after = page.last_seq;
      if (!page.more) return;
    }
  }

  addEvents(events) {
    if (this.stopped) return;
    const fresh = events.filter((e) => e.seq > this.lastSeq());
    if (!fresh.length) return;
    this.log.push(...fresh);
    const names = this.names();
    for (const event of fresh) {
      this.logBox.append(h("li", { "data-seq": event.seq }, eventSentence(event, names)));
    }
    while (this.logBox.children.length > LOG_LINES_SHOWN) this.logBox.firstChild.remove();
    this.logBox.lastChild?.scrollIntoView({ block: "nearest" });
  }

  // --- drawing -----------------------------------------------------------

  draw() {
    const m = this.match;
    const seat = this.seat();
    // A fresh copy of the picture each time: no highlight of older moves stays on it.
    if (this.boardText) this.svg = showBoard(this.boardBox, this.boardText);
    this.title.textContent = `${GAME_TITLES[m.game] || m.game} · ${Object.values(m.options).map(humanize).join(" · ")}`;
    this.status.textContent = this.statusText(seat);
    this.root.dataset.status = m.status;
    this.root.dataset.version = m.version;
    this.drawActions(seat);
    this.drawTools(seat);
    this.drawClock();
    if (m.status === "finished") showEnding(this.endBox, this.api, m, this.token(), this.names(), this.boardBox);
  }

  statusText(seat) {
    const m = this.match;
    const names = this.names();
    const who = seat === null ? "You are watching." : `You play ${names.seat(seat)}.`;
    if (m.status === "waiting") {
      const open = m.seats.filter((s) => s.kind === "open").length;
      return `${who} Waiting for ${open} more player${open === 1 ? "" : "s"} to join from the lobby.`;
    }
    if (m.status === "finished") {
      const winners = (m.result?.winners || []).map(names.seat).join(" and ") || "nobody";
      return `${who} The match is over: ${winners} won (${humanize(m.result?.reason || "")}).`;
    }
    const decision = decisionText(m.view);
    if (m.to_act.includes(seat)) return `${who} Your turn: ${decision}.`;
    const waiting = m.to_act.map((s) => `${names.seat(s)}${m.seats[s].kind === "ai" ? ` (AI, ${m.seats[s].level}, thinking)` : ""}`);
    return `${who} Waiting for ${waiting.join(", ")}: ${decision}.`;
  }

  drawClock() {
    const deadlines = Object.entries(this.match?.deadlines || {});
    if (!deadlines.length) { this.clockLine.textContent = ""; return; }
    const names = this.names();
    this.clockLine.textContent = "Turn clock: " + deadlines
      .map(([seat, at]) => `${names.seat(Number(seat))} ${clock((Date.parse(at) - Date.now()) / 1000)}`).join(" · ");
  }

  drawActions(seat) {
    const game = this.match.game;
    const names = this.names();
    const label = (action) => actionLabel(game, action, names);
    const play = (action) => this.play(action);
    const actions = this.actions.actions;
    if (!actions.length) {
      fill(this.actionBox, h("p", { class: "muted" },
        seat === null ? "Spectators watch." : this.match.status === "active" ? "Not your turn." : "No moves."));
      return;
    }
    const buttons = this.svg ? wireTargets(this.svg, actions, seat, label, play) : actions;
    const onBoard = actions.length - buttons.length;
    // A redraw (another seat's move, a reconnection) leaves each group of moves
    // open or folded as the person left it: one folding under the pointer
    // would take the move about to be clicked away.
    const folded = new Map([...this.actionBox.querySelectorAll("details.move-group")]
      .map((group) => [group.dataset.type, !group.open]));
    fill(this.actionBox,
      onBoard ? h("p", { class: "hint" }, `${onBoard} move${onBoard === 1 ? "" : "s"} on the board: click a highlighted place.`) : null,
      groupButtons(buttons, label, play, folded));
  }

  drawTools(seat) {
    const m = this.match;
    const held = Object.keys(this.tokens()).map(Number);
    const tools = [h("a", { href: "#/", class: "button secondary" }, "Lobby")];
    if (held.length > 1) tools.push(h("span", { class: "muted" }, `Hot seat: you hold ${held.map((s) => this.names().seat(s)).join(", ")}`));
    if (seat !== null && m.status === "active") {
      tools.push(h("button", { class: "secondary", onclick: () => this.resign(seat) }, "Resign"));
    }
    if (seat !== null && m.status === "finished") {
      tools.push(h("button", { onclick: () => this.rematch() }, m.rematch ? "Go to the rematch" : "Rematch"));
    }
    fill(this.tools, tools);
  }

  // --- acting ------------------------------------------------------------

  async play(action) {
    closeMenu();
    this.alert.textContent = "";
    this.actionBox.setAttribute("aria-busy", "true");
    this.root.dataset.busy = "1"; // tests wait for it to go
    try {
      await this.api.post(this.matchId, this.token(), action, this.actions.version);
    } catch (error) {
      this.showError(error);
    }
    await this.refresh();
    this.actionBox.removeAttribute("aria-busy");
    delete this.root.dataset.busy;
  }

  async resign(seat) {
    if (!confirm("Resign? The AI will play your seat and it counts as a loss.")) return;
    await this.api.resign(this.matchId, this.token()).catch((error) => this.showError(error));
    forgetToken(this.api.base, this.matchId, seat);
    this.follow();
    await this.refresh();
  }

  async rematch() {
    const created = await this.api.rematch(this.matchId, this.token());
    keepTokens(this.api.base, created.match.id, { [created.seat]: created.token });
    location.hash = `#/match/${created.match.id}`;
  }

  showError(error) {
    if (error instanceof ApiError && error.code === "version_conflict") {
      // Someone moved first (an AI answering at the same time, another tab).
      this.alert.textContent = "The match moved on before your move arrived: nothing was played. Here are your moves now.";
    } else {
      this.alert.textContent = error instanceof ApiError ? `Refused: ${error.describe()}` : String(error);
    }
  }
}

/** Buttons for the moves that are not on the board, grouped by type when there
 * are many; `folded`: type -> whether the person left that group folded (a new
 * group of up to 6 moves starts open). */
function groupButtons(actions, label, play, folded) {
  const groups = new Map();
  for (const action of actions) {
    if (!groups.has(action.type)) groups.set(action.type, []);
    groups.get(action.type).push(action);
  }
  const button = (action) => h("button", { class: "move", "data-type": action.type, onclick: () => play(action) }, label(action));
  if (actions.length <= 12) return h("div", { class: "moves" }, actions.map(button));
  return [...groups].map(([type, list]) => h("details",
    { class: "move-group", "data-type": type, open: !(folded.get(type) ?? list.length > 6) },
    h("summary", {}, `${humanize(type)} (${list.length})`), h("div", { class: "moves" }, list.map(button))));
}
