"""The pure rules of clock: plain Python, no Django (docs/architecture.md, "Layers")."""
