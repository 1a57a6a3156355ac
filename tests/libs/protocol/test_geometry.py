import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from phonebuddy.protocol import NORMALIZED_MAX, ScreenSize, from_pixels, to_pixels

coords = st.integers(min_value=0, max_value=NORMALIZED_MAX)
screens = st.builds(
    ScreenSize, width=st.integers(min_value=1, max_value=4000), height=st.integers(1, 4000)
)
large_screens = st.builds(
    ScreenSize, width=st.integers(min_value=1001, max_value=4000), height=st.integers(1001, 4000)
)


@given(x=coords, y=coords, screen=screens)
def test_to_pixels_lands_on_the_screen(x: int, y: int, screen: ScreenSize) -> None:
    px, py = to_pixels((x, y), screen)
    assert 0 <= px < screen.width
    assert 0 <= py < screen.height


@given(x=coords, y=coords, screen=large_screens)
def test_normalized_round_trip_is_exact_on_screens_wider_than_1000_pixels(
    x: int, y: int, screen: ScreenSize
) -> None:
    assert from_pixels(to_pixels((x, y), screen), screen) == (x, y)


@given(data=st.data(), screen=screens)
def test_pixel_round_trip_error_is_below_one_normalized_step(
    data: st.DataObject, screen: ScreenSize
) -> None:
    px = data.draw(st.integers(0, screen.width - 1))
    py = data.draw(st.integers(0, screen.height - 1))
    back_x, back_y = to_pixels(from_pixels((px, py), screen), screen)
    # One normalized unit spans (extent-1)/1000 pixels; rounding loses at most half of it.
    assert abs(back_x - px) <= max(1, (screen.width - 1) / NORMALIZED_MAX / 2 + 0.5)
    assert abs(back_y - py) <= max(1, (screen.height - 1) / NORMALIZED_MAX / 2 + 0.5)


@pytest.mark.parametrize(
    ("point", "expected"),
    [((0, 0), (0, 0)), ((1000, 1000), (1079, 2399)), ((500, 500), (540, 1200))],
)
def test_corners_and_middle_of_a_1080x2400_screen(
    point: tuple[int, int], expected: tuple[int, int]
) -> None:
    assert to_pixels(point, ScreenSize(width=1080, height=2400)) == expected


def test_conversion_rejects_values_off_the_screen() -> None:
    screen = ScreenSize(width=1080, height=2400)
    with pytest.raises(ValueError, match="outside"):
        to_pixels((1001, 0), screen)
    with pytest.raises(ValueError, match="outside"):
        from_pixels((1080, 0), screen)


def test_screen_size_must_be_positive() -> None:
    with pytest.raises(ValidationError):
        ScreenSize(width=0, height=100)
