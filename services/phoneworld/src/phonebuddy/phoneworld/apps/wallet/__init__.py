"""钱包 (Wallet, Alipay-like): balance, bills, and the payment confirmation other apps use."""

from phonebuddy.phoneworld.apps.wallet.app import Wallet

__all__ = ["Wallet"]
