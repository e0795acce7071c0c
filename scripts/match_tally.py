#!/usr/bin/env python3
"""The score table of games that `pbrain_match.py --games-out` wrote, one or more files pooled.

A match of 80 games knows a score to about five points (one standard error), so a claim
about a brain's strength is better made over several runs: this adds them up, per brain and
colour, and gives each score with its standard error.

Usage:
  scripts/match_tally.py games1.jsonl [games2.jsonl ...] [--name kibitz]

Each line of a file is one game as `pbrain_match.py` writes it (`black`, `white`, `winner`:
a brain's name, or null for a draw). `--name` prints only that brain's rows.
"""
import argparse
import json
import math
import sys


def score_and_error(wins, losses, draws):
    """The score (0..1, draws half) and its standard error over the games' results."""
    games = wins + losses + draws
    if games == 0:
        return 0.0, 0.0
    score = (wins + draws / 2) / games
    if games == 1:
        return score, 0.0
    # Sample variance of the per-game results 1, 0 and 1/2.
    square = (wins + draws / 4) / games
    variance = max(0.0, square - score * score) * games / (games - 1)
    return score, math.sqrt(variance / games)


def tally(paths):
    """Per (brain, colour): [wins, losses, draws], and the files' game counts."""
    table = {}
    counts = []
    for path in paths:
        n = 0
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    game = json.loads(line)
                    black, white, winner = game["black"], game["white"], game["winner"]
                except (ValueError, KeyError) as e:
                    sys.exit(f"{path}:{number}: not a game line ({e})")
                if winner not in (black, white, None):
                    sys.exit(f"{path}:{number}: the winner {winner!r} did not play")
                for brain, colour in ((black, "black"), (white, "white")):
                    row = table.setdefault((brain, colour), [0, 0, 0])
                    row[0 if winner == brain else 2 if winner is None else 1] += 1
                n += 1
        counts.append((path, n))
    return table, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="games files written by pbrain_match.py")
    ap.add_argument("--name", help="print only this brain's rows")
    args = ap.parse_args()
    table, counts = tally(args.files)
    for path, n in counts:
        print(f"{path}: {n} games")
    names = sorted({brain for brain, _ in table})
    if args.name:
        if args.name not in names:
            sys.exit(f"no games of {args.name!r} (brains: {', '.join(names)})")
        names = [args.name]
    print(f"{'brain':<12}{'colour':<8}{'W':>5}{'L':>5}{'D':>5}   score")
    for name in names:
        total = [0, 0, 0]
        for colour in ("black", "white"):
            row = table.get((name, colour), [0, 0, 0])
            total = [t + r for t, r in zip(total, row)]
            score, error = score_and_error(*row)
            print(f"{name:<12}{colour:<8}{row[0]:>5}{row[1]:>5}{row[2]:>5}   "
                  f"{100 * score:.1f}% ± {100 * error:.1f}")
        score, error = score_and_error(*total)
        print(f"{name:<12}{'total':<8}{total[0]:>5}{total[1]:>5}{total[2]:>5}   "
              f"{100 * score:.1f}% ± {100 * error:.1f}")


if __name__ == "__main__":
    main()
