#!/usr/bin/env python3
"""Which of two builds chooses the better moves, in a judge's eyes: both are asked for their
move in the same positions, and where they differ a judge brain rates the position after each
move. A match between two builds of 80 games moves by ±5 points on luck alone; here every
position where the moves agree costs nothing and adds no noise, so a small change of the
search shows in a few hundred positions.

    scripts/gomoku_choices.py positions --games GAMES.jsonl... [--name kibitz] \\
        [--colour white|black|both] [--from 7] [--to 31] [--count 200] [--seed 1] > POS.txt
    scripts/gomoku_choices.py compare --positions POS.txt --a BIN_A --b BIN_B \\
        --judge "JUDGE COMMAND" [--time-ms 1000 | --depth D] [--ms 300] [--out CHOICES.jsonl]
    scripts/gomoku_choices.py report CHOICES.jsonl...

`positions` takes, from games as `scripts/pbrain_match.py --games-out` writes them (15x15
freestyle), the positions in which `--name` is to move with `--from` to `--to` stones on the
board, shuffled with `--seed`, the first `--count`: a line of moves each.

`compare` asks each build (`BIN analyze --game gomoku --time-ms T`, the two at once, a core
each) for its move, then the judge (a Gomocup/pbrain brain, as in `scripts/gomoku_drift.py`,
given `--ms` a position) for its value after each move that differs, for the side that moved
(a mate counts as 2,000). It prints the positions, how many moves agreed, how often each
build's move lost (or won) by force where the other's did not, and over the other positions
where they differ the mean value after each build's move, their mean difference (A less B)
with its standard error, and how often each was better by 50 or more. `report` prints that
again from the files `--out` kept, pooled. The judge's output is data: it is
asked about positions, nothing of its code is used.

A timed search is not repeatable: two runs of one build at 1 s chose different moves in 86 of
400 positions, and a comparison of a build with itself reads a few tens either way
(docs/benchmarks-log/gomoku-learned-2.md, "Time left on the table"). Compare a change with that, or
at a fixed depth (`--depth`) where the change is not about time.
"""

import argparse
import json
import math
import random
import sys
from concurrent.futures import ThreadPoolExecutor

from gomoku_blunders import analyze
from gomoku_drift import MATE, Judge


def positions(args):
    found = []
    for path in args.games:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line) if line.strip() else None
                if not g or g.get("rule", "freestyle") != "freestyle":
                    continue
                moves = g["moves"].split()
                for side, parity in (("black", 0), ("white", 1)):
                    if g[side] != args.name or args.colour not in ("both", side):
                        continue
                    for n in range(args.start, min(args.end, len(moves) - 1) + 1):
                        if n % 2 == parity:
                            found.append(" ".join(moves[:n]))
    random.Random(args.seed).shuffle(found)
    for p in found[: args.count]:
        print(p)
    print(f"# {min(len(found), args.count)} of {len(found)} positions", file=sys.stderr)


def moves_of(binary, lines, limit):
    """The build's move in each position, one `analyze` for all of them; `limit` the
    analyze flags of its search (`--time-ms T` or `--depth D`)."""
    return [a["best"] for a in analyze(binary, limit, lines)]


def compare(args):
    with open(args.positions, encoding="utf-8") as f:
        lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    with ThreadPoolExecutor(max_workers=2) as pool:
        limit = ["--depth", str(args.depth)] if args.depth else ["--time-ms", str(args.time_ms)]
        a_moves, b_moves = pool.map(lambda b: moves_of(b, lines, limit), (args.a, args.b))
    judge = Judge(args.judge, args.ms)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    diffs = []
    for i, (line, a, b) in enumerate(zip(lines, a_moves, b_moves)):
        row = {"moves": line, "a": a, "b": b}
        if a != b:
            # The judge keeps its table from one position to the next, and the second of two
            # positions a stone apart is searched with the first's entries: the order
            # alternates so that neither build is always second.
            order = (a, b) if i % 2 == 0 else (b, a)
            values = {}
            for m in order:
                answer = judge.ask(line.split() + [m])
                values[m] = None if not answer or answer[0] is None else -answer[0]
            values = [values[a], values[b]]
            if None not in values:
                row["a_value"], row["b_value"] = values
                diffs.append(values)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()
    judge.close()
    if out:
        out.close()
    report(len(lines), sum(a == b for a, b in zip(a_moves, b_moves)), diffs)


def report(total, same, diffs):
    """Mates apart (a judge's mate is a verdict, its value a convention that would swamp the
    mean), the mean difference over the rest."""
    print(f"{total} positions: the builds agreed in {same}; {len(diffs)} judged where they differ")
    for who, mine, theirs in (("A", 0, 1), ("B", 1, 0)):
        lost = sum(v[mine] <= -MATE < v[theirs] for v in diffs)
        won = sum(v[mine] >= MATE > v[theirs] for v in diffs)
        print(f"{who}'s move lost by force where the other's did not: {lost}; won by force "
              f"where the other's did not: {won}")
    rest = [(a, b) for a, b in diffs if abs(a) < MATE and abs(b) < MATE]
    n = len(rest)
    if n < 2:
        return
    d = [a - b for a, b in rest]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    print(f"{n} without a mate: mean value after A's move {sum(a for a, _ in rest) / n:.0f}, "
          f"after B's {sum(b for _, b in rest) / n:.0f}; A less B {mean:+.1f} "
          f"± {sd / math.sqrt(n):.1f} (standard error); A better by 50 or more in "
          f"{sum(x >= 50 for x in d)}, B in {sum(x <= -50 for x in d)}")


def report_files(args):
    """The report again from `compare --out` files (several: their positions pooled)."""
    rows = []
    for path in args.choices:
        with open(path, encoding="utf-8") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    diffs = [(r["a_value"], r["b_value"]) for r in rows if "a_value" in r]
    report(len(rows), sum(r["a"] == r["b"] for r in rows), diffs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--games", nargs="+", required=True)
    p.add_argument("--name", default="kibitz")
    p.add_argument("--colour", choices=("white", "black", "both"), default="both")
    p.add_argument("--from", dest="start", type=int, default=7)
    p.add_argument("--to", dest="end", type=int, default=31)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("compare")
    c.add_argument("--positions", required=True)
    c.add_argument("--a", required=True)
    c.add_argument("--b", required=True)
    c.add_argument("--judge", required=True)
    c.add_argument("--time-ms", type=int, default=1000)
    c.add_argument("--depth", type=int, help="search to this depth instead of timed")
    c.add_argument("--ms", type=int, default=300)
    c.add_argument("--out")
    r = sub.add_parser("report")
    r.add_argument("choices", nargs="+", help="files `compare --out` wrote")
    args = parser.parse_args()
    {"positions": positions, "compare": compare, "report": report_files}[args.command](args)


if __name__ == "__main__":
    main()
