"""The venue's writes: its tables set up, imported, reserved, closed or given to cash games (each audited)."""
