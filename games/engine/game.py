"""A whole game: the first seating draw, the rounds, the scores, the end, joins and leaves.

Players are stable ids 0, 1, ... (a newcomer gets the next id); the web layer maps them to
users and bots. Each round seats its players by position (seat 0 = Great Dalmuti).

Moving on is explicit: when ``game.round`` is over its result is recorded at once
(``results``, ``scores``, ``lineup``), and the table stays on the finished round, so it can be
shown, until ``next_round()`` deals the next one. Joins and leaves happen only then.

The game ends after ``options.rounds`` rounds or once a round ends with somebody at
``options.target_score``, whichever comes first (either may be None: no such limit), when
fewer than four players are left, or after the round during which somebody called
``end_after_this_round()`` (the only end of an open-ended game). Standings list the players
at the table (a leaver's points stay in ``scores``); a tie is broken by the better
finishing place in the last round played. Without scoring (``options.scoring=False``) the
standings follow the positions the last round gave.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from typing import Any

from .actions import Action
from .cards import MAX_PLAYERS, MIN_PLAYERS, full_deck, title
from .errors import IllegalMove
from .options import Options
from .round import Round, deal

JSON_VERSION = 1


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed derived from a game seed and labels, the same on every machine."""
    text = repr((seed,) + parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def seating_draw(
    n_players: int, seed: int, ties: str = "tied_redraw"
) -> tuple[list[list[dict[str, int]]], list[int]]:
    """The first seating (docs/RULES.md section 3) from a shuffled deck, with the ``ties`` rule
    of ``Options.seating_ties``; see ``seating_from_cards`` for what it returns."""
    rng = random.Random(seed)

    def cards():
        while True:
            deck = full_deck()
            rng.shuffle(deck)
            yield from deck

    return seating_from_cards(n_players, cards(), ties)


def seating_from_cards(
    n_players: int, cards, ties: str = "tied_redraw"
) -> tuple[list[list[dict[str, int]]], list[int]]:
    """The seating draw with the cards drawn in the given order (players draw in id order).

    Returns the draws as they happened, lists of ``{"player": p, "card": c}``, and the
    players in position order (best card first; a jester counts as 13).

    ``"tied_redraw"``: one list per round of drawing, the first with everyone, the next
    ones with only the players still tied. Tied players draw again among themselves until
    nobody ties; a redraw only orders the tied players among themselves (French rulebook
    example: two Peasants drawn, the one who then draws an Abbess still sits below the
    player who drew a Knight).

    ``"until_unique"``: one list per player, in drawing order: the cards that player drew,
    the last one kept. Whoever draws a rank somebody already holds draws again at once,
    until the rank is their own (Dutch and German Amigo books); the kept card alone places
    them. Thirteen ranks for at most ten players: it always ends."""
    if ties not in ("tied_redraw", "until_unique"):
        raise ValueError(f"unknown seating rule {ties!r}")
    cards = iter(cards)
    draws: list[list[dict[str, int]]] = []
    if ties == "until_unique":
        kept: dict[int, int] = {}
        for p in range(n_players):
            turn = []
            while True:
                card = next(cards)
                turn.append({"player": p, "card": card})
                if card not in kept.values():
                    kept[p] = card
                    break
            draws.append(turn)
        return draws, sorted(range(n_players), key=kept.__getitem__)
    keys: dict[int, list[int]] = {p: [] for p in range(n_players)}
    drawing = list(range(n_players))
    while drawing:
        this_round = []
        for p in drawing:
            card = next(cards)
            keys[p].append(card)
            this_round.append({"player": p, "card": card})
        draws.append(this_round)
        seen: dict[tuple[int, ...], list[int]] = {}
        for p in range(n_players):
            seen.setdefault(tuple(keys[p]), []).append(p)
        drawing = sorted(p for group in seen.values() if len(group) > 1 for p in group)
    return draws, sorted(range(n_players), key=lambda p: keys[p])


@dataclass(frozen=True)
class Game:
    """A game of several rounds. Build it with ``Game.new``; every change returns a new
    Game. ``lineup`` is the players in position order: this round's during a round, the
    next round's once it is over."""

    options: Options
    seed: int
    seating_draws: tuple[tuple[tuple[int, int], ...], ...]  # rounds of (player, card)
    round_number: int
    seats: tuple[int, ...]  # seats[seat] = player, for the current round
    round: Round
    lineup: tuple[int, ...]
    results: tuple[dict[str, Any], ...]
    scores: tuple[int, ...]  # scores[player]
    left: tuple[int, ...] = ()
    ending: bool = False  # the game ends once the current round is over

    @classmethod
    def new(
        cls,
        n_players: int,
        options: Options = Options(),  # noqa: B008
        seed: int = 0,
        lineup: list[int] | tuple[int, ...] | None = None,
    ) -> Game:
        """Draw for seats and deal round 1. With ``lineup`` (players in position order,
        e.g. a rematch seated by the last game's standings) there is no seating draw."""
        if not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if lineup is None:
            draws, lineup = seating_draw(
                n_players, derive_seed(seed, "seating"), options.seating_ties
            )
        else:
            if sorted(lineup) != list(range(n_players)):
                raise ValueError("the lineup must name every player once")
            draws = []
        first = _start_round(options, seed, 1, tuple(lineup))
        return cls(
            options=options,
            seed=seed,
            seating_draws=tuple(tuple((d["player"], d["card"]) for d in r) for r in draws),
            round_number=1,
            seats=tuple(lineup),
            round=first,
            # A Great Revolution at the deal has turned the positions round already.
            lineup=tuple(lineup[s] for s in first.order),
            results=(),
            scores=(0,) * n_players,
        )

    # -- state --

    @property
    def players(self) -> tuple[int, ...]:
        """The players at the table now, in position order (same as ``lineup``)."""
        return self.lineup

    @property
    def is_over(self) -> bool:
        if self.round.phase != "over":
            return False
        rounds = self.options.rounds
        if self.ending or len(self.lineup) < MIN_PLAYERS:
            return True
        if rounds is not None and self.round_number >= rounds:
            return True
        target = self.options.target_score
        return target is not None and max(self.scores) >= target

    @property
    def awaiting_players(self) -> tuple[int, ...]:
        """The players who may act now. Secret in the tax phase (it includes a player
        deciding on a revolution): use it to prompt players, never to show the table."""
        return tuple(self.seats[s] for s in self.round.awaiting)

    @property
    def publicly_awaited(self) -> frozenset[int]:
        """The players everybody sees the table wait for: ``awaiting_players`` less one
        deciding on a revolution in private. Whatever the others can read of a wait (its
        clock, the time bank it draws on, a nudge, a missed turn) may come only from
        these."""
        return frozenset(self.seats[s] for s in self.round.awaiting_seen_by(None))

    @property
    def standings(self) -> list[dict[str, int]]:
        """The players at the table, best first (docs/RULES.md section 7). ``rank`` is 1-based;
        ``great_dalmuti`` counts the rounds that made the player Great Dalmuti (their
        result put them first for the next round).

        With scoring: most points, then the better finishing place in the last round
        played. Without scoring (French book): the positions the last round gave, the Great
        Dalmuti first; ``great_dalmuti`` is then the table's record of the game. Players
        who have not played a round yet come last, in lineup order.
        """
        great = dict.fromkeys(self.lineup, 0)
        for result in self.results:
            top = result["next_order"][0]
            if top in great:
                great[top] += 1
        last_place: dict[int, int] = {}
        if self.results:
            last = self.results[-1]
            order = last["finish_order"] if self.options.scoring else last["next_order"]
            for i, p in enumerate(order):
                last_place[p] = i

        def key(i_p: tuple[int, int]) -> tuple[int, int]:
            i, p = i_p
            place = last_place.get(p, MAX_PLAYERS + i)
            return (-self.scores[p], place) if self.options.scoring else (0, place)

        ranked = [p for _, p in sorted(enumerate(self.lineup), key=key)]
        return [
            {"player": p, "score": self.scores[p], "rank": i + 1, "great_dalmuti": great[p]}
            for i, p in enumerate(ranked)
        ]

    @property
    def winner(self) -> int | None:
        return self.standings[0]["player"] if self.is_over else None

    def seat_of(self, player: int) -> int | None:
        """The player's seat in the current round, or None."""
        try:
            return self.seats.index(player)
        except ValueError:
            return None

    def join_places(self) -> list[int]:
        """The 1-based positions a newcomer may take: the middle one, or the two middle ones
        (then the Great Dalmuti chooses)."""
        m = len(self.lineup) + 1
        return [(m + 1) // 2] if m % 2 else [m // 2, m // 2 + 1]

    # -- changes --

    def apply(self, player: int, action: Action) -> Game:
        """The game after ``player`` acts in the current round."""
        seat = self.seat_of(player)
        if seat is None:
            raise IllegalMove("not_seated", player=player)
        new = self.round.apply(seat, action)
        if new.phase != "over":
            return replace(self, round=new, lineup=tuple(self.seats[s] for s in new.order))
        return self._record(new)

    def _record(self, done: Round) -> Game:
        seats = self.seats
        place = {s: i + 1 for i, s in enumerate(done.finish_order)}
        rev = done.revolution
        result = {
            "round": self.round_number,
            "players": [
                {
                    "player": seats[s],
                    "seat": s,
                    "position": i + 1,
                    "title": done.title(s),
                    "place": place[s],
                    "points": done.points[s],
                }
                for i, s in enumerate(done.order)
            ],
            "finish_order": [seats[s] for s in done.finish_order],
            "next_order": [seats[s] for s in done.next_order],
            "revolution": None
            if rev is None
            else {"player": seats[rev["seat"]], "great": rev["great"]},
        }
        scores = list(self.scores)
        for s, pts in enumerate(done.points):
            scores[seats[s]] += pts
        return replace(
            self,
            round=done,
            lineup=tuple(seats[s] for s in done.next_order),
            results=self.results + (result,),
            scores=tuple(scores),
        )

    def next_round(self) -> Game:
        """Deal the next round to the lineup."""
        self._check_between_rounds("round_not_over")
        k = self.round_number + 1
        dealt = _start_round(self.options, self.seed, k, self.lineup)
        return replace(
            self,
            round_number=k,
            seats=self.lineup,
            round=dealt,
            lineup=tuple(self.lineup[s] for s in dealt.order),
        )

    def end_after_this_round(self, end: bool = True) -> Game:
        """Mark the game to end once the current round is over (``end=False`` takes the
        mark back). Called between rounds, the finished round was the last: the game is
        over at once. This is how an open-ended game ends; it also ends any game early."""
        if self.is_over:
            raise IllegalMove("game_over")
        return replace(self, ending=bool(end))

    def join(self, place: int | None = None) -> tuple[Game, int]:
        """Seat a newcomer for the next round; returns the game and the new player id.

        ``place`` is the 1-based position chosen by the Great Dalmuti when there are two
        middle places (see ``join_places``); it may be omitted when there is one."""
        self._check_between_rounds()
        if len(self.lineup) >= MAX_PLAYERS:
            raise IllegalMove("table_full", max=MAX_PLAYERS)
        places = self.join_places()
        shown = " or ".join(map(str, places))
        if place is None:
            if len(places) > 1:
                raise IllegalMove("place_required", places=shown)
            place = places[0]
        if place not in places:
            raise IllegalMove("bad_place", places=shown, place=place)
        player = len(self.scores)
        lineup = self.lineup[: place - 1] + (player,) + self.lineup[place - 1 :]
        return replace(self, lineup=lineup, scores=self.scores + (0,)), player

    def leave(self, player: int) -> Game:
        """Take a player off the table before the next round; the others close up. Below
        four players the game is over."""
        self._check_between_rounds()
        if player not in self.lineup:
            raise IllegalMove("unknown_player", player=player)
        return replace(
            self,
            lineup=tuple(p for p in self.lineup if p != player),
            left=self.left + (player,),
        )

    def _check_between_rounds(self, code: str = "not_between_rounds") -> None:
        if self.round.phase != "over":
            raise IllegalMove(code)
        if self.is_over:
            raise IllegalMove("game_over")

    # -- what a player may know --

    def view(self, player: int | None) -> dict[str, Any]:
        """The round as ``player`` may see it (a spectator's view if not seated), with the
        game around it under ``"game"``; ``"seats"`` maps the round's seats to players.

        Under ``"game"``: ``rounds`` and ``target_score`` (None: no such limit; both None:
        open-ended), ``scoring`` (False: no points), ``ending`` (the game ends after this
        round), ``seating_draws`` (see ``seating_from_cards`` for the shape under each
        ``options.seating_ties``), ``standings`` (with ``great_dalmuti`` counts), and the
        scores, results, lineup, titles, leavers, end and join places."""
        seat = self.seat_of(player) if player is not None else None
        view = self.round.view(seat)
        view["player"] = player
        view["seats"] = list(self.seats)
        n = len(self.lineup)
        view["game"] = {
            "round_number": self.round_number,
            "rounds": self.options.rounds,
            "target_score": self.options.target_score,
            "scoring": self.options.scoring,
            "ending": self.ending,
            "scores": list(self.scores),
            "results": [dict(r) for r in self.results],
            "lineup": list(self.lineup),
            "titles": [
                {"player": p, "position": i + 1, "title": title(i, n)}
                for i, p in enumerate(self.lineup)
            ],
            "seating_draws": [[{"player": p, "card": c} for p, c in r] for r in self.seating_draws],
            "left": list(self.left),
            "is_over": self.is_over,
            "winner": self.winner,
            "standings": self.standings,
            "join_places": self.join_places() if n < MAX_PLAYERS else [],
        }
        return view

    # -- JSON --

    def to_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "options": self.options.to_json(),
            "seed": self.seed,
            "seating_draws": [[[p, c] for p, c in r] for r in self.seating_draws],
            "round_number": self.round_number,
            "seats": list(self.seats),
            "round": self.round.to_json(),
            "lineup": list(self.lineup),
            "results": [dict(r) for r in self.results],
            "scores": list(self.scores),
            "left": list(self.left),
            "ending": self.ending,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"unknown game format version {data.get('version')!r}")
        return cls(
            options=Options.from_json(data["options"]),
            seed=data["seed"],
            seating_draws=tuple(tuple((p, c) for p, c in r) for r in data["seating_draws"]),
            round_number=data["round_number"],
            seats=tuple(data["seats"]),
            round=Round.from_json(data["round"]),
            lineup=tuple(data["lineup"]),
            results=tuple(data["results"]),
            scores=tuple(data["scores"]),
            left=tuple(data["left"]),
            ending=data.get("ending", False),  # absent from games stored before it existed
        )


def _start_round(options: Options, seed: int, k: int, lineup: tuple[int, ...]) -> Round:
    hands = deal(len(lineup), options, derive_seed(seed, "deal", k))
    return Round.start(hands, options, first_round=k == 1, seed=derive_seed(seed, "round", k))
