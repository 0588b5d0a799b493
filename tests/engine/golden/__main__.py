"""``python -m tests.engine.golden [--renew] [NAME ...]``: say what changed in
each golden playthrough; with ``--renew``, write the new records."""

import argparse
import sys

from .playthrough import cases, describe_change, load, play, replay_digests, save


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
    parser.add_argument("names", nargs="*", help="only these cases (default: all)")
    args = parser.parse_args(argv)
    changed = 0
    for case in cases():
        if args.names and case.name not in args.names:
            continue
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


if __name__ == "__main__":
    sys.exit(main())
