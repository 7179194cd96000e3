"""The writes of flights: each public function one use case in one transaction, audited, broadcast after commit
(docs/architecture.md, "Layers")."""
