from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.ui.format import (
    full_time,
    local_date,
    minute_of_day,
    yuan,
    yuan_short,
)


def test_yuan_always_prints_two_decimals() -> None:
    assert yuan(1250) == "¥12.50"
    assert yuan(800) == "¥8.00"


def test_yuan_short_drops_decimals_of_whole_yuan() -> None:
    assert yuan_short(2800) == "¥28"
    assert yuan_short(2850) == "¥28.5"


def test_clock_reads_in_beijing_time() -> None:
    # The simulated clock starts on 2026-03-16 at 09:00 in Beijing.
    assert local_date(EPOCH_START).isoformat() == "2026-03-16"
    assert minute_of_day(EPOCH_START) == 9 * 60
    assert full_time(EPOCH_START + 5 * 60) == "2026年3月16日 09:05"
