// Ratings (docs/ratings.md): the leaderboards (#/leaderboard/<pool>) and a
// profile's rating per pool with its chart, an SVG drawn here from the
// account's rating history.

import { fill, h } from "./dom.js";

export const POOLS = {
  "anno1503-base": "Anno 1503",
  "anno1503-expansion": "Anno 1503 + Aristokraten und Piraten",
  "anno1452-basic": "Anno 1452 (basic)",
  "anno1452-expert": "Anno 1452 (expert)",
};
const PAGE_SIZE = 25;
const SVG = "http://www.w3.org/2000/svg";

const fixed = (n) => Number(n).toFixed(1);

/** The leaderboard page: `route` is {pool, kind, established, page} (from the hash). */
export async function showLeaderboard(root, api, route) {
  const pool = POOLS[route.pool] ? route.pool : Object.keys(POOLS)[0];
  const query = { pool, kind: route.kind || "", established: route.established === "1", page: Number(route.page) || 1 };
  const { entries, total } = await api.leaderboard(pool, {
    kind: query.kind || undefined,
    provisional: query.established ? "exclude" : undefined,
    page: query.page,
    page_size: PAGE_SIZE,
  });
  root.dataset.page = "leaderboard";
  const link = (changes) => leaderboardHash({ ...query, page: 1, ...changes });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  fill(root, h("section", { class: "panel leaderboard", "data-pool": pool },
    h("h2", {}, "Leaderboard"),
    h("nav", { class: "pools row", "aria-label": "Rating pools" }, Object.entries(POOLS).map(([id, title]) =>
      h("a", { href: link({ pool: id }), class: id === pool ? "button" : "button secondary", "aria-current": id === pool ? "page" : null }, title))),
    h("div", { class: "row filters" },
      ["", "human", "bot"].map((kind) => h("a", { href: link({ kind }), class: kind === query.kind ? "chip on" : "chip", "data-kind": kind || "all" },
        kind ? `${kind}s` : "everyone")),
      h("a", { href: link({ established: !query.established }), class: query.established ? "chip on" : "chip", "data-filter": "established" },
        "established only")),
    h("p", { class: "muted" }, "Ordered by rating = μ − 3σ. ", h("span", { class: "provisional-mark" }, "?"),
      " provisional: fewer than 10 rated matches, or still very uncertain."),
    entries.length ? boardTable(entries) : h("p", { class: "muted" }, "Nobody is rated in this pool yet."),
    pages > 1 ? h("nav", { class: "row pager" },
      query.page > 1 ? h("a", { href: leaderboardHash({ ...query, page: query.page - 1 }), class: "button secondary" }, "Previous") : null,
      h("span", { class: "muted" }, `page ${query.page} of ${pages}`),
      query.page < pages ? h("a", { href: leaderboardHash({ ...query, page: query.page + 1 }), class: "button secondary" }, "Next") : null) : null));
}

function boardTable(entries) {
  return h("table", { class: "board-table" },
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "μ", "σ", "Matches"].map((t) => h("th", {}, t)))),
    h("tbody", {}, entries.map((e) => h("tr", { "data-name": e.name, class: e.provisional ? "provisional" : null },
      h("td", {}, e.rank),
      h("td", {}, h("a", { href: `#/profile/${encodeURIComponent(e.name)}` }, e.name),
        " ", h("span", { class: "kind" }, e.ai ? "AI" : e.kind)),
      h("td", { class: "num" }, fixed(e.rating), e.provisional ? h("span", { class: "provisional-mark", title: "provisional" }, "?") : null),
      h("td", { class: "num" }, fixed(e.mu)),
      h("td", { class: "num" }, fixed(e.sigma)),
      h("td", { class: "num" }, e.matches)))));
}

export function leaderboardHash({ pool, kind = "", established = false, page = 1 }) {
  const params = new URLSearchParams();
  if (kind) params.set("kind", kind);
  if (established) params.set("established", "1");
  if (page > 1) params.set("page", page);
  const query = params.toString();
  return `#/leaderboard/${pool}${query ? `?${query}` : ""}`;
}

/** {pool, kind, established, page} of a "#/leaderboard/<pool>?…" hash. */
export function parseLeaderboardHash(hash) {
  const found = hash.match(/^#\/leaderboard(?:\/([\w-]+))?(?:\?(.*))?$/);
  if (!found) return null;
  const params = new URLSearchParams(found[2] || "");
  return { pool: found[1], kind: params.get("kind"), established: params.get("established"), page: params.get("page") };
}

// --- a profile's ratings ------------------------------------------------------

/** The profile's "Ratings" section: each pool's rating and its chart. */
export async function ratingsSection(api, profile) {
  const pools = Object.keys(profile.ratings || {});
  if (!pools.length) return [h("h3", {}, "Ratings"), h("p", { class: "muted" }, "No rated matches yet.")];
  const histories = await Promise.all(pools.map((pool) => api.ratingHistory(profile.name, pool)));
  return [h("h3", {}, "Ratings"), h("div", { class: "ratings" }, histories.map((history) => {
    const r = history.rating;
    return h("figure", { class: "rating", "data-pool": history.pool },
      h("figcaption", {}, h("a", { href: leaderboardHash({ pool: history.pool }) }, POOLS[history.pool] || history.pool), ": ",
        h("strong", {}, fixed(r.rating)), r.provisional ? h("span", { class: "provisional-mark", title: "provisional" }, "?") : null,
        h("span", { class: "muted" }, ` (μ ${fixed(r.mu)}, σ ${fixed(r.sigma)}, ${r.matches} rated matches)`)),
      ratingChart(history.history),
      h("p", { class: "muted legend" }, "Line: rating (μ − 3σ) after each rated match, green where it placed first; dashed: μ; shaded: μ ± 3σ."));
  }))];
}

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/**
 * The rating chart: `rating` (μ − 3σ, the line) within the band μ ± 3σ, one
 * point per rated match (oldest left), axis labels at the extremes.
 */
export function ratingChart(changes) {
  const width = 560, height = 180, left = 44, right = 10, top = 10, bottom = 24;
  const points = [{ mu: 25, sigma: 25 / 3, rating: 0 }, ...changes]; // the start, then each match
  const lows = points.map((p) => p.mu - 3 * p.sigma), highs = points.map((p) => p.mu + 3 * p.sigma);
  const min = Math.floor(Math.min(...lows) / 5) * 5, max = Math.ceil(Math.max(...highs) / 5) * 5;
  const x = (i) => left + (points.length === 1 ? 0 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((max - v) * (height - top - bottom)) / (max - min || 1);
  const coords = (values) => values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  const line = (values) => coords(values).join(" ");
  const band = [...coords(highs), ...coords(lows).reverse()].join(" ");
  const ticks = [min, (min + max) / 2, max];
  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", role: "img",
    "aria-label": `Rating over ${changes.length} rated matches` },
    svg("title", {}, `Rating (μ − 3σ) over ${changes.length} rated matches`),
    ...ticks.map((t) => svg("g", { class: "tick" },
      svg("line", { x1: left, x2: width - right, y1: y(t), y2: y(t) }),
      svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end" }, fixed(t)))),
    svg("polygon", { class: "band", points: band }),
    svg("polyline", { class: "mu", points: line(points.map((p) => p.mu)) }),
    svg("polyline", { class: "rating-line", points: line(points.map((p) => p.mu - 3 * p.sigma)) }),
    ...changes.map((c, i) => svg("circle", { class: c.place === 1 ? "point won" : "point", cx: x(i + 1), cy: y(c.rating), r: 3.5 },
      svg("title", {}, `${new Date(c.at).toLocaleString()}: place ${c.place} of ${c.players}, rating ${fixed(c.rating)} (${c.delta >= 0 ? "+" : ""}${fixed(c.delta)})`))),
    svg("text", { x: left, y: height - 6, class: "axis" }, "start"),
    svg("text", { x: width - right, y: height - 6, class: "axis", "text-anchor": "end" }, `${changes.length} matches`));
}
