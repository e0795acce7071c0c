#!/usr/bin/env python3
"""Where a brain's games drift away, in a judge's eyes: every position of each game (15x15
freestyle, as `scripts/pbrain_match.py --games-out` writes them) is given to a judge brain
(a Gomocup/pbrain engine that prints `MESSAGE ... Eval <n>` or a mate `+M<n>`/`-M<n>`, as
Rapfi does, or `MESSAGE ... ev <n>` / `ev win in <n>` / `ev loss in <n>`, as `kibitz pbrain`
does, and its move), and each move of `--name` is charged what it lost: the judge's value for
the side to move before it, less the judge's value for that side after it.

    scripts/gomoku_drift.py --games GAMES.jsonl... --judge "JUDGE COMMAND" [--name kibitz] \\
        [--colour white|black|both] [--ms 500] [--plies 40] [--out DRIFT.jsonl]

A summary by stage of the game, player and colour (the brain's moves beside its opponent's,
judged alike): how many moves, the mean loss, how many lost 50 and 150 or more, how often the
move was the judge's own; then by game the move before which the judge first rates the
brain's side at -300 or worse. The judge's output is data: it is asked
about positions, nothing of its code is used. A mate counts as 2,000.
"""

import argparse
import json
import shlex
import subprocess
import sys

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
SIZE = 15
MATE = 2000
STAGES = ((4, 10), (11, 20), (21, 30), (31, 999))


def is_value_line(text):
    """Whether `text` is a judge's line that carries its value (Rapfi's `Eval`, Kibitz's `ev`)."""
    return "Eval " in text or (text.startswith("MESSAGE") and " ev " in text)


def value_of(text):
    """The value in a judge's line, capped at a mate: Rapfi's `Eval <n>` or `Eval +M<n>` /
    `-M<n>`, or `kibitz pbrain`'s `ev <n>`, `ev win in <n>`, `ev loss in <n>`; None when
    unreadable."""
    key = "Eval " if "Eval " in text else " ev "
    word = text.split(key, 1)[1].split()[0]
    if word.startswith(("+M", "win")):
        return MATE
    if word.startswith(("-M", "loss")):
        return -MATE
    try:
        return max(-MATE, min(MATE, int(float(word))))
    except ValueError:
        return None


class Judge:
    """One judge process, asked one position at a time with BOARD."""

    def __init__(self, command, ms):
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send(f"START {SIZE}")
        if not self.line().upper().startswith("OK"):
            sys.exit("the judge did not answer START with OK")
        for info in (f"timeout_turn {ms}", "timeout_match 0", "time_left 2147483647",
                     "thread_num 1", "rule 0"):
            self.send(f"INFO {info}")

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def line(self):
        text = self.proc.stdout.readline()
        if not text:
            sys.exit("the judge stopped")
        return text.strip()

    def ask(self, moves):
        """The judge's value for the side to move after `moves` and its move, or None.

        A BOARD sent at once after a move may be lost (Rapfi answers its stones `ERROR Unknown
        command`, seemingly still ending the search before): the errors are drained up to
        an ABOUT's answer and the position is asked again."""
        for _ in range(3):
            answer = self.ask_once(moves)
            if answer != "again":
                return answer
            self.send("ABOUT")
            while "name=" not in self.line():
                pass
        return None

    def ask_once(self, moves):
        mover = len(moves) % 2
        self.send("BOARD")
        for i, m in enumerate(moves):
            col, row = COLUMNS.index(m[0]), SIZE - int(m[1:])
            self.send(f"{col},{row},{1 if i % 2 == mover else 2}")
        self.send("DONE")
        value = None
        while True:
            text = self.line()
            if is_value_line(text):
                read = value_of(text)
                value = value if read is None else read
            elif "," in text and not text.upper().startswith(("MESSAGE", "ERROR")):
                x, y = (int(v) for v in text.split(","))
                return value, f"{COLUMNS[x]}{SIZE - y}"
            elif text.upper().startswith("ERROR"):
                return "again"

    def close(self):
        self.send("END")
        self.proc.wait(timeout=10)


def games_of(paths, name, colour):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line) if line.strip() else None
                if not g or g.get("rule", "freestyle") != "freestyle":
                    continue
                side = "black" if g["black"] == name else "white" if g["white"] == name else None
                if side and colour in ("both", side):
                    yield g, side


def judge_game(judge, moves, plies):
    """Per move from the 4th (ply numbered from 1), either player's: (ply, the move, the
    judge's move, its value before the move for the mover, what the move lost)."""
    values, bests = {}, {}
    for ply in range(3, min(len(moves), plies) + 1):
        answer = judge.ask(moves[:ply])
        if answer and answer[0] is not None:
            values[ply], bests[ply] = answer
    rows = []
    for ply in range(3, min(len(moves), plies)):
        if ply not in values or ply + 1 not in values:
            continue
        before, after = values[ply], -values[ply + 1]
        rows.append({"ply": ply + 1, "move": moves[ply], "judge": bests[ply],
                     "before": before, "loss": before - after})
    return rows


def summary(records, name):
    """The table by stage, brain and colour (the brain's moves beside its opponent's, judged
    alike: the judge's bias for the side to move is in both)."""
    print("stage (moves) | player | colour | moves | mean loss | lost >= 50 | lost >= 150 | the judge's move")
    for lo, hi in STAGES:
        for who in ("brain", "opponent"):
            for colour in ("black", "white"):
                rows = [r for rec in records for r in rec["moves"]
                        if lo <= r["ply"] <= hi and (r["ply"] % 2 == 1) == (colour == "black")
                        and (rec["side"] == colour) == (who == "brain")]
                if not rows:
                    continue
                n = len(rows)
                mean = sum(r["loss"] for r in rows) / n
                big = sum(r["loss"] >= 50 for r in rows)
                huge = sum(r["loss"] >= 150 for r in rows)
                same = sum(r["move"] == r["judge"] for r in rows)
                stage = f"{lo}-{hi}" if hi < 999 else f"{lo}+"
                player = name if who == "brain" else "opponent"
                print(f"{stage} | {player} | {colour} | {n} | {mean:.0f} | {big} | {huge} | "
                      f"{same} ({100 * same / n:.0f}%)")
    for rec in records:
        mine = [r for r in rec["moves"] if (r["ply"] % 2 == 1) == (rec["side"] == "black")]
        lost = next((r["ply"] for r in mine if r["before"] <= -300), None)
        print(f"# {name} {rec['side']} {rec['opening']}: {rec['result']}, rated -300 or worse "
              f"before its move {lost}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", required=True)
    ap.add_argument("--judge", required=True)
    ap.add_argument("--name", default="kibitz")
    ap.add_argument("--colour", choices=("white", "black", "both"), default="both")
    ap.add_argument("--ms", type=int, default=500)
    ap.add_argument("--plies", type=int, default=40)
    ap.add_argument("--out")
    args = ap.parse_args()
    judge = Judge(args.judge, args.ms)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    records = []
    for g, side in games_of(args.games, args.name, args.colour):
        moves = g["moves"].split()
        rows = judge_game(judge, moves, args.plies)
        won = g.get("winner") == args.name
        rec = {"side": side, "opening": " ".join(moves[:3]), "moves": rows,
               "result": "won" if won else "lost" if g.get("winner") else "drawn"}
        records.append(rec)
        if out:
            out.write(json.dumps(rec) + "\n")
            out.flush()
    judge.close()
    summary(records, args.name)


if __name__ == "__main__":
    main()
