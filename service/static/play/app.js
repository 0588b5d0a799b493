// Tabula's reference web client: a lobby (#/) and match pages (#/match/<id>).
// Plain ES modules, no build step: what you read is what the browser runs.
//
//   api.js      the HTTP API and the tokens this browser holds
//   lobby.js    open, active and finished matches; the create form
//   match.js    one match: board, moves, live log, clock
//   board.js    the server's SVG board inline, its places clickable
//   live.js     the event stream (NDJSON over fetch), reconnecting
//   labels.js   actions and events in words
//   ending.js   result, dice check, step-through
//   verify.js   the dice check (WebCrypto)

import { Api } from "./api.js";
import { fill, h } from "./dom.js";
import { showLobby } from "./lobby.js";
import { openMatch } from "./match.js";

const api = new Api();
const main = document.querySelector("main");
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
  try {
    if (match) {
      const opened = openMatch(main, api, match[1]);
      leave = opened.stop;
      await opened.ready;
    } else {
      await showLobby(main, api, go, () => page === shownPage);
    }
  } catch (error) {
    if (page !== shownPage) return;
    fill(main, h("p", { class: "error", role: "alert" }, `Could not load: ${error.message || error}`),
      h("a", { href: "#/", class: "button" }, "Back to the lobby"));
  }
}

document.querySelector("#server").textContent = api.base || location.origin;
window.addEventListener("hashchange", route);
route();
