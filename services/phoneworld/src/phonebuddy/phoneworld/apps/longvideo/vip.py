"""Cross-app templates of 追剧 that buy VIP through the wallet's payment redirect: a plan then a
VIP episode, "VIP-only: buy 月卡 first, otherwise just play", and a long VIP + 1080P + WeChat
one."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.longvideo.base import LONGVIDEO, PLANS
from phonebuddy.phoneworld.apps.longvideo.common import (
    SETTINGS,
    aired,
    bought_vip,
    buy_plan,
    history,
    open_home,
    open_title,
    plain_name,
    plan_params,
    played,
    series,
    tap_episode,
    title_params,
)
from phonebuddy.phoneworld.apps.longvideo.cross import WALLET, share_to_friend, shared_to_friend
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


def vip_episode(world: World, rng: random.Random) -> Params:
    t = pick(rng, [t for t in series(world) if aired(t, vip=True)])
    return {**title_params(t), "episode": pick(rng, aired(t, vip=True))["n"]}


class BuyVipThenPlay(TaskTemplate):
    """追剧 → wallet → 追剧: a VIP plan paid through the wallet, then a VIP-only episode."""

    id = "longvideo.vip_then_play"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, WALLET)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**vip_episode(world, rng), **plan_params(rng.choice(sorted(PLANS)))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n, p, pe = params["title"], params["episode"], params["plan_name"], params["plan_en"]
        return phrased(
            zh=[f"在追剧里开通VIP{p}（用钱包付款），然后播放《{t}》第{n}集",
                f"《{t}》第{n}集要VIP，帮我买个{p}会员再把这一集放起来",
                f"先用钱包支付开通追剧的{p}，再看《{t}》第{n}集"],
            en=[f"Buy the Long Video VIP {pe} plan ({p}) with the wallet, then play episode {n} "
                f"of '{t}'",
                f"Episode {n} of '{t}' needs VIP: get the {pe} plan ({p}) and start that episode",
                f"Pay for Long Video's {pe} VIP plan ({p}) in the wallet, then watch '{t}' "
                f"episode {n}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return bought_vip(diff, params["plan"]) + played(
            diff, params["title_id"], params["episode"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield from buy_plan(ui, params["plan"])
        yield from open_title(ui, params["title"], params["title_id"], inside=True)
        yield from tap_episode(ui, params["episode"])


class VipIfNeeded(TaskTemplate):
    """Conditional: a VIP-only episode first needs a 月卡 from the wallet; a free one is just
    played."""

    id = "longvideo.vip_if_needed"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, WALLET)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in series(world) if aired(t, vip=True) and plain_name(t)])
        seen = history(world).get(t["id"], {}).get("episode")
        e = pick(rng, [e for e in aired(t) if e["n"] != seen])
        return {**title_params(t), "episode": e["n"], "vip": e["vip"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["episode"]
        return phrased(
            zh=[f"我要看《{t}》第{n}集：如果这集是VIP专享，先用钱包开通追剧VIP月卡再播放；否则直接播放",
                f"播放《{t}》第{n}集。要是需要VIP，就先买月卡（钱包付款），不需要就直接看",
                f"《{t}》第{n}集如果要会员，帮我开通月卡后播放；免费的话直接放"],
            en=[f"I want to watch episode {n} of '{t}': if it is VIP-only, buy the monthly VIP "
                "plan (月卡) with the wallet first, otherwise just play it",
                f"Play '{t}' episode {n}. If it needs VIP, get the monthly plan (月卡) paid by the "
                "wallet first; if not, just watch it",
                f"If episode {n} of '{t}' is for members only, buy the monthly plan (月卡) and "
                "then play it; if it's free, play it straight away"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = bought_vip(diff, "month") if params["vip"] else []
        return problems + played(diff, params["title_id"], params["episode"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        yield from tap_episode(ui, params["episode"])
        if ui.visible("vip_join"):
            yield ui.tap("vip_join")
            yield ui.tap("plan_month")
            yield ui.tap("buy_vip")
            yield ui.tap(f"{WALLET}:id/pay_confirm")
            yield ui.back()
            yield from tap_episode(ui, params["episode"])


class VipBinge(TaskTemplate):
    """Long: VIP bought through the wallet, a VIP episode in 1080P, the show shared on WeChat."""

    id = "longvideo.vip_binge"
    category = Category.CROSS_APP
    apps = (LONGVIDEO, WALLET, MESSENGER)
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**vip_episode(world, rng), **plan_params(rng.choice(sorted(PLANS))),
                **friend_with_chat(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n, p, pe = params["title"], params["episode"], params["plan_name"], params["plan_en"]
        f = params["friend"]
        return phrased(
            zh=[f"用钱包开通追剧VIP{p}，然后以蓝光1080P播放《{t}》第{n}集，最后把《{t}》分享给微信好友{f}",
                f"帮我买追剧的{p}会员（钱包付款），看《{t}》第{n}集并把清晰度切到1080P，再把《{t}》分享到微信给{f}",
                f"先开通VIP{p}，再播放《{t}》第{n}集、清晰度调成1080P，看完把《{t}》通过微信分享给{f}"],
            en=[f"Buy Long Video's VIP {pe} plan ({p}) with the wallet, play episode {n} of '{t}' "
                f"in 1080P, then share '{t}' with {f} on WeChat",
                f"Get the {pe} VIP plan ({p}) paid by the wallet, watch '{t}' episode {n} with the "
                f"quality switched to 1080P, and share '{t}' to {f} over WeChat",
                f"First the VIP {pe} plan ({p}), then episode {n} of '{t}' at 1080P, and finally "
                f"share '{t}' with {f} via WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return (bought_vip(diff, params["plan"])
                + played(diff, params["title_id"], params["episode"])
                + expect_changes(diff, SETTINGS, {f"{SETTINGS}/quality": "1080P"})
                + shared_to_friend(diff, params))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield from buy_plan(ui, params["plan"])
        yield from open_title(ui, params["title"], params["title_id"], inside=True)
        yield from tap_episode(ui, params["episode"])
        yield from ui.scroll_to("q_1080P")
        yield ui.tap("q_1080P")
        yield ui.back()
        yield from share_to_friend(ui, params)


VIP_TEMPLATES: tuple[TaskTemplate, ...] = (BuyVipThenPlay(), VipIfNeeded(), VipBinge())
