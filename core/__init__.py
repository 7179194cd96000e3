"""The kernel: what every app builds on and that builds on no app.

errors (ServiceError, require), roles (who may do what), reactions (how an upper app acts on a
lower app's change), and the event plumbing (groups, broadcast). Nothing here imports an app.
"""
