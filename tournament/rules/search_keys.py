"""The players' folded search keys (Player.search_key) for rows written before the column existed:
the migration that adds the column calls fill_search_keys with its historical model."""

from __future__ import annotations

from core.search import search_key

BATCH = 1000


def key_of(first_name: str, last_name: str, nickname: str, length: int) -> str:
    return search_key(" ".join(part for part in (first_name, last_name, nickname) if part))[:length]


def fill_search_keys(player_model, batch_size: int = BATCH) -> int:
    """Set the search key of every player, batch by batch in id order (bounded memory on a large club).
    Takes the model as an argument: the migration passes its historical one. Returns the rows changed."""
    length = player_model._meta.get_field("search_key").max_length
    changed, after = 0, 0
    while True:
        batch = list(
            player_model._base_manager.filter(pk__gt=after)
            .order_by("pk")
            .only("pk", "first_name", "last_name", "nickname", "search_key")[:batch_size]
        )
        if not batch:
            return changed
        stale = []
        for player in batch:
            key = key_of(player.first_name, player.last_name, player.nickname, length)
            if player.search_key != key:
                player.search_key = key
                stale.append(player)
        player_model._base_manager.bulk_update(stale, ["search_key"], batch_size=batch_size)
        changed += len(stale)
        after = batch[-1].pk
