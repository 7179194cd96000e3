"""The reads of clock: plain values in a constant number of queries; nothing here writes (docs/architecture.md,
"Layers")."""
