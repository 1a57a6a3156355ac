"""天气 (Weather): saved cities, city forecasts (hourly, 7 days, air quality, sunrise), a
°C/°F setting; a direct tool to add a city."""

from phonebuddy.phoneworld.apps.weather.app import Weather

APP = Weather
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Weather"]
