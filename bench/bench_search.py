"""Search bot strength: games between two bots, seats alternated, and the first bot's win rate
(printed, not asserted). Run: PYTHONPATH=. .venv/bin/python bench/bench_search.py [options]

  --game coin-isolation --players 2 --games 100 --bots search,greedy --playouts 700
  --rate            first measure the search's playouts a second on this machine (1 s searches
                    from positions of random games; without hints with --no-hints) and use
                    that as --playouts
  --no-hints        the first bot searches without the game's evaluation hints
  --against-hints   the first bot searches with hints, the second without (same playouts)
  --jobs 2          games played in that many processes at once
  --cap N           stop a game after N plies and score it by progress (default: the demo's
                    cap, else 400)
  --blind-cap       the search bots are not told how many plies are left before the cap (as
                    before issue 22's second round); by default they are, and score a line
                    that reaches the cap as the cap scores it
  --chosen-rolls    a bot that rolls at a decision (Coin Grid's turn start, where a double
                    stack can be made) gets the face it named, as before issue 22's second
                    round; by default the face is thrown at random
  --without PARTS   search without some of its parts, to measure what each adds (comma
                    separated): chance (chance nodes averaged and stratified), widening
                    (progressive widening by the hints' move prior), policy (the hints' playout
                    policy), threats (Coin Grid's threat term in the evaluation)
  --cutoff N        the hints' playout plies set to N (e.g. to measure the playout policy)

Targets (issue 22): at Coin Isolation a 1-second search beats greedy in at least 80% and random
in at least 95% of 100 games. The machine is shared, so a search is bounded by playouts equal to
what one second gives (``--rate``), not by the clock. A game that reaches the ply cap (the
demo's cap, else 400 plies) is scored by progress (the leader wins), and counted apart. A tie
counts half. Every game is seeded (game index), so a run is reproducible.
"""

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis import SearchLimits, SearchParts, search
from companion.analysis.bots import Bot, bot_move, parse_bot
from companion.analysis.evaluation import leader_wins
from companion.analysis.limits import ALL_PARTS
from companion.analysis.rolls import thrown
from companion.games import get_game

DEFAULT_CAP = 400


def measure_rate(name, players, seconds=1.0, positions=4, hints=True, parts=ALL_PARTS):
    """Playouts a second of a one-worker search (with the game's hints or without), the median
    over positions of random games (processor time, so other processes' load does not count)."""
    game = get_game(name)
    rng = random.Random(0)
    rates = []
    for index in range(positions):
        position = game.new_position(players, (), seed=index)
        for _ in range(rng.randrange(0, 12)):
            if game.is_over(position):
                break
            position = game.apply(position, rng.choice(game.children(position)))
        while game.is_chance(position) or game.is_over(position):
            if game.is_over(position):
                position = game.new_position(players, (), seed=index + 100)
            else:
                position = game.apply(position, rng.choice(game.children(position)))
        began = time.process_time()
        result = search(game, position, SearchLimits(seconds=seconds, seed=index, hints=hints,
                                                     parts=parts))
        rates.append(result.playouts / (time.process_time() - began))
    rates.sort()
    return rates[len(rates) // 2]


PARTS = ("chance", "widening", "policy", "threats")


def search_parts(without=(), cutoff=None):
    """The parts of the search to run, without ``without`` (names of :data:`PARTS`) and with
    ``cutoff`` playout plies when given, for measuring what each part adds."""
    unknown = set(without) - set(PARTS)
    if unknown:
        raise SystemExit(f"unknown parts {sorted(unknown)}; use {', '.join(PARTS)}")
    return SearchParts(chance_averaging="chance" not in without,
                       progressive_widening="widening" not in without,
                       playout_policy="policy" not in without,
                       threats="threats" not in without, playout_plies=cutoff)


def play_game(name, players, bots, first_seat, index, cap, told_cap=True, fair_rolls=True):
    """One game: the first bot plays ``first_seat``, the second every other seat (search bots
    told the plies left before the cap when ``told_cap``; a bot that chooses to roll gets a
    face thrown at random when ``fair_rolls``, else the face it named). Returns the first
    bot's share of the win, whether the cap ended it, and the plies."""
    game = get_game(name)
    position = game.new_position(players, (), seed=index)
    seat_bot = {seat: bots[0] if seat == first_seat else bots[1]
                for seat in range(1, players + 1)}
    cards = _dealt(game, players, index)
    rng = random.Random(f"bench/{index}")
    plies = 0
    while not game.is_over(position) and plies < cap:
        if game.is_chance(position):
            outcomes = game.chance_outcomes(position)
            move = rng.choices([move for move, _ in outcomes],
                               [float(weight) for _, weight in outcomes])[0]
        else:
            mover = game.to_move(position)
            hand = None
            if cards is not None:
                cards.draw(mover)
                hand = [rank for rank, _ in cards.hands[mover - 1]]
            bot, hints = seat_bot[mover]
            left = cap - plies if told_cap else None
            move = _move(game, position, bot, hints, rng, hand, index * 1000 + plies, left)
            if fair_rolls:
                move = thrown(game, position, move, rng)
            if cards is not None:
                cards.lay(mover, game.card_of(move))
        position = game.apply(position, move)
        plies += 1
    if game.is_over(position):
        result = game.result(position)
        winners = result.winners
        share = 0.0 if first_seat not in winners else (1.0 if result.team
                                                       else 1 / len(winners))
        return share, False, plies
    chances = leader_wins(game.progress(position), players)
    return chances[first_seat - 1], True, plies


def _move(game, position, bot, hints, rng, hand, seed, plies_left):
    if bot.kind == "search" and not hints:
        limits = SearchLimits(seconds=bot.seconds if bot.playouts is None else None,
                              playouts=bot.playouts, seed=seed, hints=False,
                              plies_left=plies_left, parts=bot.parts)
        best = search(game, position, limits, hand=hand).best
        if hand is not None and game.card_of(best) is None:
            return next(v for v in game.card_variants(position, best)
                        if game.card_of(v) in hand)
        return best
    return bot_move(game, position, bot, rng, hand=hand, seed=seed, plies_left=plies_left)


def _dealt(game, players, index):
    """Real dealt hands for a card game (the demo's deck), else None."""
    if not game.info.hidden_information:
        return None
    from companion.demo_cards import DealtCards

    return DealtCards.deal(players, index)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coin-isolation")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--bots", default="search,greedy")
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--rate", action="store_true")
    parser.add_argument("--no-hints", action="store_true")
    parser.add_argument("--against-hints", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cap", type=int, default=None)
    parser.add_argument("--blind-cap", action="store_true")
    parser.add_argument("--chosen-rolls", action="store_true")
    parser.add_argument("--without", default="")
    parser.add_argument("--cutoff", type=int, default=None)
    args = parser.parse_args()
    game = get_game(args.game)
    playouts = args.playouts
    without = tuple(part for part in args.without.split(",") if part)
    parts = search_parts(without, args.cutoff)
    if args.rate:
        rate = measure_rate(args.game, args.players, hints=not args.no_hints, parts=parts)
        print(f"{args.game}: {rate:.0f} playouts a second of processor time (median of 4 "
              f"one-second searches{' without hints' if args.no_hints else ''})", flush=True)
        playouts = max(1, round(rate))
    names = [parse_bot(text) for text in args.bots.split(",")]
    bots = [Bot(bot.kind, bot.seconds, playouts or bot.playouts, parts) if bot.kind == "search"
            else bot for bot in names]
    hints = [not args.no_hints, not args.against_hints]
    pairs = list(zip(bots, hints, strict=True))
    cap = args.cap or game.info.demo_plies.get(args.players) or game.demo_ply_cap or DEFAULT_CAP
    began, cpu = time.perf_counter(), time.process_time()
    jobs = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for index in range(args.first, args.first + args.games):
            first_seat = index % args.players + 1
            jobs.append(pool.submit(play_game, args.game, args.players, pairs, first_seat,
                                    index, cap, not args.blind_cap, not args.chosen_rolls))
        shares, capped, plies = 0.0, 0, 0
        for done, job in enumerate(jobs, start=1):
            share, was_capped, length = job.result()
            shares += share
            capped += was_capped
            plies += length
            print(f"  game {args.first + done - 1}: first bot's share {share:g}, {length} plies"
                  f"{' (cap)' if was_capped else ''}", flush=True)
            if done % 10 == 0 or done == len(jobs):
                print(f"  after {done} games: {shares / done:.1%}", flush=True)
    label = [f"{bot.text()}{'' if bot.playouts is None else f' ({bot.playouts} playouts)'}"
             f"{'' if hint else ' without hints'}" for bot, hint in pairs]
    if without or args.cutoff is not None:
        label[0] += (f" (without {', '.join(without) or 'nothing'}"
                     f"{'' if args.cutoff is None else f', {args.cutoff}-ply playouts'})")
    print(f"{args.game}, {args.players} players: {label[0]} against {label[1]}: won "
          f"{shares:g} of {args.games} games ({shares / args.games:.1%}), seats alternated; "
          f"{capped} ended at the {cap}-ply cap (scored by progress; search "
          f"{'not told' if args.blind_cap else 'told'} the plies left); {plies / args.games:.0f} "
          f"plies a game; {time.perf_counter() - began:.0f} s wall, this process "
          f"{time.process_time() - cpu:.0f} s processor")


if __name__ == "__main__":
    main()
