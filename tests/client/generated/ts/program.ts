// A bot's first steps with the types openapi-typescript generates from
// openapi.yaml and the fetch client openapi-fetch types with them; checked
// with `tsc --strict` by tests/client/test_generated_clients.py.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export async function firstMove(baseUrl: string): Promise<string> {
  const api = createClient<paths>({ baseUrl });
  const created = await api.POST("/v1/matches", {
    body: { game: "anno1503", seats: [{ kind: "human", name: "Ada" }, { kind: "ai", level: "hard" }] },
  });
  if (created.error) {
    return created.error.error === "validation_error" ? JSON.stringify(created.error.details.fields) : created.error.message;
  }
  const match = created.data.match;
  const headers = { Authorization: `Bearer ${created.data.tokens["0"]}` };
  const path = { match_id: match.id };

  const listed = await api.GET("/v1/matches/{match_id}/actions", { params: { path }, headers });
  if (!listed.data) {
    return listed.error.message;
  }
  const list = listed.data;
  let choice: Schemas["Anno1503Action"] | undefined;
  if (list.game === "anno1503") {
    // Narrowed to one game: every action is an Anno 1503 action.
    for (const action of list.actions) {
      if (action.type === "buy") {
        const commodity: Schemas["Anno1503Commodity"] = action.commodity;
        choice = { type: "buy", commodity };
      } else if (action.type === "move_ship") {
        // openapi-fetch's response types turn tuples into arrays; the row and column stay numbers.
        const [row, col] = action.to;
        choice = { type: "move_ship", ship: action.ship, to: [row, col] };
      }
    }
  }

  const posted = await api.POST("/v1/matches/{match_id}/actions", {
    params: { path, header: { "Idempotency-Key": "first-move" } },
    headers,
    body: { action: choice ?? { type: "end_turn" }, version: list.version },
  });
  if (posted.error) {
    const error = posted.error;
    switch (error.error) {
      case "illegal_action":
        return `refused by rule ${error.details.reason}`;
      case "version_conflict":
      case "precondition_failed":
        return `stale: the match is at ${error.details.current_version}`;
      case "rate_limited":
        return `retry in ${error.details.retry_after_s} s`;
      default:
        return error.message;
    }
  }
  const created_at: string = posted.data.match.created_at;
  // The view narrowed by its game, the events by their type.
  const view = posted.data.match.view;
  const turn: number = view.game === "anno1503" ? view.turn : view.year;
  const bought: Schemas["Anno1503Commodity"][] = [];
  for (const event of posted.data.events) {
    if (event.type === "bought") {
      bought.push(event.data.commodity);
    }
  }
  return `${posted.data.version} ${created_at} turn ${turn} bought ${bought.join(",")}`;
}
