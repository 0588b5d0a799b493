// The Tabula HTTP API as the client uses it: one request function, errors
// as exceptions carrying the contract's {error, message, details}, and the
// bearer tokens this browser holds, per server and match.

const RETRIES_ON_429 = 3;

/** A refused request: `status` and the contract's `code`, `message`, `details`. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error || "http_error";
    this.details = body?.details || {};
  }

  /** What a person reads: the message and, for a refused move, the rule. */
  describe() {
    const reason = this.details.reason ? ` (${this.details.reason.replaceAll("_", " ")})` : "";
    return `${this.message}${reason}`;
  }
}

/** The server: this page's own, or another one named by `?server=` (it must allow us by CORS). */
export function serverBase() {
  const named = new URLSearchParams(location.search).get("server");
  return (named || "").replace(/\/+$/, "");
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function newKey() {
  // crypto.randomUUID needs a secure context (https or localhost).
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export class Api {
  constructor(base = serverBase()) {
    this.base = base;
  }

  /**
   * One call. `token` adds the bearer; `body` is sent as JSON; `etag` asks
   * for 304. Returns {status, body, etag, text?}; throws ApiError on 4xx/5xx.
   * A 429 is retried after its Retry-After (a few times).
   */
  async call(method, path, { token, body, etag, idempotent = false, as = "json" } = {}) {
    const headers = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (etag) headers["If-None-Match"] = etag;
    // The same key on a retry: the server applies the move at most once.
    if (idempotent) headers["Idempotency-Key"] = newKey();
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(this.base + path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 429 && attempt < RETRIES_ON_429) {
        await sleep(1000 * Number(response.headers.get("Retry-After") || 1));
        continue;
      }
      return this._read(response, as);
    }
  }

  async _read(response, as) {
    const etag = response.headers.get("ETag");
    if (response.status === 304) return { status: 304, etag };
    if (!response.ok) {
      const error = await response.json().catch(() => null);
      throw new ApiError(response.status, error);
    }
    const body = as === "text" ? await response.text() : await response.json();
    const paging = response.headers.get("X-Pagination"); // a paged list's {total, …}
    return { status: response.status, body, etag, pagination: paging ? JSON.parse(paging) : null };
  }

  games() { return this.call("GET", "/v1/games").then((r) => r.body); }
  lobby(status) {
    return this.call("GET", `/v1/matches?status=${status}&page_size=20`).then((r) => r.body);
  }
  create(request, token) { return this.call("POST", "/v1/matches", { token, body: request }).then((r) => r.body); }
  join(id, name, token) {
    return this.call("POST", `/v1/matches/${id}/join`, { token, body: { name } }).then((r) => r.body);
  }
  match(id, token, etag) { return this.call("GET", `/v1/matches/${id}`, { token, etag }); }
  actions(id, token) { return this.call("GET", `/v1/matches/${id}/actions`, { token }).then((r) => r.body); }
  post(id, token, action, version) {
    return this.call("POST", `/v1/matches/${id}/actions`,
      { token, body: { action, version }, idempotent: true }).then((r) => r.body);
  }
  board(id, token, etag, step) {
    const query = step === undefined ? "" : `?step=${step}`;
    return this.call("GET", `/v1/matches/${id}/board.svg${query}`, { token, etag, as: "text" });
  }
  events(id, token, after) {
    return this.call("GET", `/v1/matches/${id}/events?after=${after}&limit=1000`, { token }).then((r) => r.body);
  }
  replay(id) { return this.call("GET", `/v1/matches/${id}/replay`, { as: "text" }).then((r) => r.body); }
  resign(id, token) { return this.call("POST", `/v1/matches/${id}/resign`, { token }).then((r) => r.body); }
  rematch(id, token) { return this.call("POST", `/v1/matches/${id}/rematch`, { token }).then((r) => r.body); }

  // accounts (docs/accounts.md)
  signUp(name) { return this.call("POST", "/v1/accounts", { body: { name, kind: "human" } }).then((r) => r.body); }
  me(token) { return this.call("GET", "/v1/account", { token }).then((r) => r.body); }
  profile(name) { return this.call("GET", `/v1/accounts/${encodeURIComponent(name)}`).then((r) => r.body); }
  // ratings (docs/ratings.md)
  leaderboard(pool, query) {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined));
    return this.call("GET", `/v1/leaderboards/${pool}?${params}`)
      .then((r) => ({ entries: r.body, total: r.pagination?.total ?? r.body.length }));
  }
  ratingHistory(name, pool) {
    return this.call("GET", `/v1/accounts/${encodeURIComponent(name)}/ratings/${pool}`).then((r) => r.body);
  }
  myMatches(token, toAct = false) {
    const query = toAct ? "?to_act=true&page_size=100" : "?page_size=50";
    return this.call("GET", `/v1/account/matches${query}`, { token }).then((r) => r.body);
  }
}

// --- tokens: kept in localStorage so a reload continues the match ----------

function tokenKey(base, matchId) {
  return `tabula:${base || location.origin}:${matchId}`;
}

/** {seat: token} this browser holds for a match. */
export function heldTokens(base, matchId) {
  try {
    return JSON.parse(localStorage.getItem(tokenKey(base, matchId))) || {};
  } catch {
    return {};
  }
}

export function keepTokens(base, matchId, tokens) {
  const all = { ...heldTokens(base, matchId), ...tokens };
  localStorage.setItem(tokenKey(base, matchId), JSON.stringify(all));
}

export function forgetToken(base, matchId, seat) {
  const all = heldTokens(base, matchId);
  delete all[seat];
  localStorage.setItem(tokenKey(base, matchId), JSON.stringify(all));
}

// --- the account token: one per server, kept until signed out ------------

function accountKey(base) {
  return `tabula:${base || location.origin}:account`;
}

/** The account token this browser holds for the server, or null. */
export function accountToken(base) {
  return localStorage.getItem(accountKey(base));
}

export function keepAccountToken(base, token) {
  if (token) localStorage.setItem(accountKey(base), token);
  else localStorage.removeItem(accountKey(base));
}
