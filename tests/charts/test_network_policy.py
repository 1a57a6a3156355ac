"""The NetworkPolicy evaluator (network_policy.py) on hand-written policies, so that what the
chart's tests conclude from it rests on an evaluator known to deny and allow as Kubernetes
specifies. It evaluates policies; nothing here (or anywhere in the tests) enforces them."""

from __future__ import annotations

from typing import Any

import pytest

from .network_policy import Evaluator, Outside, Pod, selects

NAMESPACES = {
    "shop": {"kubernetes.io/metadata.name": "shop", "team": "web"},
    "ops": {"kubernetes.io/metadata.name": "ops", "team": "ops"},
    "kube-system": {"kubernetes.io/metadata.name": "kube-system"},
}
API = Pod("api", "shop", {"app": "api"}, "10.0.0.2", {"http": (8080, "TCP")})
DB = Pod("db", "shop", {"app": "db", "tier": "data"}, "10.0.0.3", {"pg": (5432, "TCP")})
WEB = Pod("web", "shop", {"app": "web"}, "10.0.0.4")
OPS_API = Pod("ops-api", "ops", {"app": "api"}, "10.0.1.2")
DNS = Pod("coredns", "kube-system", {"k8s-app": "kube-dns"}, "10.0.2.10",
          {"dns": (53, "UDP"), "dns-tcp": (53, "TCP")})  # fmt: skip
PUBLIC = Outside("198.51.100.7")


def policy(name: str, spec: dict[str, Any], namespace: str = "shop") -> dict[str, Any]:
    return {"kind": "NetworkPolicy", "metadata": {"name": name, "namespace": namespace},
            "spec": spec}  # fmt: skip


def test_without_policies_everything_is_allowed() -> None:
    evaluator = Evaluator([], NAMESPACES)
    assert evaluator.allows(WEB, DB, 5432)
    assert evaluator.allows(DB, PUBLIC, 443)
    assert not evaluator.isolated(DB, "Ingress")


def test_an_ingress_policy_admits_only_its_peers_on_its_ports_and_leaves_egress_open() -> None:
    db = policy("db", {
        "podSelector": {"matchLabels": {"app": "db"}},
        "policyTypes": ["Ingress"],
        "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "api"}}}],
                     "ports": [{"port": 5432}]}],
    })  # fmt: skip
    evaluator = Evaluator([db], NAMESPACES)
    assert evaluator.allows(API, DB, 5432)
    assert not evaluator.allows(API, DB, 5433)
    assert not evaluator.allows(API, DB, 5432, "UDP")  # protocol defaults to TCP
    assert not evaluator.allows(WEB, DB, 5432)
    assert not evaluator.allows(OPS_API, DB, 5432)  # podSelector alone: the policy's namespace
    assert not evaluator.allows(PUBLIC, DB, 5432)
    assert evaluator.allows(DB, PUBLIC, 443)  # not isolated for egress
    assert evaluator.allows(WEB, API, 8080)  # api is selected by nothing


def test_default_deny_egress_with_dns_allowed_denies_the_rest() -> None:
    deny = policy("deny", {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]})
    dns = policy("dns", {
        "podSelector": {},
        "policyTypes": ["Egress"],
        "egress": [{"to": [{"namespaceSelector": {"matchLabels": {
                        "kubernetes.io/metadata.name": "kube-system"}},
                    "podSelector": {"matchLabels": {"k8s-app": "kube-dns"}}}],
                    "ports": [{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}]}],
    })  # fmt: skip
    evaluator = Evaluator([deny, dns], NAMESPACES)
    assert evaluator.egress_allows(WEB, DNS, 53, "UDP")
    assert evaluator.egress_allows(WEB, DNS, 53, "TCP")
    assert not evaluator.egress_allows(WEB, DNS, 80)
    assert not evaluator.egress_allows(WEB, Outside("8.8.8.8"), 53, "UDP")  # not the DNS pods
    assert not evaluator.egress_allows(WEB, API, 8080)
    assert not evaluator.allows(WEB, API, 8080)  # and api's ingress is denied too
    assert evaluator.isolated(DB, "Ingress")
    assert evaluator.isolated(DB, "Egress")
    assert not evaluator.isolated(OPS_API, "Egress")  # another namespace's pods are untouched


def test_a_connection_needs_the_sources_egress_and_the_destinations_ingress() -> None:
    out = policy(
        "web-out",
        {"podSelector": {"matchLabels": {"app": "web"}}, "policyTypes": ["Egress"], "egress": [{}]},
    )  # egress anywhere
    closed = policy("db-closed", {"podSelector": {"matchLabels": {"app": "db"}},
                                  "policyTypes": ["Ingress"]})  # fmt: skip
    evaluator = Evaluator([out, closed], NAMESPACES)
    assert evaluator.egress_allows(WEB, DB, 5432)
    assert not evaluator.ingress_allows(WEB, DB, 5432)
    assert not evaluator.allows(WEB, DB, 5432)
    assert evaluator.allows(WEB, PUBLIC, 443)


def test_ip_blocks_excepts_namespace_selectors_and_named_ports() -> None:
    web = policy("web", {
        "podSelector": {"matchLabels": {"app": "web"}},
        "policyTypes": ["Egress"],
        "egress": [
            {"to": [{"ipBlock": {"cidr": "198.51.100.0/24", "except": ["198.51.100.128/25"]}}],
             "ports": [{"port": 443}]},
            # AND: api pods of namespaces labelled team=ops; and by name, the port called pg.
            {"to": [{"namespaceSelector": {"matchLabels": {"team": "ops"}},
                     "podSelector": {"matchLabels": {"app": "api"}}}]},
            {"to": [{"podSelector": {"matchExpressions": [
                {"key": "tier", "operator": "In", "values": ["data"]}]}}],
             "ports": [{"port": "pg"}]},
        ],
    })  # fmt: skip
    evaluator = Evaluator([web], NAMESPACES)
    assert evaluator.egress_allows(WEB, PUBLIC, 443)
    assert not evaluator.egress_allows(WEB, PUBLIC, 80)
    assert not evaluator.egress_allows(WEB, Outside("198.51.100.200"), 443)  # excepted
    assert not evaluator.egress_allows(WEB, Outside("203.0.113.1"), 443)
    assert evaluator.egress_allows(WEB, OPS_API, 9999)  # no ports: any port
    assert not evaluator.egress_allows(WEB, API, 8080)  # api, but not in a team=ops namespace
    assert evaluator.egress_allows(WEB, DB, 5432)  # `pg` is db's 5432/TCP
    assert not evaluator.egress_allows(WEB, DB, 5433)
    assert not evaluator.egress_allows(WEB, Outside("10.0.0.3"), 5432)  # a name needs a pod


def test_policy_types_default_as_the_api_server_defaults_them() -> None:
    implicit = policy(
        "implicit",
        {
            "podSelector": {"matchLabels": {"app": "web"}},
            "egress": [{"ports": [{"port": 53, "protocol": "UDP"}]}],
        },
    )
    evaluator = Evaluator([implicit], NAMESPACES)
    assert evaluator.policy_types(implicit["spec"]) == ["Ingress", "Egress"]
    assert evaluator.isolated(WEB, "Ingress")
    assert evaluator.isolated(WEB, "Egress")
    assert evaluator.egress_allows(WEB, DNS, 53, "UDP")
    assert not evaluator.egress_allows(WEB, DNS, 53, "TCP")
    ingress_only = {"podSelector": {}}
    assert Evaluator.policy_types(ingress_only) == ["Ingress"]


@pytest.mark.parametrize(
    ("selector", "labels", "selected"),
    [
        ({}, {"a": "1"}, True),
        ({"matchLabels": {"a": "1"}}, {"a": "1", "b": "2"}, True),
        ({"matchLabels": {"a": "1"}}, {"a": "2"}, False),
        ({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["1"]}]}, {}, True),
        ({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["1"]}]},
         {"a": "1"}, False),
        ({"matchExpressions": [{"key": "a", "operator": "Exists"}]}, {"b": "1"}, False),
        ({"matchExpressions": [{"key": "a", "operator": "DoesNotExist"}]}, {"b": "1"}, True),
        ({"matchExpressions": [{"key": "a", "operator": "In", "values": ["1", "2"]}]},
         {"a": "2"}, True),
    ],
)  # fmt: skip
def test_label_selectors(selector: dict, labels: dict, selected: bool) -> None:
    assert selects(selector, labels) is selected
