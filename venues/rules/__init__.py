"""The venue's rules in plain Python: the house's order of its tables and the rows of a room's CSV."""
