#!/usr/bin/env python3
"""Moves of a brain after which the project's solver proves a win for the opponent, while
another move at that point leaves it none: the losses the root checks are there to prevent;
and positions in which the side to move has a forced win, to see that the timed search finds it.

    scripts/gomoku_blunders.py find --games GAMES.jsonl [--name kibitz] \\
        [--kibitz target/release/kibitz] > POSITIONS.jsonl
    scripts/gomoku_blunders.py replay --positions POSITIONS.jsonl [--time-ms 960] \\
        [--runs 2] [--kibitz BIN] [--solver target/release/kibitz]

`find` reads games as `scripts/pbrain_match.py --games-out` writes them (15x15 freestyle). In
each game it takes the first move of `--name` after which `kibitz analyze --solve` proves a
win for the side to move, and lists the moves at that point (every empty point within two of
a stone) after which the solver proves none: the position is written out when there is one.
`wins` walks back from the end of each game (15x15 freestyle, either player) over the
winner's turns while the solver proves a win for the side to move, takes the earliest such
position whose proof took at most `--solve-ms` (the longest win found there), and asks
`--kibitz` for a timed search of `--time-ms` in each: it proves the win (`win_in`), plays the
solver's move without proving it, or plays another move (which may still win, unproven).

    scripts/gomoku_blunders.py wins --games GAMES.jsonl... [--solve-ms 500] [--time-ms 500] \
        [--kibitz target/release/kibitz] [--solver target/release/kibitz] \
        [--positions-out WINS.jsonl]
    scripts/gomoku_blunders.py wins --positions WINS.jsonl [--time-ms 500] [--kibitz BIN]

The walk back is the slow part (a solve a turn): `--positions-out` keeps what it found (a JSON
line each: the moves, the solver's move, length and time), and `--positions` asks another
build about the same positions. The project's own set is `scripts/gomoku_wins.jsonl`: 239 positions
of 240 games at 200 ms against Rapfi (2026-12-07; docs/benchmarks-log/gomoku-learned-2.md, "Time
left on the table"):

    scripts/gomoku_blunders.py wins --positions scripts/gomoku_wins.jsonl --time-ms 500

Whether a brain then wins those positions against a defender is a match from each of them,
the brain to move (`scripts/pbrain_match.py --openings scripts/gomoku_wins.jsonl --a-colour
to-move --a "BIN pbrain" --b DEFENDER --turn-ms 500`).

`replay` asks `--kibitz` for its move in each position (`kibitz analyze --time-ms`, the time a
`kibitz pbrain` at 1 s gives its search), `--runs` times, and counts the moves after which
`--solver` proves a win for the opponent. "Proves none" is the solver's verdict within its
budget (3M nodes, VCTs up to 33 plies), not a proof that the move holds.
"""

import argparse
import json
import subprocess
import sys

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
SIZE = 15


def analyze(kibitz, args, lines):
    """One `kibitz analyze` per batch: its JSON answers, a line each."""
    done = subprocess.run(
        [kibitz, "analyze", "--game", "gomoku", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    if len(answers) != len(lines):
        sys.exit(f"{kibitz} answered {len(answers)} of {len(lines)} positions")
    return answers


def near(moves):
    """The empty points within two of a stone."""
    stones = set(moves)
    around = set()
    for m in moves:
        col, row = COLUMNS.index(m[0]), int(m[1:])
        for dc in range(-2, 3):
            for dr in range(-2, 3):
                c, r = col + dc, row + dr
                if 0 <= c < SIZE and 1 <= r <= SIZE:
                    around.add(f"{COLUMNS[c]}{r}")
    return sorted(around - stones)


def find(args):
    found = 0
    with open(args.games, encoding="utf-8") as f:
        games = [json.loads(line) for line in f if line.strip()]
    for g in games:
        if g.get("rule", "freestyle") != "freestyle" or args.name not in (g["black"], g["white"]):
            continue
        moves = g["moves"].split()
        colour = 0 if g["black"] == args.name else 1
        # Its moves after the three-stone opening, each but a game's last.
        ours = [i for i in range(3, len(moves) - 1) if i % 2 == colour]
        after = analyze(args.kibitz, ["--solve"], [" ".join(moves[: i + 1]) for i in ours])
        first = next(((i, a) for i, a in zip(ours, after) if a.get("win_in") is not None), None)
        if first is None:
            continue
        i, answer = first
        before = moves[:i]
        options = near(before)
        verdicts = analyze(args.kibitz, ["--solve"], [" ".join(before + [m]) for m in options])
        holding = [m for m, v in zip(options, verdicts) if v.get("win_in") is None]
        if not holding:
            continue
        found += 1
        print(
            json.dumps(
                {
                    "moves": " ".join(before),
                    "played": moves[i],
                    "win_in": answer["win_in"],
                    "holding": holding,
                    "colour": "black" if colour == 0 else "white",
                    "winner": g["winner"],
                }
            ),
            flush=True,
        )
    print(f"# {found} positions from {len(games)} games", file=sys.stderr)


def replay(args):
    with open(args.positions, encoding="utf-8") as f:
        positions = [json.loads(line) for line in f if line.strip()]
    lines = [p["moves"] for p in positions]
    losing = 0
    for run in range(args.runs):
        chosen = analyze(args.kibitz, ["--time-ms", str(args.time_ms)], lines)
        moves = [c["best"] for c in chosen]
        verdicts = analyze(args.solver, ["--solve"], [f"{l} {m}" for l, m in zip(lines, moves)])
        for p, m, v in zip(positions, moves, verdicts):
            lost = v.get("win_in") is not None
            losing += lost
            print(f"run {run + 1}: {p['moves']} -> {m}" + (f" (loses in {v['win_in']})" if lost else ""))
    total = len(positions) * args.runs
    print(f"{losing} of {total} moves lose by force ({100 * losing / max(total, 1):.1f}%)")


def earliest_win(solver, moves, solve_ms):
    """The earliest of the winner's turns, walking back from the end, in which the solver
    proves a win in at most `solve_ms`: (position's moves, solver's answer), or None."""
    best = None
    for end in range(len(moves) - 1, 4, -2):
        answer = analyze(solver, ["--solve"], [" ".join(moves[:end])])[0]
        if answer.get("win_in") is None:
            break
        if answer["ms"] <= solve_ms:
            best = (moves[:end], answer)
    return best


def win_positions(args):
    """The positions to ask about: read from `--positions`, or found in `--games` (and kept
    in `--positions-out`)."""
    if args.positions:
        with open(args.positions, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        if any("solver" not in r for r in rows):
            sys.exit(f"{args.positions}: not a file of `wins --positions-out` (a line without \"solver\")")
        return [(r["moves"].split(), r["solver"]) for r in rows]
    positions = []
    # Each position is written as it is found: the walk is the slow part.
    out = open(args.positions_out, "w", encoding="utf-8") if args.positions_out else None
    for path in args.games:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line) if line.strip() else {}
                if g and g.get("rule", "freestyle") == "freestyle" and g.get("why") == "five":
                    found = earliest_win(args.solver, g["moves"].split(), args.solve_ms)
                    if found:
                        positions.append(found)
                        if out:
                            solver = {k: found[1][k] for k in ("best", "win_in", "ms")}
                            out.write(json.dumps({"moves": " ".join(found[0]), "solver": solver}) + "\n")
                            out.flush()
    if out:
        out.close()
    print(f"# {len(positions)} positions with a win proven in at most {args.solve_ms} ms", file=sys.stderr)
    return positions


def wins(args):
    positions = win_positions(args)
    answers = analyze(args.kibitz, ["--time-ms", str(args.time_ms)], [" ".join(m) for m, _ in positions])
    proved = played = 0
    for (moves, proof), a in zip(positions, answers):
        if a.get("win_in") is not None:
            proved += 1
            verdict = f"wins in {a['win_in']}"
        elif a["best"] == proof["best"]:
            played += 1
            verdict = f"plays the solver's move unproven (score {a['score']})"
        else:
            verdict = f"MISSED: {a['best']}, score {a['score']}"
        print(f"{' '.join(moves)}: solver {proof['best']} in {proof['win_in']} ({proof['ms']} ms); search {verdict}")
    missed = len(positions) - proved - played
    print(
        f"{len(positions)} positions, {args.time_ms} ms searches: {proved} proved the win, "
        f"{played} played the solver's move without proving it, {missed} played another move"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("find")
    f.add_argument("--games", required=True)
    f.add_argument("--name", default="kibitz")
    f.add_argument("--kibitz", default="target/release/kibitz")
    r = sub.add_parser("replay")
    r.add_argument("--positions", required=True)
    r.add_argument("--time-ms", type=int, default=960)
    r.add_argument("--runs", type=int, default=2)
    r.add_argument("--kibitz", default="target/release/kibitz")
    r.add_argument("--solver", default="target/release/kibitz")
    w = sub.add_parser("wins")
    source = w.add_mutually_exclusive_group(required=True)
    source.add_argument("--games", nargs="+")
    source.add_argument("--positions")
    w.add_argument("--positions-out")
    w.add_argument("--solve-ms", type=int, default=500)
    w.add_argument("--time-ms", type=int, default=500)
    w.add_argument("--kibitz", default="target/release/kibitz")
    w.add_argument("--solver", default="target/release/kibitz")
    args = parser.parse_args()
    if args.command == "wins" and args.positions and args.positions_out:
        parser.error("--positions-out keeps the positions found in --games, not those read")
    if args.command == "find":
        find(args)
    elif args.command == "wins":
        wins(args)
    else:
        replay(args)


if __name__ == "__main__":
    main()
