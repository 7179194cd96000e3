"""The reads of flights: plain values in a constant number of queries; nothing here writes (docs/architecture.md,
"Layers")."""
