"""The load of the HTTP benchmarks: client threads that post accepted moves
(``MoveClient``) or a trivial echo (``TrivialClient``), for ``harness.Phase``.

A move client plays its own Anno 1503 matches in which every seat is human,
so every move is a real accepted ``POST /v1/matches/{id}/actions``. Choosing
a move needs the legal actions (``args.legal``): ``script`` plays each
client's matches with the engine before the phases start (a match is its
seed plus its actions), so while the clock runs a client only sends moves;
``local`` computes them in the client with the engine from the match seed;
``server`` reads ``GET /actions`` before every move.
"""

import random
import time

import engine

from .harness import Http

GAME_ID = "anno1503"
TRIVIAL_BODY = {"action": {"type": "buy", "commodity": "spice"}, "version": 17}


def default_options(game, players):
    """The options the server plays a match of ``players`` with when none are
    given (some defaults depend on the player count: the game decides)."""
    return game.resolve_options(players, {})


def create_human_match(http, game, players, seed):
    """POST a match of ``game`` with the default options and ``players``
    human seats from ``seed``; returns ``(match id, {seat: token}, match)``."""
    body = {
        "game": game.id,
        "options": default_options(game, players),
        "seed": seed,
        "dice": "reproducible",
        "seats": [{"kind": "human", "name": f"bench{i}"} for i in range(players)],
    }
    status, reply, _ = http.call("POST", "/v1/matches", body)
    if status != 201:
        raise RuntimeError(f"POST /v1/matches -> {status}: {reply}")
    tokens = {int(seat): token for seat, token in reply["tokens"].items()}
    return reply["match"]["id"], tokens, reply["match"]


def post_move(player, seat, action, parse=True):
    """POST ``action`` of ``seat`` in the player's match at its version,
    recorded as a "move"; ``(status, reply)``."""
    started = time.monotonic()
    status, reply, seconds = player.http.call(
        "POST",
        f"/v1/matches/{player.match_id}/actions",
        {"action": action, "version": player.version},
        token=player.tokens[seat],
        parse=parse,
    )
    player.recorder.add("move", started, seconds, ok=status == 200)
    return status, reply


class MatchPlayer:
    """Plays every seat of its own matches with random legal moves."""

    def __init__(self, http, recorder, rng, players, legal_from):
        self.http, self.recorder, self.rng = http, recorder, rng
        self.game = engine.get_game(GAME_ID)
        self.players = players
        self.use_local = legal_from == "local"
        self.match_id = None
        self.finished = True

    def _new_match(self):
        seed = self.rng.randrange(1 << 31)
        self.match_id, self.tokens, match = create_human_match(self.http, self.game, self.players, seed)
        self._follow(match)
        self.state = (
            self.game.setup(self.players, default_options(self.game, self.players), seed)
            if self.use_local
            else None
        )

    def _follow(self, match):
        self.version = match["version"]
        self.to_act = match["to_act"]
        self.finished = match["status"] == "finished" or not self.to_act

    def _legal(self, seat):
        if self.state is not None:
            return self.game.legal_actions(self.state, seat)
        started = time.monotonic()
        status, reply, seconds = self.http.call(
            "GET", f"/v1/matches/{self.match_id}/actions", token=self.tokens[seat]
        )
        self.recorder.add("actions", started, seconds, ok=status == 200)
        return reply["actions"] if status == 200 else []

    def _resync(self, seat):
        """After a refused move: trust the server from now on."""
        self.state = None
        status, reply, _ = self.http.call("GET", f"/v1/matches/{self.match_id}", token=self.tokens[seat])
        if status != 200:
            raise RuntimeError(f"GET match -> {status}: {reply}")
        self._follow(reply)

    def step(self):
        if self.finished:
            self._new_match()
            return
        seat = self.to_act[0]
        actions = self._legal(seat)
        if not actions:
            self._resync(seat)
            return
        action = self.rng.choice(actions)
        status, reply = post_move(self, seat, action)
        if status != 200:
            self._resync(seat)
            return
        self._follow(reply["match"])
        if self.state is not None:
            self.state, _ = self.game.apply(self.state, seat, action)
            if self.game.to_act(self.state) != self.to_act:
                self.state = None  # local and server rules disagree: ask the server


def scripted_match(game, players, seed, length):
    """The first ``length`` moves ``[(seat, action)]`` of a uniformly random
    match from ``seed`` (fewer if it ends sooner)."""
    rng = random.Random(seed)
    state = game.setup(players, default_options(game, players), seed)
    moves = []
    while len(moves) < length and game.outcome(state) is None:
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = game.apply(state, seat, action)
    return moves


class ScriptedPlayer:
    """Posts moves played beforehand (``scripted_match``), one match after another.

    Every accepted move raises the version by one (all seats are human), so
    replies need not be decoded. A refused move ends that match's script.
    Should the scripts run out mid-phase, more are played then (counted in
    ``top_ups``: that client CPU falls inside the measurement).
    """

    def __init__(self, http, recorder, rng, players, moves):
        self.http, self.recorder, self.rng = http, recorder, rng
        self.game = engine.get_game(GAME_ID)
        self.players = players
        self.scripts = []
        self.top_ups = 0
        while sum(len(moves_) for _, moves_ in self.scripts) < moves:
            self._script_one(moves)
        self.pending = []

    def _script_one(self, length):
        seed = self.rng.randrange(1 << 31)
        self.scripts.append((seed, scripted_match(self.game, self.players, seed, length)))

    def _new_match(self):
        if not self.scripts:
            self.top_ups += 1
            self._script_one(1000)
        seed, moves = self.scripts.pop(0)
        self.match_id, self.tokens, match = create_human_match(self.http, self.game, self.players, seed)
        self.version = match["version"]
        self.pending = moves[::-1]  # popped from the end

    def step(self):
        if not self.pending:
            self._new_match()
            return
        seat, action = self.pending.pop()
        status, _reply = post_move(self, seat, action, parse=False)
        if status == 200:
            self.version += 1
        else:
            self.pending = []


class MoveClient:
    """A client thread's state across rounds: its connection and its match."""

    def __init__(self, port, recorder, index, args):
        rng = random.Random(args.seed + index)
        if args.legal == "script":
            self.player = ScriptedPlayer(Http(port), recorder, rng, args.players, args.script_moves)
        else:
            self.player = MatchPlayer(Http(port), recorder, rng, args.players, args.legal)

    def run(self, budget):
        while budget.take():
            self.player.step()


class TrivialClient:
    path = "/echo"

    def __init__(self, port, recorder, index, args):
        self.http, self.recorder = Http(port), recorder

    def run(self, budget):
        while budget.take():
            started = time.monotonic()
            status, body, seconds = self.http.call("POST", self.path, TRIVIAL_BODY)
            self.recorder.add("echo", started, seconds, ok=self.answered(status, body))

    def answered(self, status, body):
        return status == 200


class RedisEchoClient(TrivialClient):
    """The trivial app's echo after one Redis round trip (bench/trivial_app.py)."""

    path = "/echo/redis"

    def answered(self, status, body):
        # The count Redis answered: the request did make its round trip.
        return status == 200 and isinstance(body, dict) and isinstance(body.get("count"), int)
