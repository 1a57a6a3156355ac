"""天气 (Weather): saved cities, city forecasts (hourly, 7 days, air quality, sunrise), a
°C/°F setting; a direct tool to add a city."""

from phonebuddy.phoneworld.apps.weather.app import Weather

__all__ = ["Weather"]
