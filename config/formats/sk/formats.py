# Slovak dates as written in Slovak: short with spaces, as Czech ("25. 11. 2026 19:00"), long with the
# month in the genitive ("25. novembra 2026"). The rest is Django's sk.
from django.utils.translation import pgettext_lazy

SHORT_DATE_FORMAT = "j. n. Y"
SHORT_DATETIME_FORMAT = "j. n. Y G:i"
DATE_FORMAT = "j. E Y"
DATETIME_FORMAT = "j. E Y G:i"
MONTH_DAY_FORMAT = "j. E"

# Django's Slovak catalogue has no genitive months (the "E" format, context "alt. month"): ours has them
# (locale/sk). They are named here so that makemessages keeps them.
GENITIVE_MONTHS = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
