"""Our display formats, per language (settings.FORMAT_MODULE_PATH): only what differs from Django's
own; everything not named here (input formats, separators) stays Django's. The rooms we serve read a
24-hour clock in every language, and Czech and Slovak write short dates with spaces ("25. 11. 2026")."""
