"""The venue's reads: its tables as the room map and the draws see them."""
