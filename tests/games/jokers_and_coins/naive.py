"""A naive Jokers and Coins enumerator for cross-checking the engine's perft, written from
RULINGS.md on the position JSON alone, without the engine's code: coins walk one space at a
time, every way of playing every card is tried, and children are deduplicated by their
canonical JSON text. Slow and simple on purpose."""

from __future__ import annotations

import copy
import json
from typing import Any

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker"]
STEPS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10,
         "K": 10}


def naive_perft(position: dict[str, Any], depth: int) -> int:
    """Leaves of the public game tree ``depth`` plies deep."""
    if depth == 0:
        return 1
    kids = naive_children(position)
    if depth == 1:
        return len(kids)
    return sum(naive_perft(kid, depth - 1) for kid in kids)


def naive_children(position: dict[str, Any]) -> list[dict[str, Any]]:
    """Every distinct position one card (or one discard) away."""
    g = Geometry(position)
    if g.winner(position["coins"]):
        return []
    seat = g.played_seat(position["coins"], position["to_move"])
    found: dict[str, dict[str, Any]] = {}
    nothing = False
    cards = position["cards"]
    reshuffles = cards["draw_pile"] == 0 and cards["hands"][str(position["to_move"])] == 5
    for rank in RANKS:
        face_up = 0 if reshuffles else cards["discard_pile"][rank]
        if g.copies(rank) - face_up <= 0:
            continue
        results = card_results(g, position["coins"], seat, rank)
        if not results:
            nothing = True
        for coins in results:
            kid = next_position(position, coins, rank)
            found[canonical(kid)] = kid
    if nothing:
        kid = next_position(position, position["coins"], None)
        found[canonical(kid)] = kid
    return list(found.values())


def canonical(position: dict[str, Any]) -> str:
    return json.dumps(position, sort_keys=True, separators=(",", ":"))


class Geometry:
    """The ring read from the position's own fields."""

    def __init__(self, position: dict[str, Any]) -> None:
        ring = position["ring"]
        self.players = position["players"]
        self.length = ring["side_length"]
        self.size = ring["sides"] * self.length
        self.teams = position["teams"]
        spacing = 2 if self.players == 2 else 1
        self.corner = {s: (s - 1) * spacing * self.length for s in range(1, self.players + 1)}
        self.in_space = {s: f"t{c + ring['in'] + 1}" for s, c in self.corner.items()}
        self.start = {s: f"t{c + ring['start'] + 1}" for s, c in self.corner.items()}

    def copies(self, rank: str) -> int:
        if rank == "joker":
            return 0 if self.players == 2 else 6
        return 12

    def team(self, seat: int) -> list[int]:
        return next(team for team in self.teams if seat in team)

    def all_home(self, coins: dict[str, list[str]], seat: int) -> bool:
        return all(place.startswith("h") for place in coins[str(seat)])

    def winner(self, coins: dict[str, list[str]]) -> bool:
        return any(all(self.all_home(coins, s) for s in team) for team in self.teams)

    def played_seat(self, coins: dict[str, list[str]], mover: int) -> int:
        if not self.all_home(coins, mover):
            return mover
        for turn in range(1, self.players):
            other = (mover - 1 + turn) % self.players + 1
            if other in self.team(mover) and not self.all_home(coins, other):
                return other
        raise AssertionError("a finished team has no move")

    def next_track(self, place: str, direction: int) -> str:
        number = int(place[1:]) - 1
        return f"t{(number + direction) % self.size + 1}"

    def corner_ahead(self, place: str) -> str:
        number = int(place[1:]) - 1
        ahead = (number // self.length + 1) * self.length
        return f"t{ahead % self.size + 1}"


def owner_at(coins: dict[str, list[str]], place: str) -> int | None:
    for seat, places in coins.items():
        if place.startswith("t") and place in places:
            return int(seat)
    return None


def land(g: Geometry, coins: dict[str, list[str]], seat: int, origin: str,
         target: str) -> dict[str, list[str]]:
    """A copy of ``coins`` with seat's coin moved origin -> target, bumping."""
    coins = copy.deepcopy(coins)
    victim = owner_at(coins, target)
    coins[str(seat)].remove(origin)
    coins[str(seat)].append(target)
    if victim is not None and victim != seat:
        coins[str(victim)].remove(target)
        back = g.in_space[victim]
        if victim in g.team(seat) and owner_at(coins, back) is None:
            coins[str(victim)].append(back)
        else:
            coins[str(victim)].append("supply")
    return coins


def walks(g: Geometry, coins: dict[str, list[str]], seat: int, place: str, count: int,
          direction: int) -> list[str]:
    """Every end of a walk of ``count`` spaces that steps on no coin of ``seat``."""
    ends: list[str] = []
    own = coins[str(seat)]

    def step(here: str, left: int) -> None:
        if left == 0:
            ends.append(here)
            return
        nexts = []
        if here.startswith("h"):
            number = int(here.split("-")[1])
            if direction == 1 and number < 4:
                nexts.append(f"h{seat}-{number + 1}")
        else:
            nexts.append(g.next_track(here, direction))
            if direction == 1 and here == g.in_space[seat]:
                nexts.append(f"h{seat}-1")
        for place_next in nexts:
            if place_next not in own:
                step(place_next, left - 1)

    if direction == -1 and not place.startswith("t"):
        return []
    step(place, count)
    return ends


def moves_of(g: Geometry, coins: dict[str, list[str]], seat: int, count: int,
             direction: int, skip: str | None = None) -> list[tuple[str, dict[str, list[str]]]]:
    """(moved coin's end, coins) for every coin of seat walking ``count``."""
    out = []
    for place in sorted(set(coins[str(seat)])):
        if place == "supply" or place == skip:
            continue
        for end in walks(g, coins, seat, place, count, direction):
            out.append((end, land(g, coins, seat, place, end)))
    return out


def card_results(g: Geometry, coins: dict[str, list[str]], seat: int,
                 rank: str) -> list[dict[str, list[str]]]:
    """Every distinct coin placement one play of ``rank`` leaves."""
    results = []
    mine = coins[str(seat)]
    if rank in ("A", "J", "Q", "K") and "supply" in mine and g.start[seat] not in mine:
        results.append(land(g, coins, seat, "supply", g.start[seat]))
    if rank in ("J", "Q", "K") and g.start[seat] in mine:
        corner = g.corner_ahead(g.start[seat])
        victim = owner_at(coins, corner)
        if victim is not None and victim != seat:
            results.append(land(g, coins, seat, g.start[seat], corner))
    if rank in STEPS:
        results += [c for _, c in moves_of(g, coins, seat, STEPS[rank], 1)]
    if rank == "7":
        results += [c for _, c in moves_of(g, coins, seat, 7, -1)]
    if rank == "6":
        results += [c for _, c in moves_of(g, coins, seat, 6, 1)]
        for first in range(1, 6):
            for end, half in moves_of(g, coins, seat, first, 1):
                results += [c for _, c in moves_of(g, half, seat, 6 - first, 1, skip=end)]
    if rank == "joker":
        sources = {p for p in mine if p == "supply" or p.startswith("t")}
        for source in sources:
            for other, places in coins.items():
                if int(other) != seat:
                    results += [land(g, coins, seat, source, p) for p in places
                                if p.startswith("t")]
    unique = {}
    for result in results:
        tidy = {seat_key: sorted(places, key=place_order) for seat_key, places in result.items()}
        unique[json.dumps(tidy, sort_keys=True)] = tidy
    return list(unique.values())


def place_order(place: str) -> tuple[int, int]:
    if place == "supply":
        return (0, 0)
    if place.startswith("t"):
        return (1, int(place[1:]))
    return (2, int(place.split("-")[1]))


def next_position(position: dict[str, Any], coins: dict[str, list[str]],
                  rank: str | None) -> dict[str, Any]:
    """The child: coins, the cards after the mover's turn, the next seat."""
    kid = copy.deepcopy(position)
    kid["coins"] = coins
    cards = kid["cards"]
    seat = str(position["to_move"])
    if cards["hands"][seat] == 4:
        lay(cards, seat, rank)
        draw(cards, seat)
        draw(cards, seat)
    else:
        draw(cards, seat)
        lay(cards, seat, rank)
    kid["to_move"] = position["to_move"] % position["players"] + 1
    return kid


def lay(cards: dict[str, Any], seat: str, rank: str | None) -> None:
    cards["hands"][seat] -= 1
    if rank is None:
        cards["unrecorded_discards"] += 1
    else:
        cards["discard_pile"][rank] += 1


def draw(cards: dict[str, Any], seat: str) -> None:
    if cards["draw_pile"] == 0:
        cards["draw_pile"] = sum(cards["discard_pile"].values()) + cards["unrecorded_discards"]
        cards["discard_pile"] = {rank: 0 for rank in cards["discard_pile"]}
        cards["unrecorded_discards"] = 0
        cards["shuffles"] += 1
    cards["draw_pile"] -= 1
    cards["hands"][seat] += 1
