// The account this browser is signed in with (docs/accounts.md): sign in by
// choosing a name, carry the token to another browser, sign out; "My
// matches" with a badge counting where it is your turn, kept live by the
// account stream; the public profile page (#/profile/<name>).
//
// The stream is NDJSON over fetch with the bearer token, as live.js follows a
// match (fetch can send Authorization; EventSource would need a ticket).

import { accountToken, keepAccountToken } from "./api.js";
import { fill, h, humanize } from "./dom.js";
import { ratingsSection } from "./ratings.js";

const RECONNECT_MS = [500, 1000, 2000, 5000];
const GAME_TITLES = { anno1503: "Anno 1503", anno1452: "Anno 1452" };

/** The signed-in account: `token`, `account` ({name, kind, …}) or nulls. */
export class Account {
  constructor(api, onChange) {
    Object.assign(this, { api, onChange });
    this.token = accountToken(api.base);
    this.account = null;
    this.toAct = 0;
    this.stream = null;
    this.listeners = []; // each called with every account stream message
  }

  /** `listener(message)` on each account stream message ({id, type, match_id, data}). */
  onEvent(listener) { this.listeners.push(listener); }

  get name() { return this.account?.name || null; }

  /** Reads the account of the kept token (a revoked one is forgotten). */
  async load() {
    if (!this.token) return this._changed();
    try {
      this.account = await this.api.me(this.token);
    } catch (error) {
      if (error.status !== 401) throw error;
      this.token = null;
      keepAccountToken(this.api.base, null);
    }
    this._changed();
  }

  async signUp(name) {
    const created = await this.api.signUp(name);
    await this.useToken(created.token);
  }

  /** Signs in with a token carried from another browser. */
  async useToken(token) {
    const account = await this.api.me(token);
    Object.assign(this, { token, account });
    keepAccountToken(this.api.base, token);
    this._changed();
  }

  signOut() {
    Object.assign(this, { token: null, account: null, toAct: 0 });
    keepAccountToken(this.api.base, null);
    this._changed();
  }

  async countTurns() {
    if (!this.token) return;
    const matches = await this.api.myMatches(this.token, true);
    this.toAct = matches.length;
    this.onChange(this);
  }

  _changed() {
    this.stream?.stop();
    this.stream = null;
    if (this.account) {
      this.stream = new AccountStream(this.api, this.token, (message) => {
        this.countTurns().catch(() => {});
        if (message) for (const listener of this.listeners) listener(message);
      });
      this.stream.start();
    }
    this.onChange(this);
  }
}

/**
 * Follows the account stream; `onMessage(message)` on each message, and
 * `onMessage()` on each (re)connection. An open stream also keeps the
 * account's seeks alive (docs/matchmaking.md).
 */
class AccountStream {
  constructor(api, token, onMessage) {
    Object.assign(this, { api, token, onMessage });
    this.stopped = false;
    this.controller = null;
  }

  async start() {
    for (let failures = 0; !this.stopped; failures++) {
      try {
        await this._follow();
        failures = 0;
      } catch {
        if (this.stopped) return;
      }
      await new Promise((r) => setTimeout(r, RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)]));
    }
  }

  stop() {
    this.stopped = true;
    this.controller?.abort();
  }

  async _follow() {
    this.controller = new AbortController();
    const response = await fetch(`${this.api.base}/v1/account/stream`, {
      headers: { Accept: "application/x-ndjson", Authorization: `Bearer ${this.token}` },
      signal: this.controller.signal,
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    this.onMessage(); // what changed while not connected
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split("\n");
      buffer = lines.pop();
      for (const line of lines) {
        if (!line.trim()) continue; // keep-alives
        let message = null;
        try { message = JSON.parse(line); } catch { /* a line cut short: ignored */ }
        this.onMessage(message);
      }
    }
  }
}

// --- the header: who is signed in ------------------------------------------

/**
 * The header's account part in `box`, from `account`; true when who is
 * signed in changed (a new count of turns only redraws the badge).
 */
export function drawAccountBar(box, account) {
  const who = account.name || "";
  if (box.dataset.who === who && box.dataset.drawn) {
    drawBadge(box.querySelector(".my-matches .badge"), account.toAct);
    return false;
  }
  Object.assign(box.dataset, { who, drawn: "yes" });
  if (!account.account) {
    fill(box, signInForms(account));
    return true;
  }
  const badge = drawBadge(h("span", { class: "badge", title: "Matches where it is your turn" }), account.toAct);
  fill(box,
    h("a", { href: `#/profile/${encodeURIComponent(account.name)}`, class: "account-name" }, account.name),
    h("a", { href: "#/mine", class: "my-matches" }, "My matches ", badge),
    h("details", { class: "carry" }, h("summary", {}, "Token"),
      h("div", { class: "carry-panel" },
        h("p", {}, "To sign in on another browser, paste this there (keep it secret):"),
        h("input", { readonly: true, value: account.token, name: "account-token", onfocus: (e) => e.target.select() }))),
    h("button", { class: "secondary", onclick: () => account.signOut() }, "Sign out"));
  return true;
}

function drawBadge(badge, toAct) {
  badge.textContent = toAct;
  badge.dataset.toAct = toAct;
  badge.hidden = !toAct;
  return badge;
}

function signInForms(account) {
  const error = h("span", { class: "error", role: "alert" });
  const attempt = (work) => async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await work(new FormData(event.target));
    } catch (failure) {
      error.textContent = failure.describe ? failure.describe() : String(failure);
    }
  };
  return [
    h("form", { class: "sign-in", onsubmit: attempt((data) => account.signUp(data.get("account-name").trim())) },
      h("input", { name: "account-name", placeholder: "Choose a name", maxlength: 24, "aria-label": "Account name" }),
      h("button", { type: "submit" }, "Sign in")),
    h("form", { class: "use-token", onsubmit: attempt((data) => account.useToken(data.get("token").trim())) },
      h("input", { name: "token", placeholder: "or use a token", "aria-label": "Account token" }),
      h("button", { type: "submit", class: "secondary" }, "Use")),
    error,
  ];
}

// --- pages -----------------------------------------------------------------

function seatNames(match) {
  return match.seats.map((s) => s.account?.name || s.name || (s.kind === "ai" ? "AI" : s.kind)).join(", ");
}

/** "My matches" (#/mine): the account's matches, newest first. */
export async function showMyMatches(root, api, account, go) {
  if (!account.token) return fill(root, h("p", { class: "muted" }, "Sign in to see your matches."));
  const [all, toAct] = await Promise.all([api.myMatches(account.token), api.myMatches(account.token, true)]);
  const waiting = new Set(toAct.map((m) => m.id));
  root.dataset.page = "mine";
  fill(root, h("section", { class: "panel my-list" }, h("h2", {}, "My matches"),
    all.length ? h("ul", { class: "matches" }, all.map((m) => h("li", { "data-match": m.id },
      h("div", {}, h("strong", {}, GAME_TITLES[m.game] || m.game), " ", h("span", { class: "muted" }, humanize(m.status)),
        waiting.has(m.id) ? h("span", { class: "badge your-turn" }, "your turn") : null),
      h("div", { class: "muted" }, seatNames(m)),
      h("div", { class: "row" }, h("button", { onclick: () => go(m.id) }, "Open")))))
      : h("p", { class: "muted" }, "None yet.")));
}

/** The public profile (#/profile/<name>). */
export async function showProfile(root, api, name) {
  const profile = await api.profile(name);
  const ratings = await ratingsSection(api, profile);
  root.dataset.page = "profile";
  const games = Object.entries(profile.games);
  fill(root, h("section", { class: "panel profile", "data-account": profile.name },
    h("h2", {}, profile.name),
    h("p", { class: "muted" }, `${humanize(profile.kind)} · since ${new Date(profile.since).toLocaleDateString()}`),
    h("h3", {}, "Games"),
    games.length ? h("table", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Played"), h("th", {}, "Won")),
      games.map(([game, n]) => h("tr", { "data-game": game }, h("td", {}, GAME_TITLES[game] || game),
        h("td", {}, n.played), h("td", {}, n.won))))
      : h("p", { class: "muted" }, "No finished matches yet."),
    ratings,
    h("h3", {}, "Recent results"),
    profile.recent.length ? h("ul", { class: "recent" }, profile.recent.map((r) => h("li", {},
      h("a", { href: `#/match/${r.match_id}` }, GAME_TITLES[r.game] || r.game), ` ${r.won ? "won" : "lost"}`,
      h("span", { class: "muted" }, ` · ${new Date(r.finished_at).toLocaleString()}`))))
      : h("p", { class: "muted" }, "None yet.")));
}
