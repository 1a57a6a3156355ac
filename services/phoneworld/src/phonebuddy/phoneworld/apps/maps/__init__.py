"""地图 (Maps): a Gaode-like map app. Place search over seeded POIs, a place's page with 收藏,
route planning by 驾车/公交/步行/骑行 and navigation history, home and work addresses."""

from phonebuddy.phoneworld.apps.maps.app import Maps

APP = Maps
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Maps"]
