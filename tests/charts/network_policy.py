"""NetworkPolicies evaluated with Kubernetes' semantics (networking.k8s.io/v1), for the chart's
tests. This EVALUATES policies — it says what a conforming CNI would let through — it does not
ENFORCE anything: the test cluster's CNI is loopback only (pods on the host's network) and no
CNI that enforces NetworkPolicies can be installed here, so no packet is ever dropped by them.

The rules, as the API reference states them:
- A policy applies to the pods of its own namespace that its `podSelector` selects (`{}`: all).
- `policyTypes` absent: Ingress, plus Egress when the policy has egress rules (the API
  server's defaulting). A pod is isolated for a direction when any policy that selects it lists
  that direction; an isolated pod allows in that direction only what some rule of some policy
  selecting it allows (policies add up, none subtracts). A connection needs the source's egress
  and the destination's ingress.
- A rule without peers (`from`/`to` absent or empty) matches every peer; without `ports`, every
  port. A peer is `ipBlock` (cidr minus except), or `podSelector` (pods of the policy's namespace),
  `namespaceSelector` (every pod of the selected namespaces), or both (the selected pods of the
  selected namespaces). ipBlock is matched against any address, a pod's too (what most CNIs do;
  the API leaves pod addresses to the implementation); selectors never match outside addresses.
- A port is a number (with `endPort`, a range) or a container port's name, resolved in the
  destination pod (never matching an outside address); `protocol` defaults to TCP.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Selector = Mapping[str, Any]


def selects(selector: Selector | None, labels: Mapping[str, str]) -> bool:
    """A label selector (matchLabels, matchExpressions In/NotIn/Exists/DoesNotExist) against
    labels; an empty selector selects everything."""
    selector = selector or {}
    if any(labels.get(key) != value for key, value in (selector.get("matchLabels") or {}).items()):
        return False
    for expression in selector.get("matchExpressions") or []:
        key, operator = expression["key"], expression["operator"]
        values = expression.get("values") or []
        if operator == "In" and (key not in labels or labels[key] not in values):
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
        if operator not in ("In", "NotIn", "Exists", "DoesNotExist"):
            raise ValueError(f"unknown selector operator {operator!r}")
    return True


@dataclass(frozen=True)
class Pod:
    """A pod as policies see it: namespace, labels, address and named container ports."""

    name: str
    namespace: str
    labels: Mapping[str, str]
    ip: str
    named_ports: Mapping[str, tuple[int, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, pod: Mapping[str, Any], *, namespace: str | None = None,
           ip: str | None = None) -> Pod:  # fmt: skip
        """From a Pod object as the API server stores it, or from a pod template (then give the
        namespace and an address)."""
        metadata = pod["metadata"]
        ports = {
            port["name"]: (int(port["containerPort"]), port.get("protocol", "TCP"))
            for container in pod["spec"].get("containers", [])
            for port in container.get("ports") or []
            if port.get("name")
        }
        return cls(
            name=metadata.get("name") or metadata.get("generateName") or "pod",
            namespace=namespace or metadata["namespace"],
            labels=dict(metadata.get("labels") or {}),
            ip=ip or pod.get("status", {}).get("podIP", ""),
            named_ports=ports,
        )


@dataclass(frozen=True)
class Outside:
    """An address outside the cluster's pods (a public host, the API server's endpoint)."""

    ip: str
    name: str = ""


Endpoint = Pod | Outside


class Evaluator:
    """NetworkPolicies (dicts, as rendered or as stored) and namespaces' labels."""

    def __init__(self, policies: Iterable[Mapping[str, Any]],
                 namespaces: Mapping[str, Mapping[str, str]], *,
                 default_namespace: str = "default") -> None:  # fmt: skip
        self.namespaces = {name: dict(labels) for name, labels in namespaces.items()}
        self.policies = []
        for policy in policies:
            namespace = policy["metadata"].get("namespace") or default_namespace
            self.policies.append((namespace, policy["spec"]))

    @staticmethod
    def policy_types(spec: Mapping[str, Any]) -> list[str]:
        if spec.get("policyTypes"):
            return list(spec["policyTypes"])
        return ["Ingress", *(["Egress"] if spec.get("egress") else [])]

    def _selecting(self, pod: Pod, direction: str) -> list[tuple[str, Mapping[str, Any]]]:
        return [
            (namespace, spec)
            for namespace, spec in self.policies
            if namespace == pod.namespace
            and selects(spec.get("podSelector"), pod.labels)
            and direction in self.policy_types(spec)
        ]

    def isolated(self, pod: Pod, direction: str) -> bool:
        """Whether some policy isolates the pod for `direction` (Ingress or Egress)."""
        return bool(self._selecting(pod, direction))

    def _peer_matches(self, peer: Mapping[str, Any], namespace: str, other: Endpoint) -> bool:
        if "ipBlock" in peer:
            block = peer["ipBlock"]
            if not other.ip:
                return False
            address = ipaddress.ip_address(other.ip)
            inside = address in ipaddress.ip_network(block["cidr"], strict=False)
            excepted = any(address in ipaddress.ip_network(e, strict=False)
                           for e in block.get("except") or [])  # fmt: skip
            return inside and not excepted
        if isinstance(other, Outside):
            return False
        if "namespaceSelector" in peer:
            labels = self.namespaces.get(other.namespace, {})
            if not selects(peer["namespaceSelector"], labels):
                return False
        elif other.namespace != namespace:
            return False
        return "podSelector" not in peer or selects(peer["podSelector"], other.labels)

    @staticmethod
    def _port_matches(entry: Mapping[str, Any], destination: Endpoint, port: int,
                      protocol: str) -> bool:  # fmt: skip
        if entry.get("protocol", "TCP") != protocol:
            return False
        wanted = entry.get("port")
        if wanted is None:
            return True
        if isinstance(wanted, str) and not wanted.isdigit():
            if not isinstance(destination, Pod) or wanted not in destination.named_ports:
                return False
            return destination.named_ports[wanted] == (port, protocol)
        low = int(wanted)
        high = int(entry.get("endPort", low))
        return low <= port <= high

    def _rule_matches(self, rule: Mapping[str, Any], peers_key: str, namespace: str,
                      other: Endpoint, destination: Endpoint, port: int,
                      protocol: str) -> bool:  # fmt: skip
        peers = rule.get(peers_key) or []
        if peers and not any(self._peer_matches(p, namespace, other) for p in peers):
            return False
        ports = rule.get("ports") or []
        return not ports or any(self._port_matches(e, destination, port, protocol) for e in ports)

    def egress_allows(self, source: Pod, destination: Endpoint, port: int,
                      protocol: str = "TCP") -> bool:  # fmt: skip
        """Whether the source pod's policies let it send to the destination."""
        selecting = self._selecting(source, "Egress")
        if not selecting:
            return True
        return any(
            self._rule_matches(rule, "to", namespace, destination, destination, port, protocol)
            for namespace, spec in selecting
            for rule in spec.get("egress") or []
        )

    def ingress_allows(self, source: Endpoint, destination: Pod, port: int,
                       protocol: str = "TCP") -> bool:  # fmt: skip
        """Whether the destination pod's policies let the source in."""
        selecting = self._selecting(destination, "Ingress")
        if not selecting:
            return True
        return any(
            self._rule_matches(rule, "from", namespace, source, destination, port, protocol)
            for namespace, spec in selecting
            for rule in spec.get("ingress") or []
        )

    def allows(self, source: Endpoint, destination: Endpoint, port: int,
               protocol: str = "TCP") -> bool:  # fmt: skip
        """Whether a connection from source to destination:port is allowed both ways."""
        if isinstance(source, Pod) and not self.egress_allows(source, destination, port, protocol):
            return False
        if isinstance(destination, Pod):
            return self.ingress_allows(source, destination, port, protocol)
        return True
