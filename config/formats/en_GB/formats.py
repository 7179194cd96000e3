# British English with the 24-hour clock of the card room: "25 Nov 2026, 19:00" (Django's en_GB has "7 p.m.").
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
