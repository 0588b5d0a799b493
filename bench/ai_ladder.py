"""AI ladder: tournaments between the AI levels, with Wilson intervals.

For each game and variant in ``VARIANTS`` it plays

- head to head (2 players, seats swapped every match; Anno 1452 in its
  Ottokar scenarios, its 2-player game): easy vs random,
  medium vs easy, hard vs medium; a level should win at least 60%;
- at the largest player count: one ``hard`` against ``medium`` everywhere
  else (its seat rotates); it should win at least 1.6 times 1/n;

and prints win rates with 95% Wilson intervals, match lengths, and the
median/maximum time per decision of each level (decisions with a single
legal action are excluded and counted separately). Beside the maximum it
prints the maximum of the re-timed ("steady") times: see ``RETIME_OVER``.

    .venv/bin/python bench/ai_ladder.py --matches 40 --hard-budget 0.1 --jobs 2
    .venv/bin/python bench/ai_ladder.py --variants anno1452,expert --pairings medium-easy --no-field

``--matches`` is per pairing (the 4-player run uses the same number).
``--record FILE`` keeps every finished match in FILE, so that a run stopped
part way (the whole ladder takes longer than a working session) goes on
where it stopped when the same command is run again: see ``ladder_record``.
"""

import argparse
import math
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import engine  # noqa: E402
import ladder_timing  # noqa: E402
from engine.rng import mix_seed  # noqa: E402
from ladder_record import Record, Result, engine_fingerprint  # noqa: E402

# (game id, options, head to head?, largest player count): a new game or
# variant is one line. Anno 1452's 2-player game is the Ottokar scenario
# (game-content ruling 13), so its duels are played there; the Ottokar
# scenarios take at most 3 players, the standard one 4.
VARIANTS = [
    ("anno1503", {"expansion": "none"}, True, 4),
    ("anno1503", {"expansion": "pirates_aristocrats"}, True, 4),
]
for _rules in ("basic", "expert"):
    VARIANTS += [
        ("anno1452", {"rules": _rules, "scenario": "ottokar_a"}, True, 3),
        ("anno1452", {"rules": _rules, "scenario": "ottokar_b"}, True, 3),
        ("anno1452", {"rules": _rules, "scenario": "standard"}, False, 4),
    ]
PAIRINGS = [("easy", "random"), ("medium", "easy"), ("hard", "medium")]
PAIRING_NAMES = [f"{strong}-{weak}" for strong, weak in PAIRINGS]
MAX_ACTIONS = 5000
# This shared machine now and then stalls a running thread: a fixed 1.6 ms
# loop, timed 10,000 times with nothing else running, took up to 19 ms, and
# a medium decision that took 27.6 ms (thread CPU time 27.7 ms) took 1.9 ms
# at best when repeated. So a decision slower than this is timed again on
# the same inputs and its fastest run is kept as its steady time, the
# player's own cost. Not hard: it searches until its deadline every time.
RETIME_OVER = 0.005
RETIMES = 5


def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion, as (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


class TimedPlayer:
    """Wraps a level's player and records its decision times."""

    def __init__(self, level, hard_options):
        self.level = level
        self.player = engine.ai.get_player(level, **(hard_options if level == "hard" else {}))
        self.times = []
        self.steady = []
        self.singles = 0

    def choose(self, game, seat, view, actions, seed=0):
        if len(actions) == 1:
            self.singles += 1
            return actions[0]
        action, elapsed = self._timed(game, seat, view, actions, seed)
        self.times.append(elapsed)
        if elapsed > RETIME_OVER and self.level != "hard":
            again = (self._retimed(game, seat, view, actions, seed, action) for _ in range(RETIMES))
            elapsed = min(elapsed, *again)
        self.steady.append(elapsed)
        return action

    def _timed(self, game, seat, view, actions, seed):
        start = time.perf_counter()
        action = self.player.choose(game, seat, view, actions, seed=seed)
        return action, time.perf_counter() - start

    def _retimed(self, game, seat, view, actions, seed, first):
        action, elapsed = self._timed(game, seat, view, actions, seed)
        if action != first:
            raise AssertionError(f"{self.level} chose differently on the same view and seed")
        return elapsed


def play_one(task):
    """One match, as a ``Result``."""
    levels, hard_options = task[2], task[4]
    return play_match(task, {level: TimedPlayer(level, hard_options) for level in set(levels)})


def play_match(task, players):
    """One match between ``players`` (a ``TimedPlayer`` per level), as a ``Result``."""
    game_id, options, levels, seed, _ = task
    game = engine.get_game(game_id)
    state = game.setup(len(levels), options, seed)
    length = 0
    while game.outcome(state) is None and length < MAX_ACTIONS:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat)
        action = players[levels[seat]].choose(game, seat, view, actions, seed=mix_seed(seed, length))
        state, _ = game.apply(state, seat, action)
        length += 1
    outcome = game.outcome(state)
    winner = outcome["winners"][0] if outcome else None
    scores = [outcome["scores"][str(s)] for s in range(len(levels))] if outcome else None
    timing = {level: ladder_timing.level_timing(p.times, p.steady, p.singles) for level, p in players.items()}
    return Result(winner, timing, length, scores)


def play_indexed(numbered):
    """``play_one`` for ``Pool.imap_unordered``: (index, task) -> (index, Result)."""
    index, task = numbered
    return index, play_one(task)


def score_margin(levels, scores, hero):
    """The hero's final score minus the mean of the other seats' scores.

    A match has one winner, but by how much the hero outscores the others
    shows a change of strength in fewer matches than its win rate does."""
    seat = levels.index(hero)
    others = [score for s, score in enumerate(scores) if s != seat]
    return scores[seat] - statistics.mean(others)


def margin_summary(tasks, results, hero):
    """``mean ± 95% half-width`` of the hero's score margin over finished matches."""
    margins = [score_margin(t[2], r.scores, hero) for t, r in zip(tasks, results) if r.scores is not None]
    if len(margins) < 2:
        return "score margin n/a"
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    return f"score margin {statistics.mean(margins):+.1f} ± {half:.1f}"


def duel_first_seed(seed, k):
    """The first match seed of the k-th pairing in ``PAIRINGS``."""
    return seed + 10_000 * k


def field_first_seed(seed):
    """The first match seed of the hard-against-the-field run."""
    return seed + 90_000


def head_to_head(game_id, options, strong, weak, matches, hard_options, first_seed):
    tasks = []
    for m in range(matches):
        levels = (strong, weak) if m % 2 == 0 else (weak, strong)
        tasks.append((game_id, options, levels, first_seed + m, hard_options))
    return tasks


def one_against_field(game_id, options, n, matches, hard_options, first_seed):
    tasks = []
    for m in range(matches):
        levels = ["medium"] * n
        levels[m % n] = "hard"
        tasks.append((game_id, options, tuple(levels), first_seed + m, hard_options))
    return tasks


def summarize(label, tasks, block, hero, fair, timing_acc):
    results = block.results
    wins = sum(1 for t, r in zip(tasks, results) if r.winner is not None and t[2][r.winner] == hero)
    unfinished = sum(1 for r in results if r.winner is None)
    n = len(results)
    low, high = wilson(wins, n)
    lengths = [r.length for r in results]
    ladder_timing.merge_into(timing_acc, block.timing)
    verdict = "ok" if wins / max(n, 1) >= fair else "BELOW TARGET"
    print(f"  {label:<28} {hero} wins {wins:>4}/{n:<4} = {wins / max(n, 1):6.1%}  "
          f"95% CI [{low:5.1%}, {high:5.1%}]  target {fair:.0%} {verdict}; "
          f"{margin_summary(tasks, results, hero)}; "
          f"median length {statistics.median(lengths):.0f} actions, unfinished {unfinished}; "
          f"played {played_span(block)}")


def played_span(block):
    """When a pairing's matches finished, in UTC: one day, or first to last."""
    first, last = (block.first or "")[:10], (block.last or "")[:10]
    return first if first == last else f"{first} to {last}"


def print_timings(timing_acc):
    if not any(t.n for t in timing_acc.values()):
        return
    print("  time per decision (multi-action decisions only; median to within 1%):")
    for level in engine.ai.LEVELS:
        t = timing_acc.get(level)
        if t is not None and t.n:
            print(f"    {level:<7} n={t.n:>7}  median {ladder_timing.median(t) * 1000:8.2f} ms  "
                  f"max {t.max * 1000:8.1f} ms  steady max {t.steady_max * 1000:8.1f} ms  "
                  f"(single-action decisions: {t.singles})")


def variant_label(game_id, options):
    return game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))


def selected_variants(args):
    """The variants whose label contains every comma-separated word of --variants."""
    words = [w for w in args.variants.split(",") if w]
    for game_id, options, duel, largest in VARIANTS:
        label = variant_label(game_id, options)
        if all(w in label for w in words):
            yield game_id, options, duel, largest, label


def hard_player_options(args):
    """What ``get_player("hard", ...)`` is given: the budget, and the number
    of candidate moves where ``--hard-candidates`` overrides the game's own."""
    options = {"time_budget": args.hard_budget}
    if args.hard_candidates is not None:
        options["candidates"] = args.hard_candidates
    return options


def open_record(path):
    """The record at ``path`` (in memory only if None) for the engine as it is."""
    settings = {"max_actions": MAX_ACTIONS, "retime_over": RETIME_OVER, "retimes": RETIMES}
    games = {game_id for game_id, *_ in VARIANTS}
    record = Record(path, {game_id: engine_fingerprint(ROOT, settings, game_id) for game_id in sorted(games)})
    if record.dropped:
        print(f"{path}: {record.dropped} lines of other engine code dropped; their matches are played again",
              flush=True)
    return record


def selected_pairings(args):
    """``(k, strong, weak)`` of the duels ``--pairings`` selects. ``k`` is the
    pairing's place in ``PAIRINGS`` whatever the filter, so a filtered run
    plays the same seeds as the whole ladder (and shares its record)."""
    names = [w for w in args.pairings.split(",") if w]
    return [(k, strong, weak) for k, (strong, weak) in enumerate(PAIRINGS)
            if not names or PAIRING_NAMES[k] in names]


def duel_tasks(args, game_id, options, k):
    """The matches of the k-th pairing in ``PAIRINGS``."""
    strong, weak = PAIRINGS[k]
    return head_to_head(game_id, options, strong, weak, args.matches, hard_player_options(args),
                        duel_first_seed(args.seed, k))


def field_tasks(args, game_id, options, largest):
    """The matches of one hard against ``largest - 1`` mediums."""
    return one_against_field(game_id, options, largest, args.matches, hard_player_options(args),
                             field_first_seed(args.seed))


def run(args):
    record = open_record(args.record)
    with Pool(args.jobs) as pool:
        def play_many(todo):
            return pool.imap_unordered(play_indexed, enumerate(todo))

        for game_id, options, duel, largest, label in selected_variants(args):
            weighs = "" if args.hard_candidates is None else f", {args.hard_candidates} hard candidates"
            print(f"{label}: {args.matches} matches per pairing, "
                  f"hard budget {args.hard_budget}s per decision, {args.jobs} jobs{weighs}", flush=True)
            timing_acc = {}
            for k, strong, weak in selected_pairings(args) if duel else []:
                tasks = duel_tasks(args, game_id, options, k)
                block = record.block(tasks, play_many)
                summarize(f"2p {strong} vs {weak}", tasks, block, strong, 0.6, timing_acc)
            if not args.no_field:
                tasks = field_tasks(args, game_id, options, largest)
                block = record.block(tasks, play_many)
                summarize(f"{largest}p hard vs {largest - 1} medium", tasks, block, "hard",
                          1.6 / largest, timing_acc)
            print_timings(timing_acc)


def add_match_options(parser):
    """The options that fix a pairing's matches and how they are played;
    ``ladder_slow`` takes them too, so that it replays the ladder's own."""
    parser.add_argument("--matches", type=int, default=200, help="matches per pairing")
    parser.add_argument("--hard-budget", type=float, default=1.0, help="seconds per hard decision")
    parser.add_argument("--hard-candidates", type=int, default=None,
                        help="moves hard's search weighs (default: each game's own)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="first match seed")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", default="",
                        help="comma-separated words that a variant's label must all contain, "
                             "e.g. 'anno1452,expert' or 'pirates' (default: every variant)")
    parser.add_argument("--pairings", default="",
                        help="comma-separated head-to-head pairings, e.g. 'medium-easy,hard-medium' "
                             "(default: all)")
    parser.add_argument("--no-field", action="store_true", help="skip the hard-against-the-field run")
    add_match_options(parser)
    parser.add_argument("--record", type=Path, default=None,
                        help="keep finished matches in this file and play only those it lacks "
                             "(e.g. bench/results/ai-ladder.jsonl)")
    return parser


def main(argv=None):
    args = arguments().parse_args(argv)
    started = time.time()
    run(args)
    print(f"total {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
