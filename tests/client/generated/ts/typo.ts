// Must NOT compile: each line marked `// expect-error` is a mistake the spec
// has to catch (tests/client/test_generated_clients.py checks that tsc reports
// an error on exactly those lines).
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Schemas = components["schemas"];

export async function mistakes(baseUrl: string): Promise<void> {
  const api = createClient<paths>({ baseUrl });
  const path = { match_id: "m1" };
  await api.POST("/v1/matches/{match_id}/actions", {
    params: { path },
    body: { action: { type: "buy", comodity: "spice" } }, // expect-error
  });
  await api.POST("/v1/matches/{match_id}/actions", {
    params: { path },
    body: { action: { type: "buy", commodity: "spicy" } }, // expect-error
  });
  const land: Schemas["Anno1503Action"] = { type: "move_ship", ship: 0, to: [1, 2, 3] }; // expect-error
  const level: Schemas["Seat"]["level"] = "expert"; // expect-error
  void land;
  void level;
}
