# Czech short dates as written in Czech (ČSN 01 6910): "25. 11. 2026 19:00". The rest is Django's cs.
SHORT_DATE_FORMAT = "j. n. Y"
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
MONTH_DAY_FORMAT = "j. E"  # "1. května": the month in the genitive, as Django's DATE_FORMAT for cs has it
