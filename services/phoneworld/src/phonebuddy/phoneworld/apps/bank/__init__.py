"""银行 (Bank): a 招商银行-like mobile bank. Debit and credit cards, transactions by month and
in/out with search, transfers confirmed by an SMS code sent to 信息, saved payees, the credit
card's bill and its repayment."""

from phonebuddy.phoneworld.apps.bank.app import Bank

APP = Bank
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Bank"]
