"""Processes under torchrun: rank, world, device, FSDP2 sharding and the collectives the loop uses.

Without torchrun (no RANK / WORLD_SIZE in the environment) the job runs as one process and every
collective is the identity. Under torchrun the backend is NCCL on GPU and gloo on CPU; the model's
decoder layers and then the whole model are sharded with FSDP2's `fully_shard`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist
from torch import nn


@dataclass(frozen=True, slots=True)
class World:
    rank: int
    size: int
    local_rank: int
    device: torch.device

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def distributed(self) -> bool:
        return self.size > 1


def init_world() -> World:
    size = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
    if size > 1 and not dist.is_initialized():
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    return World(rank=rank, size=size, local_rank=local_rank, device=device)


def close_world(world: World) -> None:
    if world.distributed and dist.is_initialized():
        dist.destroy_process_group()


def shard_model(model: nn.Module, world: World) -> nn.Module:
    """FSDP2 units: each decoder layer and vision block, then the base model and the LM head
    (the loss calls these two directly, not the root, so each must gather its own weights),
    then the root. A no-op on one process."""
    if not world.distributed:
        return model
    from torch.distributed.fsdp import fully_shard

    for module in model.modules():
        if type(module).__name__.endswith(("DecoderLayer", "VisionBlock")):
            fully_shard(module)
    base = getattr(model, "model", None)
    if isinstance(base, nn.Module):
        fully_shard(base)
    head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    if isinstance(head, nn.Module):
        fully_shard(head)
    fully_shard(model)
    return model


def all_sum(value: float, world: World) -> float:
    if not world.distributed:
        return value
    tensor = torch.tensor([value], dtype=torch.float64, device=world.device)
    dist.all_reduce(tensor)
    return float(tensor.item())


def any_true(flag: bool, world: World) -> bool:
    return all_sum(1.0 if flag else 0.0, world) > 0


def barrier(world: World) -> None:
    if world.distributed:
        dist.barrier()
