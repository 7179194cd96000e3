"""The writes of payouts: each public function one use case in one transaction, audited, broadcast after commit
(docs/architecture.md, "Layers")."""
