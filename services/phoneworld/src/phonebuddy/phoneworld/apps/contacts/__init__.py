"""联系人 (Contacts): the address book shared by Phone and Messages; search, favourites,
groups, add/edit/delete, and a direct tool to add a contact."""

from phonebuddy.phoneworld.apps.contacts.app import Contacts

APP = Contacts
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Contacts"]
