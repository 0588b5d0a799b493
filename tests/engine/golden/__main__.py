"""``python -m tests.engine.golden [--renew | --write-states] [NAME ...]``: say
what changed in each golden playthrough (with the diff of the recorded and
the new state where they first differ); with ``--renew``, write the new
records and their states; with ``--write-states``, (re)write only the states
files of records that still replay to their digests."""

import argparse
import sys

from .playthrough import cases, describe_change, digest, load, play, replay_digests, replay_dumps, save
from .states import save_states


def _replay_note(old):
    """Whether the recorded actions still replay to the recorded states."""
    if old is None:
        return ""
    digests = replay_digests(old)
    if digests == old["digests"]:
        return "; the recorded actions still replay to the recorded states (only the choices changed)"
    step = next(i for i, (a, b) in enumerate(zip(digests, old["digests"])) if a != b)
    return f"; replaying the recorded actions differs at step {step}: {digests[step]}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renew", action="store_true", help="write the records that changed")
    parser.add_argument("--write-states", action="store_true", help="write the records' states files only")
    parser.add_argument("names", nargs="*", help="only these cases (default: all)")
    args = parser.parse_args(argv)
    chosen = [case for case in cases() if not args.names or case.name in args.names]
    if args.write_states:
        return write_states(chosen)
    changed = 0
    for case in chosen:
        old, new = load(case), play(case)
        change = describe_change(old, new)
        if change is None:
            print(f"  unchanged  {case.name} ({len(new['actions'])} actions)")
            continue
        changed += 1
        print(f"  CHANGED    {case.name}: {change}{_replay_note(old)}")
        if args.renew:
            save(new, case)
            print(
                f"             renewed: {case.path.name} ({len(new['actions'])} actions, "
                f"outcome {new['outcome']})"
            )
    print(f"{changed} changed" + ("" if args.renew or not changed else "; --renew writes them"))
    return 1 if changed and not args.renew else 0


def write_states(chosen):
    """The states file of each record, from its recorded actions replayed now
    (refused when they no longer replay to the recorded digests)."""
    failed = 0
    for case in chosen:
        record = load(case)
        dumps, refusal = replay_dumps(record)
        if refusal or [digest(dump) for dump in dumps] != record["digests"]:
            failed += 1
            print(f"  NOT WRITTEN {case.name}: the recorded actions no longer replay to its digests")
            continue
        save_states(case.states_path, dumps)
        print(f"  written    {case.states_path.name} ({case.states_path.stat().st_size} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
