"""How apps print money and the simulated clock: amounts are cents, shown as yuan; times are
epoch seconds, shown in the phone's time zone (Beijing, UTC+8)."""

from __future__ import annotations

import datetime as dt

BEIJING = dt.timezone(dt.timedelta(hours=8))


def yuan(cents: int) -> str:
    """'¥12.50': always two decimals, as wallets and shops print amounts."""
    return f"¥{cents / 100:.2f}"


def yuan_short(cents: int) -> str:
    """'¥28' for whole yuan, else one decimal ('¥28.5'), as ticket and ride apps print fares."""
    return f"¥{cents / 100:.1f}" if cents % 100 else f"¥{cents // 100}"


def local_time(epoch: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(epoch, BEIJING)


def local_date(epoch: int) -> dt.date:
    return local_time(epoch).date()


def minute_of_day(epoch: int) -> int:
    """Minutes since local midnight."""
    moment = local_time(epoch)
    return moment.hour * 60 + moment.minute


def full_time(epoch: int) -> str:
    """'2026年3月16日 09:05'."""
    t = local_time(epoch)
    return f"{t.year}年{t.month}月{t.day}日 {t.hour:02d}:{t.minute:02d}"
