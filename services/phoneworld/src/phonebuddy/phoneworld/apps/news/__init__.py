"""头条新闻 (News): a Toutiao-like news app. Channel tabs with 频道管理, search, the article
page (font size, 收藏, like, comments, share, polls, follow a source), the 热榜, 历史, 收藏,
关注 and the 推送 settings."""

from phonebuddy.phoneworld.apps.news.app import News

APP = News
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "News"]
