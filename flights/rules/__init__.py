"""The pure rules of flights: plain Python, no Django (docs/architecture.md, "Layers")."""
