#!/usr/bin/env python3
"""A match between two Gomocup (pbrain) brains over a set of openings, colours swapped.

Each opening is played twice: once with brain A holding the opening's black stones and once
with brain B holding them (or once, with the colours `--a-colour` gives A: `to-move` gives A
the side to move after the opening, to see a brain convert won positions, such as the forced
wins of `scripts/gomoku_wins.jsonl`, whose JSON lines `--openings` reads as they are). With `--swap2 N`
the games open instead by the swap2 rule (`SWAP2BOARD`, scripts/pbrain_swap2.py): N rounds,
each brain laying the first three stones in one game of a round and the other choosing. The referee here judges the game itself: a five wins (freestyle:
five or more; standard: exactly five for both; renju: exactly five for black, five or more for
white), a move on an occupied or off-board point loses, a move later than the turn time plus
the grace loses on time (with `--match-ms`, so does a game's moves' total over the match time
plus the grace; each brain is told its time left before every move), and in renju a black move that game-core forbids loses (asked of
`kibitz analyze --rule renju`, game-core being the referee). A full board is a draw.

Usage:
  scripts/pbrain_match.py --a "target/release/kibitz pbrain" --b "OTHER-BRAIN" \
      [--a-name kibitz --b-name other] [--openings scripts/gomoku_openings.txt] [--count N] \
      [--skip N] [--a-colour both|black|white|to-move] [--swap2 N] \
      [--turn-ms 1000] [--b-turn-ms N] [--grace-ms 100] [--b-grace-ms N] [--match-ms N] \
      [--size 15] \
      [--rule freestyle|standard|renju] [--kibitz target/release/kibitz] [--games-out FILE]

Moves and openings are written in the project's notation: a column letter from `a` and a row
number from 1 at the bottom (`h8` is the centre of 15x15). The brains speak the protocol's
`x,y` with y counting rows from the top; this script converts.

The score table gives wins/losses/draws per colour and per opening, each brain's score with
its standard error (`scripts/match_tally.py` pools the games of several runs the same way),
time forfeits, illegal and forbidden moves, moves over the turn time, the slowest move, and
the average depth and speed each brain announced in its MESSAGE lines (when it sends any).
"""
import argparse
import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

# The score's standard error, as the pooled tally gives it (this script's folder is on the path).
from match_tally import score_and_error
import pbrain_swap2

MOVE_LINE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
DEPTH = re.compile(r"\b[Dd]epth\s+(\d+)")
SPEED = re.compile(r"\b(?:Speed|nps)\s+([\d.]+)\s*([KMG]?)", re.IGNORECASE)
SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
RULE_BITS = {"freestyle": 0, "standard": 1, "renju": 4}


def parse_cell(text):
    """`h8` -> (col, row) with row 0 at the bottom."""
    text = text.strip().lower()
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


def cell_name(cell):
    return chr(ord("a") + cell[0]) + str(cell[1] + 1)


def read_openings(path, size):
    """A text file of openings (moves, `#` comments), or JSON lines with a `moves` field (the
    positions `scripts/gomoku_blunders.py wins --positions-out` keeps)."""
    openings = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("{"):
                line = json.loads(line)["moves"]
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cells = [parse_cell(m) for m in line.split()]
            if any(not (0 <= c < size and 0 <= r < size) for c, r in cells):
                sys.exit(f"opening {line!r} does not fit a {size}x{size} board")
            openings.append(cells)
    return openings


class Brain:
    """One brain process; lines it prints are read on a thread into a queue."""

    def __init__(self, name, command, size, turn_ms, grace_ms, match_ms=0):
        self.name, self.size, self.turn_ms, self.grace_ms = name, size, turn_ms, grace_ms
        # A game's time for all of the brain's moves (0: none), and what it has used of it.
        self.match_ms, self.used = match_ms, 0.0
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.messages = []
        self.answered = 0.0

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        if os.environ.get("PBRAIN_MATCH_DEBUG"):
            print(f"> {self.name}: {line}", file=sys.stderr)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, accept, seconds):
        """Lines until `accept(line)`; MESSAGE/DEBUG lines are kept in `messages`."""
        end = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=max(0.001, end - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                raise EOFError(f"{self.name} exited")
            if os.environ.get("PBRAIN_MATCH_DEBUG"):
                print(f"< {self.name}: {line}", file=sys.stderr)
            head = line.split(" ", 1)[0].upper()
            if head in ("MESSAGE", "DEBUG"):
                self.messages.append(line)
            elif accept(line):
                return line

    def start(self, rule_bits):
        self.send(f"START {self.size}")
        reply = self.wait_for(lambda l: True, 30)
        if reply is None or not reply.upper().startswith("OK"):
            sys.exit(f"{self.name}: START {self.size} answered {reply!r}")
        for info in (
            f"INFO timeout_turn {self.turn_ms}",
            f"INFO timeout_match {self.match_ms}",
            f"INFO time_left {self.match_ms or 2147483647}",
            "INFO max_memory 0",
            "INFO game_type 1",
            f"INFO rule {rule_bits}",
            "INFO thread_num 1",
        ):
            self.send(info)

    def new_game(self):
        """A game starts: its match time is whole again."""
        self.used = 0.0
        if self.match_ms:
            self.send(f"INFO time_left {self.match_ms}")

    def restart(self):
        # Some brains ignore a command that comes right after their move, while they still
        # finish it: wait a moment, and ask again when no answer comes.
        for _ in range(5):
            time.sleep(0.05)
            self.send("RESTART")
            if self.wait_for(lambda l: l.upper().startswith(("OK", "ERROR", "UNKNOWN")), 3):
                return
        sys.exit(f"{self.name} does not answer RESTART")

    def xy(self, cell):
        return f"{cell[0]},{self.size - 1 - cell[1]}"

    def ask_line(self, lines, accept):
        """Sends `lines` (the last one asks for an answer); returns (the line `accept` takes,
        or an ERROR line, or None; seconds)."""
        self.messages = []
        # Some brains drop a command that comes within moments of their last answer, while
        # they still finish it: give them that moment (before the clock starts).
        pause = self.answered + 0.03 - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        for line in lines[:-1]:
            self.send(line)
        started = time.monotonic()
        self.send(lines[-1])
        limit = (self.turn_ms + self.grace_ms) / 1000 + 30
        for _ in range(3):
            line = self.wait_for(lambda l: accept(l) or l.upper().startswith("ERROR"), limit)
            took = time.monotonic() - started
            self.answered = time.monotonic()
            if line is None:
                print(f"# {self.name}: no answer in {took:.1f} s", file=sys.stderr)
                return None, took
            # Some brains drop a command that arrives while they still think; ask again.
            if "UNKNOWN COMMAND" in line.upper():
                time.sleep(0.05)
                self.send(lines[-1])
                continue
            if not accept(line):
                print(f"# {self.name}: {line}", file=sys.stderr)
                return None, took
            return line, took
        return None, time.monotonic() - started

    def cell(self, text):
        """The protocol's `x,y` as (col, row), row 0 at the bottom."""
        m = MOVE_LINE.match(text)
        return (int(m.group(1)), self.size - 1 - int(m.group(2))) if m else None

    def ask(self, lines):
        """Sends `lines` (the last one asks for a move); returns (cell or None, seconds)."""
        line, took = self.ask_line(lines, MOVE_LINE.match)
        return (self.cell(line) if line else None), took

    def last_search(self):
        """(depth, nodes per second) announced for the last move, each None if absent."""
        depth = speed = None
        for line in self.messages:
            d = DEPTH.search(line)
            if d:
                depth = int(d.group(1))
            s = SPEED.search(line)
            if s:
                speed = float(s.group(1)) * SCALE[s.group(2).upper()]
        return depth, speed

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=3)
        except Exception:
            pass
        if self.proc.poll() is None:
            self.proc.kill()


class Referee:
    """Fives by the rule; renju's forbidden points through `kibitz analyze`."""

    def __init__(self, size, rule, kibitz):
        self.size, self.rule = size, rule
        self.analyze = None
        if rule == "renju":
            self.analyze = subprocess.Popen(
                [kibitz, "analyze", "--game", "gomoku", "--size", str(size),
                 "--rule", "renju", "--depth", "1"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            )

    def run_length(self, board, cell, colour, dx, dy):
        n = 1
        for s in (1, -1):
            x, y = cell[0] + s * dx, cell[1] + s * dy
            while board.get((x, y)) == colour:
                n += 1
                x, y = x + s * dx, y + s * dy
        return n

    def five(self, board, cell, colour):
        runs = [self.run_length(board, cell, colour, dx, dy)
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))]
        exact = self.rule == "standard" or (self.rule == "renju" and colour == 0)
        return any(n == 5 or (n > 5 and not exact) for n in runs)

    def forbidden(self, moves):
        """game-core's verdict on black's last move of `moves`: the reason, or None."""
        line = " ".join(cell_name(m) for m in moves)
        self.analyze.stdin.write(line + "\n")
        self.analyze.stdin.flush()
        reply = json.loads(self.analyze.stdout.readline())
        error = reply.get("error", "")
        return error if "forbidden" in error else None

    def close(self):
        if self.analyze:
            self.analyze.stdin.close()
            self.analyze.wait(timeout=10)


def timer(stats):
    """`timed(brain, seconds, ply)`: counts a move's time in `stats` (with the depth and speed
    the brain announced) and says whether it loses on time."""
    def timed(brain, took, ply):
        s = stats[brain.name]
        s["moves"] += 1
        s["time"] += took
        s["slowest"] = max(s["slowest"], took)
        depth, speed = brain.last_search()
        if depth is not None:
            s["depths"].append(depth)
        if speed is not None:
            s["speeds"].append(speed)
        if took * 1000 > brain.turn_ms:
            s["late"] += 1
            said = brain.messages[-1] if brain.messages else "no MESSAGE"
            print(f"# {brain.name} took {took * 1000:.0f} ms at move {ply + 1}: {said}",
                  file=sys.stderr)
        brain.used += took
        over_match = brain.match_ms and brain.used * 1000 > brain.match_ms + brain.grace_ms
        if took * 1000 > brain.turn_ms + brain.grace_ms or over_match:
            s["forfeits"] += 1
            return True
        return False
    return timed


def play(first, second, opening, referee, stats):
    """`first` holds the opening's black stones. Returns (winner or None, why, moves)."""
    timed = timer(stats)
    board = {}
    moves = list(opening)
    for i, c in enumerate(moves):
        board[c] = i % 2
    brains = [first, second]
    told = {first.name: None, second.name: None}  # moves each brain has seen
    while len(moves) < referee.size * referee.size:
        colour = len(moves) % 2
        brain, other = brains[colour], brains[1 - colour]
        seen = told[brain.name]
        if seen is None or seen != len(moves) - 1:
            lines = ["BOARD"]
            for i, c in enumerate(moves):
                lines.append(f"{brain.xy(c)},{1 if i % 2 == colour else 2}")
            lines.append("DONE")
        else:
            lines = [f"TURN {brain.xy(moves[-1])}"]
        if brain.match_ms:
            left = max(0, round(brain.match_ms - brain.used * 1000))
            lines = [f"INFO time_left {left}"] + lines
        cell, took = brain.ask(lines)
        late = timed(brain, took, len(moves))
        s = stats[brain.name]
        if cell is None:
            return other.name, f"{brain.name} gave no move", moves
        if late:
            spent = f", {brain.used:.1f} s of the game's {brain.match_ms / 1000:g}" if brain.match_ms else ""
            return other.name, f"{brain.name} over time ({took * 1000:.0f} ms{spent})", moves
        if not (0 <= cell[0] < referee.size and 0 <= cell[1] < referee.size) or cell in board:
            s["illegal"] += 1
            return other.name, f"{brain.name} played {cell} illegally", moves + [cell]
        moves.append(cell)
        board[cell] = colour
        told[brain.name] = len(moves)
        if referee.five(board, cell, colour):
            return brain.name, "five", moves
        if referee.analyze and colour == 0:
            why = referee.forbidden(moves)
            if why:
                s["illegal"] += 1
                return other.name, f"{brain.name}: {why}", moves
    return None, "full board", moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="command of brain A")
    ap.add_argument("--b", required=True, help="command of brain B")
    ap.add_argument("--a-name", default="A")
    ap.add_argument("--b-name", default="B")
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "gomoku_openings.txt"))
    ap.add_argument("--count", type=int, default=0, help="play the first N openings (0: all)")
    ap.add_argument("--skip", type=int, default=0, help="skip the first N openings")
    ap.add_argument("--a-colour", choices=("both", "black", "white", "to-move"), default="both",
                    help="the colours A plays each opening with (both: each opening twice; "
                         "to-move: once, with the side to move after it)")
    ap.add_argument("--swap2", type=int, default=0, metavar="N",
                    help="instead of the openings, N rounds of the swap2 opening (SWAP2BOARD), "
                         "each brain proposing once a round")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", choices=RULE_BITS, default="freestyle")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--a-turn-ms", type=int)
    ap.add_argument("--b-turn-ms", type=int)
    ap.add_argument("--grace-ms", type=int, default=100,
                    help="a move later than turn time + grace loses on time")
    ap.add_argument("--match-ms", type=int, default=0,
                    help="each brain's time for all its moves of a game (0: none)")
    ap.add_argument("--a-grace-ms", type=int)
    ap.add_argument("--b-grace-ms", type=int)
    ap.add_argument("--kibitz", default="target/release/kibitz",
                    help="the kibitz binary whose analyze judges renju")
    ap.add_argument("--games-out", help="append each game as a JSON line to this file")
    args = ap.parse_args()

    openings = read_openings(args.openings, args.size)[args.skip:]
    if args.count:
        openings = openings[: args.count]
    if args.a_name == args.b_name:
        sys.exit("the brains need different names")
    pick = lambda v, d: d if v is None else v
    a = Brain(args.a_name, args.a, args.size, pick(args.a_turn_ms, args.turn_ms),
              pick(args.a_grace_ms, args.grace_ms), args.match_ms)
    b = Brain(args.b_name, args.b, args.size, pick(args.b_turn_ms, args.turn_ms),
              pick(args.b_grace_ms, args.grace_ms), args.match_ms)
    referee = Referee(args.size, args.rule, args.kibitz)
    names = (a.name, b.name)
    stats = {n: {"moves": 0, "time": 0.0, "slowest": 0.0, "late": 0, "forfeits": 0,
                 "illegal": 0, "depths": [], "speeds": []} for n in names}
    # Per brain and colour: [wins, losses, draws].
    table = {(n, c): [0, 0, 0] for n in names for c in ("black", "white")}
    per_opening = []
    out = open(args.games_out, "a", encoding="utf-8") if args.games_out else None
    try:
        for brain in (a, b):
            brain.start(RULE_BITS[args.rule])
            # A first search may set up tables (hash memory) and be slow: do it before the
            # clock counts, on the first opening, and forget it.
            if openings:
                warm = openings[0]
                colour = len(warm) % 2
                brain.ask(["BOARD"] + [f"{brain.xy(c)},{1 if i % 2 == colour else 2}"
                                       for i, c in enumerate(warm)] + ["DONE"])
                brain.restart()
        # Fixed openings, or rounds of swap2 (opening None) where each brain proposes once.
        rounds = (list(enumerate(openings, 1 + args.skip)) if not args.swap2
                  else [(n, None) for n in range(1, args.swap2 + 1)])
        for number, opening in rounds:
            text = ("swap2" if opening is None
                    else " ".join(cell_name(c) for c in opening))
            results = []
            pairs = {"both": ((a, b), (b, a)), "black": ((a, b),), "white": ((b, a),)}
            colour = "both" if opening is None else args.a_colour
            if colour == "to-move":
                colour = "black" if len(opening) % 2 == 0 else "white"
            for first, second in pairs[colour]:
                for brain in (a, b):
                    brain.new_game()
                if opening is None:
                    black, white, start, fault = pbrain_swap2.opening(
                        first, second, args.size, timer(stats))
                    start_text = " ".join(cell_name(c) for c in start)
                    label = f"swap2 {number} by {first.name} [{start_text}]"
                else:
                    black, white, start, fault = first, second, opening, None
                    start_text = text
                    label = f"opening {number} [{text}]"
                if fault:
                    (winner, why), moves = fault, start
                else:
                    winner, why, moves = play(black, white, start, referee, stats)
                for brain, colour in ((black, "black"), (white, "white")):
                    row = table[(brain.name, colour)]
                    row[0 if winner == brain.name else 2 if winner is None else 1] += 1
                results.append(winner)
                game = " ".join(cell_name(c) for c in moves)
                print(f"{label} black={black.name}: "
                      f"{winner or 'draw'} ({why}) in {len(moves)} moves: {game}", flush=True)
                if out:
                    record = {"opening": start_text, "black": black.name, "white": white.name,
                              "winner": winner, "why": why, "moves": game, "rule": args.rule}
                    if opening is None:
                        record["swap2_by"] = first.name
                    out.write(json.dumps(record) + "\n")
                    out.flush()
                for brain in (a, b):
                    brain.restart()
            per_opening.append((number, text, results))
    finally:
        for brain in (a, b):
            brain.close()
        referee.close()
        if out:
            out.close()

    print()
    print(f"{args.size}x{args.size} {args.rule}, {len(per_opening)} openings, "
          f"{sum(len(r) for _, _, r in per_opening)} games; turn time {a.name} {a.turn_ms} ms, "
          f"{b.name} {b.turn_ms} ms" + (f"; {args.match_ms} ms a game" if args.match_ms else ""))
    print(f"{'brain':<12}{'colour':<8}{'W':>4}{'L':>4}{'D':>4}")
    for n in names:
        for c in ("black", "white"):
            w, l, d = table[(n, c)]
            print(f"{n:<12}{c:<8}{w:>4}{l:>4}{d:>4}")
        w = sum(table[(n, c)][0] for c in ("black", "white"))
        l = sum(table[(n, c)][1] for c in ("black", "white"))
        d = sum(table[(n, c)][2] for c in ("black", "white"))
        score, error = score_and_error(w, l, d)
        print(f"{n:<12}{'total':<8}{w:>4}{l:>4}{d:>4}   score {100 * score:.1f}% "
              f"± {100 * error:.1f}")
    print()
    columns = {"both": "winner with A black, winner with B black",
               "black": "winner with A black", "white": "winner with B black",
               "to-move": "winner with A to move"}
    if args.swap2:
        columns = {args.a_colour: "winner with A laying the three stones, with B laying them"}
    print(f"per opening ({columns[args.a_colour]}):")
    for number, text, results in per_opening:
        print(f"  {number:>3} {text:<14} " + "  ".join(r or "draw" for r in results))
    print()
    print(f"{'brain':<12}{'moves':>6}{'avg ms':>8}{'max ms':>8}{'late':>6}{'forfeit':>8}"
          f"{'illegal':>8}{'avg depth':>10}{'avg nps':>10}")
    for n in names:
        s = stats[n]
        avg = 1000 * s["time"] / max(1, s["moves"])
        depth = f"{sum(s['depths']) / len(s['depths']):.1f}" if s["depths"] else "-"
        speed = f"{sum(s['speeds']) / len(s['speeds']) / 1000:.0f}K" if s["speeds"] else "-"
        print(f"{n:<12}{s['moves']:>6}{avg:>8.0f}{1000 * s['slowest']:>8.0f}{s['late']:>6}"
              f"{s['forfeits']:>8}{s['illegal']:>8}{depth:>10}{speed:>10}")


if __name__ == "__main__":
    main()
