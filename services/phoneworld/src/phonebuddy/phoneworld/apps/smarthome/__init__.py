"""智能家居 (Smart Home): a 米家-like app. The home by room with each device's controls (lights,
air conditioners, curtains, purifiers, the robot vacuum, plugs, cameras, sensors, the door lock
and its log), scenes run at a tap and edited, timed automations, the week's energy use per device,
and sharing the home with family members."""

from phonebuddy.phoneworld.apps.smarthome.app import SmartHome

APP = SmartHome
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "SmartHome"]
