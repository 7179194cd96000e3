"""The pure rules of tournament: plain Python, no Django (docs/architecture.md, "Layers")."""
