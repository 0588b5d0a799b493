"""``run``: tournaments between the AI levels, with Wilson intervals.

For each game and variant in ``matches.VARIANTS`` it plays

- head to head (2 players, seats swapped every match; Anno 1452 in its
  Ottokar scenarios, its 2-player game): easy vs random, medium vs easy,
  hard vs medium; a level should win at least 60%;
- at the largest player count: one ``hard`` against ``medium`` everywhere
  else (its seat rotates); it should win at least 1.6 times 1/n;

and prints win rates with 95% Wilson intervals, match lengths, and per
level the median, 95th percentile and maximum time per decision
(decisions with a single legal action are excluded and counted
separately), the maximum of the re-timed ("steady") times (see
``matches.RETIME_OVER``), and for ``hard`` how many of its searches the
wall-clock cap cut short. ``--json`` prints one JSON object per pairing
instead of the table.
"""

import json
import math
import statistics
import sys
from pathlib import Path

import engine

from . import matches, timing
from .pool import MatchPool
from .record import Record, engine_fingerprint

ROOT = Path(__file__).resolve().parents[2]


def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion, as (low, high)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def score_margin(levels, scores, hero):
    """The hero's final score minus the mean of the other seats' scores.

    A match has one winner, but by how much the hero outscores the others
    shows a change of strength in fewer matches than its win rate does."""
    seat = levels.index(hero)
    others = [score for s, score in enumerate(scores) if s != seat]
    return scores[seat] - statistics.mean(others)


def margin_stats(tasks, results, hero):
    """``(mean, 95% half-width)`` of the hero's score margin over finished
    matches, or None with fewer than two."""
    margins = [
        score_margin(t["levels"], r["scores"], hero)
        for t, r in zip(tasks, results)
        if r["scores"] is not None
    ]
    if len(margins) < 2:
        return None
    return statistics.mean(margins), 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))


def margin_summary(tasks, results, hero):
    stats = margin_stats(tasks, results, hero)
    return "score margin n/a" if stats is None else f"score margin {stats[0]:+.1f} ± {stats[1]:.1f}"


def selected_variants(args):
    """The variants whose label contains every comma-separated word of --variants."""
    words = [w for w in args.variants.split(",") if w]
    for game_id, options, duel, largest in matches.VARIANTS:
        label = matches.variant_label(game_id, options)
        if all(w in label for w in words):
            yield game_id, options, duel, largest, label


def hard_player_options(args):
    """What ``get_player("hard", ...)`` is given: the step cap, the
    wall-clock cap, simulations and candidate moves where the options
    override the player's own."""
    options = {}
    if args.hard_step_cap is not None:
        options["step_cap"] = args.hard_step_cap
    if args.hard_wall_cap is not None:
        options["wall_cap"] = args.hard_wall_cap
    if args.hard_simulations is not None:
        options["simulations"] = args.hard_simulations
    if args.hard_candidates is not None:
        options["candidates"] = args.hard_candidates
    return options


def selected_pairings(args):
    """``(k, strong, weak)`` of the duels ``--pairings`` selects. ``k`` is the
    pairing's place in ``PAIRINGS`` whatever the filter, so a filtered run
    plays the same seeds as the whole ladder (and shares its record)."""
    names = [w for w in args.pairings.split(",") if w]
    return [
        (k, strong, weak)
        for k, (strong, weak) in enumerate(matches.PAIRINGS)
        if not names or matches.PAIRING_NAMES[k] in names
    ]


def duel_tasks(args, game_id, options, k):
    """The matches of the k-th pairing in ``PAIRINGS``."""
    strong, weak = matches.PAIRINGS[k]
    return matches.head_to_head(
        game_id,
        options,
        strong,
        weak,
        args.matches,
        hard_player_options(args),
        matches.duel_first_seed(args.seed, k),
    )


def field_tasks(args, game_id, options, largest):
    """The matches of one hard against ``largest - 1`` mediums."""
    return matches.one_against_field(
        game_id,
        options,
        largest,
        args.matches,
        hard_player_options(args),
        matches.field_first_seed(args.seed),
    )


def open_record(path, out):
    """The record at ``path`` (in memory only if None) for the engine as it is."""
    settings = {
        "max_actions": matches.MAX_ACTIONS,
        "retime_over": matches.RETIME_OVER,
        "retimes": matches.RETIMES,
    }
    games = {game_id for game_id, *_ in matches.VARIANTS}
    record = Record(path, {game_id: engine_fingerprint(ROOT, settings, game_id) for game_id in sorted(games)})
    if record.dropped:
        print(
            f"{path}: {record.dropped} lines of other engine code dropped; their matches are played again",
            file=out,
            flush=True,
        )
    return record


def level_summary(t):
    """One level's decision times (seconds) and search counts, as a dict."""
    return {
        "n": t.n,
        "median": timing.median(t),
        "p95": timing.quantile(t, 0.95),
        "max": t.max,
        "steady_max": t.steady_max,
        "singles": t.singles,
        "searches": t.searches,
        "capped": t.capped,
    }


def pairing_summary(label, name, tasks, block, hero, target):
    """A finished pairing as a JSON-ready dict."""
    results = block.results
    n = len(results)
    wins = sum(
        1 for t, r in zip(tasks, results) if r["winner"] is not None and t["levels"][r["winner"]] == hero
    )
    low, high = wilson(wins, n)
    margin = margin_stats(tasks, results, hero)
    return {
        "variant": label,
        "pairing": name,
        "hero": hero,
        "matches": n,
        "wins": wins,
        "win_rate": wins / max(n, 1),
        "ci95": [low, high],
        "target": target,
        "score_margin": None if margin is None else {"mean": margin[0], "half_width": margin[1]},
        "median_length": statistics.median(r["length"] for r in results) if results else None,
        "unfinished": sum(1 for r in results if r["winner"] is None),
        "first": block.first,
        "last": block.last,
        "timing": {level: level_summary(t) for level, t in sorted(block.timing.items())},
    }


def print_pairing(s, out):
    verdict = "ok" if s["win_rate"] >= s["target"] else "BELOW TARGET"
    low, high = s["ci95"]
    margin = (
        "score margin n/a"
        if s["score_margin"] is None
        else f"score margin {s['score_margin']['mean']:+.1f} ± {s['score_margin']['half_width']:.1f}"
    )
    print(
        f"  {s['pairing']:<28} {s['hero']} wins {s['wins']:>4}/{s['matches']:<4} = {s['win_rate']:6.1%}  "
        f"95% CI [{low:5.1%}, {high:5.1%}]  target {s['target']:.0%} {verdict}; {margin}; "
        f"median length {s['median_length']:.0f} actions, unfinished {s['unfinished']}; "
        f"played {played_span(s)}",
        file=out,
    )


def played_span(s):
    """When a pairing's matches finished, in UTC: one day, or first to last."""
    first, last = (s["first"] or "")[:10], (s["last"] or "")[:10]
    return first if first == last else f"{first} to {last}"


def print_timings(timing_acc, out):
    if not any(t.n for t in timing_acc.values()):
        return
    print("  time per decision (multi-action decisions only; quantiles to within 1%):", file=out)
    for level in engine.ai.LEVELS:
        t = timing_acc.get(level)
        if t is not None and t.n:
            capped = f"; searched {t.searches}, capped {t.capped}" if level == "hard" else ""
            print(
                f"    {level:<7} n={t.n:>7}  median {timing.median(t) * 1000:8.2f} ms  "
                f"p95 {timing.quantile(t, 0.95) * 1000:8.2f} ms  max {t.max * 1000:8.1f} ms  "
                f"steady max {t.steady_max * 1000:8.1f} ms  (single-action decisions: {t.singles}{capped})",
                file=out,
            )


def variant_runs(args, game_id, options, duel, largest):
    """``(name, tasks, hero, target)`` of the pairings selected for one variant."""
    runs = []
    for k, strong, weak in selected_pairings(args) if duel else []:
        runs.append((f"2p {strong} vs {weak}", duel_tasks(args, game_id, options, k), strong, 0.6))
    if not args.no_field:
        runs.append(
            (
                f"{largest}p hard vs {largest - 1} medium",
                field_tasks(args, game_id, options, largest),
                "hard",
                1.6 / largest,
            )
        )
    return runs


def run(args, out=sys.stdout):
    """Plays (or reads from the record) every selected pairing; prints the
    table, or with ``args.json`` one JSON line per pairing. Returns the
    pairings' summaries."""
    record = open_record(args.record, sys.stderr if args.json else out)
    summaries = []
    with MatchPool(args.jobs) as pool:
        for game_id, options, duel, largest, label in selected_variants(args):
            if not args.json:
                print(
                    f"{label}: {args.matches} matches per pairing, hard {describe_hard(args)}, "
                    f"{args.jobs} jobs",
                    file=out,
                    flush=True,
                )
            timing_acc = {}
            for name, tasks, hero, target in variant_runs(args, game_id, options, duel, largest):
                block = record.block(tasks, pool.play_many)
                timing.merge_into(timing_acc, block.timing)
                summary = pairing_summary(label, name, tasks, block, hero, target)
                summaries.append(summary)
                emit(summary, args.json, out)
            if not args.json:
                print_timings(timing_acc, out)
    return summaries


def emit(summary, as_json, out):
    if as_json:
        print(json_line(summary), file=out, flush=True)
    else:
        print_pairing(summary, out)
        out.flush()


def json_line(data):
    return json.dumps(data, sort_keys=True)


def describe_hard(args):
    count = (
        "the game's own simulations"
        if args.hard_simulations is None
        else f"{args.hard_simulations} simulations"
    )
    weighs = "" if args.hard_candidates is None else f", {args.hard_candidates} candidates"
    wall = "" if args.hard_wall_cap is None else f", wall cap {args.hard_wall_cap}s"
    steps = "the game's own" if args.hard_step_cap is None else args.hard_step_cap
    return f"{count} per decision (step cap {steps}{wall}){weighs}"
