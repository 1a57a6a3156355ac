"""The viewer over HTTP (a real uvicorn server on a free port, httpx as the client)."""

from __future__ import annotations

import html
import io
import re
from collections.abc import AsyncIterator
from html.parser import HTMLParser

import httpx
import pytest
from PIL import Image

from phonebuddy.agent import action_text
from phonebuddy.protocol import Frame
from phonebuddy.storage import LocalStore
from phonebuddy.testing import serve_asgi
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.viewer import create_viewer, media_type

SCRIPT_ANSWER = '<script>alert("pwned")</script><b>bold?</b> & done'
EPISODE_LINK = re.compile(r'href="/runs/demo/episodes/([^"?]+)"')


class Elements(HTMLParser):
    """Start tags with their attributes, in document order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def find(self, tag: str, **wanted: str) -> list[dict[str, str | None]]:
        return [
            attrs
            for name, attrs in self.tags
            if name == tag and all(attrs.get(k.rstrip("_")) == v for k, v in wanted.items())
        ]


@pytest.fixture
async def client(stored_demo) -> AsyncIterator[httpx.AsyncClient]:
    root, _ = stored_demo
    app = create_viewer(TrajectoryStore(LocalStore(root)))
    async with serve_asgi(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as http:
        yield http


def listed(page: str) -> list[str]:
    return EPISODE_LINK.findall(page)


async def test_index_lists_runs_with_status_groups_and_success_rate(client):
    response = await client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert 'href="/runs/demo"' in page
    assert "done" in page
    assert "57.1%" in page  # 4 of the 7 counted episodes
    [row] = (await client.get("/api/runs")).json()
    assert row["run_id"] == "demo"
    assert (row["groups_complete"], row["groups_failed"], row["episodes"]) == (5, 1, 7)
    assert row["success_rate"] == round(4 / 7, 4)


async def test_run_page_shows_the_summary_and_every_stored_episode(client, stored_demo):
    _, run = stored_demo
    page = (await client.get("/runs/demo")).text
    assert sorted(listed(page)) == sorted(run.episodes)
    assert "57.1%" in page
    assert "5 / 1 / 0" in page  # groups complete / failed / pending
    for key in ("com.pw.gallery", "cross_app", "real", "sim"):
        assert f"<td>{key}</td>" in page
    assert "not counted" in page  # failed-ok, of the failed group


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"outcome": "success"}, {"notes-ok", "wallet-ok", "cross-ok", "real-ok", "failed-ok"}),
        ({"outcome": "judge_error"}, {"real-err"}),
        ({"outcome": "failure"}, {"notes-miss", "marks"}),
        ({"source": "real"}, {"real-ok", "real-err"}),
        ({"template": "wallet.balance"}, {"wallet-ok", "failed-ok"}),
        ({"app": "com.pw.gallery"}, {"cross-ok"}),
        ({"category": "cross_app"}, {"cross-ok"}),
        ({"source": "sim", "outcome": "success", "app": "com.pw.notes"}, {"notes-ok", "cross-ok"}),
        ({"template": "no.such.template"}, set()),
    ],
)
async def test_filters_select_episodes(client, query, expected):
    page = (await client.get("/runs/demo", params=query)).text
    assert set(listed(page)) == expected
    for name, value in query.items():  # the form shows what is chosen
        if name != "template" or value != "no.such.template":
            assert f'<option value="{value}" selected>' in page
    api = (await client.get("/api/runs/demo", params=query)).json()
    assert {row["episode_id"] for row in api["episodes"]} == expected


async def test_episode_page_escapes_the_raw_answer(client, stored_demo):
    response = await client.get("/runs/demo/episodes/marks")
    assert response.status_code == 200
    page = response.text
    assert "<script" not in page.lower()
    assert html.escape(SCRIPT_ANSWER) in page
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;" in page
    assert "no &lt;tool_call&gt; found in the answer" in page
    assert "script-src" not in response.headers["content-security-policy"]
    assert "default-src 'none'" in response.headers["content-security-policy"]


async def test_episode_page_draws_each_action_on_its_screenshot(client, stored_demo):
    _, run = stored_demo
    episode = run.episodes["marks"]
    elements = Elements((await client.get("/runs/demo/episodes/marks")).text)
    images = [attrs["src"] for attrs in elements.find("img")]
    expected = [f"/frames/{s.observation.frame.sha256}" for s in episode.steps]
    assert episode.final_observation is not None
    assert images == [*expected, f"/frames/{episode.final_observation.frame.sha256}"]
    overlays = elements.find("svg", class_="overlay")
    assert len(overlays) == len(images)
    assert {(o["viewbox"], o["preserveaspectratio"]) for o in overlays} == {
        ("0 0 1000 1000", "none")
    }
    [tap] = elements.find("g", class_="mark mark-click")
    assert (tap["data-x"], tap["data-y"]) == ("500", "300")
    [ellipse] = elements.find("ellipse", class_="tap")
    assert (ellipse["cx"], ellipse["cy"]) == ("500", "300")
    [ring] = elements.find("ellipse", class_="ring")
    assert (ring["cx"], ring["cy"]) == ("250", "750")
    lines = elements.find("line", class_="swipe-line")
    assert [(ln["x1"], ln["y1"], ln["x2"], ln["y2"]) for ln in lines] == [
        ("500", "800", "520", "200"),
        ("800", "500", "200", "500"),  # swipe left: across the middle, right to left
    ]
    assert len(elements.find("polygon", class_="swipe-head")) == 2


async def test_episode_page_shows_the_verdict_and_the_judge_record(client):
    page = (await client.get("/runs/demo/episodes/real-ok")).text
    assert "every rubric item passed" in page
    assert "Judge record" in page
    assert "A note titled &lt;i&gt;rent&lt;/i&gt; exists" in page
    assert page.count('class="badge success">pass<') == 2
    api = (await client.get("/api/runs/demo/episodes/real-ok")).json()
    assert api["judge_record"]["results"][0]["passed"] is True
    assert api["outcome"] == "success"
    assert api["episode"]["episode_id"] == "real-ok"


async def test_verifier_details_and_timings_are_shown(client, stored_demo):
    _, run = stored_demo
    page = (await client.get("/runs/demo/episodes/notes-ok")).text
    episode = run.episodes["notes-ok"]
    assert episode.verdict is not None
    assert "every expectation met" in page
    assert f"{episode.steps[0].timings.env_s:.3f} s" in page
    for step in episode.steps:
        assert step.action is not None
        assert f"<code>{html.escape(action_text(step.action))}</code>" in page
    assert page.count('class="step"') == len(episode.steps)


async def test_frames_are_served_byte_identical_with_their_media_type(client, stored_demo):
    _, run = stored_demo
    sha, data = next(iter(run.frames.items()))
    response = await client.get(f"/frames/{sha}")
    assert response.status_code == 200
    assert response.content == data
    assert response.headers["content-type"] == "image/jpeg"
    assert response.headers["x-content-type-options"] == "nosniff"
    etag = response.headers["etag"]
    again = await client.get(f"/frames/{sha}", headers={"If-None-Match": etag})
    assert again.status_code == 304


@pytest.mark.parametrize("bad", ["abc", "A" * 64, "g" * 64, "0" * 63, "..%2F..%2Fetc"])
async def test_frames_need_a_well_formed_hash(client, bad):
    response = await client.get(f"/frames/{bad}")
    assert response.status_code in (400, 404)
    if len(bad) in (63, 64, 3):
        assert response.status_code == 400
        assert "64 lowercase hex digits" in response.text


async def test_unknown_frames_runs_and_episodes_are_404(client):
    assert (await client.get(f"/frames/{'0' * 64}")).status_code == 404
    missing_run = await client.get("/runs/nope")
    assert missing_run.status_code == 404
    assert "there is no run &#x27;nope&#x27;" in missing_run.text
    assert (await client.get("/runs/demo/episodes/nope")).status_code == 404
    assert (await client.get("/runs/..%2E/episodes/x")).status_code == 404
    api = await client.get("/api/runs/nope")
    assert api.status_code == 404
    assert api.json() == {"detail": "there is no run 'nope' in this store"}


async def test_png_screenshots_are_served_as_png(tmp_path):
    buffer = io.BytesIO()
    Image.new("RGB", (4, 8), "red").save(buffer, format="PNG")
    frame = Frame.from_bytes(buffer.getvalue(), "image/png")
    trajectories = TrajectoryStore(LocalStore(tmp_path))
    await trajectories.put_frame(frame)
    async with serve_asgi(create_viewer(trajectories)) as url, httpx.AsyncClient() as http:
        response = await http.get(f"{url}/frames/{frame.ref.sha256}")
        assert response.headers["content-type"] == "image/png"
        assert response.content == frame.data
        empty = await http.get(f"{url}/")
        assert "No run in this store yet" in empty.text


def test_media_type_comes_from_the_bytes():
    assert media_type(b"\xff\xd8\xff\xe0rest") == "image/jpeg"
    assert media_type(b"\x89PNG\r\n\x1a\nrest") == "image/png"
    assert media_type(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert media_type(b"<html>") == "application/octet-stream"


async def test_episodes_stored_after_a_visit_appear_on_the_next(trajectories, demo_run):
    async with serve_asgi(create_viewer(trajectories)) as url, httpx.AsyncClient() as http:
        before = listed((await http.get(f"{url}/runs/demo")).text)
        extra = demo_run.episodes["notes-ok"].model_copy(update={"episode_id": "late"})
        await trajectories.put_episode(extra)
        after = listed((await http.get(f"{url}/runs/demo")).text)
    assert "late" not in before
    assert sorted(after) == sorted([*before, "late"])
