#!/usr/bin/env python3
"""Cross-checks Qilin's Xiangqi rules against Fairy-Stockfish's (the pyffish module from PyPI:
`pip install pyffish`), move by move over seeded random games.

Fairy-Stockfish ends a game after 100 plies without a capture (checks beyond the tenth not
counted), so the referee is run with `--no-capture-limit 100 --discount-checks`.
For every position of every game it compares the legal move lists (`qilin perft 1 --fen`) and,
after every move, the verdict (`qilin referee xiangqi --moves`). Random games are biased towards
shuffling a piece back and forth so that repetitions with checks and chases occur often.

Usage: scripts/xiangqi-crosscheck.py [--games N] [--seed S] [--qilin PATH] [--max-plies N]
Prints one line per disagreement and a summary; exit status 1 when anything disagreed.
Not part of CI (pyffish is not a project dependency)."""

import argparse
import random
import subprocess
import sys

sf = None  # the pyffish module, imported by main() once the arguments are read

VARIANT = "xiangqi"


def to_fsf(move):
    """Qilin move (ranks 0-9) to Fairy-Stockfish (ranks 1-10)."""
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def from_fsf(move):
    """Fairy-Stockfish move (ranks 1-10) to Qilin (ranks 0-9)."""
    # Ranks may be two digits (10).
    i = 1
    while move[i].isdigit():
        i += 1
    return f"{move[0]}{int(move[1:i]) - 1}{move[i]}{int(move[i + 1:]) - 1}"


def qilin_moves(qilin, fen):
    out = subprocess.run([qilin, "perft", "1", "--fen", fen], capture_output=True, text=True, check=True)
    return sorted(line.split(":")[0] for line in out.stdout.splitlines()[:-1])


def qilin_verdict(qilin, fen, moves):
    out = subprocess.run(
        [qilin, "referee", "xiangqi", "--fen", fen, "--moves", " ".join(moves),
         # Fairy-Stockfish draws after 100 plies without a capture, discounting checks.
         "--no-capture-limit", "100", "--discount-checks"],
        capture_output=True, text=True)
    return out.stdout.strip()


def fsf_verdict(fen, moves):
    fsf_moves = [to_fsf(m) for m in moves]
    side_red = (sf.get_fen(VARIANT, fen, fsf_moves).split()[1] == "w")
    legal = sf.legal_moves(VARIANT, fen, fsf_moves)
    if not legal:
        in_check = sf.gives_check(VARIANT, fen, fsf_moves)
        winner = "black" if side_red else "red"
        return f"result: {winner}-wins reason: {'checkmate' if in_check else 'stalemate'}"
    ended, value = sf.is_optional_game_end(VARIANT, fen, fsf_moves)
    if not ended:
        return "result: ongoing"
    if value == 0:
        return "result: draw"
    stm_wins = value > 0
    winner_red = stm_wins == side_red
    return f"result: {'red' if winner_red else 'black'}-wins"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--qilin", default="target/release/qilin")
    ap.add_argument("--shuffle", type=float, default=0.3, help="chance of moving back")
    args = ap.parse_args()
    global sf
    try:
        import pyffish as sf
    except ImportError:
        sys.exit("xiangqi-crosscheck.py needs the pyffish module: pip install pyffish")
    rng = random.Random(args.seed)
    start = sf.start_fen(VARIANT)
    positions = verdicts = disagreements = 0
    for game in range(args.games):
        moves = []
        while len(moves) < args.max_plies:
            fsf_moves = [to_fsf(m) for m in moves]
            fen_now = sf.get_fen(VARIANT, start, fsf_moves)
            expected = sorted(from_fsf(m) for m in sf.legal_moves(VARIANT, start, fsf_moves))
            got = qilin_moves(args.qilin, fen_now)
            positions += 1
            if expected != got:
                disagreements += 1
                print(f"moves differ at {fen_now}: only fsf {sorted(set(expected) - set(got))}, "
                      f"only qilin {sorted(set(got) - set(expected))}")
            if not expected:
                break
            # Shuffle back: replay the reverse of our own move two plies ago when legal.
            if len(moves) >= 2 and rng.random() < args.shuffle:
                back = moves[-2][2:] + moves[-2][:2]
                mv = back if back in expected else rng.choice(expected)
            else:
                mv = rng.choice(expected)
            moves.append(mv)
            want = fsf_verdict(start, moves)
            have = qilin_verdict(args.qilin, start, moves)
            verdicts += 1
            same = have.startswith(want) if want != "result: draw" else have.startswith("result: draw")
            if not same:
                disagreements += 1
                print(f"verdict differs after {' '.join(moves)}: fsf '{want}', qilin '{have}'")
            if want != "result: ongoing":
                break
        print(f"game {game + 1}: {len(moves)} plies, {fsf_verdict(start, moves)}", file=sys.stderr)
    print(f"{positions} positions, {verdicts} verdicts, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
