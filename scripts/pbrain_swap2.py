"""The swap2 opening between two pbrain brains (`SWAP2BOARD`), for scripts/pbrain_match.py.

The proposer lays three stones (black, white, black) on an empty board. The chooser then
answers `SWAP` (it takes black; the proposer plays white's fourth stone), one stone (it stays
white and that is the fourth), or two stones (the fourth and fifth, and the proposer chooses:
`SWAP` to take black, or one stone, white's sixth, to stay white). Each board goes to the
brain as the protocol's block, the side to move's stones marked 1 and the other's 2. An
answer that is late, malformed or on an occupied point loses the game.
"""
import re

SWAP = re.compile(r"^\s*SWAP\s*$", re.IGNORECASE)
CELLS = re.compile(r"^\s*\d+\s*,\s*\d+(\s+\d+\s*,\s*\d+)*\s*$")


def board_lines(brain, moves):
    colour = len(moves) % 2
    return (["SWAP2BOARD"]
            + [f"{brain.xy(c)},{1 if i % 2 == colour else 2}" for i, c in enumerate(moves)]
            + ["DONE"])


def answer(brain, moves, counts, may_swap, size, timed):
    """The brain's answer to the board `moves`: ("SWAP", None) where `may_swap`, (cells, None)
    with as many cells as one of `counts`, or (None, why it loses)."""
    line, took = brain.ask_line(board_lines(brain, moves),
                                lambda l: SWAP.match(l) or CELLS.match(l))
    late = timed(brain, took, len(moves))
    if line is None:
        return None, f"{brain.name} gave no swap2 answer"
    if late:
        return None, f"{brain.name} over time ({took * 1000:.0f} ms) in the swap2 opening"
    if SWAP.match(line):
        if may_swap:
            return "SWAP", None
        return None, f"{brain.name} answered SWAP to an empty board"
    cells = [brain.cell(t) for t in line.split()]
    taken = set(moves)
    for c in cells:
        if not (0 <= c[0] < size and 0 <= c[1] < size) or c in taken:
            return None, f"{brain.name} laid {line!r}: off the board or on a stone"
        taken.add(c)
    if len(cells) not in counts:
        return None, f"{brain.name} laid {len(cells)} stones, not {' or '.join(map(str, counts))}"
    return cells, None


def opening(proposer, chooser, size, timed):
    """Plays the swap2 opening. Returns (black, white, moves, None) once the colours are
    chosen, or (proposer, chooser, moves, (winner, why)) when an answer loses the game.
    `timed(brain, seconds, ply)` counts an answer's time and says whether it was too late."""
    stones, why = answer(proposer, [], (3,), False, size, timed)
    if stones is None:
        return proposer, chooser, [], (chooser.name, why)
    moves = stones
    choice, why = answer(chooser, moves, (1, 2), True, size, timed)
    if choice is None:
        return proposer, chooser, moves, (proposer.name, why)
    if choice == "SWAP":
        return chooser, proposer, moves, None
    moves = moves + choice
    if len(choice) == 1:
        return proposer, chooser, moves, None
    choice, why = answer(proposer, moves, (1,), True, size, timed)
    if choice is None:
        return proposer, chooser, moves, (chooser.name, why)
    if choice == "SWAP":
        return proposer, chooser, moves, None
    return chooser, proposer, moves + choice, None
