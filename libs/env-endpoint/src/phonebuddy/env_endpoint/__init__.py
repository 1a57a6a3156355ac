"""phonebuddy.env_endpoint: the env-endpoint kit.

An env service implements an `EnvBackend` (its devices: which can serve a lease, their screens
and locks, and the device verbs reset / observe / act / verify / tidy). `EnvHost` serves the
seven env verbs over it — one `LeaseTable` with TTL reclaim, one verb at a time per device,
lost devices, `EnvMetrics` — and `EnvEndpoint` puts them on NATS with the subjects and error
codes of `phonebuddy.protocol`.
"""

from phonebuddy.env_endpoint.backend import DeviceLostError, EnvBackend
from phonebuddy.env_endpoint.endpoint import EnvEndpoint
from phonebuddy.env_endpoint.host import EnvHost
from phonebuddy.env_endpoint.leases import (
    DeviceAlreadyLeasedError,
    LeaseRecord,
    LeaseTable,
)
from phonebuddy.env_endpoint.metrics import EnvMetrics

__all__ = [
    "DeviceAlreadyLeasedError",
    "DeviceLostError",
    "EnvBackend",
    "EnvEndpoint",
    "EnvHost",
    "EnvMetrics",
    "LeaseRecord",
    "LeaseTable",
]
