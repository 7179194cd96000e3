"""Channel group names. Keep groups narrow (docs/architecture.md: per-message cost)."""


def floor(tournament_id: int) -> str:
    return f"t{tournament_id}.floor"


def lobby(tournament_id: int) -> str:
    return f"t{tournament_id}.lobby"


def user(user_id: int) -> str:
    return f"user.{user_id}"


def display(token_id: int) -> str:
    return f"display.{token_id}"


def table(tournament_id: int, number: int) -> str:
    """One table's dealer tablet (move slips, positions, hand-for-hand)."""
    return f"t{tournament_id}.table{number}"


def tables(tournament_id: int) -> str:
    """Every dealer tablet of a tournament: room-wide notes (hand-for-hand: a hand called, complete)."""
    return f"t{tournament_id}.tables"


def room(venue_id: int) -> str:
    """A venue's room map and room screens: a note for every change in the room (no names). 0 is the default venue,
    which a tournament made before venues takes its tables from (its `room` empty)."""
    return f"room.{venue_id}"


def dealer_link(link_id: int) -> str:
    """The sockets a table's dealer link opened: closed when the link is revoked."""
    return f"dealer_link.{link_id}"


def room_display(display_id: int) -> str:
    """The sockets a room TV's link opened: closed when the link is revoked."""
    return f"room_display.{display_id}"
