"""What the public screens show of a bounty event (payouts/selectors/bounties.py reads the money): the lobby TV's bounty
panel (`lobby_bounties`: the bounty money in play, a PKO's biggest heads, a mystery event's envelopes left and the last
envelope drawn) and each player's own figures on his seat page (`seat_bounties`: his head while he is in, what he has
won and his knockouts). Plain JSON values: the lobby's snapshot travels as it is, to the TVs and the seat sockets."""

from __future__ import annotations

from django.db.models import Sum

from payouts.models import BountyAward
from payouts.selectors import bounties as sel
from tables.models import Draw
from tournament.models import Entry, Tournament

LOBBY_HEADS = 5  # the biggest heads a TV shows, in large type, with the money in play above them


def in_play(t: Tournament) -> int:
    """The bounty money still in play: taken in, less every standing award (won by a player, kept by the house, added
    to the prize pool). The same figure as `bounties.money(t)["in_play"]`, in two queries and without its replay."""
    return sel.taken_in(t) - (sel.awards(t).aggregate(n=Sum("cash"))["n"] or 0)


def biggest_heads(t: Tournament, heads: dict[int, int] | None = None) -> list[dict]:
    """The top LOBBY_HEADS heads of the players in play, biggest first (equal heads by entry number), with names."""
    heads = sel.heads(t) if heads is None else heads
    top = sorted(((head, number) for number, head in heads.items() if head > 0), key=lambda x: (-x[0], x[1]))[:LOBBY_HEADS]
    names = {
        e.number: e.player.display_name
        for e in Entry.objects.filter(tournament=t, number__in=[n for _h, n in top]).select_related("player")
    }
    return [{"entry": number, "name": names.get(number, ""), "head": head} for head, number in top]


TOGETHER_SECONDS = 15  # envelopes drawn within this of the last one are said with it (static/js/lobby-bounties.js)


def last_envelopes(t: Tournament, *, names: bool, most: int = 6) -> list[dict]:
    """The last envelopes drawn that still count (an undone elimination gives its envelope back), the last first: the
    last one and those drawn less than TOGETHER_SECONDS before it (the last bust of the night draws the pot's envelope
    and the winner's own head at once), `most` at most. Each: its draw's number, its value, when it was drawn
    (seconds since the epoch: a TV highlights it for a few seconds after that, whenever it was loaded) and the names
    of those it was drawn for (the pot's winners, or the player who drew for his own head at play over; none for a
    disqualified player's head, or while the house keeps its figures private)."""
    drawn = sel.envelopes_drawn(t)  # elimination order -> (value, draw id), those that stand
    standing = {pk for _value, pk in drawn.values()}
    own = set(sel.awards(t).filter(kind=BountyAward.Kind.OWN, envelope__isnull=False).values_list("winner__number", "envelope"))
    rows = Draw.objects.filter(tournament=t, kind=Draw.Kind.ENVELOPE, drawn_at__isnull=False).order_by("-number")
    found = []
    for pk, number, result, at in rows.values_list("pk", "number", "result", "drawn_at").iterator():
        if found and (len(found) >= most or at.timestamp() < found[0]["at"] - TOGETHER_SECONDS):
            break
        result = result or {}
        if result.get("own"):
            if (result.get("entry"), result.get("value")) not in own:
                continue
            winners = [result["entry"]]
        elif pk in standing:
            winners = list(
                sel.awards(t).filter(draw_id=pk, winner__isnull=False).order_by("number").values_list("winner__number", flat=True)
            )
        else:
            continue
        shown = []
        if names and winners:
            named = {
                e.number: e.player.display_name for e in Entry.objects.filter(tournament=t, number__in=winners).select_related("player")
            }
            shown = [named[n] for n in sorted(set(winners)) if n in named]  # by entry number
        found.append({"draw": number, "value": result.get("value"), "at": at.timestamp(), "names": shown})
    return found


def lobby_bounties(t: Tournament, *, names: bool) -> dict | None:
    """The lobby's bounty panel; None outside a bounty event. `names`: the house shows its figures in public (the chip
    leaders' rule, tables/selectors/counts.public): the biggest heads and the last envelope's winners come with names;
    otherwise the heads are not shown (None) and the envelope is said without a name."""
    if not sel.is_bounty(t):
        return None
    fmt = t.bounty_format
    answer = {
        "format": fmt,
        "bounty": t.bounty,
        "in_play": in_play(t),
        "heads": None,
        "box": None,
        "envelopes_left": None,
        "last_envelope": None,
        "envelopes_together": [],
    }
    if fmt == Tournament.BountyFormat.PROGRESSIVE and names:
        answer["heads"] = biggest_heads(t)
    if fmt == Tournament.BountyFormat.MYSTERY:
        box = sel.mystery_box(t)
        if box is not None:
            left = sel.box_left(t, box)
            answer["box"] = [[value, count] for value, count in left]
            answer["envelopes_left"] = sum(count for _value, count in left)
            together = last_envelopes(t, names=names)
            answer["last_envelope"] = together[0] if together else None
            answer["envelopes_together"] = together[::-1]  # in the order they were drawn
    return answer


def seat_bounties(t: Tournament | None, numbers: set[int] | None = None) -> dict[int, dict] | None:
    """Entry number -> his own bounty figures, for every entry of a bounty event (or those of `numbers`; None outside
    one): `head`, the head on him now while he plays on (None once out, and in a mystery event, where the envelopes
    pay), `won` (the bounty cash he has won, minor units), `owed` (of it, what the cage has not paid yet) and
    `knockouts` (the players he knocked out, a split pot counting for each winner). Three queries for the heads, one
    for the wins and one for the entries, whatever the size of the field."""
    if t is None or not sel.is_bounty(t):
        return None
    heads = {} if t.bounty_format == Tournament.BountyFormat.MYSTERY else sel.heads(t)
    won = sel.won_by_entry(t)
    entries = Entry.objects.filter(tournament=t)
    if numbers is not None:
        entries = entries.filter(number__in=numbers)
    return {
        number: {
            "head": heads.get(number) or None,
            "won": (won.get(number) or {}).get("won", 0),
            "knockouts": (won.get(number) or {}).get("knockouts", 0),
            "owed": (won.get(number) or {}).get("owed", 0),
        }
        for number in entries.values_list("number", flat=True)
    }
