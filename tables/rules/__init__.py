"""The pure rules of tables: plain Python, no Django (docs/architecture.md, "Layers")."""
