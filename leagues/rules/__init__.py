"""The pure rules of leagues: plain Python, no Django (docs/architecture.md, "Layers")."""
