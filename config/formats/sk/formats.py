# Slovak short dates with spaces, as Czech: "25. 11. 2026 19:00". The rest is Django's sk.
SHORT_DATE_FORMAT = "j. n. Y"
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
