"""Task templates of the Mail app, and cross-app ones between Mail and Notes."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.mail.tasks_read import (
    AddressToNote,
    AskMeetingTime,
    AskSender,
    AskTrain,
    CountUnread,
    FileSenderMails,
    MeetingToNote,
    NoteToMail,
)
from phonebuddy.phoneworld.apps.mail.tasks_single import (
    DeleteMail,
    ForwardMail,
    MoveMail,
    ReplyMail,
    RestoreMail,
    SendMail,
    StarMail,
)
from phonebuddy.phoneworld.tasks.base import TaskTemplate

TEMPLATES: tuple[TaskTemplate, ...] = (
    SendMail(),
    ReplyMail(),
    ForwardMail(),
    StarMail(),
    DeleteMail(),
    MoveMail(),
    RestoreMail(),
    FileSenderMails(),
    AskSender(),
    AskMeetingTime(),
    AskTrain(),
    CountUnread(),
    AddressToNote(),
    MeetingToNote(),
    NoteToMail(),
)
