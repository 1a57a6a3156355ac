"""钱包 (Wallet, Alipay-like): balance, bills, and the payment confirmation other apps use."""

from phonebuddy.phoneworld.apps.wallet.app import Wallet

APP = Wallet
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Wallet"]
