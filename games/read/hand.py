"""My hand as the table page draws it, and what I may do with it: the cards by rank, the
cards a tap may choose, and my legal actions as the page offers them."""

from dataclasses import dataclass

from games import engine
from games.core.words import card_name, cards_phrase


@dataclass
class Choice:
    """A button: one legal action, as the value submitted and its label."""

    value: str
    label: str


@dataclass
class RankGroup:
    rank: int
    name: str
    count: int


def hand_groups(hand: list[int]) -> list[RankGroup]:
    """A hand grouped by rank, best first: what the page draws as cards."""
    groups: dict[int, RankGroup] = {}
    for card in hand:
        group = groups.setdefault(card, RankGroup(card, card_name(card), 0))
        group.count += 1
    return list(groups.values())


def my_actions(view: dict, name_of) -> dict:
    """My legal actions as the page offers them. Plays, the cards to give back and the
    trade card are chosen by tapping cards of the hand (`pick` says which); the other
    decisions are buttons."""
    legal = view["legal_actions"]
    out: dict = {"can_pass": False, "give_back": None, "revolution_offer": False,
                 "trade_partners": [], "trade_cards": [], "legal_plays": {}}
    give_backs = []
    for action in legal:
        kind = action["type"]
        if kind == "pass":
            out["can_pass"] = True
        elif kind == "play":
            cards = sorted(action["cards"])
            out["legal_plays"][",".join(map(str, cards))] = cards_phrase(cards)
        elif kind == "give_back":
            give_backs.append(action["cards"])
        elif kind == "revolution":
            if action["declare"]:
                out["revolution_offer"] = True
            else:
                out["can_keep_quiet"] = True
        elif kind == "trade":
            partner = action["partner"]
            if partner is not None:
                out["trade_partners"].append(
                    Choice(str(partner), name_of(view["seats"][partner]))
                )
            else:
                out["can_decline_trade"] = True
        elif kind == "trade_card":
            out["trade_cards"].append(Choice(str(action["card"]), card_name(action["card"])))
    # Asked only so that nobody can tell whether they hold both jesters (a first round
    # without taxes asks the Greater Peon every time).
    out["open_the_round"] = out.pop("can_keep_quiet", False) and not out["revolution_offer"]
    # Declared by the Greater Peon, a revolution turns the table round: the holder is told
    # what their own does.
    out["great_revolution"] = out["revolution_offer"] and view["seat"] is not None \
        and view["titles"][view["seat"]] == "greater_peon"
    # Asked while the Dalmutis choose what they give back, and no longer once they have.
    out["until_taxes"] = out["revolution_offer"] and not give_backs \
        and view["taxes"].get("status") == "pending"
    out["can_play"] = bool(out["legal_plays"])
    # The hint under the hand names the Jester only to a hand that still holds one.
    out["holds_jester"] = engine.JESTER in view["hand"]
    usable: set[int] | None = set()
    checked: list[int] = []
    if give_backs and out["revolution_offer"]:
        # A Dalmuti dealt both Jesters is asked one thing at a time: the revolution first
        # (which cancels the taxes), with the hand as dealt; the cards to give back after.
        usable = None
    elif give_backs:
        out["pick"] = "give_back"
        usable = {c for cards in give_backs for c in cards}
        # The table's rule may leave no choice: the worst cards go back, confirmed.
        out["give_back"] = {"count": view["taxes"]["to_give_back"],
                            "worst": view["options"].get("tribute_return") == "worst"}
        if len(give_backs) == 1:
            checked = list(give_backs[0])
    elif out["trade_cards"]:
        out["pick"] = "trade_card"
        usable = {int(c.value) for c in out["trade_cards"]}
    elif out["can_play"] or out["can_pass"]:
        out["pick"] = "play"
        usable = {int(c) for key in out["legal_plays"] for c in key.split(",")}
    out["hand_cards"] = hand_cards(view["hand"], usable, checked)
    return out


def hand_cards(hand: list[int], usable: set[int] | None = None,
               checked: list[int] | None = None, aside: list[int] | None = None,
               aside_for: str = "") -> list[dict]:
    """The hand card by card, best first, as the page draws it: which cards a tap may
    choose (`ok`), which start chosen (a forced choice), and which the reader already
    chose to part with while the exchange waits for the others (`aside`: the give-back
    or the trade card, said by `aside_for`)."""
    to_check = list(checked or [])
    to_set_aside = list(aside or [])
    cards = []
    for rank in sorted(hand):
        tick = rank in to_check
        if tick:
            to_check.remove(rank)
        set_aside = rank in to_set_aside
        if set_aside:
            to_set_aside.remove(rank)
        cards.append({"rank": rank, "name": card_name(rank), "checked": tick,
                      "ok": usable is None or rank in usable,
                      "aside": aside_for if set_aside else ""})
    return cards
