#!/usr/bin/env python3
"""A Connect Four match between two engines that speak the `kibitz analyze` line protocol
(docs/engines.md): one position a line on standard input, one JSON line with `best` back.
Two builds of Kibitz, two levels, or a build against itself with other flags.

Each opening (every first move, then every first two moves if --two-ply) is played twice,
colours swapped. The script is the referee: a move into a full or blocked column or an answer
that is not a column loses, four in a row wins, a full board is a draw.

Usage:
  scripts/connect4_match.py --a "OLD/kibitz analyze --game connect4" \
      --b "target/release/kibitz analyze --game connect4" [--a-name old --b-name new] \
      [--cols 9 --rows 7 --blocked 5,1 ...] [--time-ms 200] [--level-a 10 --level-b 10] \
      [--two-ply] [--count N] [--games-out FILE]

The script appends the board flags (`--cols`, `--rows`, `--blocked`) and `--time-ms` /
`--level` to both commands. Columns are 1-based; `--blocked c,r` is 1-based from the bottom
left, as `kibitz analyze` takes it.
"""
import argparse
import json
import shlex
import subprocess
import sys
import time


class Engine:
    """One engine process, kept for the whole match so its tables carry over."""

    def __init__(self, command, args):
        self.proc = subprocess.Popen(
            shlex.split(command) + args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def best(self, moves, cols):
        sep = "," if cols > 9 else ""
        self.proc.stdin.write(sep.join(str(m) for m in moves) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            return None, {}
        answer = json.loads(line)
        try:
            return int(answer.get("best", "")), answer
        except ValueError:
            return None, answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


class Board:
    def __init__(self, cols, rows, blocked):
        self.cols, self.rows = cols, rows
        self.cells = [[None] * rows for _ in range(cols)]
        for c, r in blocked:
            self.cells[c - 1][r - 1] = "#"

    def landing(self, col):
        if not 1 <= col <= self.cols:
            return None
        for r in range(self.rows):
            if self.cells[col - 1][r] is None:
                return r
        return None

    def play(self, col, who):
        r = self.landing(col)
        self.cells[col - 1][r] = who
        return self.fours(col - 1, r, who)

    def fours(self, c, r, who):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                k = 1
                while True:
                    cc, rr = c + s * dc * k, r + s * dr * k
                    if 0 <= cc < self.cols and 0 <= rr < self.rows and self.cells[cc][rr] == who:
                        n += 1
                        k += 1
                    else:
                        break
            if n >= 4:
                return True
        return False

    def full(self):
        return all(self.landing(c) is None for c in range(1, self.cols + 1))


def play_game(engines, names, opening, args, blocked):
    """Plays one game; engines[0] moves first. Returns (winner index or None, reason, moves)."""
    board = Board(args.cols, args.rows, blocked)
    moves = []
    for i, col in enumerate(opening):
        if board.landing(col) is None:
            return None, "bad opening", moves
        won = board.play(col, i % 2)
        moves.append(col)
        if won:
            return i % 2, "four in the opening", moves
    while not board.full():
        side = len(moves) % 2
        col, _ = engines[side].best(moves, args.cols)
        if col is None or board.landing(col) is None:
            return 1 - side, f"{names[side]} played an illegal move {col}", moves
        won = board.play(col, side)
        moves.append(col)
        if won:
            return side, "four", moves
    return None, "full board", moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--a-name", default="A")
    ap.add_argument("--b-name", default="B")
    ap.add_argument("--cols", type=int, default=7)
    ap.add_argument("--rows", type=int, default=6)
    ap.add_argument("--blocked", action="append", default=[], help="c,r (1-based); repeatable")
    ap.add_argument("--time-ms", type=int, default=200)
    ap.add_argument("--level-a", type=int, default=10)
    ap.add_argument("--level-b", type=int, default=10)
    ap.add_argument("--two-ply", action="store_true", help="openings of two moves, not one")
    ap.add_argument("--count", type=int, default=0, help="play the first N openings (0: all)")
    ap.add_argument("--games-out")
    args = ap.parse_args()

    blocked = [tuple(int(x) for x in b.split(",")) for b in args.blocked]
    board_flags = ["--cols", str(args.cols), "--rows", str(args.rows), "--time-ms", str(args.time_ms)]
    for b in args.blocked:
        board_flags += ["--blocked", b]
    a = Engine(args.a, board_flags + ["--level", str(args.level_a)])
    b = Engine(args.b, board_flags + ["--level", str(args.level_b)])

    probe = Board(args.cols, args.rows, blocked)
    firsts = [c for c in range(1, args.cols + 1) if probe.landing(c) is not None]
    if args.two_ply:
        openings = []
        for x in firsts:
            after = Board(args.cols, args.rows, blocked)
            after.play(x, 0)
            openings += [[x, y] for y in range(1, args.cols + 1) if after.landing(y) is not None]
    else:
        openings = [[x] for x in firsts]
    if args.count:
        openings = openings[: args.count]

    score = {"a": 0.0, "games": 0, "a_first": [0, 0, 0], "a_second": [0, 0, 0]}
    out = open(args.games_out, "a") if args.games_out else None
    started = time.time()
    for opening in openings:
        for a_first in (True, False):
            engines = [a, b] if a_first else [b, a]
            names = [args.a_name, args.b_name] if a_first else [args.b_name, args.a_name]
            winner, reason, moves = play_game(engines, names, opening, args, blocked)
            a_index = 0 if a_first else 1
            result = 0.5 if winner is None else (1.0 if winner == a_index else 0.0)
            key = "a_first" if a_first else "a_second"
            score[key][{1.0: 0, 0.5: 1, 0.0: 2}[result]] += 1
            score["a"] += result
            score["games"] += 1
            print(f"opening {''.join(map(str, opening))} {args.a_name} "
                  f"{'first' if a_first else 'second'}: {result} ({reason}, {len(moves)} moves)",
                  flush=True)
            if out:
                out.write(json.dumps({"opening": opening, "a_first": a_first, "result": result,
                                      "reason": reason, "moves": moves}) + "\n")
    a.close()
    b.close()
    g = score["games"]
    wf, df, lf = score["a_first"]
    ws, ds, ls = score["a_second"]
    print(f"\n{args.a_name} vs {args.b_name}, {args.cols}x{args.rows}"
          f"{' blocked ' + ' '.join(args.blocked) if args.blocked else ''}, {args.time_ms} ms a move, "
          f"{g} games in {time.time() - started:.0f} s")
    print(f"{args.a_name}: {score['a']:.1f}/{g} ({100 * score['a'] / max(g, 1):.1f}%): "
          f"first {wf}-{df}-{lf}, second {ws}-{ds}-{ls} (wins-draws-losses)")


if __name__ == "__main__":
    sys.exit(main())
