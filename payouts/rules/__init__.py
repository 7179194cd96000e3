"""The pure rules of payouts: plain Python, no Django (docs/architecture.md, "Layers")."""
