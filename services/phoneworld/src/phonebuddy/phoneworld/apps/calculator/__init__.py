"""计算器 (Calculator): an exact keypad calculator, its history, and a unit/currency converter."""

from phonebuddy.phoneworld.apps.calculator.app import Calculator

APP = Calculator
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Calculator"]
