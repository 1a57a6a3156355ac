"""A real Prometheus (Debian package `prometheus`) scraping targets that can be added while it runs.

Targets live in a file-based service-discovery file per job, so the local stack can add a
service's `/metrics` endpoint as soon as the service is up, without restarting Prometheus.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from phonebuddy.testing.ports import free_port
from phonebuddy.testing.process import ManagedProcess, find_binary


class PrometheusQueryError(RuntimeError):
    def __init__(self, query: str, reason: str) -> None:
        self.query = query
        self.reason = reason
        super().__init__(f"Prometheus query {query!r} failed: {reason}")


class PrometheusServer(ManagedProcess):
    name = "prometheus"

    def __init__(
        self,
        *,
        scrape_interval_s: float = 1.0,
        host: str = "127.0.0.1",
        port: int | None = None,
        work_dir: Path | None = None,
        rule_files: Sequence[Path] = (),
    ) -> None:
        super().__init__(work_dir=work_dir)
        self.scrape_interval_s = scrape_interval_s
        self.rule_files = [str(path) for path in rule_files]
        self.host = host
        self.port = port or free_port(host)
        self.targets_dir = self.work_dir / "targets"
        self.targets_dir.mkdir(exist_ok=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def command(self) -> Sequence[str]:
        interval = f"{int(self.scrape_interval_s * 1000)}ms"
        config = {
            "global": {"scrape_interval": interval, "evaluation_interval": interval},
            "rule_files": self.rule_files,
            "scrape_configs": [
                {
                    "job_name": "prometheus",
                    "static_configs": [{"targets": [f"{self.host}:{self.port}"]}],
                },
                {
                    # One file per job under targets/; the file name is the job label.
                    "job_name": "phonebuddy",
                    "file_sd_configs": [
                        {"files": [str(self.targets_dir / "*.json")], "refresh_interval": "1s"}
                    ],
                },
            ],
        }
        config_path = self.work_dir / "prometheus.yml"
        # JSON is valid YAML.
        config_path.write_text(json.dumps(config, indent=2))
        return [
            find_binary("prometheus"),
            f"--config.file={config_path}",
            f"--storage.tsdb.path={self.work_dir / 'data'}",
            f"--web.listen-address={self.host}:{self.port}",
            "--log.level=warn",
        ]

    def is_ready(self) -> bool:
        try:
            return httpx.get(f"{self.url}/-/ready", timeout=0.5).status_code == 200
        except httpx.HTTPError:
            return False

    def set_targets(self, job: str, targets: Sequence[str], **labels: str) -> None:
        """Scrape `targets` (host:port, path /metrics) as job `job`; replaces the job's targets."""
        groups = [{"targets": list(targets), "labels": {"job": job, **labels}}] if targets else []
        path = self.targets_dir / f"{job}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(groups))
        os.replace(tmp, path)

    def query(self, promql: str) -> list[dict[str, Any]]:
        """Instant query; returns the result vector."""
        response = httpx.get(f"{self.url}/api/v1/query", params={"query": promql}, timeout=5)
        body = response.json()
        if body.get("status") != "success":
            raise PrometheusQueryError(promql, body.get("error", response.text))
        return list(body["data"]["result"])

    def wait_for(self, promql: str, *, timeout_s: float = 30.0) -> list[dict[str, Any]]:
        """Poll until `promql` returns a non-empty result; raises TimeoutError with the query."""
        deadline = time.monotonic() + timeout_s
        while True:
            result = self.query(promql)
            if result:
                return result
            if time.monotonic() > deadline:
                raise TimeoutError(f"no result for {promql!r} within {timeout_s} s")
            time.sleep(0.2)
