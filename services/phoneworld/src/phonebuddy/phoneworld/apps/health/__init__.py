"""运动健康 (Health): a Huawei-Health-like app. Daily steps and their history, sleep, heart rate,
the weight log, workouts (start and finish one), the daily step goal and medals."""

from phonebuddy.phoneworld.apps.health.app import Health

APP = Health
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Health"]
