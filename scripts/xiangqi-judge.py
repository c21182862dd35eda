#!/usr/bin/env python3
"""Judge Xiangqi match records with a strong UCI engine (Pikafish-HCE): where did a side go wrong?

usage: scripts/xiangqi-judge.py --judge PATH --records RESULTS.jsonl [--engine NAME]
                                [--depth D] [--min-loss CP] (--game N | --resigned)

  --game N     every move of NAME in game N: the judge's best move and score before it, the
               score after it (both for NAME, centipawns; mates as +-30000 less the plies)
               and the loss; only moves losing at least --min-loss (0) are printed.
  --resigned   every game NAME lost by its own resignation: the judge's score of the final
               position for NAME (a resignation the judge does not see lost is suspect).

NAME is the engine name in the records (default: qilin). Depth (default 14) is the judge's
`go depth`. The judge runs in its own folder (for its evaluation files). Records come from
`qilin match --results`; the judge speaks UCI with ranks 0-9, as Qilin's records do.
"""
import argparse

from match_records import UciEngine, records

MATE = 30000


class Judge(UciEngine):
    """The judge engine, answering one position at a time."""

    def __init__(self, path):
        super().__init__(path, "judge")

    def score(self, fen, moves, depth):
        """(score for the side to move, best move) after `moves` from `fen`."""
        self.ask("isready", "readyok")
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        lines = self.ask(f"go depth {depth}", "bestmove")
        score = None
        for line in lines:
            words = line.split()
            if "score" in words and "lowerbound" not in words and "upperbound" not in words:
                i = words.index("score")
                value = int(words[i + 2])
                if words[i + 1] == "mate":
                    value = (MATE - abs(value)) * (1 if value > 0 else -1)
                score = value
        best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"
        return score, best


def side_of(game, name):
    if game["red"] == name:
        return "red"
    if game["black"] == name:
        return "black"
    return None


def lost(game, side):
    return (game["result"] == "1-0" and side == "black") or (
        game["result"] == "0-1" and side == "red"
    )


def judge_game(judge, game, side, depth, min_loss):
    moves = game["moves"].split()
    first = "black" if game["fen"].split()[1:2] == ["b"] else "red"
    for ply, move in enumerate(moves):
        mover = first if ply % 2 == 0 else ("red" if first == "black" else "black")
        if mover != side:
            continue
        before, best = judge.score(game["fen"], moves[:ply], depth)
        after, _ = judge.score(game["fen"], moves[: ply + 1], depth)
        if before is None or after is None:
            continue
        loss = before + after
        if loss >= min_loss:
            print(f"ply {ply + 1} {move}: best {best} {before:+d}, after {-after:+d}, loss {loss}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--judge", required=True)
    parser.add_argument("--records", required=True)
    parser.add_argument("--engine", default="qilin")
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--min-loss", type=int, default=0)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--game", type=int)
    group.add_argument("--resigned", action="store_true")
    args = parser.parse_args()

    games = list(records([args.records]))
    judge = Judge(args.judge)
    try:
        for game in games:
            side = side_of(game, args.engine)
            if side is None:
                continue
            if args.game is not None and game["game"] == args.game:
                judge_game(judge, game, side, args.depth, args.min_loss)
            elif args.resigned and lost(game, side) and game["reason"] == "resign":
                moves = game["moves"].split()
                score, _ = judge.score(game["fen"], moves, args.depth)
                print(f"game {game['game']} ({side}, {game['plies']} plies): judge {score:+d}")
    finally:
        judge.quit()


if __name__ == "__main__":
    main()
