// Words for what the API speaks in JSON: an action becomes a button label
// ("Sell tobacco"), an event a sentence ("Ada sold tobacco for 4 gold").
//
// `names` resolves what JSON names by number: names.seat(2) -> "Bob",
// names.region(3) -> "Pfalz", names.card(17) -> "Heirat Sachsen" (the card
// names come from the board picture's <title>s, so they are not repeated here).

import { humanize } from "./dom.js";

const word = (value) => String(value).replaceAll("_", " ");
const square = (at) => (Array.isArray(at) ? `${at[0]},${at[1]}` : String(at));

// --- actions ---------------------------------------------------------------

const ANNO1503_ACTIONS = {
  choose_commodity: (a) => `Take ${word(a.commodity)}`,
  sell: (a) => `Sell ${word(a.commodity)}`,
  buy: (a) => `Buy ${word(a.commodity)}`,
  discard: (a) => `Discard ${word(a.commodity)}`,
  place_pioneer: (a) => (a.building ? `Place a pioneer with the ${word(a.building)}` : "Place a pioneer"),
  develop: (a) => `Develop the inhabitant on slot ${a.slot}`,
  build_ship: (a) => (a.at ? `Build a ship at ${square(a.at)}` : "Build a ship"),
  move_ship: (a) => `Move ship ${a.ship + 1} to ${square(a.to)}`,
  discover: (a) => `Discover ${square(a.space)} with ship ${a.ship + 1}`,
  take_tile: (a) => `Take the tile${a.bridge ? ` onto bridge ${a.bridge}` : ""}${a.slot ? ` (develop slot ${a.slot})` : ""}`,
  return_tile: () => "Put the tile back",
  attack_lair: () => "Reveal the lair and fight it",
  big_branch_office: (a, n) => `Draw a card from ${n.seat(a.target)}`,
  lose_tile: (a) => (a.bridge ? `Give up the branch office on bridge ${a.bridge}` : `Give up a ${word(a.tile)}`),
  place_reserve_tile: (a) => `Place the reserve tile at ${square(a.space)}`,
  end_turn: () => "End turn",
  buy_cannon: () => "Buy a cannon",
  build_manor: () => "Build the next manor step",
  build_aristocrat: (a) => `Build the ${word(a.building)}${a.slot ? ` (develop slot ${a.slot})` : ""}`,
  sell_luxury: (a) => `Sell ${word(a.commodity)} to the aristocrat`,
  repair_ship: (a) => `Repair ship ${a.ship + 1}`,
  play_card: (a) => `Play the ${word(a.card)}${a.luxury ? ` for ${word(a.luxury)}` : ""}${a.ship !== undefined && a.ship !== null ? ` on ship ${a.ship + 1}` : ""}`,
  exchange_card: (a) => `Exchange the ${word(a.card)} card`,
  discard_card: (a) => `Discard the ${word(a.card)} card`,
  respond: (a) => ({ pay: "Pay the pirates", fight: "Fight", sea_hero: "Play the sea hero", reroll: "Roll again",
    decline: "Decline", gold: "Give gold" })[a.option] || `Give ${word(a.option)}`,
};

const estate = (at, n) => `${n.region(at[0])} (estate ${at[1] + 1})`;

const ANNO1452_ACTIONS = {
  place_estate: (a) => `Place an estate in ${a.region}`,
  build_estate: (a) => `Build an estate in ${a.region}`,
  settle: (a, n) => `Settle citizens on ${[a.at, a.at2, a.at3].filter(Boolean).map((at) => estate(at, n)).join(", ")}`,
  attack: (a, n) => `Attack ${estate(a.target, n)}${a.from ? ` from ${estate(a.from, n)}` : ""}`,
  build_city: (a, n) => `Build a city on ${estate(a.at, n)} with ${n.card(a.card)}`,
  marry: (a, n) => `Marry: ${n.card(a.card)}${a.discard !== undefined && a.discard !== null ? `, discarding ${n.card(a.discard)}` : ""}`,
  take_title: (a, n) => `Take the title ${n.card(a.card)}`,
  inherit: (a, n) => `Inherit: ${n.card(a.card)}`,
  play_special: (a, n) => `Play ${n.card(a.card)}${a.target ? ` on ${estate(a.target, n)}` : ""}${a.region ? ` in ${a.region}` : ""}${a.amount ? ` (${a.amount})` : ""}`,
  kindbett: (a, n) => `Play ${n.card(a.card)} on ${n.seat(a.target)}`,
  pass: () => "Pass",
  commit_soldiers: (a) => `Commit ${a.count} soldier${a.count === 1 ? "" : "s"}`,
  react: (a, n) => (a.card === null || a.card === undefined ? "No reaction" : `React with ${n.card(a.card)}`),
  take_losses: (a) => `Lose ${a.citizens} citizen${a.citizens === 1 ? "" : "s"}`,
  join_tournament: (a) => (a.join === "yes" ? "Join the tournament" : "Stay out of the tournament"),
  discard: (a, n) => `Discard ${n.card(a.card)}`,
  keep_hand: () => "Keep my hand",
  choose_position: (a) => `Take position ${a.position} in the turn order`,
  swap_open: (a, n) => `Swap ${n.card(a.card)} for open card ${a.open_card + 1}`,
  end_trading: () => "End trading",
  draft_offer: (a, n) => `Draft an offer to ${n.seat(a.to)}`,
  draft_add: (a, n) => `${a.side === "give" ? "Give" : "Ask for"} ${tradeItem(a, n)}`,
  draft_remove: (a, n) => `Remove ${tradeItem(a, n)} from what you ${a.side === "give" ? "give" : "ask"}`,
  send_offer: () => "Send the offer",
  cancel_draft: () => "Cancel the offer",
  accept_offer: () => "Accept the offer",
  decline_offer: () => "Decline the offer",
};

function tradeItem(a, n) {
  if (a.item === "gold") return a.amount ? `${a.amount} gold` : "gold";
  if (a.item === "card") return a.card === undefined ? "a card" : n.card(a.card);
  if (a.item === "estate") return a.estate ? estate(a.estate, n) : "an estate";
  return word(a.item);
}

const ACTIONS = { anno1503: ANNO1503_ACTIONS, anno1452: ANNO1452_ACTIONS };

/** A button label for `action` of `game`. */
export function actionLabel(game, action, names) {
  const label = ACTIONS[game]?.[action.type];
  if (label) return label(action, names);
  const params = Object.entries(action).filter(([k]) => k !== "type").map(([k, v]) => `${word(k)} ${JSON.stringify(v)}`);
  return [humanize(action.type), ...params].join(", ");
}

// --- events ----------------------------------------------------------------

const EVENTS = {
  // both games
  game_over: (e, n) => `The match is over: ${(e.data.winners || []).map(n.seat).join(" and ") || "nobody"} won`,
  gold_paid: (e) => `paid ${e.data.amount} gold${e.data.reason ? ` (${word(e.data.reason)})` : ""}`,
  gold_received: (e) => `received ${e.data.amount} gold${e.data.reason ? ` (${word(e.data.reason)})` : ""}`,
  player_joined: (e) => `joined${e.data.name ? ` as ${e.data.name}` : ""}`,
  player_resigned: () => "resigned; the AI plays on",
  turn_timed_out: () => "ran out of time; the AI decided",
  seat_handed_to_ai: () => "timed out too often; the AI keeps the seat",
  rematch_created: (e) => `A rematch was created (${e.data.match_id || e.data.id || ""})`,
  event_drawn: (e, n) => `drew the event ${word(e.data.event || e.data.effect || "")}${e.data.card !== undefined && typeof e.data.card === "number" ? `: ${n.card(e.data.card)}` : ""}`,
  // Anno 1503
  turn_started: (e) => `begins turn ${e.data.turn}`,
  die_rolled: (e) => `rolled ${e.data.value} (${word(e.data.purpose)})`,
  commodity_taken: (e) => `took ${e.data.commodity ? word(e.data.commodity) : "a card"} (${word(e.data.source || e.data.reason || "")})`,
  production_missed: (e) => `got nothing${e.data.commodity ? `: no ${word(e.data.commodity)} left` : ""}`,
  sold: (e) => `sold ${word(e.data.commodity)} for ${e.data.gold} gold`,
  bought: (e) => `bought ${word(e.data.commodity)} for ${e.data.gold} gold`,
  ship_built: () => "built a ship",
  ship_moved: (e) => `moved ship ${e.data.ship + 1} to ${square(e.data.to)}`,
  tile_discovered: (e) => `discovered the island at ${square(e.data.space)}${e.data.tile ? ` (${word(e.data.tile.kind)})` : ""}`,
  tile_taken: (e) => `took the ${e.data.tile ? word(e.data.tile.kind) : "tile"} at ${square(e.data.space)}`,
  tile_returned: (e) => `put the tile at ${square(e.data.space)} back`,
  pioneer_placed: (e) => `placed a pioneer on slot ${e.data.slot}`,
  developed: (e) => `developed slot ${e.data.slot}: ${word(e.data.from)} to ${word(e.data.to)}`,
  card_drawn: (e, n) => `drew a card from ${n.seat(e.data.target)}${e.data.commodity ? ` (${word(e.data.commodity)})` : ""}`,
  discarded: (e) => `discarded ${word(e.data.commodity)}`,
  discard_required: (e) => `must discard ${e.data.count}`,
  turn_ended: () => "ended the turn",
  tile_lost: (e) => `lost a ${word(e.data.tile)}`,
  inhabitant_lost: (e) => `lost the ${word(e.data.kind)} on slot ${e.data.slot}`,
  protected: (e) => `was protected by the ${word(e.data.building)}`,
  reserve_tile_placed: (e) => `placed a reserve tile at ${square(e.data.space)}`,
  // Pirates & Aristocrats
  pirate_offer_declined: () => "declined the pirates' offer",
  pirate_card_drawn: (e) => `drew a pirate card${e.data.card?.kind ? ` (${word(e.data.card.kind)})` : ""}`,
  combat_rolled: (e) => `rolled for the battle: ${e.data.attacker_total} against ${e.data.defender_total}`,
  battle_won: (e) => `won the battle against the ${word(e.data.kind)}`,
  battle_lost: (e) => `lost the battle against the ${word(e.data.kind)}`,
  lair_attacked: (e) => `attacked the pirate lair at ${square(e.data.space)}`,
  lair_defeated: () => "defeated a pirate lair",
  ship_damaged: (e) => `had ship ${e.data.ship + 1} damaged`,
  ship_repaired: (e) => `repaired ship ${e.data.ship + 1}`,
  aristocrat_cards_drawn: (e) => `drew ${e.data.count} aristocrat card${e.data.count === 1 ? "" : "s"}`,
  aristocrat_card_played: (e) => `played the ${word(e.data.card)} card`,
  aristocrat_card_exchanged: (e) => `exchanged the ${word(e.data.card)} card for ${e.data.gold} gold`,
  aristocrat_card_discarded: (e) => `discarded the ${word(e.data.card)} card`,
  cannon_bought: (e) => `bought a cannon for ${e.data.gold} gold (${e.data.cannons} in all)`,
  manor_advanced: (e) => `built manor step ${e.data.step}`,
  aristocrat_building_built: (e) => `built the ${word(e.data.building)}`,
  // Anno 1452
  dice_rolled: (e) => `rolled ${(e.data.dice || []).join(", ")} (${word(e.data.purpose)})`,
  estate_placed: (e) => `placed an estate in ${e.data.region}`,
  estate_conquered: (e) => `conquered an estate${e.data.region ? ` in ${e.data.region}` : ""}`,
  estate_removed: (e) => `lost an estate${e.data.region ? ` in ${e.data.region}` : ""}`,
  citizen_settled: (e) => `settled ${e.data.count ?? "a"} citizen${e.data.count === 1 || e.data.count === undefined ? "" : "s"}${e.data.region ? ` in ${e.data.region}` : ""}`,
  principality_changed: (e, n) => `${e.data.region}: the principality goes to ${e.data.holder === null || e.data.holder === undefined ? "nobody" : n.seat(e.data.holder)}`,
  title_taken: (e, n) => `took the title ${e.data.card !== undefined ? n.card(e.data.card) : ""}`,
  special_played: (e, n) => `played ${e.data.card !== undefined ? n.card(e.data.card) : "a special action"}`,
  city_built: (e) => `built a city${e.data.region ? ` in ${e.data.region}` : ""}`,
  prestige_changed: (e) => `${e.data.delta >= 0 ? "gained" : "lost"} ${Math.abs(e.data.delta)} prestige (${word(e.data.reason || "")})`,
  cards_drawn: (e) => `drew ${e.data.count} card${e.data.count === 1 ? "" : "s"}`,
  card_discarded: (e, n) => `discarded ${e.data.card !== undefined ? n.card(e.data.card) : "a card"}`,
  married: (e, n) => `married${e.data.card !== undefined ? `: ${n.card(e.data.card)}` : ""}`,
  passed: () => "passed",
  crowned: (e) => `was crowned ${word(e.data.role)}`,
  attack_declared: () => "declared an attack",
  battle_ended: () => "the battle ended",
  epoch_started: (e) => `A new epoch begins${e.data.year ? `: ${e.data.year}` : ""}`,
  action_round_started: (e) => `Action round ${e.data.action_round ?? e.data.round ?? ""} begins`,
  evaluation_started: () => "The evaluation begins",
  hand_kept: () => "kept the hand",
  offer_draft_started: (e, n) => (e.data.to !== undefined ? `began an offer to ${n.seat(e.data.to)}` : "began composing an offer"),
  offer_draft_changed: () => "changed the offer being composed",
  offer_draft_cancelled: () => "dropped the offer being composed",
  offer_made: (e, n) => `made an offer to ${n.seat(e.data.to)}`,
  offer_accepted: () => "accepted the offer",
  offer_declined: () => "declined the offer",
};

/** "Ada sold tobacco for 4 gold." */
export function eventSentence(event, names) {
  const phrase = EVENTS[event.type];
  const fallback = () => {
    const details = Object.entries(event.data || {}).map(([k, v]) => `${word(k)}: ${JSON.stringify(v)}`).join(", ");
    return `${word(event.type)}${details ? ` (${details})` : ""}`;
  };
  const text = phrase ? phrase(event, names) : fallback();
  const startsWithSubject = /^[A-Z]/.test(text);
  const who = event.seat === null || event.seat === undefined ? null : names.seat(event.seat);
  return startsWithSubject || !who ? text : `${who} ${text}`;
}

const DECISIONS = {
  main: "play the turn", production: "choose a commodity from production",
  golden_times: "choose a commodity (golden times)", lose_tile: "choose a tile to lose to the pirates",
  reserve_placement: "place a reserve tile", tile_decision: "take or return the discovered tile",
  discard: "discard down to the hand limit", sea_battle: "answer the pirates", card_discard: "discard aristocrat cards",
  pirate_attack: "pay or fight the pirates", pirate_offer: "answer the pirates' offer",
  place_initial: "place a starting estate", action_turn: "take an action", soldiers: "commit soldiers",
  reaction: "react to the attack", losses: "take the battle's losses", tournament: "join the tournament or not",
  er_special: "play a special action of the evaluation", open_swap: "swap with the open cards",
  trade: "trade", offer_reply: "answer the offer", position: "choose a place in the turn order",
};

/** What the seats to act are asked to decide now, from the view: "play the turn". */
export function decisionText(view) {
  const kind = view.choice?.kind || view.decision?.kind || view.phase;
  return DECISIONS[kind] || (kind ? word(kind) : "decide");
}
