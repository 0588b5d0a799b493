"""service/model/clock.py formats as datetime does, for every millisecond
the API stamps (its cache of the last second never shows in the text)."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from service.model import clock


def _by_datetime(ms):
    iso = datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds")
    return iso.replace("+00:00", "Z")


# 2200-01-01: past about 2240, ms / 1000 as a float loses the last
# millisecond now and then, which datetime then prints; the clock does not.
_YEAR_2200_MS = 7_258_118_400_000


@given(st.integers(min_value=0, max_value=_YEAR_2200_MS))
def test_milliseconds_format_as_datetime_formats_them(ms):
    assert clock.iso_utc(ms) == _by_datetime(ms)


def test_late_milliseconds_stay_exact():
    ms = 11_960_048_588_383
    assert _by_datetime(ms) == "2348-12-31T11:43:08.382Z"  # the float's
    assert clock.iso_utc(ms) == "2348-12-31T11:43:08.383Z"


@given(st.lists(st.integers(min_value=1_700_000_000_000, max_value=1_700_000_005_000), min_size=2))
def test_the_cached_second_follows_every_change_of_second(stamps):
    assert [clock.iso_utc(ms) for ms in stamps] == [_by_datetime(ms) for ms in stamps]


def test_before_1970_and_the_epoch():
    assert clock.iso_utc(-1) == "1969-12-31T23:59:59.999Z" == _by_datetime(-1)
    assert clock.iso_utc(0) == "1970-01-01T00:00:00.000Z"


def test_now_with_microseconds_is_between_two_readings_of_the_clock():
    before = datetime.now(UTC)
    stamp = clock.iso_utc_now_us()
    after = datetime.now(UTC)
    parsed = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    assert len(stamp) == len("2026-11-30T01:02:03.123456Z")
    slack = timedelta(milliseconds=1)  # the float clock's rounding against datetime's
    assert before - slack <= parsed <= after + slack
