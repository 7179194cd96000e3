"""The pure rules of days: plain Python, no Django (docs/architecture.md, "Layers")."""
