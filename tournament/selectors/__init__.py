"""The reads of tournament: plain values in a constant number of queries; nothing here writes (docs/architecture.md,
"Layers")."""
