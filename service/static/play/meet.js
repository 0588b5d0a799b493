// Meeting opponents (docs/matchmaking.md): "Play now" (a seek in a rating
// pool, waiting until a wave pairs you, cancellable), "Challenge a name",
// and the notices of challenges to accept or decline, which arrive on the
// account stream the page already holds (account.js).
//
// The account token plays the account's seat of the match it lands in: the
// match page needs no seat token for it.

import { keepTokens } from "./api.js";
import { fill, h } from "./dom.js";

const POOLS = [
  ["anno1452-basic", "Anno 1452", "anno1452"],
  ["anno1452-expert", "Anno 1452, expert rules", "anno1452"],
  ["anno1503-base", "Anno 1503", "anno1503"],
  ["anno1503-expansion", "Anno 1503 with Aristokraten und Piraten", "anno1503"],
];
const COUNTS = [["2", [2]], ["3", [3]], ["4", [4]], ["2-4", [2, 3, 4]]];
const POLL_MS = 1000;

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Opens the match where the account holds `seat`: its token plays that seat (docs/accounts.md). */
function openAsAccount(api, account, go, matchId, seat) {
  keepTokens(api.base, matchId, { [seat]: account.token });
  go(matchId);
}

/** The account's seat of a started challenge. */
function challengeSeat(challenge, name) {
  return challenge.seats.find((s) => s.kind === "account" && s.name === name).seat;
}

function errorText(failure) {
  return failure.describe ? failure.describe() : String(failure.message || failure);
}

/** The lobby's "Play now" and "Challenge" panels (signed in only); `shown()`: still on screen. */
export function meetPanels(api, account, go, shown) {
  if (!account.token) {
    return h("section", { class: "panel play-now" }, h("h2", {}, "Play now"),
      h("p", { class: "muted" }, "Sign in to be paired with other players, or to challenge one."));
  }
  return h("div", { class: "meet" }, playNowPanel(api, account, go, shown), challengePanel(api, account, go, shown));
}

function select(name, label, options) {
  return h("label", {}, `${label} `,
    h("select", { name }, options.map(([value, text]) => h("option", { value }, text))));
}

function playNowPanel(api, account, go, shown) {
  const status = h("p", { class: "seek-status", role: "status" });
  const form = h("form", { class: "play-now-form" },
    select("pool", "Game", POOLS.map(([pool, title]) => [pool, title])),
    select("players", "Players", COUNTS.map(([label]) => [label, label])),
    h("label", {}, h("input", { type: "checkbox", name: "rated", checked: true }), " Rated"),
    h("button", { type: "submit", class: "play-now-button" }, "Play now"));
  const panel = h("section", { class: "panel play-now" }, h("h2", {}, "Play now"), form, status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const counts = COUNTS.find(([label]) => label === data.get("players"))[1];
    try {
      const seek = await api.call("POST", "/v1/seeks", {
        token: account.token, body: { pool: data.get("pool"), counts, rated: data.get("rated") === "on" },
      }).then((r) => r.body);
      await waitForTable(api, account, seek, form, status, go, shown);
    } catch (failure) {
      form.hidden = false;
      status.textContent = errorText(failure);
    }
  });
  return panel;
}

async function waitForTable(api, account, seek, form, status, go, shown) {
  form.hidden = true;
  let cancelled = false;
  const cancel = h("button", { class: "secondary cancel-seek", onclick: async () => {
    cancelled = true;
    try {
      await api.call("DELETE", `/v1/seeks/${seek.id}`, { token: account.token });
      fill(status, "Cancelled.");
    } catch (failure) {
      cancelled = false; // paired meanwhile: the poll below goes to the match
      fill(status, errorText(failure));
    }
    form.hidden = false;
  } }, "Cancel");
  fill(status, h("span", { class: "waiting" }, "Looking for opponents… "), cancel);
  status.dataset.seek = seek.id;
  // GET /v1/seeks also renews the seek (the account stream does too).
  while (shown() && !cancelled) {
    await sleep(POLL_MS);
    const mine = await api.call("GET", "/v1/seeks", { token: account.token }).then((r) => r.body);
    const now = mine.find((s) => s.id === seek.id);
    if (now?.status === "matched") return openAsAccount(api, account, go, now.match_id, now.seat);
    if (now && now.status !== "waiting") {
      fill(status, `The seek ${now.status}.`);
      form.hidden = false;
      return;
    }
  }
}

function challengePanel(api, account, go, shown) {
  const status = h("p", { class: "challenge-status", role: "status" });
  const form = h("form", { class: "challenge-form" },
    h("input", { name: "opponent", placeholder: "Their name", maxlength: 24, "aria-label": "Name to challenge" }),
    select("pool", "Game", POOLS.map(([pool, title]) => [pool, title])),
    h("label", {}, h("input", { type: "checkbox", name: "rated", checked: true }), " Rated"),
    h("button", { type: "submit" }, "Challenge"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const [, , game] = POOLS.find(([pool]) => pool === data.get("pool"));
    const options = game === "anno1452"
      ? { rules: data.get("pool").endsWith("expert") ? "expert" : "basic" }
      : { expansion: data.get("pool").endsWith("expansion") ? "pirates_aristocrats" : "none" };
    try {
      const made = await api.call("POST", "/v1/challenges", { token: account.token, body: {
        game, options, rated: data.get("rated") === "on",
        seats: [{ kind: "account", name: data.get("opponent").trim() }],
      } }).then((r) => r.body);
      fill(status, `Challenge sent to ${data.get("opponent").trim()}; waiting for an answer…`);
      await followChallenge(api, account, made.id, status, go, shown);
    } catch (failure) {
      // 404 naming the name: no account has it (a typo, or not signed up yet).
      status.textContent = failure.status === 404 && failure.details?.name
        ? `Nobody is named ${failure.details.name}.` : errorText(failure);
    }
  });
  return h("section", { class: "panel challenge" }, h("h2", {}, "Challenge a name"), form, status);
}

async function followChallenge(api, account, id, status, go, shown) {
  while (shown()) {
    await sleep(POLL_MS);
    const now = await api.call("GET", `/v1/challenges/${id}`, { token: account.token }).then((r) => r.body);
    if (now.status === "started") return openAsAccount(api, account, go, now.match_id, 0);
    if (now.status !== "pending") return fill(status, `The challenge was ${now.status}.`);
  }
}

// --- notices: challenges to this account -------------------------------------

/** Shows, in `box`, a notice per pending challenge to the account. */
export class ChallengeNotices {
  constructor(api, box, go) {
    Object.assign(this, { api, box, go });
    this.shown = new Map(); // challenge id -> its notice
  }

  /** The account's pending received challenges, as notices (on sign-in and reconnection). */
  async load(account) {
    this.clear();
    if (!account.token) return;
    const mine = await this.api.call("GET", "/v1/challenges", { token: account.token }).then((r) => r.body);
    for (const challenge of mine.reverse()) {
      const me = challenge.seats.find((s) => s.name === account.name);
      if (challenge.status === "pending" && challenge.challenger.name !== account.name && !me?.accepted) {
        this.add(account, challenge);
      }
    }
  }

  clear() {
    this.shown.clear();
    fill(this.box);
  }

  /** One notice: who, which game, rated or not; Accept and Decline. */
  add(account, challenge) {
    if (this.shown.has(challenge.id)) return;
    const answer = h("span", { class: "muted" });
    const respond = (what) => async () => {
      try {
        const done = await this.api.call("POST", `/v1/challenges/${challenge.id}/${what}`, { token: account.token })
          .then((r) => r.body);
        if (done.status === "started") {
          this.remove(challenge.id);
          return openAsAccount(this.api, account, this.go, done.match_id, challengeSeat(done, account.name));
        }
        if (done.status !== "pending") return this.remove(challenge.id);
        fill(answer, "Accepted; waiting for the others…");
      } catch (failure) {
        fill(answer, errorText(failure));
      }
    };
    const pool = POOLS.find(([, , game]) => game === challenge.game);
    const notice = h("div", { class: "notice challenge-notice", role: "alert", "data-challenge": challenge.id },
      h("strong", {}, challenge.challenger.name), ` challenges you to ${pool ? pool[1].split(",")[0] : challenge.game}`,
      challenge.rated ? " (rated) " : " ",
      h("button", { class: "accept-challenge", onclick: respond("accept") }, "Accept"),
      h("button", { class: "secondary decline-challenge", onclick: respond("decline") }, "Decline"),
      answer);
    this.shown.set(challenge.id, notice);
    this.box.append(notice);
  }

  remove(id) {
    this.shown.get(id)?.remove();
    this.shown.delete(id);
  }
}
