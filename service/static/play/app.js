// Tabula's reference web client: a lobby (#/), match pages (#/match/<id>),
// the signed-in account's matches (#/mine), profiles (#/profile/<name>) and
// the leaderboards (#/leaderboard/<pool>).
// Plain ES modules, no build step: what you read is what the browser runs.
//
//   api.js      the HTTP API and the tokens this browser holds
//   account.js  signing in, My matches and its badge, profiles
//   lobby.js    open, active and finished matches; the create form
//   meet.js     Play now, challenge a name, challenge notices
//   match.js    one match: board, moves, live log, clock
//   board.js    the server's SVG board inline, its places clickable
//   live.js     the event stream (NDJSON over fetch), reconnecting
//   labels.js   actions and events in words
//   ending.js   result, dice check, step-through
//   verify.js   the dice check (WebCrypto)
//   ratings.js  leaderboards, a profile's ratings and their chart (SVG)

import { Account, drawAccountBar, showMyMatches, showProfile } from "./account.js";
import { Api } from "./api.js";
import { fill, h } from "./dom.js";
import { showLobby } from "./lobby.js";
import { openMatch } from "./match.js";
import { ChallengeNotices } from "./meet.js";
import { parseLeaderboardHash, showLeaderboard } from "./ratings.js";

const api = new Api();
const main = document.querySelector("main");
const notices = new ChallengeNotices(api, document.querySelector("#notices"), go);
const account = new Account(api, (signedIn) => {
  // Who is signed in changed: the page shows it (the lobby's name, My matches),
  // and the challenges waiting for an answer.
  if (drawAccountBar(document.querySelector("#account"), signedIn)) {
    notices.load(signedIn).catch(() => {});
    if (started) route();
  }
});
account.onEvent((message) => {
  if (message.type === "challenge") notices.add(account, message.data);
});
let started = false; // the first route waits for the kept account
let leave = null; // stops the page on screen
let shownPage = 0; // counts pages shown: an older one still loading draws nothing

function go(matchId) {
  location.hash = `#/match/${matchId}`;
}

async function route() {
  leave?.();
  leave = null;
  const page = ++shownPage;
  for (const key of Object.keys(main.dataset)) delete main.dataset[key];
  const match = location.hash.match(/^#\/match\/([\w-]+)/);
  const profile = location.hash.match(/^#\/profile\/([^/]+)/);
  const leaderboard = parseLeaderboardHash(location.hash);
  try {
    if (leaderboard) {
      await showLeaderboard(main, api, leaderboard);
    } else if (profile) {
      await showProfile(main, api, decodeURIComponent(profile[1]));
    } else if (location.hash === "#/mine") {
      await showMyMatches(main, api, account, go);
    } else if (match) {
      const opened = openMatch(main, api, match[1]);
      leave = opened.stop;
      await opened.ready;
    } else {
      await showLobby(main, api, account, go, () => page === shownPage);
    }
  } catch (error) {
    if (page !== shownPage) return;
    fill(main, h("p", { class: "error", role: "alert" }, `Could not load: ${error.message || error}`),
      h("a", { href: "#/", class: "button" }, "Back to the lobby"));
  }
}

document.querySelector("#server").textContent = api.base || location.origin;
window.addEventListener("hashchange", route);
account.load().catch(() => {}).finally(() => {
  started = true;
  route();
});
