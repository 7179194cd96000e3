from tests.clock.fake_time import fake_now  # noqa: F401  (fixture)
